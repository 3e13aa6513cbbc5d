// Names of things (bones, slots, animations...) kept apart from the data itself: used at load time and by the API,
// never inside the per-frame path, which works on integer indices only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spinegpu {

// Index into one of the skeleton's flat arrays; k_none (-1) means "no such thing".
using Index = std::int32_t;
inline constexpr Index k_none = -1;

// An ordered list of unique names with a hash lookup. Index i is the i-th name added.
class NameTable {
public:
    // Adds `name` at the end and returns its index, or returns k_none when the name is already present.
    Index add(std::string_view name);
    // Returns the index of `name`, adding it first when it is absent (for interning attachment names).
    Index intern(std::string_view name);
    // Returns the index of `name`, or k_none.
    Index find(std::string_view name) const;
    // Returns the name at `index` (precondition: 0 <= index < size()).
    const std::string& operator[](Index index) const { return names_[static_cast<std::size_t>(index)]; }
    std::size_t size() const { return names_.size(); }
    const std::vector<std::string>& names() const { return names_; }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> names_;
    std::unordered_map<std::string, Index, Hash, std::equal_to<>> lookup_;
};

}  // namespace spinegpu
