// World vertices of a slot's attachment on the CPU, exactly as the official runtime computes them
// (RegionAttachment.computeWorldVertices with the sequence frame Sequence.apply selects, and
// VertexAttachment.computeWorldVertices with the slot's deform and the bones' weights), and the skeleton's bounds
// (Skeleton.getBounds). This is the reference every GPU path is checked against.
#include <algorithm>
#include <limits>

#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {

std::uint32_t sequence_frame(const SkeletonPose& pose, Index slot, Index attachment) {
    const AttachmentData& a = pose.data->attachments[static_cast<std::size_t>(attachment)];
    if (a.sequence == k_none) return 0;
    const SequenceData& sequence = pose.data->sequences[static_cast<std::size_t>(a.sequence)];
    std::int32_t index = pose.slots[static_cast<std::size_t>(slot)].sequence_index;
    if (index == -1) index = sequence.setup_index;
    if (index >= sequence.count) index = sequence.count - 1;
    return index > 0 ? static_cast<std::uint32_t>(index) : 0;
}

void compute_vertex_attachment_world(const SkeletonPose& pose, Index slot, Index attachment, std::uint32_t start,
                                     std::uint32_t count, float* out, std::uint32_t offset, std::uint32_t stride) {
    const SkeletonData& data = *pose.data;
    const AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
    const SlotPose& s = pose.slots[static_cast<std::size_t>(slot)];
    const std::uint32_t end = offset + (count >> 1) * stride;
    const float* deform = s.deform_count > 0 ? pose.deform.data() + s.deform_offset : nullptr;

    if (a.bones.count == 0) {
        // Unweighted: vertices (or the deform, which replaces them) in the slot's bone space.
        const float* vertices = deform != nullptr ? deform : data.floats.data() + a.vertices.offset;
        const BoneWorld& bone = pose.world[static_cast<std::size_t>(data.slots[static_cast<std::size_t>(slot)].bone)];
        const double ba = bone.a, bb = bone.b, bc = bone.c, bd = bone.d, bx = bone.x, by = bone.y;
        for (std::uint32_t v = start, w = offset; w < end; v += 2, w += stride) {
            const double vx = vertices[v], vy = vertices[v + 1];
            out[w] = static_cast<float>(vx * ba + vy * bb + bx);
            out[w + 1] = static_cast<float>(vx * bc + vy * bd + by);
        }
        return;
    }

    // Weighted: per vertex [n, bone...] in `bones` and (x, y, weight) per influence in `vertices`; the deform holds
    // (x, y) offsets per influence. Skip the influences of the vertices before `start`.
    const Index* bones = data.indices.data() + a.bones.offset;
    const float* vertices = data.floats.data() + a.vertices.offset;
    std::uint32_t v = 0, skip = 0;
    for (std::uint32_t i = 0; i < start; i += 2) {
        const auto n = static_cast<std::uint32_t>(bones[v]);
        v += n + 1;
        skip += n;
    }
    const BoneWorld* world = pose.world.data();
    for (std::uint32_t w = offset, b = skip * 3, f = skip * 2; w < end; w += stride) {
        double wx = 0, wy = 0;
        const std::uint32_t n = v + 1 + static_cast<std::uint32_t>(bones[v]);
        for (++v; v < n; ++v, b += 3, f += 2) {
            const BoneWorld& bone = world[bones[v]];
            double vx = vertices[b], vy = vertices[b + 1];
            if (deform != nullptr) {
                // The runtime adds in double: the float vertex plus the float deform.
                vx += deform[f];
                vy += deform[f + 1];
            }
            const double weight = vertices[b + 2];
            wx += (vx * bone.a + vy * bone.b + bone.x) * weight;
            wy += (vx * bone.c + vy * bone.d + bone.y) * weight;
        }
        out[w] = static_cast<float>(wx);
        out[w + 1] = static_cast<float>(wy);
    }
}

