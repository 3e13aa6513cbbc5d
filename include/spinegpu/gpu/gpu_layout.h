// The one definition of every struct and constant that C++ and the shaders share (STYLE.md, "GPU layouts are
// defined once"). Included by the C++ GPU layer and by every GLSL shader (glslc -I include). Only 32-bit scalars
// appear in these structs, so std430 and C++ lay them out alike; the static_asserts in gpu_structs.hpp and the
// SPIR-V reflection test (tests/gpu) check that they do.
//
// Static data, one entry per skeleton type in renderer-wide buffers, uploaded once:
//   GpuInfluence     a vertex's bone, weight and position in that bone's space (unweighted vertices: one, weight 1)
//   GpuBindVertex    a vertex: its influences and its UV in the page array
//   GpuAttachment    a drawable attachment frame (region, mesh, or one frame of a sequence; clipping polygons too)
//   GpuSkeletonType  where a type's attachments, setup slot colours and setup lists start
//   GpuSlotSetup     a slot's setup colours, used when the type packs no colour section
//   setup lists      per type and skin, the draw list of the setup pose with that skin (16-bit ids, two per
//                    word): a character whose draw list equals its skin's sends none and points at this one
// Per frame, per character:
//   GpuCharacter     the 32-byte header. The CPU packs one per character of the draw list at its index (a
//                    character outside the view: its type only, k_culled_character), with its output counts in
//                    place of the output firsts; the places pass (places.comp) scans those counts and writes the
//                    visible ones' headers, in order and with their output firsts, to the array the other passes read
//   bones            6 floats per drawn bone (a b c d x y: two columns and a translation), 24 bytes
//   words            the draw list (a 16-bit attachment id per draw-order position, two per word; only when it
//                    differs from the setup list of the character's skin) and the optional colour and deform
//                    sections, holding only the slots that colour and deform timelines animate
// Output of the skinning pass (or of the CPU path), read by the draw:
//   GpuOutVertex     a world-space vertex with its UV, colours and material
//   GpuDrawCommand   the frame's indexed draw (VkDrawIndexedIndirectCommand), written by the places pass for the
//                    GPU path's one indirect draw
// The tile rasterizer (RenderPath::gpu_tiles: triangles.comp, raster.comp):
//   GpuTilePush      its push constants: camera, target, tile grid and frame totals
//   GpuTriangle      a triangle set up for it once per frame (triangles.comp): snapped vertices, UV plane, colours
//                    and material; its pixel box goes to a compact array of its own (two words: min, max)
//   GpuCharacterTiles  where a character's triangle masks are: per tile of its box of tiles, a bit per triangle
//                    meeting that tile (triangles.comp writes them, raster.comp reads the ones of its tile)
#ifndef SPINEGPU_GPU_LAYOUT_H
#define SPINEGPU_GPU_LAYOUT_H

