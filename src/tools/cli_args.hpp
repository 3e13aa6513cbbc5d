// Command-line parsing for the spinegpu tool: positional arguments and --flags with or without values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinegpu::tools {

// The options one command knows: those that take a value ("--atlas") and the switches ("--json").
struct OptionNames {
    std::vector<std::string> values;
    std::vector<std::string> switches;
};

class CliArgs {
public:
    // Parses argv[first..argc) against `options`. A value flag may also be written "--atlas=FILE". Returns nullopt
    // and sets `error` on a value flag without its value, a flag given twice, or a flag that `options` does not know.
    static std::optional<CliArgs> parse(int argc, char** argv, int first, const OptionNames& options,
                                        std::string& error);
    // True when "--help" or "-h" stands among argv[first..argc) where an option may stand: not as the value of one
    // of `options.values` ("--skin -h" names a skin). Unknown flags count as switches, so help wins over them.
    static bool asks_for_help(int argc, char** argv, int first, const OptionNames& options);

    const std::vector<std::string>& positional() const { return positional_; }
    // The value of a value flag, if given.
    std::optional<std::string> get(std::string_view flag) const;
    bool has(std::string_view flag) const;
    // The whole number that value flag `flag` gives (see parse_whole), `fallback` when it is not given; nullopt when
    // its value is not a whole number from `low` to `high`.
    std::optional<std::uint32_t> whole(std::string_view flag, std::uint32_t low, std::uint32_t high,
                                       std::uint32_t fallback) const;

private:
    std::vector<std::string> positional_;
    std::vector<std::pair<std::string, std::string>> flags_;
};

// A whole option value as a finite decimal number ("0.5", "-2", "1e-3"); nullopt for anything else ("0x10", " 1").
std::optional<double> parse_number(const std::string& text);

// A whole number written in decimal digits alone, from `low` to `high`; nullopt for anything else ("0x10", "5.0",
// "1e3"), or when `text` is absent.
std::optional<std::uint32_t> parse_whole(const std::optional<std::string>& text, std::uint32_t low,
                                         std::uint32_t high);

}  // namespace spinegpu::tools
