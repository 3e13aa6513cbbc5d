#version 450
// The tile rasterizer (RenderPath::gpu_tiles): the draw done in compute, for GPUs whose raster pipeline is a small
// part of the chip (an H200 shades with a few of its multiprocessors; its compute has all of them). One workgroup
// per 16x16-pixel tile, one thread per pixel, the pixel's colour kept in a register from the clear to the store.
//
// The tile's characters come from its bitset (set by triangles.comp) in character order, which is draw order; up
// to 256 of them at a time (a pass), one thread each reads where the character's mask for this tile is and how
// many of its triangles meet the tile. Then the workgroup draws the triangles the pass's characters offer, in
// order, 256 at a time (a round), across characters: each thread finds one from the counts and the masks and sets
// it up in shared memory (its exact coverage of each pair of rows, UV and looks). Then every thread walks the
// slots of its rows in order, queues the ones that cover its pixel centre and shades the queue (see
// rasterize_slots). A character without masks (the pool had no room for them) offers every triangle, and the set-up
// drops those that miss the tile. Coverage follows exact integer edge functions with the top-left rule on the
// snapped vertices, so the tile rasterizer covers what the raster pipeline covers (an edge through a vertex too far
// away for the grid is set up for each tile from the vertices' places, in 64-bit floats: tile_edges). Shading is
// shading.glsl's; the blend dst = src0 + dst * src1 is done here in 8-bit arithmetic, as a raster pipeline blends
// into an 8-bit target (lavapipe's blender exactly; hardware blenders may keep more bits inside one blend).
//
// Shared memory is synchronised by barriers at fixed points of every chunk, pass and round; where an array is
// cleared or written says which barrier makes it safe. All loops around barriers run the same number of times in
// every thread (their bounds come from shared memory or push constants).
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_KHR_shader_subgroup_vote : require
#ifdef SPINEGPU_RASTER_ONTO_UNFORMATTED
// (raster_onto_unformatted.comp: raster_onto.comp for images whose format no format qualifier names, BGRA8.)
#define SPINEGPU_RASTER_ONTO
#extension GL_EXT_shader_image_load_formatted : require
#endif
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 16, local_size_y = 16) in;  // k_tile_size

layout(std430, set = 0, binding = 6) readonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(set = 0, binding = 11) uniform sampler2DArray pages;
layout(set = 0, binding = 23) uniform sampler2DArray pages_nearest;
layout(set = 0, binding = 26) uniform sampler2DArray pages_srgb;
layout(set = 0, binding = 27) uniform sampler2DArray pages_srgb_nearest;
layout(std430, set = 0, binding = 24) readonly buffer PageFilters { uint page_filters[]; };
layout(std430, set = 0, binding = 13) readonly buffer TileBits { uint tile_bits[]; };
// [0]: covered pixels shaded this frame (all tiles), for the statistics; [4]: not 0 when a loop guard tripped (below).
layout(std430, set = 0, binding = 14) buffer Counters { uint counters[]; };
#if defined(SPINEGPU_RASTER_ONTO_UNFORMATTED)
// The application's BGRA8 image, read and written without a format (its components come and go in RGBA order).
layout(set = 0, binding = 15) uniform image2D target;
#elif defined(SPINEGPU_RASTER_ONTO)
// The application's image (Renderer::draw_onto; this variant is raster_onto.comp): each pixel starts from its own.
layout(set = 0, binding = 15, rgba8) uniform image2D target;
#else
layout(set = 0, binding = 15, rgba8) uniform writeonly image2D target;
#endif
layout(std430, set = 0, binding = 16) readonly buffer Triangles { GpuTriangle triangles[]; };
layout(std430, set = 0, binding = 17) readonly buffer TriangleBoxes { uvec2 triangle_boxes[]; };
layout(std430, set = 0, binding = 18) readonly buffer CharacterTiles { GpuCharacterTiles character_tiles[]; };
layout(std430, set = 0, binding = 19) readonly buffer TileMasks { uint tile_masks[]; };

layout(push_constant) uniform PushBlock { GpuTilePush push; };

