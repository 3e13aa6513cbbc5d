#version 450
// The skinning pass: one workgroup per character. It reads the character's draw list (the attachment each
// draw-order position shows), counts vertices and indices per position (a workgroup prefix sum gives each
// position its place in the output), finds which clipping polygon applies to each position (the official
// SkeletonClipping rules: a clipping attachment starts clipping unless one is active; it ends after its end slot
// is drawn), then skins every visible vertex from the bones and writes it, with its colours and material, and the
// triangles in draw order. Only visible attachments reach the rasterizer.
#extension GL_GOOGLE_include_directive : require
#include "bindings.glsl"
#include "skinning.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 9) writeonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(std430, set = 0, binding = 10) writeonly buffer OutIndices { uint out_indices[]; };

layout(push_constant) uniform Push { uint character_count; uint row_width; } push;

// Slots the shared arrays hold: as many as the device's shared memory allows, up to k_max_slots, or fewer when every
// type has fewer (the renderer specializes the pass for k_small_slot_capacity, which leaves room for more workgroups
// per multiprocessor). The renderer counts these arrays' bytes (skin_shared_memory_bytes, renderer_impl.hpp): change
// both together.
layout(constant_id = 0) const uint k_slot_capacity = k_max_slots;

shared uint s_attachment[k_slot_capacity];     // global attachment index, or k_no_section
shared uint s_vertex_base[k_slot_capacity + 1]; // exclusive prefix sums (last entry: the total)
shared uint s_index_base[k_slot_capacity + 1];
shared uint s_clip[k_slot_capacity];           // clip polygon's draw-order position + 1 | count << 16, or 0
shared uint s_light[k_slot_capacity];
shared uint s_dark[k_slot_capacity];
shared uint s_scan_v[k_skin_workgroup];
shared uint s_scan_i[k_skin_workgroup];

void main() {
    uint c = gl_WorkGroupID.x + gl_WorkGroupID.y * push.row_width;
    if (c >= push.character_count) return;  // uniform across the workgroup
    GpuCharacter ch = characters[c];
    GpuSkeletonType type = types[ch.type];
    uint slot_count = type.slot_count;
    uint tid = gl_LocalInvocationID.x;

    // 1. Per position: the attachment, its counts, the slot colours.
    uint carry_v = 0u, carry_i = 0u;
    for (uint chunk = 0u; chunk < slot_count; chunk += k_skin_workgroup) {
        uint p = chunk + tid;
        uint vc = 0u, ic = 0u;
        if (p < slot_count) {
            uint id = draw_list_entry(ch, type, p);
            uint a = k_no_section;
            if (id != k_no_attachment) {
                a = type.attachment_first + id;
                vc = attachments[a].vertex_count;
                ic = attachments[a].index_count;
                uint slot = attachments[a].slot_and_end & 0xFFFFu;
                uint light, dark;
                slot_colors(ch, type, slot, light, dark);
                s_light[p] = mul_rgba8(mul_rgba8(ch.tint, light), attachments[a].color);
                s_dark[p] = dark;
            }
            s_attachment[p] = a;
        }
        // Inclusive scan of this chunk (Hillis-Steele), then made exclusive with the carry.
        s_scan_v[tid] = vc;
        s_scan_i[tid] = ic;
        barrier();
        for (uint offset = 1u; offset < k_skin_workgroup; offset <<= 1) {
            uint add_v = tid >= offset ? s_scan_v[tid - offset] : 0u;
            uint add_i = tid >= offset ? s_scan_i[tid - offset] : 0u;
            barrier();
            s_scan_v[tid] += add_v;
            s_scan_i[tid] += add_i;
            barrier();
        }
        if (p < slot_count) {
            s_vertex_base[p] = carry_v + s_scan_v[tid] - vc;
            s_index_base[p] = carry_i + s_scan_i[tid] - ic;
        }
        carry_v += s_scan_v[k_skin_workgroup - 1u];
        carry_i += s_scan_i[k_skin_workgroup - 1u];
        barrier();
    }
    if (tid == 0u) {
        s_vertex_base[slot_count] = carry_v;
        s_index_base[slot_count] = carry_i;
        // 2. Clipping, in draw order (SkeletonClipping: clipStart is ignored while a clip is active; the clip
        // ends after its end slot's position, whatever that slot shows). A clip's end slot that shows nothing
        // drawable gets the type's empty marker attachment for that slot (no vertices, no triangles) in the draw
        // list, so that it still ends the clip here. Any clipping attachment starts a clip, as in the official
        // runtime: one of fewer than 3 vertices triangulates to nothing and clips all away, which a polygon of 1 or 2
        // vertices does here too (no pixel is inside it); one of none is given a count of 1, its first vertex that of
        // the next position, which exists wherever a clipped vertex reads it.
        uint clip_now = 0u, end_slot = 0xFFFFu;
        for (uint p = 0u; p < slot_count; ++p) {
            uint a = s_attachment[p];
            s_clip[p] = clip_now;
            if (a == k_no_section) continue;
            uint material = attachments[a].material;
            uint slot = attachments[a].slot_and_end & 0xFFFFu;
            if ((material & k_material_clip_bit) != 0u) {
                if (clip_now == 0u) {
                    clip_now = (p + 1u) | (max(attachments[a].vertex_count, 1u) << 16);
                    end_slot = attachments[a].slot_and_end >> 16;
                }
                s_clip[p] = 0u;
                continue;
            }
            if (clip_now != 0u && slot == end_slot) { clip_now = 0u; end_slot = 0xFFFFu; }
        }
    }
    barrier();

    // 3. Vertices: each thread takes every 64th vertex of the character and finds its position by binary search.
    uint total_v = s_vertex_base[slot_count];
    for (uint v = tid; v < total_v; v += k_skin_workgroup) {
        uint lo = 0u, hi = slot_count;  // last position whose base <= v
        while (hi - lo > 1u) {
            uint mid = (lo + hi) >> 1;
            if (s_vertex_base[mid] <= v) lo = mid; else hi = mid;
        }
        uint p = lo;  // positions without vertices share their base with the next one and are passed over
        uint a = s_attachment[p];
        GpuAttachment att = attachments[a];
        uint local = v - s_vertex_base[p];
        GpuBindVertex bv = bind_vertices[att.vertex_first + local];
        uint slot = att.slot_and_end & 0xFFFFu;
        vec2 world = skin_vertex(ch, att, bv, local, slot_deform(ch, type, slot));
        GpuOutVertex o;
        o.x = world.x;
        o.y = world.y;
        o.u = bv.u;
        o.v = bv.v;
        o.light = s_light[p];
        o.dark = s_dark[p];
        uint clip = s_clip[p];
        o.material = (att.material & 0xFFFFu) | ((clip >> 16) << k_material_clip_count_shift);
        o.clip_first = ch.out_vertex_first + (clip != 0u ? s_vertex_base[(clip & 0xFFFFu) - 1u] : 0u);
        out_vertices[ch.out_vertex_first + v] = o;
    }

    // 4. Triangles, in draw order.
    uint total_i = s_index_base[slot_count];
    for (uint i = tid; i < total_i; i += k_skin_workgroup) {
        uint lo = 0u, hi = slot_count;
        while (hi - lo > 1u) {
            uint mid = (lo + hi) >> 1;
            if (s_index_base[mid] <= i) lo = mid; else hi = mid;
        }
        uint p = lo;
        GpuAttachment att = attachments[s_attachment[p]];
        uint local = i - s_index_base[p];
        out_indices[ch.out_index_first + i] =
            ch.out_vertex_first + s_vertex_base[p] + static_indices[att.index_first + local];
    }
}
