// The CPU path: see cpu_path.hpp. Clipping follows the same rules as the skinning pass (skin.comp), which are the
// official SkeletonClipping's; the fragment shader then clips both paths alike.
#include "spinegpu/gpu/cpu_path.hpp"

#include <algorithm>

#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {

CpuPathCounts count_cpu_vertices(const StaticSkeleton& type, const SkeletonPose& pose) {
    CpuPathCounts counts;
    const auto slots = static_cast<std::uint32_t>(pose.draw_order.size());
    for (std::uint32_t p = 0; p < slots; ++p) {
        const std::uint16_t id = draw_entry(type, pose, p);
        if (id == k_no_attachment) continue;
        counts.vertices += type.attachments[id].vertex_count;
        counts.indices += type.attachments[id].index_count;
    }
    return counts;
}

CpuPathCounts build_cpu_vertices(const StaticSkeleton& type, const AtlasBinding& binding, const SkeletonPose& pose,
                                 Color tint, std::uint32_t vertex_first, GpuOutVertex* out_vertices,
                                 std::uint32_t* out_indices, std::span<float> scratch) {
    CpuPathCounts counts;
    const auto slots = static_cast<std::uint32_t>(pose.draw_order.size());
    const std::uint32_t character = pack_rgba8({pose.color.r * tint.r, pose.color.g * tint.g,
                                                pose.color.b * tint.b, pose.color.a * tint.a});
    std::uint32_t clip_first = 0, clip_count = 0, clip_end = 0xFFFF;
    for (std::uint32_t p = 0; p < slots; ++p) {
        const std::uint16_t id = draw_entry(type, pose, p);
        if (id == k_no_attachment) continue;
        const GpuAttachment& a = type.attachments[id];
        const std::uint32_t slot = a.slot_and_end & 0xFFFF;
        const bool is_clip = (a.material & k_material_clip_bit) != 0;
        const std::uint32_t base = counts.vertices;
        if (a.vertex_count > 0) {
            compute_world_vertices(pose, binding, static_cast<Index>(slot), scratch);
            const SlotPose& s = pose.slots[slot];
            const std::uint32_t light =
                multiply_rgba8(multiply_rgba8(character, pack_rgba8(s.color)), a.color);
            const std::uint32_t dark = pack_rgba8(s.dark);
            const std::uint32_t clipped = is_clip ? 0 : clip_count;
            const std::uint32_t material = (a.material & 0xFFFF) | clipped << k_material_clip_count_shift;
            const std::uint32_t clip_vertex = vertex_first + (clipped != 0 ? clip_first : 0);
            for (std::uint32_t v = 0; v < a.vertex_count; ++v) {
                const GpuBindVertex& bind = type.vertices[a.vertex_first + v];
                out_vertices[base + v] = {scratch[2 * v], scratch[2 * v + 1], bind.u, bind.v, light, dark, material,
                                          clip_vertex};
            }
            for (std::uint32_t i = 0; i < a.index_count; ++i)
                out_indices[counts.indices + i] = vertex_first + base + type.indices[a.index_first + i];
            counts.vertices += a.vertex_count;
            counts.indices += a.index_count;
        }
        if (is_clip) {
            // Any clipping attachment starts a clip (see skin.comp: fewer than 3 vertices clip all away; none counts
            // as 1, the next vertex written).
            if (clip_count == 0) {
                clip_first = base;
                clip_count = std::max<std::uint32_t>(a.vertex_count, 1);
                clip_end = a.slot_and_end >> 16;
            }
            continue;
        }
        if (clip_count != 0 && slot == clip_end) {
            clip_count = 0;
            clip_end = 0xFFFF;
        }
    }
    return counts;
}

}  // namespace spinegpu::gpu
