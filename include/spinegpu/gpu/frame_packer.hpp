// Per-frame packing of poses for the GPU path (what moves per character and frame): a 32-byte header,
// 24 bytes per drawn bone, the draw list (a 16-bit attachment id per draw-order position) only when it differs from
// the setup pose's with the character's skin and, only for skeleton types whose animations need them, slot colours
// and deform offsets. Written straight into mapped memory through raw cursors; nothing allocates. Pure CPU code: the
// CPU path (cpu_path.hpp) walks the same draw list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/gpu/static_skeleton.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::gpu {

// Where packing writes next, and how much it has written. The caller sizes the arrays (see max_words_per_character
// and StaticSkeleton::drawn_bones) before packing.
struct PackCursor {
    GpuCharacter* characters = nullptr;
    float* bones = nullptr;
    std::uint32_t* words = nullptr;
    std::uint32_t character_count = 0;
    std::uint32_t bone_count = 0;        // bones written (6 floats each)
    std::uint32_t word_count = 0;
    std::uint32_t out_vertex_count = 0;  // skinned vertices the characters so far will produce
    std::uint32_t out_index_count = 0;
};

// Most words one character of this type can take in the word buffer (draw list, colours, deform).
std::uint32_t max_words_per_character(const StaticSkeleton& type, const SkeletonData& data);

// The draw-list entry for draw-order position `position` of `pose`: the type-local attachment id the official
// renderer would draw there (the frame its sequence shows), the slot's clip-end marker when it draws nothing but
// ends a clip, or k_no_attachment. Slots whose bone is inactive draw nothing, as in the official renderers.
std::uint16_t draw_entry(const StaticSkeleton& type, const SkeletonPose& pose, std::uint32_t position);

// Most setup lists one type keeps, and most words they may take (4 MiB): skins past either limit have none, and
// their characters always send their draw list. They bound the work and memory a file with very many skins costs.
inline constexpr std::size_t k_max_setup_lists = 4096;
inline constexpr std::size_t k_max_setup_list_words = std::size_t{1} << 20;

// The setup lists of `type` (StaticSkeleton::setup_lists): for no skin and then each skin of `data`, within the
// limits above, the draw list of the setup pose with that skin, as pack_character_at would write it. Needs the
// type's attachments and its other draw tables (first_id, frame_count, slot_marker, slot_hiding_bone) filled.
std::vector<std::uint32_t> setup_draw_lists(const StaticSkeleton& type, const SkeletonData& data);

// Where the setup list of skin `skin` (SkeletonPose::skin) starts in type.setup_lists, in words; k_no_section for a
// type without slots, a combined skin, or a skin past the limits.
std::uint32_t setup_list_offset(const StaticSkeleton& type, Index skin);

// What one character packed: words written, and the skinned vertices and indices its draw list produces.
struct PackedCounts {
    std::uint32_t words = 0, vertices = 0, indices = 0;
};

// Packs one character at fixed places, so that characters can be packed in parallel: the header (type
// `type_index`, colour = skeleton colour x `tint`, bones at `bone_first`, sections from `word_first`), its drawn
// bones at bones[6 * bone_first], its draw list (unless it equals the setup list of the pose's skin: the header
// then points there, with k_setup_list_bit) and optional sections at words[word_first] (at most
// max_words_per_character words). The header's out_vertex_first and out_index_first are left to the caller, who
// knows the counts of the characters before (see pack_character).
PackedCounts pack_character_at(const StaticSkeleton& type, std::uint32_t type_index, const SkeletonPose& pose,
                               Color tint, GpuCharacter& header, float* bones, std::uint32_t bone_first,
                               std::uint32_t* words, std::uint32_t word_first);

// Packs one character after those the cursor holds (pack_character_at with the output offsets filled in).
// Advances the cursor.
void pack_character(const StaticSkeleton& type, std::uint32_t type_index, const SkeletonPose& pose, Color tint,
                    PackCursor& cursor);

// An axis-aligned rectangle in world coordinates.
struct WorldRect {
    float min_x = 0, min_y = 0, max_x = 0, max_y = 0;
};

// Whether the character can show anything inside `view`: its drawn bones' positions widened by each bone's radius
// (StaticSkeleton::bone_radius, plus the pose's largest deform while SkeletonPose::deform_beyond_keys is set) times
// the bone matrix's Frobenius norm, which bounds every vertex it can draw (a weighted vertex is a weighted mean of
// its bones' transforms); inactive bones (SkeletonPose::bone_active) are left out, as their slots draw nothing.
// Conservative: it may keep a character that shows nothing in view, never drops one that does (for data whose
// attachments are weighted only to bones active with their slot's bone, as Spine exports them). Needs world
// transforms computed.
bool character_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view);

// A character's culling box kept from one frame to the next: the union of its active drawn bones' boxes, as
// character_in_view computes it, for the world transforms stamped `stamp` and `shape_stamp` (SkeletonPose) and the
// type `type` (which must stay unchanged at its address while a memo names it), with where a crowd update had left
// them then (PosedAt x, y and drift). A character outside the view keeps its world transforms while a crowd update
// passes it over, or has them moved with its skeleton position, so its box is read from here, and moved along,
// instead of from its bones (a cache line instead of one per 2.7 bones).
struct alignas(64) CullingMemo {
    std::uint64_t stamp = 0;        // 0: holds nothing
    std::uint64_t shape_stamp = 0;
    const StaticSkeleton* type = nullptr;
    double drift = 0;
    WorldRect box;
    float x = 0, y = 0;
};

// Whether `memo` holds a box of this pose's world transforms for `type`: of them as they are (`stamp`), or before
// crowd updates moved them (`shape_stamp`), which character_in_view moves along by as much.
inline bool memo_applies(const CullingMemo& memo, const StaticSkeleton& type, const SkeletonPose& pose) {
    return memo.shape_stamp == pose.shape_stamp && memo.shape_stamp != 0 && memo.type == &type;
}

// character_in_view, with the same answer: from `memo` when it holds this pose's box (memo_applies: as the world
// transforms are, or moved as they have moved since, when that moved box, widened by the moves' rounding bound
// (PosedAt::drift) and its own, lies clear of the view), else by walking its bones, keeping in `memo` the box of a
// walk that went through them all (no bone's box met the view: a character outside the view, or nearly). A memo is
// for one character; memos of different characters may be used at once.
bool character_in_view(const StaticSkeleton& type, const SkeletonPose& pose, const WorldRect& view,
                       CullingMemo& memo);

// Prefetching for a loop that culls and packs characters one after another: starts loading what character_in_view
// and pack_character_at will read of `next` (world transforms, slots, draw order, active bones) and, if given, the
// pose object of `after_next` (where the next call finds those arrays, its world stamps and PosedAt), so that packing
// one character overlaps the memory latency of the next. Call it with characters i + 1 and i + 2 before packing
// character i; with a null `next` when character i + 1's kept box applies (memo_applies), which culls it without
// reading its arrays unless its box has been moved near the view. A hint only: it changes no result.
void prefetch_for_packing(const SkeletonPose* next, const SkeletonPose* after_next);

// Bytes one character of this type packs per frame when its draw list differs from its skin's setup list and no
// deform is active (a draw list equal to the setup list saves 2 bytes per slot, rounded up to a word; a deform adds
// a word per deform-animated slot and a word per float).
std::uint32_t packed_bytes_per_character(const StaticSkeleton& type, const SkeletonData& data);

}  // namespace spinegpu::gpu
