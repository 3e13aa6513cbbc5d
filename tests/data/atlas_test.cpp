// The atlas parser: the example atlases, every key of the current and the older format, and malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/atlas.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

namespace fs = std::filesystem;

Atlas parse_ok(std::string_view text, const std::string& file = "test.atlas") {
    Result<Atlas> atlas = parse_atlas(text, file);
    EXPECT_TRUE(atlas.ok()) << (atlas.ok() ? "" : atlas.error().message());
    return atlas.ok() ? std::move(atlas).value() : Atlas{};
}

std::string parse_error(std::string_view text, const std::string& file = "test.atlas") {
    Result<Atlas> atlas = parse_atlas(text, file);
    EXPECT_FALSE(atlas.ok()) << "parsed without error:\n" << text;
    return atlas.ok() ? std::string() : atlas.error().message();
}

std::vector<fs::path> example_atlases() {
    std::vector<fs::path> out;
    for (const auto& folder : fs::directory_iterator(test::examples_dir())) {
        if (!folder.is_directory()) continue;
        for (const auto& entry : fs::directory_iterator(folder.path()))
            if (entry.path().extension() == ".atlas") out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(Atlas, parses_every_example_atlas) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::vector<fs::path> atlases = example_atlases();
    EXPECT_GE(atlases.size(), 28u);
    int pairs = 0;
    for (const fs::path& path : atlases) {
        SCOPED_TRACE(path.string());
        Result<Atlas> atlas = load_atlas_file(path.string());
        ASSERT_TRUE(atlas.ok()) << atlas.error().message();
        ASSERT_FALSE(atlas->pages.empty());
        ASSERT_FALSE(atlas->regions.empty());
        EXPECT_EQ(atlas->all_region_names.size(), atlas->regions.size());
        std::string stem = path.stem().string();
        std::string folder = path.parent_path().filename().string();
        bool pma = stem == folder + "-pma";
        if (pma || stem == folder) ++pairs;
        for (const AtlasPage& page : atlas->pages) {
            EXPECT_GT(page.width, 0u);
            EXPECT_GT(page.height, 0u);
            EXPECT_TRUE(fs::exists(path.parent_path() / page.name)) << page.name;
            if (pma || stem == folder) {
                EXPECT_EQ(page.pma, pma) << page.name;
            }
        }
        for (std::size_t i = 0; i < atlas->regions.size(); ++i) {
            const AtlasRegion& r = atlas->regions[i];
            ASSERT_GE(r.page, 0);
            ASSERT_LT(static_cast<std::size_t>(r.page), atlas->pages.size());
            EXPECT_TRUE(r.degrees == 0 || r.degrees == 90);
            EXPECT_GE(r.u, 0.0f);
            EXPECT_GE(r.v, 0.0f);
            EXPECT_LE(r.u2, 1.0f);
            EXPECT_LE(r.v2, 1.0f);
            EXPECT_GE(r.original_width, r.width);
            EXPECT_GE(r.original_height, r.height);
            EXPECT_NE(atlas->find_region(atlas->all_region_names[i]), k_none);
        }
    }
    EXPECT_EQ(pairs, 28);
}

TEST(Atlas, example_page_counts_and_pma_flags) {
    SPINEGPU_REQUIRE_EXAMPLES();
    struct Expect {
        const char* file;
        std::size_t pages;
        bool pma;
    };
    const Expect cases[] = {{"chibi-stickers/chibi-stickers.atlas", 10, false},
                            {"chibi-stickers/chibi-stickers-pma.atlas", 10, true},
                            {"dragon/dragon.atlas", 5, false},
                            {"dragon/dragon-pma.atlas", 5, true},
                            {"spineboy/spineboy.atlas", 1, false},
                            {"spineboy/spineboy-pma.atlas", 1, true}};
    for (const Expect& c : cases) {
        SCOPED_TRACE(c.file);
        Result<Atlas> atlas = load_atlas_file((test::examples_dir() / c.file).string());
        ASSERT_TRUE(atlas.ok()) << atlas.error().message();
        EXPECT_EQ(atlas->pages.size(), c.pages);
        for (const AtlasPage& page : atlas->pages) EXPECT_EQ(page.pma, c.pma);
    }
    Result<Atlas> dragon = load_atlas_file((test::examples_dir() / "dragon/dragon.atlas").string());
    ASSERT_TRUE(dragon.ok());
    EXPECT_EQ(dragon->pages[0].name, "dragon.png");
    EXPECT_EQ(dragon->pages[4].name, "dragon_5.png");
    EXPECT_EQ(dragon->pages[4].width, 1024u);
    EXPECT_EQ(dragon->pages[4].min_filter, TextureFilter::linear);
    EXPECT_EQ(dragon->pages[4].mag_filter, TextureFilter::linear);
}

TEST(Atlas, rotated_example_region_has_swapped_extent_in_uvs) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Result<Atlas> atlas = load_atlas_file((test::examples_dir() / "spineboy/spineboy.atlas").string());
    ASSERT_TRUE(atlas.ok()) << atlas.error().message();
    const AtlasPage& page = atlas->pages[0];
    EXPECT_EQ(page.name, "spineboy.png");
    EXPECT_EQ(page.width, 1024u);
    EXPECT_EQ(page.height, 256u);
    EXPECT_FLOAT_EQ(page.scale, 0.5f);
    // front-fist-open: bounds 710, 51, 43, 44, rotate 90, on a 1024 x 256 page. Packed rotated, it covers 44 pixels
    // across and 43 down: u = 710/1024, v = 51/256, u2 = 754/1024, v2 = 94/256 (all exact in float).
    Index i = atlas->find_region("front-fist-open");
    ASSERT_NE(i, k_none);
    const AtlasRegion& r = atlas->regions[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.degrees, 90);
    EXPECT_EQ(r.x, 710);
    EXPECT_EQ(r.y, 51);
    EXPECT_EQ(r.width, 43);
    EXPECT_EQ(r.height, 44);
    EXPECT_EQ(r.original_width, 43);
    EXPECT_EQ(r.original_height, 44);
    EXPECT_EQ(r.u, 0.693359375f);
    EXPECT_EQ(r.v, 0.19921875f);
    EXPECT_EQ(r.u2, 0.736328125f);
    EXPECT_EQ(r.v2, 0.3671875f);
    // An upright neighbour: front-foot, bounds 210, 6, 63, 35.
    const AtlasRegion& foot = atlas->regions[static_cast<std::size_t>(atlas->find_region("front-foot"))];
    EXPECT_EQ(foot.degrees, 0);
    EXPECT_EQ(foot.u2, 273.0f / 1024);
    EXPECT_EQ(foot.v2, 41.0f / 256);
}