// Diagnostics (SPINEGPU_DIAGNOSE_TILES=N), to tell where the time goes when profiling; wrong pixels, off in every
// normal run. 1: covered pixels are counted but not shaded; 2: offered triangles are set up but not rasterized; 3: the
// tile's characters are found and their masks read, but nothing is drawn. 4 (a test): each offered triangle's
// coverage masks and row bits are checked against its edge functions at every pixel of the tile, and each masked
// character's mask against its count (the bits' count, and not 0: the tile's bit is set only where the mask holds
// some); the pixel comes out opaque white where they disagree (all the tile's pixels for a wrong mask), opaque black
// elsewhere.
layout(constant_id = 0) const uint k_diagnose = 0u;
// Set for an image whose bytes come in BGRA order through this RGBA8 binding (the renderer's copy of the application's
// B8G8R8A8_SRGB image): red and blue swapped as each pixel is read and written.
layout(constant_id = 4) const bool k_swap_red_blue = false;

#include "camera.glsl"
#include "loop_canary.glsl"
#include "shading.glsl"
#include "tile_grid.glsl"

const uint k_threads = k_tile_size * k_tile_size;

shared uint s_words[k_threads];    // a chunk of the tile's bitset
shared uint s_word_mask[8];        // which of them are non-zero
// The pass's characters, in draw order: first triangle, where its mask for this tile starts in the pool
// (k_no_tile_mask: none, every triangle is offered), and how many triangles it offers.
shared uint s_char_first[k_threads];
shared uint s_char_mask[k_threads];
shared uint s_char_offered[k_threads];
// Per pair of pixel rows g, per slot: the pixels its triangle covers, bit (y & 1) * 16 + x.
shared uint s_cover[8 * k_threads];
// Two halves, used by alternate rounds. Per pair of pixel rows (2g, 2g + 1: the threads of one 32-wide subgroup on
// most GPUs), the slots whose box meets them (8 words): each thread walks only those.
shared uint s_rows[2 * 8 * 8];
shared vec2 s_uv[k_threads];       // UV at the tile's first pixel centre
shared vec2 s_uv_x[k_threads];     // UV step per pixel in x
shared vec2 s_uv_y[k_threads];     // UV step per pixel in y
shared uvec4 s_look[k_threads];    // light, dark, material and clip_first
// In linear light (k_linear_light), each 8-bit sRGB-encoded value decoded (srgb_to_linear), filled once per
// workgroup: a blend decodes its slot's light and dark colours and the pixel's own from here, not by pow.
shared float s_decoded[k_linear_light ? 256u : 1u];
shared uint s_shaded;
// k_diagnose 4: the triangle in each slot, | k_missed when its box misses the tile (the slot holds nothing else).
// One word in every other build: shared memory decides how many workgroups share a multiprocessor.
const uint k_diagnose_slots = k_diagnose == 4u ? k_threads : 1u;
shared uint s_triangle[k_diagnose_slots];
const uint k_missed = 0x80000000u;  // (triangle indices are below 2^31: a frame has at most 2^32 indices)
shared uint s_mask_wrong;  // k_diagnose 4: some character's mask for this tile disagrees with its count

// The position of the n-th set bit of `bits` (n < bitCount(bits)).
uint nth_bit(uint bits, uint n) {
    uint at = 0u;
    for (uint width = 16u; width != 0u; width >>= 1u) {
        uint low = bitCount(bits & ((1u << width) - 1u));
        if (n >= low) {
            n -= low;
            bits >>= width;
            at += width;
        }
    }
    return at;
}

// The pixel columns (x0..x1, within 0..15) of a tile row where an edge's value c + x * step is >= 0, narrowed
// from `span`. The float quotient -c / step is within 1e-5 of the exact boundary for the columns that matter
// (|boundary| <= 17; c is exact, converted once), so it decides unless the boundary lies within 1e-3 of a column;
// then the integer edge function decides.
ivec2 narrow_span(ivec2 span, int64_t c, int64_t step, float per_step) {
    if (step == 0l) return c >= 0l ? span : ivec2(0, -1);
    float boundary = clamp(-float(c) * per_step, -2.0, 18.0);
    float column = round(boundary);
    int x = int(column);
    if (abs(boundary - column) < 1e-3) {  // x is the boundary (to within the float error) or next to it
        bool inside = c + int64_t(x) * step >= 0l;
        if (step > 0l) return ivec2(max(span.x, inside ? x : x + 1), span.y);
        return ivec2(span.x, min(span.y, inside ? x : x - 1));
    }
    if (step > 0l) return ivec2(max(span.x, int(ceil(boundary))), span.y);
    return ivec2(span.x, min(span.y, int(floor(boundary))));
}

