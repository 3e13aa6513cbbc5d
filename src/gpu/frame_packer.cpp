// Per-frame packing: see frame_packer.hpp.
#include "spinegpu/gpu/frame_packer.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <initializer_list>
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

namespace {

// The tables draw_entry reads, looked up once per character instead of once per slot.
struct DrawTables {
    const Index* draw_order;
    const SlotPose* slots;
    const Index* hiding_bone;
    const std::uint8_t* bone_active;
    const std::uint16_t* slot_marker;
    const std::uint16_t* first_id;
    const std::uint16_t* frame_count;

    DrawTables(const StaticSkeleton& type, const SkeletonPose& pose)
        : draw_order(pose.draw_order.data()), slots(pose.slots.data()), hiding_bone(type.slot_hiding_bone.data()),
          bone_active(pose.bone_active.data()), slot_marker(type.slot_marker.data()), first_id(type.first_id.data()),
          frame_count(type.frame_count.data()) {}
};

// draw_entry over prepared tables.
inline std::uint16_t draw_entry_in(const DrawTables& t, const SkeletonPose& pose, std::uint32_t position) {
    const Index slot = t.draw_order[position];
    const auto s = static_cast<std::size_t>(slot);
    const std::uint16_t marker = t.slot_marker[s];
    // Only skin-required bones can be inactive (SkeletonPose::bone_active).
    const Index bone = t.hiding_bone[s];
    if (bone != k_none && !t.bone_active[static_cast<std::size_t>(bone)]) return marker;
    const Index attachment = t.slots[s].attachment;
    if (attachment == k_none) return marker;
    const auto a = static_cast<std::size_t>(attachment);
    const std::uint16_t first = t.first_id[a];
    if (first == k_no_attachment) return marker;
    if (t.frame_count[a] <= 1) return first;
    const std::uint32_t frame =
        std::min<std::uint32_t>(sequence_frame(pose, slot, attachment), t.frame_count[a] - 1u);
    return static_cast<std::uint16_t>(first + frame);
}

// Adds the vertices and indices attachment `id` draws to `counts` (k_no_attachment draws none).
inline void add_counts(const GpuAttachment* attachments, std::uint16_t id, PackedCounts& counts) {
    if (id == k_no_attachment) return;
    counts.vertices += attachments[id].vertex_count;
    counts.indices += attachments[id].index_count;
}

// draw_entry_in for a pose without sequences, adding the output sizes of what it draws to `counts`: a clip-end
// marker draws no vertices or indices (StaticSkeleton's add_markers), so only a found attachment adds any. ORs the
// attachment's frame count into `frames`: a result above 1 means a sequence attachment was met (its entry is then
// wrong, and the caller writes the list again). Without the call sequence_frame would need, the loop keeps its
// tables in registers.
inline std::uint16_t plain_draw_entry(const DrawTables& t, const GpuAttachment* attachments, std::uint32_t position,
                                      PackedCounts& counts, std::uint32_t& frames) {
    const auto s = static_cast<std::size_t>(t.draw_order[position]);
    const Index bone = t.hiding_bone[s];
    if (bone != k_none && !t.bone_active[static_cast<std::size_t>(bone)]) return t.slot_marker[s];
    const Index attachment = t.slots[s].attachment;
    if (attachment == k_none) return t.slot_marker[s];
    const auto a = static_cast<std::size_t>(attachment);
    const std::uint16_t first = t.first_id[a];
    if (first == k_no_attachment) return t.slot_marker[s];
    frames |= t.frame_count[a];
    counts.vertices += attachments[first].vertex_count;
    counts.indices += attachments[first].index_count;
    return first;
}

// Writes entry(p) for the `slots` draw-order positions from `w`, two ids per word (the low half first; an odd
// count's last word has k_no_attachment in its high half). Returns the word after the list.
template <class Entry>
inline std::uint32_t* write_ids(std::uint32_t slots, std::uint32_t* w, Entry entry) {
    std::uint32_t p = 0;
    for (; p + 1 < slots; p += 2) {
        const std::uint16_t lo = entry(p), hi = entry(p + 1);
        *w++ = lo | static_cast<std::uint32_t>(hi) << 16;
    }
    if (p < slots) *w++ = entry(p) | std::uint32_t{k_no_attachment} << 16;
    return w;
}

// Writes the draw list from `w` and adds the output sizes it implies to `counts`. Returns the word after the list.
// Inlined into pack_character_at (as a call it costs 25 instructions per character).
[[gnu::always_inline]] inline std::uint32_t* write_draw_list(const StaticSkeleton& type, const SkeletonPose& pose,
                                                             std::uint32_t slots, std::uint32_t* w,
                                                             PackedCounts& counts) {
    const DrawTables tables(type, pose);
    const GpuAttachment* attachments = type.attachments.data();
    PackedCounts plain;
    std::uint32_t frames = 0;
    std::uint32_t* end = write_ids(slots, w, [&](std::uint32_t p) {
        return plain_draw_entry(tables, attachments, p, plain, frames);
    });
    if (frames <= 1) {
        counts.vertices += plain.vertices;
        counts.indices += plain.indices;
        return end;
    }
    return write_ids(slots, w, [&](std::uint32_t p) {
        const std::uint16_t id = draw_entry_in(tables, pose, p);
        add_counts(attachments, id, counts);
        return id;
    });
}

// Copies the drawn bones' world transforms (a b c d x y, BoneWorld's layout) to `out`, two per iteration, with the
// pointers read once (in a loop over pose.world[...] they are reloaded per bone: `out` may alias them).
void copy_drawn_bones(const StaticSkeleton& type, const SkeletonPose& pose, float* out) {
    static_assert(sizeof(BoneWorld) == k_bone_bytes);
    const BoneWorld* world = pose.world.data();
    const Index* drawn = type.drawn_bones.data();
    const Index* pairs_end = drawn + (type.drawn_bones.size() & ~std::size_t{1});
    for (; drawn != pairs_end; drawn += 2, out += 12) {
        std::memcpy(out, &world[static_cast<std::size_t>(drawn[0])], k_bone_bytes);
        std::memcpy(out + 6, &world[static_cast<std::size_t>(drawn[1])], k_bone_bytes);
    }
    if (type.drawn_bones.size() % 2 != 0) std::memcpy(out, &world[static_cast<std::size_t>(*drawn)], k_bone_bytes);
}

}  // namespace

