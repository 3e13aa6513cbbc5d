// Finding where JSON text breaks the grammar, or holds a value a parser must refuse: see json_syntax.hpp. A
// recursive-descent check over bytes; it only runs after a parser has failed, so it favours plainness over speed.
#include "spinegpu/core/json_syntax.hpp"

#include <algorithm>
#include <charconv>

namespace spinegpu {
namespace {

// Whether the digits of a JSON integer (no sign, no leading zero) name a number greater than `limit`'s.
bool digits_above(std::string_view digits, std::string_view limit) {
    return digits.size() != limit.size() ? digits.size() > limit.size() : digits > limit;
}

// Whether JSON number `number` (valid grammar) lies outside what a parser holding 64-bit integers and doubles can
// hold: an integer outside [-2^63, 2^64 - 1], or a number that rounds to an infinite double. A number too small for
// a double is not: it rounds to zero.
bool beyond_a_double(std::string_view number) {
    const bool negative = number.starts_with('-');
    const std::string_view magnitude = number.substr(negative ? 1 : 0);
    if (magnitude.find_first_of(".eE") == std::string_view::npos)
        return digits_above(magnitude, negative ? "9223372036854775808" : "18446744073709551615");
    double value = 0;
    const std::from_chars_result r = std::from_chars(magnitude.data(), magnitude.data() + magnitude.size(), value);
    if (r.ec != std::errc::result_out_of_range) return false;
    // Out of range, too large or too small: the power of ten of the first significant digit tells which.
    const std::size_t exponent_at = magnitude.find_first_of("eE");
    const std::string_view mantissa = magnitude.substr(0, exponent_at);
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_of("123456789");
    if (first == std::string_view::npos) return false;  // zero
    long long power = first < point ? static_cast<long long>(point - first) - 1
                                    : -static_cast<long long>(first - point);
    if (exponent_at != std::string_view::npos) {
        std::string_view e = magnitude.substr(exponent_at + 1);
        const bool down = e.starts_with('-');
        if (e.starts_with('-') || e.starts_with('+')) e.remove_prefix(1);
        long long written = 0;
        for (char c : e) written = std::min(written * 10 + (c - '0'), 1'000'000'000'000LL);
        power += down ? -written : written;
    }
    return power > 0;
}

class SyntaxCheck {
public:
    // With `values`, the check also stops at values a parser must refuse (see json_value_error_place).
    SyntaxCheck(std::string_view text, std::uint32_t depth, bool values = false)
        : text_(text), depth_left_(depth), values_(values) {}

    // The offset of the first byte that breaks the grammar (text size: it ended too soon), or nullopt.
    std::optional<std::size_t> run() {
        pos_ = 0;
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
        const std::size_t start = pos_;
        if (!number_grammar()) return false;
        if (values_ && beyond_a_double(text_.substr(start, pos_ - start))) {
            pos_ = start;
            return false;
        }
        return true;
    }

    bool number_grammar() {
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

    // Reads the 'u' of an escape at pos_ and its four hexadecimal digits: the UTF-16 unit they give, or nullopt at
    // the first byte that is not one.
    std::optional<unsigned> unicode_escape() {
        ++pos_;
        unsigned unit = 0;
        for (int k = 0; k < 4; ++k, ++pos_) {
            if (at_end()) return std::nullopt;
            const unsigned char h = peek();
            if (h >= '0' && h <= '9') unit = unit * 16 + (h - '0');
            else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f') unit = unit * 16 + ((h | 0x20) - 'a' + 10);
            else return std::nullopt;
        }
        return unit;
    }

    // Escaped unit `unit` (just read) is no surrogate, or a high one followed by an escaped low one, which is then
    // read too: a lone surrogate has no UTF-8 form.
    bool surrogates_paired(unsigned unit) {
        if (unit >= 0xDC00 && unit <= 0xDFFF) return false;
        if (unit < 0xD800 || unit > 0xDBFF) return true;
        if (text_.substr(pos_, 2) != "\\u") return false;
        ++pos_;
        const std::optional<unsigned> low = unicode_escape();
        return low && *low >= 0xDC00 && *low <= 0xDFFF;
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
                    const std::size_t escape = pos_ - 1;
                    const std::optional<unsigned> unit = unicode_escape();
                    if (!unit) return false;
                    if (values_ && !surrogates_paired(*unit)) {
                        pos_ = escape;
                        return false;
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
    bool values_;
};

// "line L, column C" of byte `offset` of `text`. A line ends at LF, CR LF or a lone CR, as editors count them.
TextPlace place_at(std::string_view text, std::size_t offset) {
    TextPlace place;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const bool cr_alone = text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n');
        if (text[i] == '\n' || cr_alone) {
            ++place.line;
            place.column = 1;
        } else {
            ++place.column;
        }
    }
    return place;
}

}  // namespace

std::string TextPlace::text() const { return "line " + std::to_string(line) + ", column " + std::to_string(column); }

std::optional<TextPlace> json_syntax_error_place(std::string_view text, std::uint32_t depth) {
    const std::optional<std::size_t> offset = SyntaxCheck(text, depth).run();
    if (!offset) return std::nullopt;
    return place_at(text, *offset);
}

std::optional<TextPlace> json_value_error_place(std::string_view text) {
    if (SyntaxCheck(text, k_json_depth).run()) return std::nullopt;
    const std::optional<std::size_t> offset = SyntaxCheck(text, k_json_depth, true).run();
    if (!offset) return std::nullopt;
    return place_at(text, *offset);
}

std::string json_error_place(std::string_view text, std::string fallback) {
    // The grammar check first: its place is the first broken byte even where a refused value comes earlier.
    std::optional<std::size_t> offset = SyntaxCheck(text, k_json_depth).run();
    if (!offset) offset = SyntaxCheck(text, k_json_depth, true).run();
    return offset ? place_at(text, *offset).text() : std::move(fallback);
}

}  // namespace spinegpu