// A triangle's edges (`r`, its setup) for the tile whose first pixel is `origin`: edge k, from vertex k to k + 1,
// has the value edge[k] at the tile's first pixel centre, biased by the top-left rule so that "covered" is "all
// three >= 0", and the steps step_x[k], step_y[k] per pixel (64 bits: the vertices may lie far outside the tile).
// An edge with an end beyond the grid is set up from its ends' places (far_edge); the others from the snapped
// vertices, as the raster pipeline covers them.
void tile_edges(GpuTriangle r, ivec2 origin, out int64_t edge[3], out int64_t step_x[3], out int64_t step_y[3]) {
    ivec2 v[3] = ivec2[3](ivec2(r.x0, r.y0), ivec2(r.x1, r.y1), ivec2(r.x2, r.y2));
    uint far = (r.flags >> k_triangle_far_shift) & 7u;
    ivec2 centre = origin * 256 + 128;
    for (uint k = 0u; k < 3u; ++k) {
        uint l = k == 2u ? 0u : k + 1u;
        if ((far & (1u << k | 1u << l)) != 0u) {
            dvec2 a = (far & (1u << k)) != 0u ? dvec2(intBitsToFloat(v[k])) : dvec2(v[k]) / 256.0lf;
            dvec2 b = (far & (1u << l)) != 0u ? dvec2(intBitsToFloat(v[l])) : dvec2(v[l]) / 256.0lf;
            far_edge(a, b, dvec2(origin) + 0.5lf, edge[k], step_x[k], step_y[k]);
            continue;
        }
        ivec2 a = v[k], b = v[l];
        edge[k] = edge_at(a, b, centre) - ((r.flags & (1u << k)) != 0u ? 0l : 1l);
        step_x[k] = -int64_t(b.y - a.y) * 256l;
        step_y[k] = int64_t(b.x - a.x) * 256l;
    }
}

// The place in pixels the UV plane of triangle `r` is given at: its first vertex's snapped place, or the target's
// corner for a far one.
vec2 uv_anchor(GpuTriangle r) {
    return (r.flags & (1u << k_triangle_far_shift)) != 0u ? vec2(0.0) : vec2(r.x0, r.y0) / 256.0;
}

// Writes triangle t's entry for this tile into shared slot `slot`: its coverage of each pair of rows (exact spans
// per row from the integer edge functions with the top-left rule) and its row bits into the half of s_rows from
// `rows`, UV and looks; nothing when its pixel box misses the tile.
void write_entry(uint t, ivec2 origin, uint slot, uint rows) {
    uvec2 pixels = triangle_boxes[t];
    ivec2 lo = max(ivec2(pixels.x & 0xFFFFu, pixels.x >> 16) - origin, ivec2(0));
    ivec2 hi = min(ivec2(pixels.y & 0xFFFFu, pixels.y >> 16) - origin, ivec2(int(k_tile_size) - 1));
    if (k_diagnose == 4u) s_triangle[slot] = lo.x > hi.x || lo.y > hi.y ? t | k_missed : t;
    if (lo.x > hi.x || lo.y > hi.y) return;
    GpuTriangle r = triangles[t];
    int64_t edge[3], step_x[3], step_y[3];
    tile_edges(r, origin, edge, step_x, step_y);
    float per_step[3];
    for (int k = 0; k < 3; ++k) per_step[k] = step_x[k] != 0l ? 1.0 / float(step_x[k]) : 0.0;
    for (int group = lo.y >> 1; group <= hi.y >> 1; ++group) {
        uint bits = 0u;
        for (int y = max(2 * group, lo.y); y <= min(2 * group + 1, hi.y); ++y) {
            ivec2 span = ivec2(lo.x, hi.x);
            for (int k = 0; k < 3; ++k)
                span = narrow_span(span, edge[k] + int64_t(y) * step_y[k], step_x[k], per_step[k]);
            if (span.x <= span.y) bits |= (0xFFFFu >> uint(15 - (span.y - span.x))) << uint(span.x + (y & 1) * 16);
        }
        s_cover[uint(group) * k_threads + slot] = bits;
        if (bits != 0u) atomicOr(s_rows[rows + uint(group) * 8u + (slot >> 5)], 1u << (slot & 31u));
    }
    vec2 from_first = vec2(origin) + 0.5 - uv_anchor(r);
    vec2 per_x = vec2(r.u_x, r.v_x), per_y = vec2(r.u_y, r.v_y);
    s_uv[slot] = vec2(r.u, r.v) + per_x * from_first.x + per_y * from_first.y;
    s_uv_x[slot] = per_x;
    s_uv_y[slot] = per_y;
    s_look[slot] = uvec4(r.light, r.dark, r.material, r.clip_first);
}

