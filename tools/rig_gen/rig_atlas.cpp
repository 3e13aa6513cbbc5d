#include "rig_atlas.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace spinegpu::rig {
namespace {

// Transparent texels around every region. The page is mipmapped (the demo draws characters at a fifth to a third of
// their size, levels 2 and 3), and a level-3 texel sampled bilinearly reads 16 texels across: 16 between regions
// keeps each region's small levels free of its neighbours' texels.
constexpr int k_padding = 16;

struct Trimmed {
    std::vector<std::uint8_t> pixels;  // original canvas pixels
    int width = 0, height = 0;         // canvas size
    int left = 0, top = 0, right = 0, bottom = 0;  // kept box: [left, right) x [top, bottom)
};

Trimmed trim(const Canvas& canvas, bool strip) {
    Trimmed t;
    t.pixels = canvas.to_rgba8();
    t.width = canvas.pixel_width();
    t.height = canvas.pixel_height();
    t.left = t.width;
    t.top = t.height;
    for (int j = 0; j < t.height; ++j)
        for (int i = 0; i < t.width; ++i)
            if (t.pixels[(static_cast<std::size_t>(j) * static_cast<std::size_t>(t.width) + static_cast<std::size_t>(i)) * 4 + 3] != 0) {
                t.left = std::min(t.left, i);
                t.right = std::max(t.right, i + 1);
                t.top = std::min(t.top, j);
                t.bottom = std::max(t.bottom, j + 1);
            }
    if (t.right <= t.left) throw std::runtime_error("region is empty");
    if (!strip) {
        t.left = t.top = 0;
        t.right = t.width;
        t.bottom = t.height;
    }
    return t;
}

// Shelf packing of (w, h) boxes, tallest first, into a page `width` wide; returns the used height or -1 when a box
// does not fit in `height`.
int shelf_pack(const std::vector<Trimmed>& boxes, const std::vector<std::size_t>& order, int width, int height,
               std::vector<PackedRegion>& out) {
    int x = k_padding, y = k_padding, shelf = 0;
    for (std::size_t index : order) {
        int w = boxes[index].right - boxes[index].left, h = boxes[index].bottom - boxes[index].top;
        if (x + w + k_padding > width) {
            x = k_padding;
            y += shelf + k_padding;
            shelf = 0;
        }
        if (x + w + k_padding > width || y + h + k_padding > height) return -1;
        out[index].x = x;
        out[index].y = y;
        out[index].width = w;
        out[index].height = h;
        x += w + k_padding;
        shelf = std::max(shelf, h);
    }
    return y + shelf + k_padding;
}

}  // namespace

PackedPage pack_atlas(const std::vector<ArtRegion>& regions, const std::string& page_name) {
    std::vector<Trimmed> trimmed;
    for (const ArtRegion& region : regions) trimmed.push_back(trim(region.canvas, region.trim));
    std::vector<std::size_t> order(regions.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return trimmed[a].bottom - trimmed[a].top > trimmed[b].bottom - trimmed[b].top;
    });

    PackedPage page;
    page.name = page_name;
    page.regions.resize(regions.size());
    const int sizes[][2] = {{256, 256}, {512, 256}, {512, 512}, {1024, 512}, {1024, 1024}, {2048, 1024}, {2048, 2048}};
    bool packed = false;
    for (const auto& size : sizes) {
        if (shelf_pack(trimmed, order, size[0], size[1], page.regions) >= 0) {
            page.width = size[0];
            page.height = size[1];
            packed = true;
            break;
        }
    }
    if (!packed) throw std::runtime_error("regions do not fit in a 2048x2048 page");

    page.rgba.assign(static_cast<std::size_t>(page.width) * static_cast<std::size_t>(page.height) * 4, 0);
    for (std::size_t r = 0; r < regions.size(); ++r) {
        const Trimmed& t = trimmed[r];
        PackedRegion& p = page.regions[r];
        p.name = regions[r].name;
        p.original_width = t.width;
        p.original_height = t.height;
        p.offset_x = t.left;
        p.offset_y = t.height - t.bottom;  // from the bottom, as the atlas format counts it
        for (int j = 0; j < p.height; ++j)
            for (int i = 0; i < p.width; ++i) {
                const std::uint8_t* src = &t.pixels[(static_cast<std::size_t>(t.top + j) * static_cast<std::size_t>(t.width) +
                                                     static_cast<std::size_t>(t.left + i)) * 4];
                std::uint8_t* dst = &page.rgba[(static_cast<std::size_t>(p.y + j) * static_cast<std::size_t>(page.width) +
                                                static_cast<std::size_t>(p.x + i)) * 4];
                std::copy(src, src + 4, dst);
            }
    }
    return page;
}

std::string atlas_text(const PackedPage& page) {
    std::string out;
    char line[160];
    out += page.name + "\n";
    std::snprintf(line, sizeof line, "\tsize: %d, %d\n\tfilter: MipMapLinearLinear, Linear\n\tpma: false\n", page.width, page.height);
    out += line;
    // Regions sorted by name, as Spine's packer lists them.
    std::vector<const PackedRegion*> sorted;
    for (const PackedRegion& r : page.regions) sorted.push_back(&r);
    std::sort(sorted.begin(), sorted.end(), [](const PackedRegion* a, const PackedRegion* b) { return a->name < b->name; });
    for (const PackedRegion* r : sorted) {
        out += r->name + "\n";
        std::snprintf(line, sizeof line, "\tbounds: %d, %d, %d, %d\n", r->x, r->y, r->width, r->height);
        out += line;
        if (r->offset_x != 0 || r->offset_y != 0 || r->width != r->original_width || r->height != r->original_height) {
            std::snprintf(line, sizeof line, "\toffsets: %d, %d, %d, %d\n", r->offset_x, r->offset_y,
                          r->original_width, r->original_height);
            out += line;
        }
    }
    return out;
}

}  // namespace spinegpu::rig
