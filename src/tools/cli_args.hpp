// Command-line parsing for the spinegpu tool: positional arguments and --flags with or without values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spinegpu::tools {

class CliArgs {
public:
    // Parses argv[first..argc). `value_flags` lists the flags that take a value ("--atlas"); any other "--x" is a
    // switch. A value flag may also be written "--atlas=FILE". Returns nullopt and sets `error` on a value flag
    // without its value, a flag given twice, or a flag that neither list knows.
    static std::optional<CliArgs> parse(int argc, char** argv, int first, const std::vector<std::string>& value_flags,
                                        const std::vector<std::string>& switches, std::string& error);

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
