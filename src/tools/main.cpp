// spinegpu: inspect, pose, render and benchmark Spine 4.2 skeletons (see README.md and DESIGN.md).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <string_view>

#include "commands.hpp"
#include "usage.hpp"

namespace {

using spinegpu::tools::CliArgs;
using spinegpu::tools::command_options;
using spinegpu::tools::command_usage;
using spinegpu::tools::k_general_usage;
using spinegpu::tools::OptionNames;

// True for the name of a command (or --version).
bool is_command(std::string_view name) {
    for (const char* known : {"info", "pose", "render", "bench", "demo", "view", "help", "version", "--version"})
        if (name == known) return true;
    return false;
}

// A usage error for an argument that a command without options was given.
int unexpected(const char* argument) {
    std::fprintf(stderr, "spinegpu: unexpected argument \"%s\"\n\n%s", argument, k_general_usage);
    return 2;
}

// Runs one command.
int run(int argc, char** argv) {
    std::string_view command = argv[1];
    // Help wherever it is asked for: `help COMMAND` and `COMMAND --help` print that command's every option.
    if (command == "help" || command == "--help" || command == "-h") {
        if (argc > 3) return unexpected(argv[3]);
        const char* text = argc == 3 ? command_usage(argv[2]) : k_general_usage;
        if (!text && is_command(argv[2])) text = k_general_usage;  // help and version have no options
        if (!text) {
            std::fprintf(stderr, "spinegpu help: unknown command \"%s\"\n\n%s", argv[2], k_general_usage);
            return 2;
        }
        std::fputs(text, stdout);
        return 0;
    }
    // `COMMAND ... --help`, where --help (or -h) is not an option's value: `pose --skin -h` names a skin.
    static const OptionNames no_options;
    const OptionNames* options = command_options(command);
    if (is_command(command) && CliArgs::asks_for_help(argc, argv, 2, options ? *options : no_options)) {
        const char* text = command_usage(command);
        std::fputs(text ? text : k_general_usage, stdout);
        return 0;
    }
    if (command == "version" || command == "--version") {
        if (argc > 2) return unexpected(argv[2]);
        std::printf("spinegpu %s\n", SPINEGPU_VERSION);
        return 0;
    }
    if (command == "info") return spinegpu::tools::run_info(argc, argv);
    if (command == "pose") return spinegpu::tools::run_pose(argc, argv);
    if (command == "render") return spinegpu::tools::run_render(argc, argv);
    if (command == "demo") return spinegpu::tools::run_demo(argc, argv);
    if (command == "bench") return spinegpu::tools::run_bench(argc, argv);
    if (command == "view") return spinegpu::tools::run_view(argc, argv);
    std::fprintf(stderr, "spinegpu: unknown command \"%s\"\n\n%s", argv[1], k_general_usage);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fputs(k_general_usage, stderr);
        return 2;
    }
    int code = 1;
    try {
        code = run(argc, argv);
    } catch (const std::bad_alloc&) {
        // (Sizes that users give, such as a crowd's, are bounded, but not by this machine's memory.)
        std::fprintf(stderr, "spinegpu %s: out of memory\n", argv[1]);
    }
    // Output lost on the way (a full disk, a closed standard output) fails a command that succeeded otherwise: a
    // bench's rows cut short must not pass for whole ones. (A pose dump stops at its first line lost.)
    errno = 0;
    if (code == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout))) {
        std::fprintf(stderr, "spinegpu %s: could not write the standard output%s%s\n", argv[1], errno != 0 ? ": " : "",
                     errno != 0 ? std::strerror(errno) : "");
        return 1;
    }
    return code;
}
