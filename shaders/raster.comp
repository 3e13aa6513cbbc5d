#version 450
// The tile rasterizer (RenderPath::gpu_tiles): the draw done in compute, for GPUs whose raster pipeline is a small
// part of the chip (an H200 shades with a few of its multiprocessors; its compute has all of them). One workgroup
// per 16x16-pixel tile, one thread per pixel, the pixel's colour kept in a register from the clear to the store.
//
// The tile's characters come from its bitset (set by triangles.comp) in character order, which is draw order. For
// each, the workgroup takes the character's triangles (set up by triangles.comp) 512 at a time, two per thread,
// keeps those whose pixel box meets the tile, and sets them up in shared memory in order (one thread per kept
// triangle) with their edge functions at the tile's first pixel centre and a mask per pair of rows. Then every
// thread walks the kept triangles of its rows in order, queues the ones that cover its pixel centre and shades the
// queue (see rasterize_slots). Coverage is exact integer edge functions with the top-left rule on the snapped
// vertices, so the tile rasterizer covers what the raster pipeline covers. Shading is shading.glsl's; the blend
// dst = src0 + dst * src1 is done here in 8-bit arithmetic, as a raster pipeline blends into an 8-bit target
// (lavapipe's blender exactly; hardware blenders may keep more bits inside one blend).
//
// Shared memory is synchronised by barriers at fixed points of every batch (draw_character); where an array is
// cleared or written says which barrier makes it safe. All loops around barriers run the same number of times in
// every thread (their bounds come from shared memory or push constants).
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 16, local_size_y = 16) in;  // k_tile_size

layout(std430, set = 0, binding = 6) readonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(set = 0, binding = 11) uniform sampler2DArray pages;
layout(std430, set = 0, binding = 13) readonly buffer TileBits { uint tile_bits[]; };
// [0]: covered pixels shaded this frame (all tiles), for the statistics.
layout(std430, set = 0, binding = 14) buffer Counters { uint counters[]; };
layout(set = 0, binding = 15, rgba8) uniform writeonly image2D target;
layout(std430, set = 0, binding = 16) readonly buffer Triangles { GpuTriangle triangles[]; };
layout(std430, set = 0, binding = 17) readonly buffer TriangleBoxes { uvec2 triangle_boxes[]; };

layout(push_constant) uniform PushBlock { GpuTilePush push; };

// Diagnostics (SPINEGPU_DIAGNOSE_TILES=N), to tell where the time goes when profiling; wrong pixels, off in every
// normal run. 1: covered pixels are counted but not shaded; 2: triangles are kept but not rasterized; 3: the
// tile's characters are found but not drawn.
layout(constant_id = 0) const uint k_diagnose = 0u;

#include "camera.glsl"
#include "shading.glsl"
#include "tile_grid.glsl"

const uint k_threads = k_tile_size * k_tile_size;
const uint k_wide = 0x10000u;  // s_box flag: the triangle's edge functions need 64 bits here
const uint k_candidates = 2u;  // triangles each thread tests per batch

shared uint s_words[k_threads];    // a chunk of the tile's bitset
shared uint s_word_mask[8];        // which of them are non-zero
shared uint s_kept[k_threads];     // this round's kept triangles, in slot order
shared uint s_keep_mask[8 * k_candidates];  // which candidates meet the tile (word j * 8 + w: candidate j)
// Per kept triangle, in order. Narrow: per edge k, its value at the tile's first pixel centre and its steps per
// pixel in x and y (rows 3k, 3k + 1, 3k + 2). Wide: the three snapped vertices (rows 0..5) and the top-left flags
// (row 6).
shared int s_edges[9 * k_threads];
shared uint s_box[k_threads];      // covered pixel range in the tile: x0 | y0 << 4 | x1 << 8 | y1 << 12 | k_wide
// Per pair of pixel rows (2g, 2g + 1: the threads of one 32-wide subgroup on most GPUs), the slots whose box meets
// them (8 words): each thread walks only those.
shared uint s_rows[8 * 8];
shared vec2 s_uv[k_threads];       // UV at the tile's first pixel centre
shared vec2 s_uv_x[k_threads];     // UV step per pixel in x
shared vec2 s_uv_y[k_threads];     // UV step per pixel in y
shared uvec4 s_look[k_threads];    // light, dark, material and clip_first
shared uint s_shaded;

