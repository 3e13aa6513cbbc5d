// Where JSON text breaks the grammar, or holds a value a parser must refuse: the place for a parse error, which
// simdjson's DOM parser reports without one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spinegpu {

// How deep JSON values may nest, as for simdjson's DOM parser (its default maximum depth).
inline constexpr std::uint32_t k_json_depth = 1024;

// A place in a text file: line and column, from 1; columns count bytes.
struct TextPlace {
    std::uint32_t line = 1, column = 1;

    // "line L, column C".
    std::string text() const;
};

// `text` without a leading UTF-8 byte order mark (which editors may write and simdjson refuses).
inline std::string_view without_byte_order_mark(std::string_view text) {
    return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
}

// The place of the first byte at which `text` stops being one JSON value (RFC 8259, UTF-8, nested at most `depth`
// deep), or of its end when it ends too soon. Nullopt when it is valid JSON. `text` is what the parser read: a
// caller that skips a byte order mark (without_byte_order_mark) passes the text after it, so that a second one is an
// error here as it is for the parser.
std::optional<TextPlace> json_syntax_error_place(std::string_view text, std::uint32_t depth = k_json_depth);

// The place of the first value in valid JSON `text` that simdjson (3.0.1) refuses: an integer outside [-2^63,
// 2^64 - 1], a number that rounds to an infinite double, a \u escape of a surrogate that is not a high one followed
// by an escaped low one. Nullopt when there is none, or when `text` is not valid JSON. (For numbers of hundreds of
// thousands of digits simdjson's exponent arithmetic saturates and the two may disagree.)
std::optional<TextPlace> json_value_error_place(std::string_view text);

// The place for a JSON parser's failure on `text`: "line L, column C" of json_syntax_error_place, else of
// json_value_error_place, else `fallback` (the parser failed for a reason neither knows).
std::string json_error_place(std::string_view text, std::string fallback);

}  // namespace spinegpu
