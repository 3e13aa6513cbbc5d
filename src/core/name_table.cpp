#include "spinegpu/core/name_table.hpp"

namespace spinegpu {

Index NameTable::add(std::string_view name) {
    if (lookup_.find(name) != lookup_.end()) return k_none;
    Index index = static_cast<Index>(names_.size());
    names_.emplace_back(name);
    lookup_.emplace(std::string(name), index);
    return index;
}

Index NameTable::intern(std::string_view name) {
    Index found = find(name);
    return found != k_none ? found : add(name);
}

Index NameTable::find(std::string_view name) const {
    auto it = lookup_.find(name);
    return it == lookup_.end() ? k_none : it->second;
}

}  // namespace spinegpu
