// Packs the demo rig's drawn regions into one atlas page and writes the page's libGDX atlas text, as Spine's
// texture packer does: transparent borders stripped (recorded as offsets), 2 pixels between regions, straight alpha.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rig_model.hpp"

namespace spinegpu::rig {

struct PackedRegion {
    std::string name;
    int x = 0, y = 0, width = 0, height = 0;                          // packed bounds in the page, pixels
    int offset_x = 0, offset_y = 0, original_width = 0, original_height = 0;  // stripped left / bottom, full size
};

struct PackedPage {
    std::string name;            // image file name
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // straight alpha, rows top to bottom
    std::vector<PackedRegion> regions;  // in the order of the input regions
};

// Trims, packs and composes every region into one page named `page_name`.
PackedPage pack_atlas(const std::vector<ArtRegion>& regions, const std::string& page_name);

// The atlas text for `page` (Spine 4.x format: page header, then one entry per region).
std::string atlas_text(const PackedPage& page);

}  // namespace spinegpu::rig