TEST(Atlas, reads_every_page_key) {
    Atlas atlas = parse_ok(
        "\n"
        "a.png\n"
        "\tsize: 64, 32\n"
        "\tformat: RGB565\n"
        "\tfilter: MipMapLinearNearest, Linear\n"
        "\trepeat: xy\n"
        "\tpma: true\n"
        "\tscale: 0.25\n"
        "\tfuture: 1, 2\n"
        "r\n"
        "\tbounds: 0, 0, 2, 2\n"
        "\n"
        "b.png\n"
        "\tsize: 8, 8\n"
        "\trepeat: y\n"
        "\n"
        "c.png\n"
        "\trepeat: x\n"
        "\n"
        "d.png\n"
        "\trepeat: none\n");
    ASSERT_EQ(atlas.pages.size(), 4u);
    const AtlasPage& a = atlas.pages[0];
    EXPECT_EQ(a.name, "a.png");
    EXPECT_EQ(a.width, 64u);
    EXPECT_EQ(a.height, 32u);
    EXPECT_EQ(a.format, "RGB565");
    EXPECT_EQ(a.min_filter, TextureFilter::mip_map_linear_nearest);
    EXPECT_EQ(a.mag_filter, TextureFilter::linear);
    EXPECT_EQ(a.u_wrap, TextureWrap::repeat);
    EXPECT_EQ(a.v_wrap, TextureWrap::repeat);
    EXPECT_TRUE(a.pma);
    EXPECT_FLOAT_EQ(a.scale, 0.25f);
    EXPECT_EQ(atlas.pages[1].u_wrap, TextureWrap::clamp_to_edge);
    EXPECT_EQ(atlas.pages[1].v_wrap, TextureWrap::repeat);
    EXPECT_EQ(atlas.pages[2].u_wrap, TextureWrap::repeat);
    EXPECT_EQ(atlas.pages[2].v_wrap, TextureWrap::clamp_to_edge);
    EXPECT_EQ(atlas.pages[3].u_wrap, TextureWrap::clamp_to_edge);
    // Defaults, and a page without a size.
    const AtlasPage& d = atlas.pages[3];
    EXPECT_EQ(d.width, 0u);
    EXPECT_EQ(d.height, 0u);
    EXPECT_EQ(d.format, "RGBA8888");
    EXPECT_EQ(d.min_filter, TextureFilter::nearest);
    EXPECT_FALSE(d.pma);
    EXPECT_EQ(d.scale, 1.0f);
}

