#version 450
// The tile rasterizer's triangle setup and binning (RenderPath::gpu_tiles), after the skinning pass: one workgroup per
// visible character, one thread per triangle. It places the vertices as draw.vert and the viewport transform do, snaps
// them to the raster's 1/256-pixel grid, orients the triangle positively (y down), and writes what every tile the
// triangle touches needs: the box of pixel centres it may cover, the snapped vertices (a vertex beyond the grid's reach
// is marked far and keeps its place in floats, and the rasterizer sets the edges through it up from the places), the
// top-left rule per edge, UV as a plane over the positions the device's raster pipeline interpolates it over, and the
// first vertex's colours and material (flat, as the draw's provoking vertex gives them). Then it sets the triangle's
// bit in the character's mask of every tile that box touches (built in shared memory over the character's box of tiles,
// then copied to the pool; a character whose masks do not fit shared memory, one some hundreds of pixels tall, builds
// them in the pool itself), and the character's bit in each of those tiles (once per tile from the masks; per triangle
// and tile for a character the pool had no room for). Where these marks go to memory (masks in the pool, or none), the
// workgroup shares out the triangle and tile pairs. Bits are set with atomicOr, so the order of the work does not
// matter: the rasterizer reads each tile's bits in character order, which is draw order, and each mask in triangle
// order.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 64) in;  // k_triangle_workgroup

layout(std430, set = 0, binding = 6) readonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(std430, set = 0, binding = 10) readonly buffer OutIndices { uint out_indices[]; };
// Per tile (row-major), words_per_tile words: bit c of the bitset is visible character c.
layout(std430, set = 0, binding = 13) buffer TileBits { uint tile_bits[]; };
layout(std430, set = 0, binding = 16) writeonly buffer Triangles { GpuTriangle triangles[]; };
// Per triangle, the box of pixel centres it may cover in the target: min x | min y << 16, max x | max y << 16
// (min > max: none). Apart from the rest, so that the rasterizer's tests of every triangle read 8 bytes each.
layout(std430, set = 0, binding = 17) buffer TriangleBoxes { uvec2 triangle_boxes[]; };
// [1]: tile mask words allocated from the pool this frame; [2]: words asked for, in k_tile_mask_demand_unit units;
// [3]: characters in view that got no masks (the pool had no room for them); [4]: not 0 when a loop guard tripped
// (k_loop_canary). Coherent: the limits below read the counts that other workgroups change.
layout(std430, set = 0, binding = 14) coherent buffer Counters { uint counters[]; };
layout(std430, set = 0, binding = 18) writeonly buffer CharacterTiles { GpuCharacterTiles character_tiles[]; };
// Coherent: a large character's masks are cleared with stores, set with atomics and their counts read, each by
// other threads of the workgroup than the one before.
layout(std430, set = 0, binding = 19) coherent buffer TileMasks { uint tile_masks[]; };

layout(push_constant) uniform PushBlock { GpuTilePush push; };

// The vertices of the UV plane, as the device's raster pipeline takes them: 0, the snapped ones (NVIDIA's); 1, the
// placed ones before snapping (lavapipe's). The renderer sets 1 on CPU implementations. It matters where pages are
// minified many times: there, small UV differences pick other texels. With the wrong plane, a crowd of 15-pixel
// spineboys on the H200 had 4.7% of its pixels off the raster pipeline's by more than 2/255 (none with the snapped
// one and placed() below), and lavapipe's crowded-tiles test 1,433 channels (within its limit of 25 with the
// placed one).
layout(constant_id = 0) const uint k_uv_plane_placed = 0u;

#include "camera.glsl"
#include "loop_canary.glsl"
#include "tile_grid.glsl"

