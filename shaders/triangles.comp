#version 450
// The tile rasterizer's triangle setup and binning (RenderPath::gpu_tiles), after the skinning pass: one workgroup
// per visible character, one thread per triangle. It places the vertices as draw.vert and the viewport transform
// do, snaps them to the raster's 1/256-pixel grid, orients the triangle positively (y down), and writes what every
// tile the triangle touches needs: the box of pixel centres it may cover, the snapped vertices, the top-left rule
// per edge, UV as a plane over the placed (unsnapped) positions, as the raster pipeline interpolates it, and the
// first vertex's colours and material (flat, as the draw's provoking vertex gives them). Then it sets the
// character's bit in every tile that box touches. Bits are set with atomicOr, so the order of the work does not
// matter: the rasterizer reads each tile's bits in character order, which is draw order.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
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
layout(std430, set = 0, binding = 17) writeonly buffer TriangleBoxes { uvec2 triangle_boxes[]; };

layout(push_constant) uniform PushBlock { GpuTilePush push; };

#include "camera.glsl"
#include "tile_grid.glsl"

// A vertex's position in pixels as draw.vert and the viewport transform place it (kept within 2^21 pixels, so that
// the grid positions fit 32 bits).
vec2 placed(GpuOutVertex o) {
    vec2 size = vec2(push.width, push.height);
    vec2 ndc = pixel_ndc(camera_pixel(vec2(o.x, o.y), push.scale, push.ox, push.oy), size);
    return clamp(ndc * (size * 0.5) + size * 0.5, vec2(-2097152.0), vec2(2097152.0));
}

// Top-left rule (y down): a pixel centre exactly on an edge is covered only for a left edge or a top edge.
bool top_left(ivec2 a, ivec2 b) {
    int dx = b.x - a.x, dy = b.y - a.y;
    return dy < 0 || (dy == 0 && dx > 0);
}

// Sets up triangle t; returns its box of pixel centres in the target (min x, min y, max x, max y; min > max when it
// covers none).
ivec4 set_up(uint t) {
    uint i0 = out_indices[3u * t], i1 = out_indices[3u * t + 1u], i2 = out_indices[3u * t + 2u];
    GpuOutVertex o0 = out_vertices[i0], o1 = out_vertices[i1], o2 = out_vertices[i2];
    vec2 f0 = placed(o0), f1 = placed(o1), f2 = placed(o2);
    ivec2 v0 = ivec2(roundEven(f0 * 256.0)), v1 = ivec2(roundEven(f1 * 256.0)), v2 = ivec2(roundEven(f2 * 256.0));
    int64_t area = edge_at(v0, v1, v2);
    if (area < 0l) {
        ivec2 swap = v1;
        v1 = v2;
        v2 = swap;
    }
    GpuTriangle r;
    // Pixels whose centres lie in the bounding box, within the target; none for a triangle without area.
    ivec2 lo = max((min(min(v0, v1), v2) - 128 + 255) >> 8, ivec2(0));
    ivec2 hi = min((max(max(v0, v1), v2) - 128) >> 8, ivec2(push.width, push.height) - 1);
    if (area == 0l) lo.x = hi.x + 1;
    if (lo.x > hi.x || lo.y > hi.y) triangle_boxes[t] = uvec2(0xFFFFu, 0u);
    else triangle_boxes[t] = uvec2(uint(lo.x) | uint(lo.y) << 16, uint(hi.x) | uint(hi.y) << 16);
    r.x0 = v0.x;
    r.y0 = v0.y;
    r.x1 = v1.x;
    r.y1 = v1.y;
    r.x2 = v2.x;
    r.y2 = v2.y;
    vec2 d1 = f1 - f0, d2 = f2 - f0;
    vec2 uv0 = vec2(o0.u, o0.v), duv1 = vec2(o1.u, o1.v) - uv0, duv2 = vec2(o2.u, o2.v) - uv0;
    float det = d1.x * d2.y - d1.y * d2.x;
    vec2 per_x = vec2(0.0), per_y = vec2(0.0);
    if (det != 0.0) {
        per_x = (duv1 * d2.y - duv2 * d1.y) / det;
        per_y = (duv2 * d1.x - duv1 * d2.x) / det;
    }
    // i0 keeps its place as the first vertex whatever the orientation, so the plane is taken at its snapped spot.
    vec2 shift = vec2(v0) / 256.0 - f0;
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
    r.flags = (top_left(v0, v1) ? 1u : 0u) | (top_left(v1, v2) ? 2u : 0u) | (top_left(v2, v0) ? 4u : 0u);
    triangles[t] = r;
    return ivec4(lo, hi);
}

void main() {
    uint c = gl_WorkGroupID.x + gl_WorkGroupID.y * push.row_width;
    if (c >= push.character_count) return;
    uint first = characters[c].out_index_first / 3u;
    uint end = (c + 1u < push.character_count ? characters[c + 1u].out_index_first : push.index_total) / 3u;
    uint word = c >> 5, bit = 1u << (c & 31u);
    for (uint t = first + gl_LocalInvocationID.x; t < end; t += k_triangle_workgroup) {
        ivec4 box = set_up(t);
        if (box.x > box.z || box.y > box.w) continue;
        ivec4 tiles = box / int(k_tile_size);
        for (int y = tiles.y; y <= tiles.w; ++y)
            for (int x = tiles.x; x <= tiles.z; ++x) {
                uint i = (uint(y) * push.tiles_x + uint(x)) * push.words_per_tile + word;
                if ((tile_bits[i] & bit) == 0u) atomicOr(tile_bits[i], bit);  // most are set already
            }
    }
}