#ifdef __cplusplus
#include <cstdint>
namespace spinegpu::gpu {
using uint = std::uint32_t;
#define SPINEGPU_CONST inline constexpr uint
#else
#define SPINEGPU_CONST const uint
#endif

// Threads per workgroup of the skinning pass: one workgroup per character.
SPINEGPU_CONST k_skin_workgroup = 64u;
// Characters per workgroup of the output places passes (places.comp), one per thread (128: the workgroup size
// every Vulkan device supports).
SPINEGPU_CONST k_places_workgroup = 128u;
// GpuCharacter::type of a packed header whose character is outside the view: it packs nothing else, and the
// places pass skips it.
SPINEGPU_CONST k_culled_character = 0xFFFFFFFFu;
// Pixels per side of a tile of the tile rasterizer (raster.comp: one workgroup of k_tile_size^2 threads per tile,
// one pixel each).
SPINEGPU_CONST k_tile_size = 16u;
// Threads per workgroup of the triangle setup pass (triangles.comp): one workgroup per character, one thread per
// triangle.
SPINEGPU_CONST k_triangle_workgroup = 64u;
// Most words of triangle masks that triangles.comp builds in shared memory, within the 16 KB every device has; a
// character needing more builds its masks in the pool itself. One the pool has no room for gets none, and the
// rasterizer offers each of its triangles to the tile instead.
SPINEGPU_CONST k_tile_mask_shared_words = 4088u;
// The triangle pass counts the mask words characters asked for in units of this many (so that the 32-bit count
// cannot wrap before the frame's other limits are reached).
SPINEGPU_CONST k_tile_mask_demand_unit = 16u;
// The most units one character adds to that count with a plain atomic add (2^20 words: a 1080p view's every tile
// at 127 words each): with the count under 2^31 before each such add, the workgroups in flight cannot wrap it. A
// character asking for more adds with a compare and swap, up to k_tile_mask_demand_limit.
SPINEGPU_CONST k_tile_mask_demand_cap = 65536u;
// Where a large character's compare and swap stops the count: past it the plain adds in flight (each at most
// k_tile_mask_demand_cap units, from workgroups that saw the count under 2^31) still fit 32 bits.
SPINEGPU_CONST k_tile_mask_demand_limit = 0xC0000000u;
// GpuCharacterTiles::mask_first for "no masks".
SPINEGPU_CONST k_no_tile_mask = 0xFFFFFFFFu;
// GpuTriangle::flags: the top-left rule holds for edge k (vertex k to k + 1) when bit k is set (edges with both
// ends within the grid).
SPINEGPU_CONST k_triangle_top_left_mask = 7u;
// GpuTriangle::flags: bit k_triangle_far_shift + k is set when vertex k lies beyond the grid, more than 2^21 pixels
// from the target's corner (its place on the 1/256-pixel grid would not fit 32 bits). Its x, y then hold its place in
// pixels as float bits, and the rasterizer sets the edges through it up per tile from the places.
SPINEGPU_CONST k_triangle_far_shift = 3u;
// Most slots a skeleton type may have (shared memory of the skinning pass holds one entry per slot).
SPINEGPU_CONST k_max_slots = 1024u;
// Slots of the skinning pass specialized for smaller types (used when every type has at most this many slots).
SPINEGPU_CONST k_small_slot_capacity = 256u;
// Draw-list entry for "nothing drawn at this position".
SPINEGPU_CONST k_no_attachment = 0xFFFFu;
// GpuCharacter::draw_first bit: the character sends no draw list; the rest of the word is the offset of its list in
// the setup lists, counted from its type's GpuSkeletonType::setup_list_first.
SPINEGPU_CONST k_setup_list_bit = 0x80000000u;
// Section offset meaning "this character packs no such section".
SPINEGPU_CONST k_no_section = 0xFFFFFFFFu;
// GpuSlotSetup::sections half for "not in this section".
SPINEGPU_CONST k_no_entry = 0xFFFFu;
// Most attachment frames one skeleton type may have (draw-list entries are 16-bit).
SPINEGPU_CONST k_max_type_attachments = 0xFFFEu;

// GpuAttachment::material bits. The fragment shader receives the same word in GpuOutVertex::material, with the
// clipping polygon's vertex count in the top bits.
SPINEGPU_CONST k_material_layer_mask = 0xFFu;   // page array layer
SPINEGPU_CONST k_material_blend_shift = 8u;     // BlendMode, 2 bits
SPINEGPU_CONST k_material_pma_bit = 0x400u;     // the page is premultiplied
SPINEGPU_CONST k_material_dark_bit = 0x800u;    // the slot has a dark colour (two-color tint)
SPINEGPU_CONST k_material_clip_bit = 0x1000u;   // a clipping polygon, not drawn
SPINEGPU_CONST k_material_weighted_bit = 0x2000u;  // deform offsets are per influence, not per vertex
SPINEGPU_CONST k_material_nearest_bit = 0x4000u;   // the page's mag filter is Nearest (its PageFilters word says more)
SPINEGPU_CONST k_material_scaled_bit = 0x8000u;    // the page samples by its level of detail (PageFilters): its min
                                                   // filter is not its mag filter, or makes mipmaps
SPINEGPU_CONST k_material_clip_count_shift = 16u;  // GpuOutVertex only: clipping polygon vertex count

// Page filters (the PageFilters buffer, a word per page array layer): the atlas page's filters. Magnification
// (level of detail <= 0) samples level 0 with the mag filter; minification samples with the min filter's texel
// filter, from level 0 (k_page_mip_none), the nearest level or between the two nearest levels.
SPINEGPU_CONST k_page_mag_nearest_bit = 1u;  // the mag filter is Nearest (else Linear)
SPINEGPU_CONST k_page_min_nearest_bit = 2u;  // the min filter samples nearest within a level (else linearly)
SPINEGPU_CONST k_page_mip_shift = 2u;        // the min filter's mipmap mode, 2 bits:
SPINEGPU_CONST k_page_mip_none = 0u;         //   Nearest, Linear: level 0 only
SPINEGPU_CONST k_page_mip_nearest = 1u;      //   MipMapNearestNearest, MipMapLinearNearest: the nearest level
SPINEGPU_CONST k_page_mip_linear = 2u;       //   MipMap, MipMapNearestLinear, MipMapLinearLinear: between levels

// GpuSkeletonType::flags.
SPINEGPU_CONST k_type_colors = 1u;   // characters pack the colour section
SPINEGPU_CONST k_type_deform = 2u;   // characters pack the deform section

// Blend modes, as SkeletonData's BlendMode.
SPINEGPU_CONST k_blend_normal = 0u;
SPINEGPU_CONST k_blend_additive = 1u;
SPINEGPU_CONST k_blend_multiply = 2u;
SPINEGPU_CONST k_blend_screen = 3u;

struct GpuInfluence {
    uint bone;     // drawn-bone index within the type (into the character's bones)
    float weight;
    float x, y;    // position in the bone's space
};

struct GpuBindVertex {
    uint influence_first;  // into the influence buffer
    uint influence_count;
    float u, v;            // in the page array (already scaled to the page's part of the layer)
};

struct GpuAttachment {
    uint vertex_first;     // into the bind vertex buffer
    uint vertex_count;
    uint index_first;      // into the static index buffer (indices are attachment-local)
    uint index_count;      // 0 for clipping polygons
    uint influence_first;  // the attachment's first influence: weighted deform offsets are counted from it
    uint slot_and_end;     // slot | clipping end slot << 16 (0xFFFF: none)
    uint material;         // k_material_* bits
    uint color;            // the attachment's colour, RGBA8 (R in the low byte)
};

struct GpuSkeletonType {
    uint attachment_first;  // into the attachment buffer; draw-list ids are relative to it
    uint slot_count;
    uint slot_setup_first;  // into the slot setup buffer
    uint flags;             // k_type_*
    uint setup_list_first;  // into the setup list buffer: the type's setup draw lists, one per skin
};

struct GpuSlotSetup {
    uint light;     // RGBA8
    uint dark;      // RGB8 (alpha unused)
    uint sections;  // the slot's entry in the colour section | its entry in the deform section << 16; 0xFFFF
                    // for a slot that no colour (deform) timeline animates: it keeps its setup colours (no deform)
};

struct GpuCharacter {
    uint type;             // into the type buffer
    uint bone_first;       // into the frame's bone buffer, in bones (6 floats each)
    uint draw_first;       // into the frame's word buffer: slot_count 16-bit ids, two per word, low half first;
                           // with k_setup_list_bit, into the type's setup lists instead
    uint color_first;      // into the word buffer: light, dark per colour-animated slot (GpuSlotSetup::sections);
                           // or k_no_section
    uint deform_first;     // into the word buffer: per deform-animated slot the word offset of its deform floats
                           // (or k_no_section); or k_no_section when no slot is deformed this frame
    uint out_vertex_first; // where this character's skinned vertices go (as packed: how many it has)
    uint out_index_first;  // where its triangle indices go (as packed: how many it has)
    uint tint;             // skeleton colour (times the scene's tint), RGBA8
};

struct GpuOutVertex {
    float x, y;            // world position
    float u, v;            // page array coordinates
    uint light;            // RGBA8, straight: skeleton x slot x attachment colour
    uint dark;             // RGB8
    uint material;         // k_material_* bits | clip vertex count << k_material_clip_count_shift
    uint clip_first;       // the clipping polygon's first vertex in the out buffer (when the count is non-zero)
};

struct GpuDrawCommand {   // VkDrawIndexedIndirectCommand
    uint index_count;      // the visible characters' output indices
    uint instance_count;   // 1
    uint first_index;      // 0
    int vertex_offset;     // 0
    uint first_instance;   // 0
};

struct GpuTilePush {
    float scale, ox, oy;    // the 2D camera: px = ox + scale * x, py = oy - scale * y
    uint width, height;     // target size in pixels
    uint tiles_x, tiles_y;  // tile grid (k_tile_size pixels per side)
    uint words_per_tile;    // bitset words per tile in the tile buffer: one bit per visible character
    uint character_count;   // visible characters this frame
    uint index_total;       // triangle indices this frame (the end of the last character's triangles)
    uint background;        // the target's clear colour, premultiplied RGBA8
    uint row_width;         // triangle setup pass: characters per row of the dispatch grid
    uint mask_words;        // words in the tile mask pool (triangles.comp allocates each character's masks there)
};

struct GpuTriangle {
    int x0, y0, x1, y1, x2, y2;  // vertices on the raster's 1/256-pixel grid (a far vertex: its place in pixels,
                                 // float bits), the triangle oriented positively
    float u, v;            // UV at the first vertex's snapped position (a far one: at the target's corner)
    float u_x, v_x;        // UV change per pixel in x
    float u_y, v_y;        // UV change per pixel in y
    uint flags;            // k_triangle_top_left_mask and far vertex bits
    uint light, dark, material, clip_first;  // the first vertex's (GpuOutVertex)
};

struct GpuCharacterTiles {
    uint mask_first;   // into the tile mask pool: the masks of the character's tiles, row-major over its box of
                       // tiles, 1 + `words` words each: how many of its triangles meet the tile, then a bit per
                       // triangle (bit j of mask word w: triangle 32 w + j); or k_no_tile_mask
    uint tile_origin;  // the box's first tile: x | y << 16
    uint tile_extent;  // the box's size in tiles: columns | rows << 16
    uint words;        // mask words per tile: the character's triangle count / 32, rounded up
};

#ifdef __cplusplus
}  // namespace spinegpu::gpu
#endif
#undef SPINEGPU_CONST
#endif