TEST(Atlas, reads_every_region_key_of_the_current_format) {
    Atlas atlas = parse_ok(
        "page.png\n"
        "size: 256, 128\n"
        "nine\n"
        "  bounds: 10, 20, 30, 40\n"
        "  offsets: 3, 5, 50, 60\n"
        "  rotate: 90\n"
        "  index: 7\n"
        "  split: 1, 2, 3, 4\n"
        "  pad: 5, 6, 7, 8\n"
        "plain\n"
        "  bounds: 100, 0, 16, 8\n"
        "  rotate: false\n"
        "turned\n"
        "  bounds: 120, 0, 16, 8\n"
        "  rotate: true\n"
        "upside\n"
        "  bounds: 140, 0, 16, 8\n"
        "  rotate: 180\n");
    ASSERT_EQ(atlas.regions.size(), 4u);
    const AtlasRegion& r = atlas.regions[0];
    EXPECT_EQ(r.page, 0);
    EXPECT_EQ(r.x, 10);
    EXPECT_EQ(r.y, 20);
    EXPECT_EQ(r.width, 30);
    EXPECT_EQ(r.height, 40);
    EXPECT_EQ(r.offset_x, 3.0f);
    EXPECT_EQ(r.offset_y, 5.0f);
    EXPECT_EQ(r.original_width, 50);
    EXPECT_EQ(r.original_height, 60);
    EXPECT_EQ(r.degrees, 90);
    EXPECT_EQ(r.index, 7);
    EXPECT_EQ(r.splits, (std::vector<std::int32_t>{1, 2, 3, 4}));
    EXPECT_EQ(r.pads, (std::vector<std::int32_t>{5, 6, 7, 8}));
    EXPECT_EQ(r.line, 3u);
    // Rotated 90: the packed rectangle is 40 across and 30 down.
    EXPECT_EQ(r.u, 10.0f / 256);
    EXPECT_EQ(r.v, 20.0f / 128);
    EXPECT_EQ(r.u2, 50.0f / 256);
    EXPECT_EQ(r.v2, 50.0f / 128);

    const AtlasRegion& plain = atlas.regions[1];
    EXPECT_EQ(plain.degrees, 0);
    EXPECT_EQ(plain.index, -1);
    EXPECT_TRUE(plain.splits.empty());
    EXPECT_EQ(plain.original_width, 16);  // no offsets: the original size is the packed size
    EXPECT_EQ(plain.original_height, 8);
    EXPECT_EQ(plain.u2, 116.0f / 256);
    EXPECT_EQ(plain.v2, 8.0f / 128);
    EXPECT_EQ(atlas.regions[2].degrees, 90);
    EXPECT_EQ(atlas.regions[2].u2, 128.0f / 256);
    EXPECT_EQ(atlas.regions[2].v2, 16.0f / 128);
    // Degrees other than 90 keep the upright extent, as the official loader does.
    EXPECT_EQ(atlas.regions[3].degrees, 180);
    EXPECT_EQ(atlas.regions[3].u2, 156.0f / 256);
    EXPECT_EQ(atlas.regions[3].v2, 8.0f / 128);
}