int64_t abs64(int64_t v) { return v < 0l ? -v : v; }

// Whether triangle t's pixel box meets the tile whose first pixel is `origin`.
bool meets_tile(uint t, ivec2 origin) {
    uvec2 box = triangle_boxes[t];
    ivec2 lo = ivec2(box.x & 0xFFFFu, box.x >> 16) - origin;
    ivec2 hi = ivec2(box.y & 0xFFFFu, box.y >> 16) - origin;
    return max(lo.x, 0) <= min(hi.x, int(k_tile_size) - 1) && max(lo.y, 0) <= min(hi.y, int(k_tile_size) - 1);
}

// Writes triangle t's entry for this tile into shared slot `slot`.
void write_entry(uint t, ivec2 origin, uint slot) {
    GpuTriangle r = triangles[t];
    uvec2 pixels = triangle_boxes[t];
    ivec2 lo = max(ivec2(pixels.x & 0xFFFFu, pixels.x >> 16) - origin, ivec2(0));
    ivec2 hi = min(ivec2(pixels.y & 0xFFFFu, pixels.y >> 16) - origin, ivec2(int(k_tile_size) - 1));
    uint box = uint(lo.x) | uint(lo.y) << 4 | uint(hi.x) << 8 | uint(hi.y) << 12;
    ivec2 v[3] = ivec2[3](ivec2(r.x0, r.y0), ivec2(r.x1, r.y1), ivec2(r.x2, r.y2));
    // Edge k runs from vertex k to vertex k + 1; values at the tile's first pixel centre, biased by the top-left
    // rule so that "covered" is "all three >= 0".
    ivec2 centre = origin * 256 + 128;
    bool narrow = true;
    int edges[9];
    for (int k = 0; k < 3; ++k) {
        ivec2 a = v[k], b = v[(k + 1) % 3];
        int64_t e = edge_at(a, b, centre) - ((r.flags & (1u << k)) != 0u ? 0l : 1l);
        int64_t step_x = -int64_t(b.y - a.y) * 256l, step_y = int64_t(b.x - a.x) * 256l;
        narrow = narrow && abs64(e) + int64_t(k_tile_size) * (abs64(step_x) + abs64(step_y)) < 2147483647l;
        edges[3 * k] = int(e);
        edges[3 * k + 1] = int(step_x);
        edges[3 * k + 2] = int(step_y);
    }
    if (!narrow) {
        box |= k_wide;
        edges = int[9](r.x0, r.y0, r.x1, r.y1, r.x2, r.y2, int(r.flags), 0, 0);
    }
    for (uint e = 0u; e < 9u; ++e) s_edges[e * k_threads + slot] = edges[e];
    s_box[slot] = box;
    for (int group = lo.y >> 1; group <= hi.y >> 1; ++group)
        atomicOr(s_rows[group * 8 + int(slot >> 5)], 1u << (slot & 31u));
    vec2 from_first = vec2(origin) + 0.5 - vec2(r.x0, r.y0) / 256.0;
    vec2 per_x = vec2(r.u_x, r.v_x), per_y = vec2(r.u_y, r.v_y);
    s_uv[slot] = vec2(r.u, r.v) + per_x * from_first.x + per_y * from_first.y;
    s_uv_x[slot] = per_x;
    s_uv_y[slot] = per_y;
    s_look[slot] = uvec4(r.light, r.dark, r.material, r.clip_first);
}

