// json_syntax_error_place: valid JSON has no error place; broken JSON gets the line and column of the first byte
// that breaks the grammar (or of the end, when the text ends too soon). json_value_error_place: the first number or
// escape of valid JSON that the parser refuses. json_error_place: the two in turn, else the fallback.
#include <gtest/gtest.h>

#include <string>

#include "spinegpu/core/json_syntax.hpp"

namespace spinegpu {
namespace {

// "line L, column C" of the error in `text`, or "valid".
std::string place_of(std::string_view text, std::uint32_t depth = k_json_depth) {
    const std::optional<TextPlace> place = json_syntax_error_place(text, depth);
    return place ? place->text() : "valid";
}

TEST(JsonSyntax, valid_documents_have_no_error_place) {
    for (const char* text : {"{}", " [ ] ", "0", "-0.5e+10", "\"\\u00e9\\n\"", "{\"a\": [1, 2.5, true]}",
                             "{\"caf\xC3\xA9\": \"\xF0\x9F\x98\x80\", \"n\": null, \"f\": false}"})
        EXPECT_EQ(place_of(text), "valid") << text;
}

TEST(JsonSyntax, names_the_line_and_column_of_the_first_broken_byte) {
    EXPECT_EQ(place_of(""), "line 1, column 1");
    EXPECT_EQ(place_of("{\"a\": 1,\n \"b\" 2}"), "line 2, column 6");   // the missing colon
    EXPECT_EQ(place_of("{\"a\": 1,\r\n \"b\" 2}"), "line 2, column 6");  // CR LF ends one line
    EXPECT_EQ(place_of("{\"a\": 1,\r \"b\" 2}"), "line 2, column 6");    // and so does a lone CR
    EXPECT_EQ(place_of("{\"a\": 1,\r\r\n\n \"b\" 2}"), "line 4, column 6");
    EXPECT_EQ(place_of("[1, 2,]"), "line 1, column 7");                // a trailing comma
    EXPECT_EQ(place_of("{\"a\": [1, 2"), "line 1, column 12");         // ends too soon
    EXPECT_EQ(place_of("[01]"), "line 1, column 3");                   // a leading zero
    EXPECT_EQ(place_of("[1.]"), "line 1, column 4");
    EXPECT_EQ(place_of("[tru]"), "line 1, column 5");
    EXPECT_EQ(place_of("[\"a\\x\"]"), "line 1, column 5");             // an unknown escape
    EXPECT_EQ(place_of("[\"a\tb\"]"), "line 1, column 4");             // a raw control byte in a string
    EXPECT_EQ(place_of("[\"\xC3(\"]"), "line 1, column 4");            // a broken UTF-8 sequence
    EXPECT_EQ(place_of("[\"\xED\xA0\x80\"]"), "line 1, column 4");     // an encoded surrogate
    EXPECT_EQ(place_of("{} {}"), "line 1, column 4");                  // a second value
    EXPECT_EQ(place_of("[[[1]]]", 2), "line 1, column 3");             // nested past the depth
    EXPECT_EQ(place_of("[[1]]", 2), "valid");
    // A byte order mark is the caller's to skip, as it is for the parser: one left in the text is an error.
    EXPECT_EQ(place_of("\xEF\xBB\xBF{}"), "line 1, column 1");
    EXPECT_EQ(place_of(without_byte_order_mark("\xEF\xBB\xBF{}")), "valid");
    EXPECT_EQ(place_of(without_byte_order_mark("\xEF\xBB\xBF\xEF\xBB\xBF{}")), "line 1, column 1");
}

// "line L, column C" of the first value in `text` that a parser holding 64-bit integers and doubles must refuse, or
// "none".
std::string value_place_of(std::string_view text) {
    const std::optional<TextPlace> place = json_value_error_place(text);
    return place ? place->text() : "none";
}

TEST(JsonSyntax, values_a_parser_can_hold_have_no_value_error_place) {
    for (const char* text : {"[18446744073709551615]", "[-9223372036854775808]", "[1e308]", "[-1.7976931348623158e308]",
                             "[1e-400]", "[0e99999999999999999999]", "[123456789012345678901234567890.5]",
                             "[1e-99999999999999999999]", "[\"\\uD83D\\uDE00\", \"\\u00e9\\uD7FF\\uE000\"]"})
        EXPECT_EQ(value_place_of(text), "none") << text;
}

TEST(JsonSyntax, names_the_first_number_or_escape_a_parser_must_refuse) {
    EXPECT_EQ(value_place_of("[1,\n 18446744073709551616]"), "line 2, column 2");   // an integer past 2^64 - 1
    EXPECT_EQ(value_place_of("[-9223372036854775809]"), "line 1, column 2");          // an integer below -2^63
    EXPECT_EQ(value_place_of("[100000000000000000000]"), "line 1, column 2");
    EXPECT_EQ(value_place_of("{\"a\": 1e309}"), "line 1, column 7");                 // an infinite double
    EXPECT_EQ(value_place_of("[0, -1.7976931348623159e308]"), "line 1, column 5");
    EXPECT_EQ(value_place_of("[0.001e312]"), "line 1, column 2");
    EXPECT_EQ(value_place_of("[1e99999999999999999999]"), "line 1, column 2");
    EXPECT_EQ(value_place_of("[\"ab\\uD800\"]"), "line 1, column 5");                 // a lone high surrogate
    EXPECT_EQ(value_place_of("[\"\\uD800\\u0041\"]"), "line 1, column 3");           // not followed by a low one
    EXPECT_EQ(value_place_of("{\"\\uDC00\": 1}"), "line 1, column 3");                // a lone low surrogate, in a key
    EXPECT_EQ(value_place_of("[1e309"), "none");  // broken grammar: not this check's
}

TEST(JsonSyntax, the_error_place_falls_back_only_when_neither_check_finds_one) {
    EXPECT_EQ(json_error_place("[1, 2,]", "/"), "line 1, column 7");
    EXPECT_EQ(json_error_place("[1, 1e400]", "/"), "line 1, column 5");
    EXPECT_EQ(json_error_place("[1, 2]", "/"), "/");
}

}  // namespace
}  // namespace spinegpu
