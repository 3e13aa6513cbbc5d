// json_syntax_error_place: valid JSON has no error place; broken JSON gets the line and column of the first byte
// that breaks the grammar (or of the end, when the text ends too soon).
#include <gtest/gtest.h>

#include <string>

#include "spinegpu/core/json_syntax.hpp"

namespace spinegpu {
namespace {

// "line L, column C" of the error in `text`, or "valid".
std::string place_of(std::string_view text, std::uint32_t depth = 1024) {
    const std::optional<TextPlace> place = json_syntax_error_place(text, depth);
    return place ? place->text() : "valid";
}

TEST(JsonSyntax, valid_documents_have_no_error_place) {
    for (const char* text : {"{}", " [ ] ", "0", "-0.5e+10", "\"\\u00e9\\n\"", "\xEF\xBB\xBF{\"a\": [1, 2.5, true]}",
                             "{\"caf\xC3\xA9\": \"\xF0\x9F\x98\x80\", \"n\": null, \"f\": false}"})
        EXPECT_EQ(place_of(text), "valid") << text;
}

TEST(JsonSyntax, names_the_line_and_column_of_the_first_broken_byte) {
    EXPECT_EQ(place_of(""), "line 1, column 1");
    EXPECT_EQ(place_of("{\"a\": 1,\n \"b\" 2}"), "line 2, column 6");   // the missing colon
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
}

}  // namespace
}  // namespace spinegpu
