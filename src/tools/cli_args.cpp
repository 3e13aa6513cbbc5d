#include "cli_args.hpp"

#include <algorithm>

namespace spinegpu::tools {

std::optional<CliArgs> CliArgs::parse(int argc, char** argv, int first, const std::vector<std::string>& value_flags,
                                      const std::vector<std::string>& switches, std::string& error) {
    CliArgs args;
    auto known = [](const std::vector<std::string>& list, const std::string& flag) {
        return std::find(list.begin(), list.end(), flag) != list.end();
    };
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
        if (known(value_flags, flag)) {
            if (!inline_value) {
                if (i + 1 >= argc) {
                    error = flag + " needs a value";
                    return std::nullopt;
                }
                value = argv[++i];
            }
            args.flags_.emplace_back(flag, value);
        } else if (known(switches, flag) && !inline_value) {
            args.flags_.emplace_back(flag, "");
        } else {
            error = "unknown option " + arg;
            return std::nullopt;
        }
    }
    return args;
}

std::optional<std::string> CliArgs::get(std::string_view flag) const {
    for (auto it = flags_.rbegin(); it != flags_.rend(); ++it)
        if (it->first == flag) return it->second;
    return std::nullopt;
}

bool CliArgs::has(std::string_view flag) const {
    return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f.first == flag; });
}

}  // namespace spinegpu::tools
