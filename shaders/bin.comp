#version 450
// The tile rasterizer's binning pass (RenderPath::gpu_tiles): one workgroup per visible character. It maps the
// character's world bounds (written by the skinning pass) to pixels and sets the character's bit in every tile
// its bounds touch, widened by a pixel on each side. Bits are set with atomicOr, so the order in which characters
// are binned does not matter: the rasterizer reads each tile's bits in character order, which is draw order.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 64) in;  // k_bin_workgroup

layout(std430, set = 0, binding = 13) readonly buffer Bounds { vec4 bounds[]; };
// Per tile (row-major), words_per_tile words: bit c of the bitset is visible character c.
layout(std430, set = 0, binding = 14) buffer TileBits { uint tile_bits[]; };

layout(push_constant) uniform PushBlock { GpuTilePush push; };

void main() {
    uint c = gl_WorkGroupID.x + gl_WorkGroupID.y * push.row_width;
    if (c >= push.character_count) return;
    vec4 b = bounds[c];
    if (!(b.x <= b.z && b.y <= b.w)) return;  // no vertices
    vec2 p0 = vec2(push.ox + push.scale * b.x, push.oy - push.scale * b.y);
    vec2 p1 = vec2(push.ox + push.scale * b.z, push.oy - push.scale * b.w);
    vec2 lo = min(p0, p1) - 1.0, hi = max(p0, p1) + 1.0;
    vec2 grid = vec2(push.tiles_x, push.tiles_y);
    // Clamped in float first, so that far-off bounds convert to integers safely.
    ivec2 t0 = ivec2(clamp(floor(lo / float(k_tile_size)), vec2(-1.0), grid));
    ivec2 t1 = ivec2(clamp(floor(hi / float(k_tile_size)), vec2(-1.0), grid));
    t0 = max(t0, ivec2(0));
    t1 = min(t1, ivec2(grid) - 1);
    if (t0.x > t1.x || t0.y > t1.y) return;
    uint columns = uint(t1.x - t0.x + 1), total = columns * uint(t1.y - t0.y + 1);
    uint word = c >> 5, bit = 1u << (c & 31u);
    for (uint i = gl_LocalInvocationID.x; i < total; i += k_bin_workgroup) {
        uint tile = (uint(t0.y) + i / columns) * push.tiles_x + uint(t0.x) + i % columns;
        atomicOr(tile_bits[tile * push.words_per_tile + word], bit);
    }
}
