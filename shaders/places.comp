#version 450
// The output places pass, before skinning: one workgroup over the whole draw list. The CPU packs a header per
// character at the character's own index, holding its output vertex and index counts where the output firsts go,
// or only k_culled_character as its type when it is outside the view. This pass sums those counts in draw order
// (an exclusive prefix sum over the visible characters) and writes each visible character's header, its counts
// replaced by its output firsts, to the next place of the compact array that the skinning, triangle and draw
// passes read: visible character c is the c-th of the draw list not culled. The CPU only needs the totals, which
// its packing threads sum as they go, so no serial loop over the characters is left on the CPU.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(local_size_x = 256) in;  // k_places_workgroup

layout(std430, set = 0, binding = 6) writeonly buffer Characters { GpuCharacter characters[]; };
layout(std430, set = 0, binding = 20) readonly buffer PackedCharacters { GpuCharacter packed_characters[]; };

layout(push_constant) uniform Push { uint character_count; } push;

// Per thread: the sums of its run of characters this round, then (after the scan) the inclusive prefix sums.
shared uint s_vertices[k_places_workgroup];
shared uint s_indices[k_places_workgroup];
shared uint s_visible[k_places_workgroup];

void main() {
    uint t = gl_LocalInvocationID.x;
    // What the rounds before placed; every thread keeps the same copy.
    uint vertex_base = 0u, index_base = 0u, visible_base = 0u;
    for (uint round_first = 0u; round_first < push.character_count;
         round_first += k_places_workgroup * k_places_per_thread) {
        uint first = round_first + t * k_places_per_thread;
        uint end = min(first + k_places_per_thread, push.character_count);
        uint vertices = 0u, indices = 0u, visible = 0u;
        for (uint k = first; k < end; ++k) {
            if (packed_characters[k].type == k_culled_character) continue;
            vertices += packed_characters[k].out_vertex_first;
            indices += packed_characters[k].out_index_first;
            ++visible;
        }
        s_vertices[t] = vertices;
        s_indices[t] = indices;
        s_visible[t] = visible;
        barrier();
        // Inclusive scan across the workgroup (Hillis-Steele: log2(k_places_workgroup) steps).
        for (uint offset = 1u; offset < k_places_workgroup; offset <<= 1) {
            uint v = 0u, i = 0u, n = 0u;
            if (t >= offset) {
                v = s_vertices[t - offset];
                i = s_indices[t - offset];
                n = s_visible[t - offset];
            }
            barrier();
            s_vertices[t] += v;
            s_indices[t] += i;
            s_visible[t] += n;
            barrier();
        }
        uint vertex_at = vertex_base + s_vertices[t] - vertices;
        uint index_at = index_base + s_indices[t] - indices;
        uint place = visible_base + s_visible[t] - visible;
        for (uint k = first; k < end; ++k) {
            GpuCharacter header = packed_characters[k];
            if (header.type == k_culled_character) continue;
            uint vertex_count = header.out_vertex_first, index_count = header.out_index_first;
            header.out_vertex_first = vertex_at;
            header.out_index_first = index_at;
            characters[place++] = header;
            vertex_at += vertex_count;
            index_at += index_count;
        }
        vertex_base += s_vertices[k_places_workgroup - 1u];
        index_base += s_indices[k_places_workgroup - 1u];
        visible_base += s_visible[k_places_workgroup - 1u];
        barrier();  // the next round overwrites the shared sums
    }
}