// Linear light: the RGB of an RGBA8 (packed, sRGB-encoded) decoded, from s_decoded.
vec3 decoded_rgb(uint packed) {
    return vec3(s_decoded[packed & 0xFFu], s_decoded[(packed >> 8) & 0xFFu], s_decoded[(packed >> 16) & 0xFFu]);
}

// This thread's pixel (premultiplied RGBA8) after slot k's triangle, which covers it, is shaded and blended in 8-bit
// arithmetic: both blend inputs rounded to 8 bits, the product rounded, the sum saturated (exact in float: every
// value is a whole number below 2^16). In linear light (k_linear_light: the pixel's colour sRGB-encoded, as an sRGB
// image holds it), as a device blends into an sRGB attachment: the pixel's colour decoded, blended in float, the
// result encoded and rounded to 8 bits; the 8-bit colours (the slot's and the pixel's) are decoded from s_decoded.
uint shade_and_blend(uint k, ivec2 local, ivec2 pixel, uint dst) {
    if (k_diagnose == 1u) return dst;
    uvec4 look = s_look[k];
    uint material = look.z;
    uint clip_count = material >> k_material_clip_count_shift;
    if (clip_count != 0u && !inside_clip(look.w, clip_count, vec2(pixel) + 0.5, push.scale, push.ox, push.oy))
        return dst;
    vec2 uv = s_uv[k] + float(local.x) * s_uv_x[k] + float(local.y) * s_uv_y[k];
    vec4 t = page_texel(uv, s_uv_x[k], s_uv_y[k], material);
    vec4 src0, src1;
    if (k_linear_light) {
        shade(t, vec4(decoded_rgb(look.x), float(look.x >> 24) / 255.0), decoded_rgb(look.y), material, src0, src1);
        vec4 d = vec4(decoded_rgb(dst), float(dst >> 24) / 255.0);
        vec4 blended = clamp(clamp(src0, 0.0, 1.0) + d * clamp(src1, 0.0, 1.0), 0.0, 1.0);
        uvec4 stored = uvec4(round(vec4(linear_to_srgb(blended.rgb), blended.a) * 255.0));
        return stored.x | stored.y << 8 | stored.z << 16 | stored.w << 24;
    }
    shade(t, unpackUnorm4x8(look.x), unpackUnorm4x8(look.y).rgb, material, src0, src1);
    vec4 d = vec4(uvec4(dst, dst >> 8, dst >> 16, dst >> 24) & 0xFFu);
    vec4 s0 = round(clamp(src0, 0.0, 1.0) * 255.0), s1 = round(clamp(src1, 0.0, 1.0) * 255.0);
    uvec4 sum = uvec4(min(s0 + round(d * s1 / 255.0), vec4(255.0)));
    return sum.x | sum.y << 8 | sum.z << 16 | sum.w << 24;
}

