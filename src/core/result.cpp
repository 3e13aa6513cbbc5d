#include "spinegpu/core/result.hpp"

namespace spinegpu {

std::string Error::message() const {
    std::string text = file.empty() ? std::string("<memory>") : file;
    if (!where.empty()) text += ": " + where;
    text += ": " + what;
    // One line, and nothing a terminal would act on: control bytes (which names read from a corrupt file may
    // hold) are written as \xNN.
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            out += c;
            continue;
        }
        const char* const digits = "0123456789abcdef";
        out += "\\x";
        out += digits[byte >> 4];
        out += digits[byte & 15];
    }
    return out;
}

Error make_error(std::string file, std::string where, std::string what) {
    return Error{std::move(file), std::move(where), std::move(what), 0};
}

}  // namespace spinegpu
