// Texture atlases as Spine exports them (libGDX text format), and their page images.
//
// parse_atlas() reads the current format (page name, size, format, filter, repeat, pma, scale; regions with bounds,
// offsets, rotate true/false/degrees, index, split/pad) and the older xy/size/orig/offset keys; unknown keys are kept
// per region and otherwise ignored. Safe for untrusted input: errors name the file and the line; sizes and positions
// must be non-negative and at most k_atlas_max_coordinate, and a region must lie inside its page when the page's size
// is known.
//
// Grammar (as the official TextureAtlas reads it): optional `key: value` header lines before the first page are
// ignored; a page is a name line followed by its `key: value` lines; each following non-blank line without a colon
// starts a region of that page; a blank line ends the page. CR, LF and CRLF line ends are accepted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinegpu/core/name_table.hpp"
#include "spinegpu/core/result.hpp"

namespace spinegpu {

enum class TextureFilter : std::uint8_t {
    nearest, linear, mip_map, mip_map_nearest_nearest, mip_map_linear_nearest, mip_map_nearest_linear,
    mip_map_linear_linear
};
enum class TextureWrap : std::uint8_t { clamp_to_edge, repeat, mirrored_repeat };

// Largest coordinate, size or index an atlas may state; larger values are rejected as absurd.
inline constexpr std::int32_t k_atlas_max_coordinate = 1 << 24;

struct AtlasPage {
    std::string name;              // image file name, relative to the atlas file's folder
    std::uint32_t width = 0, height = 0;  // 0 when the atlas does not say (then taken from the image)
    std::string format = "RGBA8888";
    TextureFilter min_filter = TextureFilter::nearest, mag_filter = TextureFilter::nearest;
    TextureWrap u_wrap = TextureWrap::clamp_to_edge, v_wrap = TextureWrap::clamp_to_edge;
    bool pma = false;              // the page's pixels are premultiplied by alpha
    float scale = 1;
};

struct AtlasRegion {
    Index page = 0;
    std::int32_t x = 0, y = 0, width = 0, height = 0;      // packed bounds in the page, pixels
    float u = 0, v = 0, u2 = 0, v2 = 0;                     // normalised, as the official loader computes them
                                                            // (0 while the page's size is unknown)
    float offset_x = 0, offset_y = 0;                       // whitespace stripped left / bottom
    std::int32_t original_width = 0, original_height = 0;
    std::int32_t degrees = 0;                               // rotation in the page: 0, 90 (rotate: true), or any
    std::int32_t index = -1;
    std::vector<std::int32_t> splits, pads;                 // nine-patch data, empty when absent
    std::vector<std::pair<std::string, std::vector<std::int32_t>>> extra;  // unknown keys, kept as ints
    std::uint32_t line = 0;                                 // line of the region's name, for messages
};

struct Atlas {
    std::string file;              // path the atlas was read from (for messages and finding pages)
    std::vector<AtlasPage> pages;
    std::vector<AtlasRegion> regions;
    NameTable region_names;        // each distinct region name once, in order of first occurrence
    std::vector<Index> first_region;  // region_names index -> the first region with that name
    std::vector<std::string> all_region_names;  // region i's name (names repeat for indexed regions)

    // Returns the first region called `name`, or with `index` >= 0 the one of that name whose atlas `index` is
    // `index` (TextureAtlas.findRegion keeps only the first; binding finds sequence frames by name + number), or
    // k_none.
    Index find_region(std::string_view name, std::int32_t index = -1) const;
};

// Parses atlas text. `file` names the source in errors and locates page images.
Result<Atlas> parse_atlas(std::string_view text, const std::string& file);

// Reads and parses the atlas at `path`.
Result<Atlas> load_atlas_file(const std::string& path);

// Returns the path of page `page`'s image: the atlas file's folder joined with the page name.
std::string atlas_page_path(const Atlas& atlas, Index page);

// Sets the size of page `page` (for atlases that do not state it: take it from the decoded image) and recomputes the
// UVs of its regions. Fails, naming the region and its line, when a region does not fit in the new size; the atlas
// is then left unchanged. Precondition: 0 <= page < pages.size().
Result<void> set_atlas_page_size(Atlas& atlas, Index page, std::uint32_t width, std::uint32_t height);

}  // namespace spinegpu
