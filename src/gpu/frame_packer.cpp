// Per-frame packing: see frame_packer.hpp.
#include "spinegpu/gpu/frame_packer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {

std::uint32_t max_words_per_character(const StaticSkeleton& type, const SkeletonData& data) {
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    std::uint32_t words = (slots + 1) / 2;
    words += 2 * static_cast<std::uint32_t>(type.color_slots.size());
    if (!type.deform_slots.empty()) {
        // Per slot, the largest deform its attachments can hold (as SkeletonPose reserves it).
        std::vector<std::uint32_t> largest(slots, 0);
        for (const SkinData& skin : data.skins)
            for (const SkinEntry& e : skin.entries) {
                const AttachmentData& a = data.attachments[static_cast<std::size_t>(e.attachment)];
                std::uint32_t floats = a.world_vertices_length;
                if (a.bones.count != 0) floats = 2 * (a.vertices.count / 3);
                std::uint32_t& l = largest[static_cast<std::size_t>(e.slot)];
                l = std::max(l, floats);
            }
        words += static_cast<std::uint32_t>(type.deform_slots.size());
        for (Index s : type.deform_slots) words += largest[static_cast<std::size_t>(s)];
    }
    return words;
}

std::uint16_t draw_entry(const StaticSkeleton& type, const SkeletonPose& pose, std::uint32_t position) {
    const Index slot = pose.draw_order[position];
    const auto s = static_cast<std::size_t>(slot);
    const std::uint16_t marker = type.slot_marker[s];
    if (!pose.bone_active[static_cast<std::size_t>(pose.data->slots[s].bone)]) return marker;
    const Index attachment = pose.slots[s].attachment;
    if (attachment == k_none) return marker;
    const auto a = static_cast<std::size_t>(attachment);
    const std::uint16_t first = type.first_id[a];
    if (first == k_no_attachment) return marker;
    if (type.frame_count[a] <= 1) return first;
    const std::uint32_t frame =
        std::min<std::uint32_t>(sequence_frame(pose, slot, attachment), type.frame_count[a] - 1u);
    return static_cast<std::uint16_t>(first + frame);
}

PackedCounts pack_character_at(const StaticSkeleton& type, std::uint32_t type_index, const SkeletonPose& pose,
                               Color tint, GpuCharacter& header, float* bones, std::uint32_t bone_first,
                               std::uint32_t* words, std::uint32_t word_first) {
    const SkeletonData& data = *pose.data;
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    PackedCounts counts;
    header.type = type_index;
    header.bone_first = bone_first;
    header.tint = pack_rgba8({pose.color.r * tint.r, pose.color.g * tint.g, pose.color.b * tint.b,
                              pose.color.a * tint.a});

    // Bones: a b c d x y of each drawn bone (BoneWorld has exactly that layout).
    static_assert(sizeof(BoneWorld) == k_bone_bytes);
    float* b = bones + static_cast<std::size_t>(bone_first) * 6;
    for (Index bone : type.drawn_bones) {
        std::memcpy(b, &pose.world[static_cast<std::size_t>(bone)], k_bone_bytes);
        b += 6;
    }

    // Draw list, two 16-bit ids per word, and the output sizes it implies.
    std::uint32_t* w = words + word_first;
    header.draw_first = word_first;
    for (std::uint32_t p = 0; p < slots; p += 2) {
        const std::uint16_t lo = draw_entry(type, pose, p);
        const std::uint16_t hi = p + 1 < slots ? draw_entry(type, pose, p + 1) : std::uint16_t(k_no_attachment);
        for (std::uint16_t id : {lo, hi})
            if (id != k_no_attachment) {
                counts.vertices += type.attachments[id].vertex_count;
                counts.indices += type.attachments[id].index_count;
            }
        *w++ = lo | static_cast<std::uint32_t>(hi) << 16;
    }

    header.color_first = k_no_section;
    if (!type.color_slots.empty()) {
        header.color_first = static_cast<std::uint32_t>(w - words);
        for (Index s : type.color_slots) {
            const SlotPose& slot = pose.slots[static_cast<std::size_t>(s)];
            *w++ = pack_rgba8(slot.color);
            *w++ = pack_rgba8(slot.dark);
        }
    }
    // Deform: a table entry per deform-animated slot, then the floats of those deformed now; no section at all when
    // none is.
    header.deform_first = k_no_section;
    bool deformed = false;
    for (Index s : type.deform_slots) {
        const SlotPose& slot = pose.slots[static_cast<std::size_t>(s)];
        deformed = deformed || (slot.deform_count != 0 && slot.attachment != k_none);
    }
    if (deformed) {
        std::uint32_t* table = w;
        header.deform_first = static_cast<std::uint32_t>(w - words);
        w += type.deform_slots.size();
        for (std::size_t i = 0; i < type.deform_slots.size(); ++i) {
            const SlotPose& slot = pose.slots[static_cast<std::size_t>(type.deform_slots[i])];
            if (slot.deform_count == 0 || slot.attachment == k_none) {
                table[i] = k_no_section;
                continue;
            }
            table[i] = static_cast<std::uint32_t>(w - words);
            std::memcpy(w, pose.deform.data() + slot.deform_offset, slot.deform_count * sizeof(float));
            w += slot.deform_count;
        }
    }
    counts.words = static_cast<std::uint32_t>(w - words) - word_first;
    return counts;
}

void pack_character(const StaticSkeleton& type, std::uint32_t type_index, const SkeletonPose& pose, Color tint,
                    PackCursor& cursor) {
    GpuCharacter& header = cursor.characters[cursor.character_count++];
    header.out_vertex_first = cursor.out_vertex_count;
    header.out_index_first = cursor.out_index_count;
    const PackedCounts counts = pack_character_at(type, type_index, pose, tint, header, cursor.bones,
                                                  cursor.bone_count, cursor.words, cursor.word_count);
    cursor.bone_count += static_cast<std::uint32_t>(type.drawn_bones.size());
    cursor.word_count += counts.words;
    cursor.out_vertex_count += counts.vertices;
    cursor.out_index_count += counts.indices;
}

bool character_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view) {
    float min_x = std::numeric_limits<float>::infinity(), min_y = min_x, max_x = -min_x, max_y = -min_x;
    for (std::size_t i = 0; i < type.drawn_bones.size(); ++i) {
        const BoneWorld& b = pose.world[static_cast<std::size_t>(type.drawn_bones[i])];
        const float r = type.bone_radius[i] * std::sqrt(b.a * b.a + b.b * b.b + b.c * b.c + b.d * b.d);
        min_x = std::min(min_x, b.x - r);
        max_x = std::max(max_x, b.x + r);
        min_y = std::min(min_y, b.y - r);
        max_y = std::max(max_y, b.y + r);
    }
    return min_x <= view.max_x && max_x >= view.min_x && min_y <= view.max_y && max_y >= view.min_y;
}

std::uint32_t packed_bytes_per_character(const StaticSkeleton& type, const SkeletonData& data) {
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    const std::uint32_t words = (slots + 1) / 2 + 2 * static_cast<std::uint32_t>(type.color_slots.size());
    return static_cast<std::uint32_t>(sizeof(GpuCharacter)) +
           static_cast<std::uint32_t>(type.drawn_bones.size()) * k_bone_bytes + 4 * words;
}

}  // namespace spinegpu::gpu