std::uint16_t draw_entry(const StaticSkeleton& type, const SkeletonPose& pose, std::uint32_t position) {
    return draw_entry_in(DrawTables(type, pose), pose, position);
}

std::vector<std::uint32_t> setup_draw_lists(const StaticSkeleton& type, const SkeletonData& data) {
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    const std::uint32_t list_words = (slots + 1) / 2;
    std::size_t lists = std::min<std::size_t>(data.skins.size() + 1, k_max_setup_lists);
    if (list_words != 0) lists = std::min<std::size_t>(lists, k_max_setup_list_words / list_words);
    std::vector<std::uint32_t> out(lists * list_words);
    // One pose for every skin: the attachments of the setup pose come from the current skin then the default one,
    // whatever the skin before, and set_skin rebuilds which bones are active.
    SkeletonPose pose = create_pose(data);
    for (std::size_t list = 0; list < lists; ++list) {
        set_skin(pose, static_cast<Index>(list) - 1);
        set_slots_to_setup_pose(pose);
        PackedCounts counts;
        write_draw_list(type, pose, slots, out.data() + list * list_words, counts);
    }
    return out;
}

std::uint32_t setup_list_offset(const StaticSkeleton& type, Index skin) {
    const auto slots = static_cast<std::uint32_t>(type.slot_marker.size());
    const std::uint32_t list_words = (slots + 1) / 2;
    if (skin < k_none || list_words == 0) return k_no_section;
    const std::size_t first = static_cast<std::size_t>(skin + 1) * list_words;
    if (first + list_words > type.setup_lists.size()) return k_no_section;
    return static_cast<std::uint32_t>(first);
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
    copy_drawn_bones(type, pose, bones + static_cast<std::size_t>(bone_first) * 6);

    // Draw list, two 16-bit ids per word, and the output sizes it implies: built here, and sent only when it
    // differs from the setup list of the character's skin.
    std::uint32_t list[(k_max_slots + 1) / 2];
    assert(slots <= k_max_slots);  // build_static_skeleton refuses larger types
    write_draw_list(type, pose, slots, list, counts);
    const std::uint32_t list_words = (slots + 1) / 2;
    std::uint32_t* w = words + word_first;
    const std::uint32_t setup = setup_list_offset(type, pose.skin);
    if (setup != k_no_section &&
        std::memcmp(list, type.setup_lists.data() + setup, list_words * sizeof(std::uint32_t)) == 0) {
        header.draw_first = k_setup_list_bit | setup;
    } else {
        header.draw_first = word_first;
        if (list_words != 0) std::memcpy(w, list, list_words * sizeof(std::uint32_t));
        w += list_words;
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

namespace {

// Whether two rectangles meet (share a point, edges included).
inline bool meets(const WorldRect& box, const WorldRect& view) {
    return box.min_x <= view.max_x && box.max_x >= view.min_x && box.min_y <= view.max_y && box.max_y >= view.min_y;
}

// The length of the longest (x, y) in the pose's applied deforms: offsets in a bone's space for weighted attachments,
// positions in the slot bone's space for unweighted ones. Infinite if any is not finite.
float deform_extent(const SkeletonPose& pose) {
    float longest = 0;
    for (const SlotPose& slot : pose.slots) {
        const float* v = pose.deform.data() + slot.deform_offset;
        for (std::uint32_t i = 0; i + 1 < slot.deform_count; i += 2) {
            const float length = std::hypot(v[i], v[i + 1]);
            if (std::isnan(length)) return std::numeric_limits<float>::infinity();
            longest = std::max(longest, length);
        }
    }
    return longest;
}

// Walks the character's drawn bones: true at the first whose box meets the view; false when none does, with `box`
// the union of their boxes. The union meets the view whenever one of its bones' boxes does, so the character is in
// view exactly when this returns true or `box` then meets the view; stopping early only saves the rest of the walk,
// which in a crowd most characters in view do at their first bone.
// Inactive bones (skin-required, not in the skin) draw nothing and hold stale or zero transforms: left out, where
// the type has any (others skip reading the pose's activity, a cache line of its own). A pose whose deforms may lie
// beyond their keys (SkeletonPose::deform_beyond_keys) has every radius widened by its deforms' largest extent.
bool any_bone_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view, WorldRect& box) {
    float min_x = std::numeric_limits<float>::infinity(), min_y = min_x, max_x = -min_x, max_y = -min_x;
    const BoneWorld* world = pose.world.data();
    const std::uint8_t* active = type.drawn_bones_may_be_inactive ? pose.bone_active.data() : nullptr;
    const Index* drawn = type.drawn_bones.data();
    const float* radius = type.bone_radius.data();
    const float widen = pose.deform_beyond_keys ? deform_extent(pose) : 0.0f;
    for (std::size_t i = 0, count = type.drawn_bones.size(); i < count; ++i) {
        const auto bone = static_cast<std::size_t>(drawn[i]);
        if (active != nullptr && !active[bone]) continue;
        const BoneWorld& b = world[bone];
        const float r = (radius[i] + widen) * std::sqrt(b.a * b.a + b.b * b.b + b.c * b.c + b.d * b.d);
        const float x0 = b.x - r, x1 = b.x + r, y0 = b.y - r, y1 = b.y + r;
        if (x0 <= view.max_x && x1 >= view.min_x && y0 <= view.max_y && y1 >= view.min_y) return true;
        min_x = std::min(min_x, x0);
        max_x = std::max(max_x, x1);
        min_y = std::min(min_y, y0);
        max_y = std::max(max_y, y1);
    }
    box = {min_x, min_y, max_x, max_y};
    return false;
}

}  // namespace

bool character_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view) {
    WorldRect box;
    return any_bone_in_view(type, pose, view, box) || meets(box, view);
}