TEST(Atlas, reads_the_older_format_keys) {
    Atlas atlas = parse_ok(
        "\n"
        "old.png\n"
        "size: 64,32\n"
        "format: RGBA8888\n"
        "filter: Linear,Linear\n"
        "repeat: none\n"
        "head\n"
        "  rotate: false\n"
        "  xy: 2, 4\n"
        "  size: 10, 12\n"
        "  orig: 14, 16\n"
        "  offset: 1, 2\n"
        "  index: -1\n"
        "arm\n"
        "  rotate: true\n"
        "  xy: 20, 4\n"
        "  size: 10, 12\n"
        "  orig: 10, 12\n"
        "  offset: 0, 0\n"
        "  index: 3\n");
    ASSERT_EQ(atlas.pages.size(), 1u);
    EXPECT_EQ(atlas.pages[0].width, 64u);
    ASSERT_EQ(atlas.regions.size(), 2u);
    const AtlasRegion& head = atlas.regions[0];
    EXPECT_EQ(head.x, 2);
    EXPECT_EQ(head.y, 4);
    EXPECT_EQ(head.width, 10);
    EXPECT_EQ(head.height, 12);
    EXPECT_EQ(head.original_width, 14);
    EXPECT_EQ(head.original_height, 16);
    EXPECT_EQ(head.offset_x, 1.0f);
    EXPECT_EQ(head.offset_y, 2.0f);
    EXPECT_EQ(head.index, -1);
    EXPECT_EQ(head.u2, 12.0f / 64);
    const AtlasRegion& arm = atlas.regions[1];
    EXPECT_EQ(arm.degrees, 90);
    EXPECT_EQ(arm.index, 3);
    EXPECT_EQ(arm.u2, 32.0f / 64);
    EXPECT_EQ(arm.v2, 14.0f / 32);
}

TEST(Atlas, keeps_unknown_region_keys_and_ignores_unknown_page_keys) {
    Atlas atlas = parse_ok(
        "p.png\n"
        "size: 8, 8\n"
        "shiny: yes\n"
        "r\n"
        "bounds: 0, 0, 1, 1\n"
        "weight: 3, -4, x\n"
        "note:\n");
    ASSERT_EQ(atlas.regions.size(), 1u);
    const auto& extra = atlas.regions[0].extra;
    ASSERT_EQ(extra.size(), 2u);
    EXPECT_EQ(extra[0].first, "weight");
    EXPECT_EQ(extra[0].second, (std::vector<std::int32_t>{3, -4, 0}));
    EXPECT_EQ(extra[1].first, "note");
}

TEST(Atlas, accepts_crlf_cr_bom_and_surrounding_blanks) {
    const char* lf = "\n\np.png\nsize: 8, 4\nr\nbounds: 1, 1, 2, 2\ns\nbounds: 4, 0, 2, 2\n\n\n";
    Atlas a = parse_ok(lf);
    std::string crlf, cr;
    for (const char* c = lf; *c; ++c) {
        crlf += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
        cr += *c == '\n' ? '\r' : *c;
    }
    Atlas b = parse_ok("\xEF\xBB\xBF" + crlf);
    Atlas c = parse_ok(cr);
    Atlas d = parse_ok("\n\n  p.png  \n  size :  8 ,4  \n  r \t\n\tbounds:1,1,2,2\ns\nbounds: 4, 0, 2, 2");
    for (const Atlas* atlas : {&a, &b, &c, &d}) {
        ASSERT_EQ(atlas->pages.size(), 1u);
        EXPECT_EQ(atlas->pages[0].name, "p.png");
        EXPECT_EQ(atlas->pages[0].width, 8u);
        EXPECT_EQ(atlas->pages[0].height, 4u);
        ASSERT_EQ(atlas->regions.size(), 2u);
        EXPECT_EQ(atlas->all_region_names[0], "r");
        EXPECT_EQ(atlas->regions[0].x, 1);
        EXPECT_EQ(atlas->regions[1].u, 0.5f);
        EXPECT_EQ(atlas->regions[1].line, 7u);
    }
}