// Whether kept triangle k covers this thread's pixel (`local` in the tile, `pixel` in the target).
bool covers(uint k, ivec2 local, ivec2 pixel) {
    uint box = s_box[k];
    if (local.x < int(box & 15u) || local.y < int((box >> 4) & 15u) || local.x > int((box >> 8) & 15u) ||
        local.y > int((box >> 12) & 15u))
        return false;
    if ((box & k_wide) == 0u) {
        int a = s_edges[k] + local.x * s_edges[k_threads + k] + local.y * s_edges[2u * k_threads + k];
        int b = s_edges[3u * k_threads + k] + local.x * s_edges[4u * k_threads + k] +
                local.y * s_edges[5u * k_threads + k];
        int c = s_edges[6u * k_threads + k] + local.x * s_edges[7u * k_threads + k] +
                local.y * s_edges[8u * k_threads + k];
        return (a | b | c) >= 0;
    }
    ivec2 v0 = ivec2(s_edges[k], s_edges[k_threads + k]);
    ivec2 v1 = ivec2(s_edges[2u * k_threads + k], s_edges[3u * k_threads + k]);
    ivec2 v2 = ivec2(s_edges[4u * k_threads + k], s_edges[5u * k_threads + k]);
    int flags = s_edges[6u * k_threads + k];
    ivec2 centre = pixel * 256 + 128;
    return edge_at(v0, v1, centre) - ((flags & 1) != 0 ? 0l : 1l) >= 0l &&
           edge_at(v1, v2, centre) - ((flags & 2) != 0 ? 0l : 1l) >= 0l &&
           edge_at(v2, v0, centre) - ((flags & 4) != 0 ? 0l : 1l) >= 0l;
}

// This thread's pixel (premultiplied RGBA8) after kept triangle k, which covers it, is shaded and blended in 8-bit
// arithmetic: both blend inputs rounded to 8 bits, the product rounded, the sum saturated (exact in float: every
// value is a whole number below 2^16).
uint shade_and_blend(uint k, ivec2 local, ivec2 pixel, uint dst) {
    if (k_diagnose == 1u) return dst;
    uvec4 look = s_look[k];
    uint material = look.z;
    uint clip_count = material >> k_material_clip_count_shift;
    if (clip_count != 0u && !inside_clip(look.w, clip_count, vec2(pixel) + 0.5, push.scale, push.ox, push.oy))
        return dst;
    vec2 uv = s_uv[k] + float(local.x) * s_uv_x[k] + float(local.y) * s_uv_y[k];
    vec4 t = textureLod(pages, vec3(uv, float(material & k_material_layer_mask)), 0.0);
    vec4 src0, src1;
    shade(t, unpackUnorm4x8(look.x), unpackUnorm4x8(look.y).rgb, material, src0, src1);
    vec4 s0 = round(clamp(src0, 0.0, 1.0) * 255.0), s1 = round(clamp(src1, 0.0, 1.0) * 255.0);
    vec4 d = vec4(uvec4(dst, dst >> 8, dst >> 16, dst >> 24) & 0xFFu);
    uvec4 sum = uvec4(min(s0 + round(d * s1 / 255.0), vec4(255.0)));
    return sum.x | sum.y << 8 | sum.z << 16 | sum.w << 24;
}

// Shades and blends `count` queued slots (8 bits each, first in the low byte) into `dst`, in order.
uint flush(uint queue, uint count, ivec2 local, ivec2 pixel, uint dst) {
    for (uint j = 0u; j < count; ++j) dst = shade_and_blend((queue >> (8u * j)) & 0xFFu, local, pixel, dst);
    return dst;
}

// Blends the kept triangles in the slots that cover this thread's pixel into `dst`, in slot order. The threads
// walk their rows' slots together and queue the covering ones (up to four), then shade the queue: a subgroup
// shades about as often as its most covered pixel needs, not once per triangle that any of its pixels meets.
void rasterize_slots(ivec2 local, ivec2 pixel, inout uint dst, inout uint shaded) {
    uint rows = uint(local.y >> 1) * 8u;
    uint queue = 0u, queued = 0u;
    for (uint w = 0u; w < 8u; ++w) {
        uint bits = s_rows[rows + w];
        while (bits != 0u) {
            uint k = w * 32u + uint(findLSB(bits));
            bits &= bits - 1u;
            if (!covers(k, local, pixel)) continue;
            if (queued == 4u) {
                dst = flush(queue, queued, local, pixel, dst);
                queue = 0u;
                queued = 0u;
            }
            queue |= k << (8u * queued);
            ++queued;
            ++shaded;
        }
    }
    dst = flush(queue, queued, local, pixel, dst);
}