// Sets up triangle t; returns its box of pixel centres in the target (min x, min y, max x, max y; min > max when it
// covers none). A triangle with a vertex beyond the grid is oriented and boxed in floats from the places its edges
// are set up from (the far vertices' own, the others' snapped), and its UV plane is given at the target's corner
// when its first vertex is far; a vertex that is not finite leaves it empty.
ivec4 set_up(uint t) {
    uint i0 = out_indices[3u * t], i1 = out_indices[3u * t + 1u], i2 = out_indices[3u * t + 2u];
    GpuOutVertex o0 = out_vertices[i0], o1 = out_vertices[i1], o2 = out_vertices[i2];
    vec2 f0 = placed(o0), f1 = placed(o1), f2 = placed(o2);
    ivec2 v0 = snapped(f0), v1 = snapped(f1), v2 = snapped(f2);
    uint far = (beyond_grid(f0) ? 1u : 0u) | (beyond_grid(f1) ? 2u : 0u) | (beyond_grid(f2) ? 4u : 0u);
    ivec2 s1 = v1, s2 = v2;  // the snapped places of o1 and o2, before the orientation may swap v1 and v2
    ivec2 lo, hi;
    bool swapped, empty;
    if (far == 0u) {
        int64_t area = edge_at(v0, v1, v2);
        swapped = area < 0l;
        empty = area == 0l;
        // Pixels whose centres lie in the bounding box, within the target.
        lo = max((min(min(v0, v1), v2) - 128 + 255) >> 8, ivec2(0));
        hi = min((max(max(v0, v1), v2) - 128) >> 8, ivec2(push.width, push.height) - 1);
    } else {
        // The far vertices' places, the others' snapped ones, exactly as the rasterizer reads them back (a far
        // vertex's x, y keep its place as float bits).
        dvec2 p0 = (far & 1u) != 0u ? dvec2(f0) : dvec2(v0) / 256.0lf;
        dvec2 p1 = (far & 2u) != 0u ? dvec2(f1) : dvec2(v1) / 256.0lf;
        dvec2 p2 = (far & 4u) != 0u ? dvec2(f2) : dvec2(v2) / 256.0lf;
        dvec2 d1 = p1 - p0, d2 = p2 - p0;
        double area = d1.x * d2.y - d1.y * d2.x;  // (no overflow for finite places)
        swapped = area < 0.0lf;
        empty = area == 0.0lf || !finite(f0) || !finite(f1) || !finite(f2);
        // The box a pixel wider, clamped in floats before it becomes integers.
        vec2 last = vec2(push.width, push.height) - 1.0;
        lo = ivec2(clamp(floor(vec2(min(min(p0, p1), p2)) - 0.5), vec2(0.0), last + 1.0));
        hi = ivec2(clamp(ceil(vec2(max(max(p0, p1), p2)) - 0.5), vec2(-1.0), last));
        if ((far & 1u) != 0u) v0 = floatBitsToInt(f0);
        if ((far & 2u) != 0u) v1 = floatBitsToInt(f1);
        if ((far & 4u) != 0u) v2 = floatBitsToInt(f2);
    }
    if (swapped) {
        ivec2 swap = v1;
        v1 = v2;
        v2 = swap;
        far = (far & 1u) | (far & 2u) << 1 | (far & 4u) >> 1;
    }
    GpuTriangle r;
    if (empty) {
        lo = ivec2(1);
        hi = ivec2(0);
    }
    if (lo.x > hi.x || lo.y > hi.y) triangle_boxes[t] = uvec2(0xFFFFu, 0u);
    else triangle_boxes[t] = uvec2(uint(lo.x) | uint(lo.y) << 16, uint(hi.x) | uint(hi.y) << 16);
    r.x0 = v0.x;
    r.y0 = v0.y;
    r.x1 = v1.x;
    r.y1 = v1.y;
    r.x2 = v2.x;
    r.y2 = v2.y;
    // The UV plane (see k_uv_plane_placed), given at v0, the snapped first vertex (i0 stays first whatever the
    // orientation), or for a far one at the target's corner; over the places in floats for a triangle with a far
    // vertex.
    vec2 d1 = vec2(s1 - v0) / 256.0, d2 = vec2(s2 - v0) / 256.0, shift = vec2(0.0);
    if (k_uv_plane_placed != 0u || far != 0u) {
        d1 = f1 - f0;
        d2 = f2 - f0;
        shift = ((far & 1u) != 0u ? vec2(0.0) : vec2(v0) / 256.0) - f0;
    }
    vec2 uv0 = vec2(o0.u, o0.v), duv1 = vec2(o1.u, o1.v) - uv0, duv2 = vec2(o2.u, o2.v) - uv0;
    float det = d1.x * d2.y - d1.y * d2.x;
    vec2 per_x = vec2(0.0), per_y = vec2(0.0);
    if (det != 0.0 && finite(vec2(det))) {  // (places beyond some 10^19 pixels: no gradient)
        per_x = (duv1 * d2.y - duv2 * d1.y) / det;
        per_y = (duv2 * d1.x - duv1 * d2.x) / det;
    }
    vec2 uv_at_first = uv0 + per_x * shift.x + per_y * shift.y;
    r.u = uv_at_first.x;
    r.v = uv_at_first.y;
    r.u_x = per_x.x;
    r.v_x = per_x.y;
    r.u_y = per_y.x;
    r.v_y = per_y.y;
    r.light = o0.light;
    r.dark = o0.dark;
    r.material = o0.material;
    r.clip_first = o0.clip_first;
    r.flags = (top_left(v0, v1) ? 1u : 0u) | (top_left(v1, v2) ? 2u : 0u) | (top_left(v2, v0) ? 4u : 0u) |
              far << k_triangle_far_shift;
    triangles[t] = r;
    return ivec4(lo, hi);
}