TEST(Atlas, skips_header_entries_before_the_first_page) {
    Atlas atlas = parse_ok("version: 4\nsomething: 1, 2\np.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, 1\n");
    ASSERT_EQ(atlas.pages.size(), 1u);
    EXPECT_EQ(atlas.pages[0].name, "p.png");
    EXPECT_EQ(atlas.regions.size(), 1u);
}

TEST(Atlas, blank_line_starts_a_new_page) {
    Atlas atlas = parse_ok("a.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, 1\n\nb.png\nsize: 8, 8\ns\nbounds: 0, 0, 1, 1\n");
    ASSERT_EQ(atlas.pages.size(), 2u);
    ASSERT_EQ(atlas.regions.size(), 2u);
    EXPECT_EQ(atlas.regions[0].page, 0);
    EXPECT_EQ(atlas.regions[1].page, 1);
    EXPECT_EQ(atlas.regions[1].u2, 1.0f / 8);
}

TEST(Atlas, finds_regions_by_name_and_index) {
    Atlas atlas = parse_ok(
        "p.png\nsize: 64, 64\n"
        "run\nindex: 2\nbounds: 0, 0, 1, 1\n"
        "run\nindex: 0\nbounds: 1, 0, 1, 1\n"
        "other\nbounds: 2, 0, 1, 1\n"
        "run\nindex: 1\nbounds: 3, 0, 1, 1\n");
    EXPECT_EQ(atlas.find_region("run"), 0);  // the first with the name, as the official findRegion
    EXPECT_EQ(atlas.find_region("run", 0), 1);
    EXPECT_EQ(atlas.find_region("run", 1), 3);
    EXPECT_EQ(atlas.find_region("run", 2), 0);
    EXPECT_EQ(atlas.find_region("run", 3), k_none);
    EXPECT_EQ(atlas.find_region("other"), 2);
    EXPECT_EQ(atlas.find_region("missing"), k_none);
    EXPECT_EQ(atlas.find_region(""), k_none);
    EXPECT_EQ(atlas.region_names.size(), 2u);
    EXPECT_EQ(atlas.all_region_names.size(), 4u);
}

TEST(Atlas, a_file_with_control_bytes_is_not_a_text_atlas) {
    // A PNG or a .skel given as the atlas: refused at the first line holding a control byte.
    EXPECT_EQ(parse_error(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "page.png"),
              "page.png: line 2: not a text atlas (it holds control bytes)");
    EXPECT_EQ(parse_error("p.png\nsize: 4, 4\nr\x7f\nbounds: 0, 0, 1, 1\n"),
              "test.atlas: line 3: not a text atlas (it holds control bytes)");
}

TEST(Atlas, a_json_object_is_not_a_text_atlas) {
    EXPECT_EQ(parse_error("\n{\"skeleton\": {\"spine\": \"4.2.22\"}}\n", "boy.json"),
              "boy.json: line 2: not a text atlas: it starts as a JSON document does (a skeleton export?)");
    EXPECT_EQ(parse_error("  {\n  \"skeleton\": {}\n}\n"),
              "test.atlas: line 1: not a text atlas: it starts as a JSON document does (a skeleton export?)");
    EXPECT_TRUE(parse_atlas("{a}.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, 1\n", "test.atlas").ok())
        << "a page image may be named with braces";
}