namespace {

// Whether the memo's box, moved as the pose's world transforms have moved since (memo_applies), certainly lies clear
// of `view`: a walk now would find a union box that does not meet it. The world transforms then and now both came
// from those that took the shape stamp, moved by the change of the skeleton position, each give or take its drift
// (PosedAt::drift), so each bone now lies where it lay then moved by the change s, give or take D, the sum of the two
// drifts (not their difference: the memo may be of a copy of the pose, or of a later state than a pose restored from a
// copy). Each box edge is a bone's coordinate minus or plus its radius, rounded once, then and now, by at most
// u = 2^-24 of its magnitude, which is at most the memo's largest edge e then and e + |s| + D now. So each edge now
// lies within D + 2^-22 (e + |s| + D) of the memo's edge moved by s, the bound widened for the sums here (in doubles,
// rounded by 2^-53 of their magnitude). False where anything is not finite (every comparison with a NaN is false).
bool moved_box_clear_of(const CullingMemo& memo, const SkeletonPose& pose, const WorldRect& view) {
    const WorldRect& box = memo.box;
    const double sx = static_cast<double>(pose.posed_at.x) - memo.x, sy = static_cast<double>(pose.posed_at.y) - memo.y;
    const double drift = pose.posed_at.drift + memo.drift;
    const double edge = std::max({std::fabs(box.min_x), std::fabs(box.max_x), std::fabs(box.min_y),
                                  std::fabs(box.max_y)});
    const double margin = drift + 0x1p-22 * (edge + std::max(std::fabs(sx), std::fabs(sy)) + drift);
    return box.min_x + sx - margin > view.max_x || box.max_x + sx + margin < view.min_x ||
           box.min_y + sy - margin > view.max_y || box.max_y + sy + margin < view.min_y;
}

}  // namespace

