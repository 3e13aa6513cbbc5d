#include <gtest/gtest.h>

#include "spinegpu/core/color.hpp"
#include "spinegpu/core/name_table.hpp"
#include "spinegpu/core/result.hpp"

namespace spinegpu {
namespace {

TEST(Color, parses_rgb_and_rgba_hex) {
    Color c;
    ASSERT_TRUE(parse_hex_color("ff8000", 6, c));
    EXPECT_FLOAT_EQ(c.r, 1.0f);
    EXPECT_FLOAT_EQ(c.g, 128.0f / 255.0f);
    EXPECT_FLOAT_EQ(c.b, 0.0f);
    EXPECT_FLOAT_EQ(c.a, 1.0f);
    ASSERT_TRUE(parse_hex_color("FFFFFF80", 8, c));
    EXPECT_FLOAT_EQ(c.a, 128.0f / 255.0f);
}

TEST(Color, rejects_malformed_hex) {
    Color c;
    EXPECT_FALSE(parse_hex_color("ff80", 4, c));
    EXPECT_FALSE(parse_hex_color("gg0000", 6, c));
    EXPECT_FALSE(parse_hex_color("ff00001", 7, c));
}

TEST(Color, unpacks_binary_rgba8888) {
    Color c = color_from_rgba8888(0xff000080u);
    EXPECT_FLOAT_EQ(c.r, 1.0f);
    EXPECT_FLOAT_EQ(c.g, 0.0f);
    EXPECT_FLOAT_EQ(c.a, 128.0f / 255.0f);
}

TEST(NameTable, finds_added_names_and_refuses_duplicates) {
    NameTable t;
    EXPECT_EQ(t.add("root"), 0);
    EXPECT_EQ(t.add("hip"), 1);
    EXPECT_EQ(t.add("root"), k_none);
    EXPECT_EQ(t.find("hip"), 1);
    EXPECT_EQ(t.find("missing"), k_none);
    EXPECT_EQ(t.intern("hip"), 1);
    EXPECT_EQ(t.intern("new"), 2);
    EXPECT_EQ(t[2], "new");
}

TEST(Error, message_names_file_place_and_problem) {
    Error e = make_error("a.json", "/bones/3/parent", "unknown bone \"x\"");
    EXPECT_EQ(e.message(), "a.json: /bones/3/parent: unknown bone \"x\"");
    Result<int> r = e;
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "/bones/3/parent");
}

TEST(Error, message_writes_control_bytes_as_hex_escapes) {
    // A name read from a corrupt file may hold a terminal's escape sequences or line breaks.
    Error e = make_error("a.skel", "byte 8", std::string("bone \"\x1b[2J\n\x7f\xc3\xa9\" is defined twice"));
    EXPECT_EQ(e.message(), "a.skel: byte 8: bone \"\\x1b[2J\\x0a\\x7f\xc3\xa9\" is defined twice");
    // U+009B (CSI, a C1 control) in UTF-8; U+00A0 and U+00E9 stay.
    EXPECT_EQ(make_error("a.skel", "", "\xc2\x9b" "2J \xc2\xa0\xc3\xa9").message(),
              "a.skel: \\xc2\\x9b" "2J \xc2\xa0\xc3\xa9");
}

}  // namespace
}  // namespace spinegpu
