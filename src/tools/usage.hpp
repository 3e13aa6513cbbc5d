// Every usage text of the spinegpu tool in one place: the overview (`spinegpu help`) and each command's own
// (`spinegpu help COMMAND`, `spinegpu COMMAND --help`, and after a command's usage errors), beside the option names
// each command parses.
#pragma once

#include <string_view>

#include "cli_args.hpp"

namespace spinegpu::tools {

// The overview: each command in a line or two, and where to find the rest.
extern const char* const k_general_usage;

// The full usage of `command` (info, pose, render, bench, demo, view): its forms, every option with its default;
// nullptr for a name that is not a command.
const char* command_usage(std::string_view command);

// The options `command` (info, pose, render, bench, demo, view) parses; nullptr for a name that is not such a command.
const OptionNames* command_options(std::string_view command);

}  // namespace spinegpu::tools
