// Where JSON text breaks the grammar: the place for a parse error, which simdjson's DOM parser reports without one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spinegpu {

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
// deep; a leading byte order mark is skipped), or of its end when it ends too soon. Nullopt when it is valid JSON.
std::optional<TextPlace> json_syntax_error_place(std::string_view text, std::uint32_t depth = 1024);

// The place for a JSON parser's failure on `text`: json_syntax_error_place's "line L, column C", else `fallback`
// (the parser failed on valid JSON: a number past 64 bits, a lone surrogate escape...).
std::string json_error_place(std::string_view text, std::string fallback);

}  // namespace spinegpu
