#include "spinegpu/core/result.hpp"

namespace spinegpu {

std::string Error::message() const {
    std::string out = file.empty() ? std::string("<memory>") : file;
    if (!where.empty()) out += ": " + where;
    out += ": " + what;
    return out;
}

Error make_error(std::string file, std::string where, std::string what) {
    return Error{std::move(file), std::move(where), std::move(what), 0};
}

}  // namespace spinegpu
