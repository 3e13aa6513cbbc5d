// Finding where JSON text breaks the grammar: see json_syntax.hpp. A recursive-descent check over bytes; it only
// runs after a parser has failed, so it favours plainness over speed.
#include "spinegpu/core/json_syntax.hpp"

namespace spinegpu {
namespace {

class SyntaxCheck {
public:
    SyntaxCheck(std::string_view text, std::uint32_t depth) : text_(text), depth_left_(depth) {}

    // The offset of the first byte that breaks the grammar (text size: it ended too soon), or nullopt.
    std::optional<std::size_t> run() {
        pos_ = text_.size() - without_byte_order_mark(text_).size();
        if (!value()) return pos_;
        space();
        if (pos_ != text_.size()) return pos_;
        return std::nullopt;
    }

private:
    bool at_end() const { return pos_ >= text_.size(); }
    unsigned char peek() const { return static_cast<unsigned char>(text_[pos_]); }

    void space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }

    bool literal(std::string_view word) {
        for (char c : word) {
            if (at_end() || text_[pos_] != c) return false;
            ++pos_;
        }
        return true;
    }

    bool digits() {
        if (at_end() || peek() < '0' || peek() > '9') return false;
        while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
        return true;
    }

    bool number() {
        if (peek() == '-') ++pos_;
        if (!at_end() && peek() == '0') {
            ++pos_;
        } else if (!digits()) {
            return false;
        }
        if (!at_end() && peek() == '.') {
            ++pos_;
            if (!digits()) return false;
        }
        if (!at_end() && (peek() == 'e' || peek() == 'E')) {
            ++pos_;
            if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
            if (!digits()) return false;
        }
        return true;
    }

    // One UTF-8 sequence of two to four bytes starting at pos_ (shortest form, no surrogates, at most U+10FFFF).
    bool utf8() {
        const unsigned char lead = peek();
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) length = 2;
        else if (lead >= 0xE0 && lead <= 0xEF) length = 3;
        else if (lead >= 0xF0 && lead <= 0xF4) length = 4;
        else return false;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
        ++pos_;
        for (std::size_t k = 1; k < length; ++k) {
            if (at_end() || peek() < low || peek() > high) return false;
            low = 0x80;
            high = 0xBF;
            ++pos_;
        }
        return true;
    }

    bool string() {
        ++pos_;  // the opening quote
        while (!at_end()) {
            const unsigned char c = peek();
            if (c == '"') {
                ++pos_;
                return true;
            }
            if (c < 0x20) return false;
            if (c == '\\') {
                ++pos_;
                if (at_end()) return false;
                const char e = text_[pos_];
                if (e == 'u') {
                    ++pos_;
                    for (int k = 0; k < 4; ++k, ++pos_) {
                        if (at_end()) return false;
                        const unsigned char h = peek();
                        const bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
                        if (!hex) return false;
                    }
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                           e == 't') {
                    ++pos_;
                } else {
                    return false;
                }
            } else if (c < 0x80) {
                ++pos_;
            } else if (!utf8()) {
                return false;
            }
        }
        return false;
    }

    // `open` was just read: the members or elements up to the closing bracket.
    bool container(bool object) {
        if (depth_left_ == 0) return false;
        --depth_left_;
        ++pos_;
        space();
        const char close = object ? '}' : ']';
        if (!at_end() && text_[pos_] == close) {
            ++pos_;
            ++depth_left_;
            return true;
        }
        for (;;) {
            if (object) {
                space();
                if (at_end() || peek() != '"' || !string()) return false;
                space();
                if (at_end() || peek() != ':') return false;
                ++pos_;
            }
            if (!value()) return false;
            space();
            if (at_end()) return false;
            if (text_[pos_] == close) {
                ++pos_;
                ++depth_left_;
                return true;
            }
            if (text_[pos_] != ',') return false;
            ++pos_;
        }
    }

    bool value() {
        space();
        if (at_end()) return false;
        switch (text_[pos_]) {
            case '{': return container(true);
            case '[': return container(false);
            case '"': return string();
            case 't': return literal("true");
            case 'f': return literal("false");
            case 'n': return literal("null");
            default: return number();
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::uint32_t depth_left_;
};

}  // namespace

std::string TextPlace::text() const { return "line " + std::to_string(line) + ", column " + std::to_string(column); }

std::optional<TextPlace> json_syntax_error_place(std::string_view text, std::uint32_t depth) {
    const std::optional<std::size_t> offset = SyntaxCheck(text, depth).run();
    if (!offset) return std::nullopt;
    TextPlace place;
    for (std::size_t i = 0; i < *offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++place.line;
            place.column = 1;
        } else {
            ++place.column;
        }
    }
    return place;
}

std::string json_error_place(std::string_view text, std::string fallback) {
    const std::optional<TextPlace> place = json_syntax_error_place(text);
    return place ? place->text() : std::move(fallback);
}

}  // namespace spinegpu