// Shades and blends `count` queued slots (8 bits each, first in the low byte of q.x, the fifth in q.y's) into
// `dst`, in order.
uint flush(uvec2 queue, uint count, ivec2 local, ivec2 pixel, uint dst) {
    for (uint j = 0u; j < count; ++j)
        dst = shade_and_blend(((j < 4u ? queue.x : queue.y) >> (8u * (j & 3u))) & 0xFFu, local, pixel, dst);
    return dst;
}

// Blends the triangles in the slots (rows from the half of s_rows at `rows_half`) that cover this thread's
// pixel into `dst`, in slot order. The threads walk their rows' slots together and queue the covering ones (up to
// eight), and after each word of slots the subgroup shades together if any queue holds four or more: a subgroup
// shades about as often as its most covered pixel needs, not once per triangle that any of its pixels meets, and
// queues filling at different slots do not shade one after another.
void rasterize_slots(uint rows_half, ivec2 local, ivec2 pixel, inout uint dst, inout uint shaded) {
    uint rows = rows_half + uint(local.y >> 1) * 8u;
    uint cover = uint(local.y >> 1) * k_threads;  // this pair of rows' coverage in s_cover
    uint lane = 1u << uint(local.x + (local.y & 1) * 16);
    uvec2 queue = uvec2(0u);
    uint queued = 0u;
    for (uint w = 0u; w < 8u; ++w) {
        uint bits = s_rows[rows + w];
        while (bits != 0u) {
            uint k = w * 32u + uint(findLSB(bits));
            bits &= bits - 1u;
            if ((s_cover[cover + k] & lane) == 0u) continue;
            if (queued == 8u) {  // rare: more than four of one word's slots cover the pixel
                dst = flush(queue, queued, local, pixel, dst);
                queue = uvec2(0u);
                queued = 0u;
            }
            if (queued < 4u) queue.x |= k << (8u * queued);
            else queue.y |= k << (8u * (queued - 4u));
            ++queued;
            ++shaded;
        }
        if (subgroupAny(queued >= 4u)) {
            dst = flush(queue, queued, local, pixel, dst);
            queue = uvec2(0u);
            queued = 0u;
        }
    }
    dst = flush(queue, queued, local, pixel, dst);
}

// k_diagnose 4: whether the first `count` slots' coverage masks and row bits (rows from `rows_half`) disagree with
// their triangles' edge functions at this thread's pixel; counts the triangles covering it in `shaded`.
bool coverage_disagrees(uint count, uint rows_half, ivec2 local, ivec2 pixel, inout uint shaded) {
    uint group = uint(local.y >> 1);
    uint lane = 1u << uint(local.x + (local.y & 1) * 16);
    bool wrong = false;
    for (uint k = 0u; k < count; ++k) {
        uint t = s_triangle[k] & ~k_missed;
        // Near edges by edge_at at the pixel itself; far ones set up for the tile, then stepped to the pixel. A
        // triangle with a far vertex and an empty box covers nothing (its places may not be finite).
        GpuTriangle r = triangles[t];
        int64_t edge[3], step_x[3], step_y[3];
        tile_edges(r, pixel - local, edge, step_x, step_y);
        ivec2 v[3] = ivec2[3](ivec2(r.x0, r.y0), ivec2(r.x1, r.y1), ivec2(r.x2, r.y2));
        uint far = (r.flags >> k_triangle_far_shift) & 7u;
        bool inside = far == 0u || triangle_boxes[t] != uvec2(0xFFFFu, 0u);
        for (uint e = 0u; e < 3u; ++e) {
            uint f = e == 2u ? 0u : e + 1u;
            int64_t value = (far & (1u << e | 1u << f)) != 0u
                                ? edge[e] + local.x * step_x[e] + local.y * step_y[e]
                                : edge_at(v[e], v[f], pixel * 256 + 128) - ((r.flags & (1u << e)) != 0u ? 0l : 1l);
            inside = inside && value >= 0l;
        }
        // Masks are written for the row pairs the triangle's box meets (none when it misses the tile); the others
        // are stale and must be unlisted.
        uvec2 pixels = triangle_boxes[t];
        int first_row = int(pixels.x >> 16) - int(gl_WorkGroupID.y * k_tile_size);
        int last_row = int(pixels.y >> 16) - int(gl_WorkGroupID.y * k_tile_size);
        bool in_box_rows = int(group) >= (max(first_row, 0) >> 1) && int(group) <= (min(last_row, 15) >> 1);
        bool missed = (s_triangle[k] & k_missed) != 0u;
        bool masked = !missed && in_box_rows && (s_cover[group * k_threads + k] & lane) != 0u;
        bool listed = !missed && (s_rows[rows_half + group * 8u + (k >> 5)] & (1u << (k & 31u))) != 0u;
        wrong = wrong || masked != inside || (inside && !listed);
        if (inside) ++shaded;
    }
    return wrong;
}