shared ivec4 s_tiles;  // the character's box of tiles: min x, min y, max x, max y
shared uint s_mask_first;  // its masks' place in the pool, or k_no_tile_mask
shared uint s_masks[k_tile_mask_shared_words];
// Where a chunk's boxes of tiles start in s_masks when it holds pairs (see main).
const uint k_pair_boxes = k_triangle_workgroup + 1u;

// The tiles triangle t's box of pixel centres touches (min x, min y, max x, max y; min > max: none).
ivec4 touched_tiles(uint t) {
    uvec2 pixels = triangle_boxes[t];  // this thread set triangle t up
    ivec4 box = ivec4(pixels.x & 0xFFFFu, pixels.x >> 16, pixels.y & 0xFFFFu, pixels.y >> 16);
    return box.x > box.z || box.y > box.w ? ivec4(0, 0, -1, -1) : box / int(k_tile_size);
}

// How a character marks the tiles its triangles touch.
struct Marking {
    uint word, bit;     // its bit in the tile bitsets
    uint first;         // its first triangle
    uint mask_first;    // its masks' place in the pool, or k_no_tile_mask
    bool shared_masks;  // its masks are built in s_masks
    ivec2 origin;       // its box of tiles: first tile, width, and words per tile (a count, then the mask words)
    uint wide, stride;
};

// Marks tile (x, y) as touched by triangle t: the triangle's bit in the character's mask of the tile and the mask's
// count, or for a character without masks its bit in the tile.
void mark(Marking m, uint t, int x, int y) {
    if (m.mask_first == k_no_tile_mask) {
        uint i = (uint(y) * push.tiles_x + uint(x)) * push.words_per_tile + m.word;
        if ((tile_bits[i] & m.bit) == 0u) atomicOr(tile_bits[i], m.bit);  // most are set already
        return;
    }
    uint at = (uint(y - m.origin.y) * m.wide + uint(x - m.origin.x)) * m.stride;
    uint mask_word = (t - m.first) >> 5, mask_bit = 1u << ((t - m.first) & 31u);
    if (m.shared_masks) {
        atomicOr(s_masks[at + 1u + mask_word], mask_bit);
        atomicAdd(s_masks[at], 1u);
    } else {
        atomicOr(tile_masks[m.mask_first + at + 1u + mask_word], mask_bit);
        atomicAdd(tile_masks[m.mask_first + at], 1u);
    }
}