std::uint32_t compute_world_vertices(const SkeletonPose& pose, const AtlasBinding& binding, Index slot,
                                     std::span<float> out) {
    const Index attachment = pose.slots[static_cast<std::size_t>(slot)].attachment;
    if (attachment == k_none) return 0;
    const AttachmentData& a = pose.data->attachments[static_cast<std::size_t>(attachment)];
    switch (a.type) {
    case AttachmentType::region: {
        const Range frames = binding.frames[static_cast<std::size_t>(attachment)];
        if (frames.count == 0 || out.size() < 8) return 0;
        const std::uint32_t frame = std::min(sequence_frame(pose, slot, attachment), frames.count - 1);
        const BoundRegion& region = binding.regions[frames.offset + frame];
        const BoneWorld& bone =
            pose.world[static_cast<std::size_t>(pose.data->slots[static_cast<std::size_t>(slot)].bone)];
        const double ba = bone.a, bb = bone.b, bc = bone.c, bd = bone.d, bx = bone.x, by = bone.y;
        for (int i = 0; i < 4; ++i) {
            const double ox = region.offset[2 * i], oy = region.offset[2 * i + 1];
            out[2 * static_cast<std::size_t>(i)] = static_cast<float>(ox * ba + oy * bb + bx);
            out[2 * static_cast<std::size_t>(i) + 1] = static_cast<float>(ox * bc + oy * bd + by);
        }
        return 8;
    }
    case AttachmentType::mesh:
    case AttachmentType::bounding_box:
    case AttachmentType::path:
    case AttachmentType::clipping: {
        const std::uint32_t length = a.world_vertices_length;
        if (out.size() < length) return 0;
        compute_vertex_attachment_world(pose, slot, attachment, 0, length, out.data(), 0, 2);
        return length;
    }
    case AttachmentType::point:
        return 0;
    }
    return 0;
}

bool skeleton_bounds(const SkeletonPose& pose, const AtlasBinding& binding, float& x, float& y, float& w, float& h) {
    const SkeletonData& data = *pose.data;
    double min_x = std::numeric_limits<double>::infinity(), min_y = min_x;
    double max_x = -min_x, max_y = -min_x;
    // Vertices are computed in chunks into a stack buffer, so no mesh is too large and nothing is allocated.
    constexpr std::uint32_t k_chunk = 256;
    float buffer[k_chunk];
    auto add = [&](const float* vertices, std::uint32_t count) {
        for (std::uint32_t i = 0; i + 1 < count; i += 2) {
            min_x = std::min<double>(min_x, vertices[i]);
            min_y = std::min<double>(min_y, vertices[i + 1]);
            max_x = std::max<double>(max_x, vertices[i]);
            max_y = std::max<double>(max_y, vertices[i + 1]);
        }
    };
    for (Index slot : pose.draw_order) {
        const auto s = static_cast<std::size_t>(slot);
        if (!pose.bone_active[static_cast<std::size_t>(data.slots[s].bone)]) continue;
        const Index attachment = pose.slots[s].attachment;
        if (attachment == k_none) continue;
        const AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
        if (a.type == AttachmentType::region) {
            add(buffer, compute_world_vertices(pose, binding, slot, std::span<float>(buffer, 8)));
        } else if (a.type == AttachmentType::mesh) {
            for (std::uint32_t start = 0; start < a.world_vertices_length; start += k_chunk) {
                const std::uint32_t count = std::min(k_chunk, a.world_vertices_length - start);
                compute_vertex_attachment_world(pose, slot, attachment, start, count, buffer, 0, 2);
                add(buffer, count);
            }
        }
    }
    if (!(min_x <= max_x)) {
        x = y = w = h = 0;
        return false;
    }
    x = static_cast<float>(min_x);
    y = static_cast<float>(min_y);
    w = static_cast<float>(max_x - min_x);
    h = static_cast<float>(max_y - min_y);
    return true;
}

float setup_pose_height(const SkeletonData& data, const AtlasBinding& binding, Index skin) {
    SkeletonPose pose = create_pose(data);
    set_skin(pose, skin);  // (false, changing nothing, for an index that names no skin)
    set_to_setup_pose(pose);
    update_world_transform(pose, Physics::update);
    float x, y, w, h;
    if (!skeleton_bounds(pose, binding, x, y, w, h) || !(h >= 1)) return 1;  // (NaN too)
    return h;
}

}  // namespace spinegpu