// The character of rank `rank` among the set bits of the chunk of the bitset in s_words (bitset word `chunk` first).
uint nth_character(uint chunk, uint rank) {
    for (uint m = 0u; m < 8u; ++m) {
        uint mask = s_word_mask[m];
        while (mask != 0u) {
            uint w = m * 32u + uint(findLSB(mask));
            mask &= mask - 1u;
            uint bits = s_words[w];
            uint n = uint(bitCount(bits));
            if (rank < n) return (chunk + w) * 32u + nth_bit(bits, rank);
            rank -= n;
        }
    }
    return 0u;  // not reached: rank < the chunk's count
}

// Fills the pass's entry `i` for visible character c: its first triangle, its mask for this tile and how many
// triangles it offers.
void describe_character(uint c, uint i) {
    uint first = characters[c].out_index_first / 3u;
    uint end = (c + 1u < push.character_count ? characters[c + 1u].out_index_first : push.index_total) / 3u;
    GpuCharacterTiles r = character_tiles[c];
    uint at = k_no_tile_mask, offered = end - first;
    ivec2 tile = ivec2(gl_WorkGroupID.xy) - ivec2(r.tile_origin & 0xFFFFu, r.tile_origin >> 16);
    ivec2 extent = ivec2(r.tile_extent & 0xFFFFu, r.tile_extent >> 16);
    if (r.mask_first != k_no_tile_mask && all(greaterThanEqual(tile, ivec2(0))) && all(lessThan(tile, extent))) {
        at = r.mask_first + (uint(tile.y) * uint(extent.x) + uint(tile.x)) * (r.words + 1u);
        offered = tile_masks[at];
        if (k_diagnose == 4u) {
            uint bits = 0u;
            for (uint w = 0u; w < r.words; ++w) bits += uint(bitCount(tile_masks[at + 1u + w]));
            if (bits != offered || offered == 0u) atomicOr(s_mask_wrong, 1u);
        }
    }
    s_char_first[i] = first;
    s_char_mask[i] = at;
    s_char_offered[i] = offered;
}

// The triangle that entry i offers as its n-th (n < s_char_offered[i]).
uint offered_triangle(uint i, uint n) {
    uint first = s_char_first[i], at = s_char_mask[i];
    if (at == k_no_tile_mask) return first + n;
    for (uint w = 0u; at + 1u + w < push.mask_words; ++w) {  // (the count is the mask's; the bound keeps a wrong
                                                              // one inside the pool)
        uint bits = tile_masks[at + 1u + w];
        uint count = uint(bitCount(bits));
        if (n < count) return first + 32u * w + nth_bit(bits, n);
        n -= count;
    }
    return first;  // not reached: the count is the mask's
}

