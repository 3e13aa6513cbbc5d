#include "cli_args.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace spinegpu::tools {

namespace {

bool listed(const std::vector<std::string>& list, std::string_view flag) {
    return std::find(list.begin(), list.end(), flag) != list.end();
}

}  // namespace

std::optional<CliArgs> CliArgs::parse(int argc, char** argv, int first, const OptionNames& options,
                                      std::string& error) {
    CliArgs args;
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            args.positional_.push_back(arg);
            continue;
        }
        std::string flag = arg, value;
        bool inline_value = false;
        if (std::size_t eq = arg.find('='); eq != std::string::npos) {
            flag = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            inline_value = true;
        }
        for (const auto& [given, unused] : args.flags_)
            if (given == flag) {
                error = flag + " is given twice";
                return std::nullopt;
            }
        if (listed(options.values, flag)) {
            if (!inline_value) {
                if (i + 1 >= argc) {
                    error = flag + " needs a value";
                    return std::nullopt;
                }
                // ("--animation --steps 3": an option where the value should be is the value left out.)
                const std::string next = argv[i + 1];
                const std::string next_flag = next.substr(0, next.find('='));
                if (listed(options.values, next_flag) || listed(options.switches, next_flag)) {
                    error = flag + " needs a value (found the option " + next_flag + " in its place)";
                    return std::nullopt;
                }
                value = argv[++i];
            }
            args.flags_.emplace_back(flag, value);
        } else if (listed(options.switches, flag) && !inline_value) {
            args.flags_.emplace_back(flag, "");
        } else {
            error = "unknown option " + arg;
            return std::nullopt;
        }
    }
    return args;
}

bool CliArgs::asks_for_help(int argc, char** argv, int first, const OptionNames& options) {
    for (int i = first; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") return true;
        if (listed(options.values, arg)) ++i;  // its value, whatever it reads
    }
    return false;
}

std::optional<std::string> CliArgs::get(std::string_view flag) const {
    for (auto it = flags_.rbegin(); it != flags_.rend(); ++it)
        if (it->first == flag) return it->second;
    return std::nullopt;
}

bool CliArgs::has(std::string_view flag) const {
    return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f.first == flag; });
}

std::optional<std::uint32_t> CliArgs::whole(std::string_view flag, std::uint32_t low, std::uint32_t high,
                                            std::uint32_t fallback) const {
    return has(flag) ? parse_whole(get(flag), low, high) : fallback;
}

std::optional<double> parse_number(const std::string& text) {
    // from_chars takes plain decimal only: no leading space or '+', no hexadecimal, and all of the text must be used.
    double value = 0;
    const char* end = text.data() + text.size();
    const std::from_chars_result r = std::from_chars(text.data(), end, value);
    if (r.ec != std::errc() || r.ptr != end || !std::isfinite(value)) return std::nullopt;
    return value + 0.0;  // ("-0" is 0: a --dt of -0 would print times of -0)
}

std::optional<std::uint32_t> parse_whole(const std::optional<std::string>& text, std::uint32_t low,
                                         std::uint32_t high) {
    // Digits only ("16", not "0x10", "16.0" or "+16"); ten digits at most, so the sum cannot overflow.
    if (!text || text->empty() || text->size() > 10) return std::nullopt;
    std::uint64_t value = 0;
    for (char ch : *text) {
        if (ch < '0' || ch > '9') return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(ch - '0');
    }
    if (value < low || value > high) return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

}  // namespace spinegpu::tools