TEST(Atlas, errors_name_the_file_and_line) {
    EXPECT_EQ(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, 1\n", "dir/x.atlas"),
              "dir/x.atlas: line 4: expected 4 integers after \"bounds:\"");
    EXPECT_EQ(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, one\n"),
              "test.atlas: line 4: expected 4 integers after \"bounds:\"");
    EXPECT_EQ(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, 1.5, 1\n"),
              "test.atlas: line 4: expected 4 integers after \"bounds:\"");
    EXPECT_EQ(parse_error("p.png\nsize: 4\n"), "test.atlas: line 2: expected 2 integers after \"size:\"");
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, 1\nrotate: maybe\n").find("line 5: bad rotate value"),
              std::string::npos);
    EXPECT_NE(parse_error("head\n  bounds: 0, 0, 1, 1\n").find("line 2: \"bounds:\" belongs to a region"),
              std::string::npos);
    EXPECT_NE(parse_error("head\n  bounds: 0, 0, 1, 1\n").find("region before any page"), std::string::npos);
    EXPECT_NE(parse_error("p.png\npma: yes\n").find("line 2: bad pma value"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nrepeat: z\n").find("line 2: bad repeat value"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nfilter: Linear, Fuzzy\n").find("line 2: bad filter value"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nscale: -1\n").find("line 2: bad scale value"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nscale: nan\n").find("line 2: bad scale value"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nindex: x\n").find("line 4: expected 1 integer after \"index:\""),
              std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nsplit: 1, 2\n").find("line 4: expected 4 integers"),
              std::string::npos);
}

TEST(Atlas, rejects_negative_sizes_overflow_and_regions_outside_the_page) {
    EXPECT_NE(parse_error("p.png\nsize: -4, 4\n").find("line 2: expected 2 non-negative integers after \"size:\""),
              std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, -1, 1\n").find("line 4: expected 4 non-negative"),
              std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nbounds: 0, 0, 1, 1\noffsets: 0, 0, -1, 1\n").find("line 5"),
              std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 99999999999999999999, 4\n").find("line 2"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4294967297, 4\n").find("line 2"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 33554432, 4\n").find("line 2"), std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nbounds: 2147483647, 0, 2147483647, 1\n").find("line 4"),
              std::string::npos);
    EXPECT_NE(parse_error("p.png\nsize: 4, 4\nr\nindex: -2\n").find("line 4"), std::string::npos);
    EXPECT_EQ(parse_error("p.png\nsize: 4, 4\nr\nbounds: 3, 0, 2, 1\n"),
              "test.atlas: line 3: region \"r\" lies outside its page \"p.png\" (4x4)");
    // Rotated 90, the packed rectangle is height across and width down.
    EXPECT_NE(parse_error("p.png\nsize: 8, 4\nr\nbounds: 0, 0, 6, 2\nrotate: 90\n").find("lies outside"),
              std::string::npos);
    parse_ok("p.png\nsize: 8, 4\nr\nbounds: 0, 0, 4, 8\nrotate: 90\n");
}

TEST(Atlas, empty_input_is_an_empty_atlas) {
    Atlas atlas = parse_ok("");
    EXPECT_TRUE(atlas.pages.empty());
    EXPECT_TRUE(parse_ok("\n\r\n  \n").pages.empty());
}