// Draws the triangles that the pass's `n` entries offer, in order, k_threads per round. `round` counts the
// tile's rounds (it picks the half of s_rows).
void draw_pass(uint n, ivec2 origin, ivec2 local, ivec2 pixel, inout uint round, inout uint dst, inout uint shaded) {
    uint tid = gl_LocalInvocationIndex;
    uint total = 0u;
    for (uint i = 0u; i < n; ++i) total += s_char_offered[i];
    uint entry = 0u, entry_base = 0u;  // the entry holding the round's first rank, and its first rank
    for (uint base = 0u; base < total; base += k_threads) {
        if (base != 0u) barrier();  // every thread is done with the previous round's slots
        while (entry_base + s_char_offered[entry] <= base) entry_base += s_char_offered[entry++];
        uint rows = (round & 1u) * 64u;
        uint rank = base + tid;
        if (rank < total) {
            uint i = entry, before = entry_base;
            while (before + s_char_offered[i] <= rank) before += s_char_offered[i++];
            write_entry(offered_triangle(i, rank - before), origin, tid, rows);
        }
        barrier();
        // The other half was last read by the previous round, which every thread finished before the barrier
        // above this round's set-up; the next round writes it after its own first barrier.
        if (tid < 64u) s_rows[(rows ^ 64u) + tid] = 0u;
        ++round;
        if (k_diagnose == 2u) shaded += min(total - base, k_threads);
        else if (k_diagnose == 4u)
            dst |= coverage_disagrees(min(total - base, k_threads), rows, local, pixel, shaded) ? ~0u : 0u;
        else rasterize_slots(rows, local, pixel, dst, shaded);
    }
}

void main() {
    uint tid = gl_LocalInvocationIndex;
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * int(k_tile_size);
    ivec2 local = ivec2(gl_LocalInvocationID.xy);
    ivec2 pixel = origin + local;
    uint dst = k_diagnose == 4u ? 0xFF000000u : push.background;  // premultiplied RGBA8
#ifdef SPINEGPU_RASTER_ONTO
    // (8-bit UNORM: packing gives the pixel's bytes back.)
    if (k_diagnose != 4u && pixel.x < int(push.width) && pixel.y < int(push.height))
        dst = packUnorm4x8(k_swap_red_blue ? imageLoad(target, pixel).bgra : imageLoad(target, pixel));
#endif
    uint shaded = 0u;
    uint round = 0u;
    if (tid == 0u) s_shaded = 0u;
    if (tid == 0u) s_mask_wrong = 0u;
    if (tid < 128u) s_rows[tid] = 0u;  // both halves (first read after the chunk's barriers)
    if (k_linear_light)  // (likewise)
        for (uint i = tid; i < 256u; i += k_threads) s_decoded[i] = srgb_to_linear(vec3(float(i) / 255.0)).x;
    uint bits_first = (gl_WorkGroupID.y * push.tiles_x + gl_WorkGroupID.x) * push.words_per_tile;
    for (uint chunk = 0u; chunk < push.words_per_tile; chunk += k_threads) {
        if (tid < 8u) s_word_mask[tid] = 0u;
        barrier();
        uint word = chunk + tid < push.words_per_tile ? tile_bits[bits_first + chunk + tid] : 0u;
        s_words[tid] = word;
        if (word != 0u) atomicOr(s_word_mask[tid >> 5], 1u << (tid & 31u));
        barrier();
        uint count = 0u;  // the chunk's characters
        for (uint m = 0u; m < 8u; ++m) {
            uint mask = s_word_mask[m];
            while (mask != 0u) {
                count += uint(bitCount(s_words[m * 32u + uint(findLSB(mask))]));
                mask &= mask - 1u;
            }
        }
        for (uint pass_first = 0u; pass_first < count; pass_first += k_threads) {
            uint n = min(count - pass_first, k_threads);
            if (pass_first != 0u) barrier();  // every thread is done with the previous pass's entries
            if (tid < n) describe_character(nth_character(chunk, pass_first + tid), tid);
            barrier();
            if (k_diagnose == 3u) shaded += n;
            else draw_pass(n, origin, local, pixel, round, dst, shaded);
        }
        barrier();  // s_words and s_word_mask are rewritten by the next chunk
    }
    barrier();
    atomicAdd(s_shaded, shaded);
    barrier();
    if (tid == 0u && s_shaded != 0u) atomicAdd(counters[0], s_shaded);
    if (k_diagnose == 4u && s_mask_wrong != 0u) dst = ~0u;
    if (pixel.x < int(push.width) && pixel.y < int(push.height))
        imageStore(target, pixel, k_swap_red_blue ? unpackUnorm4x8(dst).bgra : unpackUnorm4x8(dst));
    if (loops_ran_out()) atomicOr(counters[4], 1u);
}