void main() {
    uint c = gl_WorkGroupID.x + gl_WorkGroupID.y * push.row_width;
    if (c >= push.character_count) return;
    uint tid = gl_LocalInvocationID.x;
    uint first = characters[c].out_index_first / 3u;
    uint end = (c + 1u < push.character_count ? characters[c + 1u].out_index_first : push.index_total) / 3u;
    if (tid == 0u) s_tiles = ivec4(0x7FFFFFFF, 0x7FFFFFFF, -1, -1);
    barrier();
    for (uint t = first + tid; t < end; t += k_triangle_workgroup) {
        ivec4 box = set_up(t);
        if (box.x > box.z || box.y > box.w) continue;
        ivec4 tiles = box / int(k_tile_size);
        atomicMin(s_tiles.x, tiles.x);
        atomicMin(s_tiles.y, tiles.y);
        atomicMax(s_tiles.z, tiles.z);
        atomicMax(s_tiles.w, tiles.w);
    }
    barrier();
    ivec4 tiles = s_tiles;
    uint wide = uint(max(tiles.z - tiles.x + 1, 0)), high = uint(max(tiles.w - tiles.y + 1, 0));
    uint words = (end - first + 31u) / 32u;
    uint stride = words + 1u;  // per tile: the count of its triangles, then the mask words
    // (64 bits: a box of tiles times a stride can pass 2^32 words.)
    uint64_t box_words = uint64_t(wide) * uint64_t(high) * uint64_t(stride);
    // Masks in shared memory where they fit, else in the pool itself, where it has room.
    bool shared_masks = box_words <= uint64_t(k_tile_mask_shared_words);
    uint mask_count = box_words <= uint64_t(push.mask_words) ? uint(box_words) : 0u;
    if (tid == 0u) {
        uint at = k_no_tile_mask;
        // The count of words asked for: a character asking for at most k_tile_mask_demand_cap units adds them while
        // the count is under 2^31 (so the workgroups in flight cannot wrap it); a larger one adds with a compare
        // and swap that stops at k_tile_mask_demand_limit.
        uint64_t demand = (box_words + uint64_t(k_tile_mask_demand_unit - 1u)) / uint64_t(k_tile_mask_demand_unit);
        if (demand > uint64_t(k_tile_mask_demand_cap)) {
            uint seen = counters[2], asked = uint(min(demand, uint64_t(k_tile_mask_demand_limit)));
            while (seen < k_tile_mask_demand_limit) {
                uint sum = seen + min(asked, k_tile_mask_demand_limit - seen);
                uint was = atomicCompSwap(counters[2], seen, sum);
                if (was == seen) break;
                seen = was;
            }
        } else if (demand != 0ul && counters[2] < 0x80000000u) {
            atomicAdd(counters[2], uint(demand));
        }
        if (mask_count != 0u && shared_masks) {
            // Once the pool is seen full no more is taken, so the count passes it by at most what the workgroups
            // in flight take (each at most k_tile_mask_shared_words), and cannot wrap.
            if (counters[1] < push.mask_words) {
                uint taken = atomicAdd(counters[1], mask_count);
                if (taken <= push.mask_words && mask_count <= push.mask_words - taken) at = taken;
            }
        } else if (mask_count != 0u) {
            // A large character takes its words only while they fit, so it never moves the count past the pool.
            uint taken = counters[1];
            while (taken <= push.mask_words && mask_count <= push.mask_words - taken) {
                uint seen = atomicCompSwap(counters[1], taken, taken + mask_count);
                if (seen == taken) {
                    at = taken;
                    break;
                }
                taken = seen;
            }
        }
        if (at == k_no_tile_mask && box_words != 0ul) atomicAdd(counters[3], 1u);
        s_mask_first = at;
        character_tiles[c] = GpuCharacterTiles(at, uint(tiles.x) | uint(tiles.y) << 16, wide | high << 16, words);
    }
    if (shared_masks)
        for (uint i = tid; i < mask_count; i += k_triangle_workgroup) s_masks[i] = 0u;
    barrier();
    if (!shared_masks && s_mask_first != k_no_tile_mask) {
        for (uint i = tid; i < mask_count; i += k_triangle_workgroup) tile_masks[s_mask_first + i] = 0u;
        groupMemoryBarrier();  // the zeros before any thread's atomics below
        barrier();
    }
    uint mask_first = s_mask_first;
    Marking m = Marking(c >> 5, 1u << (c & 31u), first, mask_first, shared_masks, tiles.xy, wide, stride);
    if (shared_masks && mask_first != k_no_tile_mask) {
        // Each thread marks its triangles' tiles: atomics on shared memory are quick, so a triangle that touches
        // many tiles holds its thread up little.
        for (uint t = first + tid; t < end; t += k_triangle_workgroup) {
            ivec4 touched = touched_tiles(t);
            for (int y = touched.y; y <= touched.w; ++y)
                for (int x = touched.x; x <= touched.z; ++x) mark(m, t, x, y);
        }
    } else {
        // Triangle and tile pairs are spread over the workgroup, k_triangle_workgroup triangles at a time: on the
        // pool or on the tile bits every mark waits on memory, and one triangle of a character thousands of pixels
        // tall touches thousands of tiles, which one thread marking them in turn took longer than all the rest.
        // s_masks holds no masks here; it holds where each triangle's pairs start (entries 0..k_triangle_workgroup,
        // the last the total) and its box of tiles (two words from k_pair_boxes).
        for (uint chunk = first; chunk < end; chunk += k_triangle_workgroup) {
            ivec4 touched = chunk + tid < end ? touched_tiles(chunk + tid) : ivec4(0, 0, -1, -1);
            s_masks[tid] = touched.x <= touched.z ? uint(touched.z - touched.x + 1) * uint(touched.w - touched.y + 1)
                                                  : 0u;
            s_masks[k_pair_boxes + 2u * tid] = uint(touched.x) | uint(touched.y) << 16;
            s_masks[k_pair_boxes + 2u * tid + 1u] = uint(touched.z) | uint(touched.w) << 16;
            barrier();
            if (tid == 0u) {
                uint sum = 0u;  // (at most 2^6 triangles of 2^24 tiles: no wrap)
                // (Unrolled, as the search below: no loop passes, which llvmpipe counts against its loop guard.)
                [[unroll]] for (uint j = 0u; j < k_triangle_workgroup; ++j) {
                    uint count = s_masks[j];
                    s_masks[j] = sum;
                    sum += count;
                }
                s_masks[k_triangle_workgroup] = sum;
            }
            barrier();
            for (uint pair = tid; pair < s_masks[k_triangle_workgroup]; pair += k_triangle_workgroup) {
                // The last triangle whose pairs start at or before this one (s_masks[0] = 0 <= pair, and
                // s_masks[k_triangle_workgroup], the total, is past it).
                uint lo = 0u;
                [[unroll]] for (uint step = k_triangle_workgroup / 2u; step != 0u; step >>= 1)
                    if (s_masks[lo + step] <= pair) lo += step;
                uint from = s_masks[k_pair_boxes + 2u * lo], to = s_masks[k_pair_boxes + 2u * lo + 1u];
                uint across = (to & 0xFFFFu) - (from & 0xFFFFu) + 1u, n = pair - s_masks[lo];
                mark(m, chunk + lo, int((from & 0xFFFFu) + n % across), int((from >> 16) + n / across));
            }
            barrier();  // every thread is done with the chunk's entries
        }
    }
    if (mask_first == k_no_tile_mask) {
        if (loops_ran_out()) atomicOr(counters[4], 1u);
        return;
    }
    if (!shared_masks) groupMemoryBarrier();  // the counts before the reads below
    barrier();
    // The character's bit in each tile of its box that some triangle touches, one atomic per tile: a read of the
    // bit per triangle and tile, as mark() does without masks, waits on memory in turn, which for a character
    // thousands of pixels tall (one workgroup, tens of thousands of pairs) took longer than all the rest.
    for (uint i = tid; i < wide * high; i += k_triangle_workgroup) {
        uint count = shared_masks ? s_masks[i * stride] : tile_masks[mask_first + i * stride];
        if (count == 0u) continue;
        uint x = uint(tiles.x) + i % wide, y = uint(tiles.y) + i / wide;
        atomicOr(tile_bits[(y * push.tiles_x + x) * push.words_per_tile + m.word], m.bit);
    }
    if (shared_masks)
        for (uint i = tid; i < mask_count; i += k_triangle_workgroup) tile_masks[mask_first + i] = s_masks[i];
    if (loops_ran_out()) atomicOr(counters[4], 1u);
}
