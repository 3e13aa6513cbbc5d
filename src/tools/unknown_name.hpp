// The message for a name that a skeleton lacks (an animation, a skin), listing the names it has: a user sees what
// "girl" should have been without running `spinegpu info` first (or is pointed to it, past eight names).
#pragma once

#include <string>
#include <string_view>

#include "spinegpu/core/name_table.hpp"

namespace spinegpu::tools {

// `unknown KIND "NAME"`, then the skeleton's `names` of that kind, quoted, in its order: the first eight and how many
// more (which `spinegpu info` lists), or that it has none. `kind` is singular ("skin"); the plural adds an s.
inline std::string unknown_name(std::string_view kind, std::string_view name, const NameTable& names) {
    std::string out = "unknown ";
    out += kind;
    out += " \"";
    out += name;
    out += "\"";
    if (names.size() == 0) return out + " (the skeleton has no " + std::string(kind) + "s)";
    out += " (the skeleton's " + std::string(kind) + (names.size() == 1 ? " is " : "s are ");
    constexpr std::size_t k_listed = 8;
    for (std::size_t i = 0; i < names.size() && i < k_listed; ++i) {
        if (i != 0) out += ", ";
        out += "\"" + names.names()[i] + "\"";
    }
    if (names.size() > k_listed)
        out += " and " + std::to_string(names.size() - k_listed) + " more, which spinegpu info lists";
    return out + ")";
}

}  // namespace spinegpu::tools
