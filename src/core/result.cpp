#include "spinegpu/core/result.hpp"

namespace spinegpu {

std::string Error::message() const {
    std::string text = file.empty() ? std::string("<memory>") : file;
    if (!where.empty()) text += ": " + where;
    text += ": " + what;
    // One line, and nothing a terminal would act on: control bytes (which names read from a corrupt file may
    // hold), and the C1 controls U+0080..U+009F in UTF-8 (C2 80..C2 9F), are written as \xNN.
    std::string out;
    out.reserve(text.size());
    auto escape = [&out](unsigned char byte) {
        const char* const digits = "0123456789abcdef";
        out += "\\x";
        out += digits[byte >> 4];
        out += digits[byte & 15];
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (byte == 0xC2 && next >= 0x80 && next <= 0x9F) {
            escape(byte);
            escape(next);
            ++i;
        } else if (byte < 0x20 || byte == 0x7f) {
            escape(byte);
        } else {
            out += text[i];
        }
    }
    return out;
}

Error make_error(std::string file, std::string where, std::string what) {
    return Error{std::move(file), std::move(where), std::move(what), 0};
}

}  // namespace spinegpu