// Draws visible character c's triangles that touch this tile, in order. Each thread tests k_candidates
// triangles of a batch (so that one batch holds a whole character of up to k_candidates * 256 triangles and one
// round of loads serves it); the kept ones go through shared memory 256 at a time.
void draw_character(uint c, ivec2 origin, ivec2 local, ivec2 pixel, inout uint dst, inout uint shaded) {
    uint tid = gl_LocalInvocationIndex;
    uint first = characters[c].out_index_first / 3u;
    uint end = (c + 1u < push.character_count ? characters[c + 1u].out_index_first : push.index_total) / 3u;
    for (uint t0 = first; t0 < end; t0 += k_candidates * k_threads) {
        if (tid < k_candidates * 8u) s_keep_mask[tid] = 0u;
        barrier();  // also: every thread is done with the previous batch's slots and row masks
        if (tid < 64u) s_rows[tid] = 0u;  // (written again only after two more barriers)
        uint keep = 0u;  // bit j: candidate t0 + j * 256 + tid meets the tile
        for (uint j = 0u; j < k_candidates; ++j) {
            uint t = t0 + j * k_threads + tid;
            if (t < end && meets_tile(t, origin)) keep |= 1u << j;
        }
        for (uint j = 0u; j < k_candidates; ++j)
            if ((keep & (1u << j)) != 0u) atomicOr(s_keep_mask[j * 8u + (tid >> 5)], 1u << (tid & 31u));
        barrier();
        // Rank of each kept candidate among the batch's kept ones (candidate order is triangle order).
        uint kept = 0u;
        uint rank[k_candidates];
        for (uint w = 0u; w < k_candidates * 8u; ++w) {
            uint mask = s_keep_mask[w];
            if ((w & 7u) == (tid >> 5)) rank[w >> 3] = kept + bitCount(mask & ((1u << (tid & 31u)) - 1u));
            kept += bitCount(mask);
        }
        for (uint base = 0u; base < kept; base += k_threads) {
            if (base != 0u) {  // every thread is done with the previous slots
                barrier();
                if (tid < 64u) s_rows[tid] = 0u;
                barrier();
            }
            // The kept triangles' indices in slot order, then one thread per slot sets it up (so that the set-up
            // work runs on as few subgroups as there are slots, not wherever the kept candidates happened to be).
            for (uint j = 0u; j < k_candidates; ++j)
                if ((keep & (1u << j)) != 0u && rank[j] >= base && rank[j] < base + k_threads)
                    s_kept[rank[j] - base] = t0 + j * k_threads + tid;
            barrier();
            if (tid < kept - base) write_entry(s_kept[tid], origin, tid);
            barrier();
            if (k_diagnose == 2u) shaded += min(kept - base, k_threads);
            else rasterize_slots(local, pixel, dst, shaded);
        }
    }
}

void main() {
    uint tid = gl_LocalInvocationIndex;
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * int(k_tile_size);
    ivec2 local = ivec2(gl_LocalInvocationID.xy);
    ivec2 pixel = origin + local;
    uint dst = push.background;  // premultiplied RGBA8
    uint shaded = 0u;
    if (tid == 0u) s_shaded = 0u;
    uint bits_first = (gl_WorkGroupID.y * push.tiles_x + gl_WorkGroupID.x) * push.words_per_tile;
    for (uint chunk = 0u; chunk < push.words_per_tile; chunk += k_threads) {
        if (tid < 8u) s_word_mask[tid] = 0u;
        barrier();
        uint word = chunk + tid < push.words_per_tile ? tile_bits[bits_first + chunk + tid] : 0u;
        s_words[tid] = word;
        if (word != 0u) atomicOr(s_word_mask[tid >> 5], 1u << (tid & 31u));
        barrier();
        for (uint m = 0u; m < 8u; ++m) {
            uint mask = s_word_mask[m];
            while (mask != 0u) {
                uint w = uint(findLSB(mask));
                mask &= mask - 1u;
                uint bits = s_words[m * 32u + w];
                while (bits != 0u) {
                    uint b = uint(findLSB(bits));
                    bits &= bits - 1u;
                    if (k_diagnose == 3u) ++shaded;
                    else draw_character((chunk + m * 32u + w) * 32u + b, origin, local, pixel, dst, shaded);
                }
            }
        }
        barrier();  // s_words and s_word_mask are rewritten by the next chunk
    }
    barrier();
    atomicAdd(s_shaded, shaded);
    barrier();
    if (tid == 0u && s_shaded != 0u) atomicAdd(counters[0], s_shaded);
    if (pixel.x < int(push.width) && pixel.y < int(push.height)) imageStore(target, pixel, unpackUnorm4x8(dst));
}
