// libFuzzer target: the places of JSON errors agree with the parser the loaders use. Where simdjson accepts a text,
// neither json_syntax_error_place nor json_value_error_place finds an error in it; where simdjson refuses it, one of
// them names a place (so the error message names the line and column, not a fallback). Any disagreement traps.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spinegpu/core/json_syntax.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text =
        spinegpu::without_byte_order_mark(std::string_view(reinterpret_cast<const char*>(data), size));
    static simdjson::dom::parser parser;
    simdjson::dom::element root;
    const bool accepted = parser.parse(simdjson::padded_string(text)).get(root) == simdjson::SUCCESS;
    const bool syntax_error = spinegpu::json_syntax_error_place(text).has_value();
    const bool value_error = spinegpu::json_value_error_place(text).has_value();
    if (accepted == (syntax_error || value_error)) __builtin_trap();
    return 0;
}
