#version 450
// The output places, before skinning, in two dispatches over blocks of k_places_workgroup characters (one thread
// per character, one workgroup per block). The CPU packs a header per character at the character's own index,
// holding its output vertex and index counts where the output firsts go, or only k_culled_character as its type
// when it is outside the view.
//   phase 0 (k_places_phase = 0): each block's totals over its visible characters (vertices, indices, how many),
//            to place_blocks[block];
//   phase 1: each block adds up the totals of the blocks before it, scans its own characters (an exclusive prefix
//            sum over the visible ones, in draw order) and writes each visible character's header, its counts
//            replaced by its output firsts, to its place in the compact array that the skinning, triangle and draw
//            passes read: visible character c is the c-th of the draw list not culled. The last block, which sees
//            the totals of all, writes the frame's draw command (its index count) for the GPU path's indirect draw.
// The CPU only needs the frame's totals, which its packing threads sum as they go, so it runs no prefix sum over
// the characters. (Each block reads the totals of all blocks before it: work that grows with the square of the
// block count, a few hundred thousand loads at 100,000 characters.)
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 128) in;  // k_places_workgroup

layout(constant_id = 0) const uint k_places_phase = 0u;

layout(std430, set = 0, binding = 6) writeonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 20) readonly buffer PackedCharacters { GpuCharacter packed_characters[]; };
// Per block: its visible characters' vertices, indices and count (w unused).
layout(std430, set = 0, binding = 21) buffer PlaceBlocks { uvec4 place_blocks[]; };
layout(std430, set = 0, binding = 22) writeonly buffer DrawCommand { GpuDrawCommand draw_commands[]; };

layout(push_constant) uniform Push { uint character_count; } push;

shared uvec3 s_sums[k_places_workgroup];

// The sum of every thread's `value` (a tree in shared memory); all threads get it.
uvec3 workgroup_sum(uvec3 value) {
    uint t = gl_LocalInvocationID.x;
    s_sums[t] = value;
    barrier();
    for (uint half_size = k_places_workgroup / 2u; half_size > 0u; half_size >>= 1) {
        if (t < half_size) s_sums[t] += s_sums[t + half_size];
        barrier();
    }
    uvec3 sum = s_sums[0];
    barrier();  // s_sums is free again
    return sum;
}

// The sum of `value` over the threads before this one (Hillis-Steele in shared memory).
uvec3 workgroup_exclusive_scan(uvec3 value) {
    uint t = gl_LocalInvocationID.x;
    s_sums[t] = value;
    barrier();
    for (uint offset = 1u; offset < k_places_workgroup; offset <<= 1) {
        uvec3 before = t >= offset ? s_sums[t - offset] : uvec3(0u);
        barrier();
        s_sums[t] += before;
        barrier();
    }
    uvec3 inclusive = s_sums[t];
    barrier();
    return inclusive - value;
}

void main() {
    uint block = gl_WorkGroupID.x;
    uint k = block * k_places_workgroup + gl_LocalInvocationID.x;
    bool visible = k < push.character_count && packed_characters[k].type != k_culled_character;
    uvec3 counts = visible ? uvec3(packed_characters[k].out_vertex_first, packed_characters[k].out_index_first, 1u)
                           : uvec3(0u);
    if (k_places_phase == 0u) {
        uvec3 total = workgroup_sum(counts);
        if (gl_LocalInvocationID.x == 0u) place_blocks[block] = uvec4(total, 0u);
        return;
    }
    uvec3 before = uvec3(0u);
    for (uint b = gl_LocalInvocationID.x; b < block; b += k_places_workgroup) before += place_blocks[b].xyz;
    uvec3 blocks_before = workgroup_sum(before);
    uvec3 at = blocks_before + workgroup_exclusive_scan(counts);
    if (block + 1u == gl_NumWorkGroups.x && gl_LocalInvocationID.x == 0u)
        draw_commands[0] = GpuDrawCommand(blocks_before.y + place_blocks[block].y, 1u, 0u, 0, 0u);
    if (!visible) return;
    GpuCharacter header = packed_characters[k];
    header.out_vertex_first = at.x;
    header.out_index_first = at.y;
    characters[at.z] = header;
}