TEST(Atlas, page_without_size_gets_uvs_once_its_size_is_set) {
    Atlas atlas = parse_ok("p.png\nr\nbounds: 2, 4, 6, 8\nrotate: 90\n");
    ASSERT_EQ(atlas.regions.size(), 1u);
    EXPECT_EQ(atlas.regions[0].u2, 0.0f);
    Result<void> bad = set_atlas_page_size(atlas, 0, 8, 8);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message().find("line 2: region \"r\" lies outside"), std::string::npos);
    EXPECT_EQ(atlas.pages[0].width, 0u);
    ASSERT_TRUE(set_atlas_page_size(atlas, 0, 16, 32).ok());
    EXPECT_EQ(atlas.pages[0].width, 16u);
    EXPECT_EQ(atlas.regions[0].u, 2.0f / 16);
    EXPECT_EQ(atlas.regions[0].v, 4.0f / 32);
    EXPECT_EQ(atlas.regions[0].u2, 10.0f / 16);
    EXPECT_EQ(atlas.regions[0].v2, 10.0f / 32);
}

TEST(Atlas, page_path_is_beside_the_atlas) {
    Atlas atlas = parse_ok("a.png\nsize: 1, 1\n", "some/dir/x.atlas");
    EXPECT_EQ(atlas_page_path(atlas, 0), "some/dir/a.png");
    Atlas here = parse_ok("a.png\nsize: 1, 1\n", "x.atlas");
    EXPECT_EQ(atlas_page_path(here, 0), "a.png");
}

TEST(Atlas, missing_file_error_names_it) {
    Result<Atlas> atlas = load_atlas_file("/nonexistent/dir/none.atlas");
    ASSERT_FALSE(atlas.ok());
    EXPECT_EQ(atlas.error().file, "/nonexistent/dir/none.atlas");
}

TEST(Atlas, truncated_and_corrupted_input_never_crashes) {
    std::string text =
        "\n"
        "p.png\n"
        "\tsize: 256, 128\n"
        "\tformat: RGBA8888\n"
        "\tfilter: Linear, Linear\n"
        "\trepeat: xy\n"
        "\tpma: true\n"
        "\tscale: 0.5\n"
        "nine\n"
        "\tbounds: 10, 20, 30, 40\n"
        "\toffsets: 3, 5, 50, 60\n"
        "\trotate: 90\n"
        "\tindex: 7\n"
        "\tsplit: 1, 2, 3, 4\n"
        "\tpad: 5, 6, 7, 8\n"
        "\textra: 1, 2\n"
        "\n"
        "q.png\n"
        "size: 64,32\n"
        "r\n"
        "  xy: 2, 4\n"
        "  size: 10, 12\n"
        "  orig: 14, 16\n"
        "  offset: 1, 2\n";
    if (test::examples_available()) {
        Result<std::string> example = read_file_text((test::examples_dir() / "dragon/dragon.atlas").string());
        ASSERT_TRUE(example.ok());
        text += "\n" + *example;
    }
    auto exercise = [](std::string_view input) {
        Result<Atlas> atlas = parse_atlas(input, "t.atlas");
        if (!atlas.ok()) {
            EXPECT_NE(atlas.error().message().find("t.atlas: line "), std::string::npos) << atlas.error().message();
            return;
        }
        for (std::size_t i = 0; i < atlas->regions.size(); ++i) {
            const AtlasRegion& r = atlas->regions[i];
            ASSERT_GE(r.page, 0);
            ASSERT_LT(static_cast<std::size_t>(r.page), atlas->pages.size());
            (void)atlas->find_region(atlas->all_region_names[i], r.index);
        }
    };
    ASSERT_TRUE(parse_atlas(text, "t.atlas").ok());
    for (std::size_t n = 0; n <= text.size(); ++n) exercise(std::string_view(text).substr(0, n));
    // Deterministic byte corruption: each position set to a few troublesome characters in turn.
    const char replacements[] = {'\0', '\n', ':', ',', '-', '9', ' ', '\r'};
    std::uint32_t state = 12345;
    for (int round = 0; round < 3000; ++round) {
        std::string corrupt = text;
        for (int k = 0; k < 3; ++k) {
            state = state * 1664525u + 1013904223u;
            corrupt[(state >> 8) % corrupt.size()] = replacements[(state >> 4) % std::size(replacements)];
        }
        exercise(corrupt);
    }
}

}  // namespace
}  // namespace spinegpu