bool character_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view,
                       CullingMemo& memo) {
    if (memo_applies(memo, type, pose)) {
        if (memo.stamp == pose.world_stamp) return meets(memo.box, view);
        if (moved_box_clear_of(memo, pose, view)) return false;
    }
    WorldRect box;
    if (any_bone_in_view(type, pose, view, box)) return true;
    memo = {pose.world_stamp, pose.shape_stamp, &type, pose.posed_at.drift, box, pose.posed_at.x, pose.posed_at.y};
    return meets(box, view);
}

namespace {

// Prefetches for reading the cache lines that hold `bytes` bytes from `p`, four lines per loop test.
inline void prefetch_lines(const void* p, std::size_t bytes) {
    constexpr std::uintptr_t k_line = 64;
    std::uintptr_t line = reinterpret_cast<std::uintptr_t>(p) & ~(k_line - 1);
    const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(p) + bytes;
    for (; line + 3 * k_line < end; line += 4 * k_line) {
        __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 3);
        __builtin_prefetch(reinterpret_cast<const void*>(line + k_line), 0, 3);
        __builtin_prefetch(reinterpret_cast<const void*>(line + 2 * k_line), 0, 3);
        __builtin_prefetch(reinterpret_cast<const void*>(line + 3 * k_line), 0, 3);
    }
    for (; line < end; line += k_line) __builtin_prefetch(reinterpret_cast<const void*>(line), 0, 3);
}

}  // namespace

void prefetch_for_packing(const SkeletonPose* next, const SkeletonPose* after_next) {
    if (next != nullptr) {
        prefetch_lines(next->world.data(), next->world.size() * sizeof(BoneWorld));
        prefetch_lines(next->slots.data(), next->slots.size() * sizeof(SlotPose));
        prefetch_lines(next->draw_order.data(), next->draw_order.size() * sizeof(Index));
        prefetch_lines(next->bone_active.data(), next->bone_active.size());
    }
    if (after_next == nullptr) return;
    // The members culling and packing read: the data pointer, the arrays' addresses, the colour, the world stamps and
    // where the crowd update left the pose (a kept culling box moves with it).
    const SkeletonPose& p = *after_next;
    for (const void* member :
         std::initializer_list<const void*>{&p.data, &p.world, &p.bone_active, &p.slots, &p.draw_order, &p.color,
                                            &p.posed_at, &p.world_stamp, &p.shape_stamp})
        __builtin_prefetch(member, 0, 3);
}

std::uint32_t packed_bytes_per_character(const StaticSkeleton& type, const SkeletonData& data) {
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    const std::uint32_t words = (slots + 1) / 2 + 2 * static_cast<std::uint32_t>(type.color_slots.size());
    return static_cast<std::uint32_t>(sizeof(GpuCharacter)) +
           static_cast<std::uint32_t>(type.drawn_bones.size()) * k_bone_bytes + 4 * words;
}

}  // namespace spinegpu::gpu
