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

// The place of the first byte at which `text` stops being one JSON value (RFC 8259, UTF-8, nested at most `depth`
// deep; a leading byte order mark is skipped), or of its end when it ends too soon. Nullopt when it is valid JSON.
std::optional<TextPlace> json_syntax_error_place(std::string_view text, std::uint32_t depth = 1024);

}  // namespace spinegpu
