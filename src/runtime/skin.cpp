// Skins on a pose: attachment lookup (Spine's Skeleton.getAttachment), Slot.setAttachment, Skeleton.setSkin with
// Skin.attachAll, and combined skins built as Skin.addSkin builds them.
#include <algorithm>

#include "spinegpu/runtime/skeleton_pose.hpp"

#include "attachment_lookup.hpp"

namespace spinegpu {
namespace {

// Whether `index` names one of `skins`.
bool names_a_skin(const std::vector<SkinData>& skins, Index index) {
    return index >= 0 && static_cast<std::size_t>(index) < skins.size();
}

bool entry_less(const SkinEntry& a, const SkinEntry& b) {
    return a.slot != b.slot ? a.slot < b.slot : a.name < b.name;
}

// The entries of `skin` for `slot` (skin entries are sorted by slot, then name).
std::span<const SkinEntry> slot_entries(const SkinData& skin, Index slot) {
    auto first = std::lower_bound(skin.entries.begin(), skin.entries.end(), SkinEntry{slot, k_none, 0}, entry_less);
    auto last = first;
    while (last != skin.entries.end() && last->slot == slot) ++last;
    return {first, last};
}

// The attachment of `skin` at (slot, name), or k_none (Spine's Skin.getAttachment).
Index skin_attachment(const SkinData& skin, Index slot, Index name) {
    auto it = std::lower_bound(skin.entries.begin(), skin.entries.end(), SkinEntry{slot, name, 0}, entry_less);
    if (it == skin.entries.end() || it->slot != slot || it->name != name) return k_none;
    return it->attachment;
}

bool is_vertex_attachment(AttachmentType type) {
    return type == AttachmentType::mesh || type == AttachmentType::bounding_box || type == AttachmentType::path ||
           type == AttachmentType::clipping;
}

// Spine's Skeleton.setSkin, given the old skin object (null for none) and the new one (null for none). The caller
// then records which skin is current and rebuilds the update cache.
void attach_new_skin(SkeletonPose& pose, const SkinData* old_skin, const SkinData* new_skin) {
    if (new_skin == nullptr) return;
    const auto slot_count = static_cast<Index>(pose.slots.size());
    if (old_skin != nullptr) {
        // Skin.attachAll: a slot showing one of the old skin's attachments gets the new skin's attachment stored
        // under the same name, if it has one.
        for (Index slot = 0; slot < slot_count; ++slot) {
            const Index shown = pose.slots[static_cast<std::size_t>(slot)].attachment;
            if (shown == k_none) continue;
            for (const SkinEntry& entry : slot_entries(*old_skin, slot)) {
                if (entry.attachment != shown) continue;
                const Index replacement = skin_attachment(*new_skin, slot, entry.name);
                if (replacement != k_none) set_slot_attachment(pose, slot, replacement);
                break;
            }
        }
        return;
    }
    // No old skin: each slot's setup attachment, from the new skin only.
    for (Index slot = 0; slot < slot_count; ++slot) {
        const Index name = pose.data->slots[static_cast<std::size_t>(slot)].attachment_name;
        if (name == k_none) continue;
        const Index attachment = skin_attachment(*new_skin, slot, name);
        if (attachment != k_none) set_slot_attachment(pose, slot, attachment);
    }
}

}  // namespace

Index find_attachment(const SkeletonPose& pose, Index slot, Index attachment_name) {
    const Index found = detail::current_skin_attachment_or(pose, slot, attachment_name, k_none);
    if (found != k_none || attachment_name == k_none) return found;
    return pose.data->find_skin_attachment(pose.data->default_skin, slot, attachment_name);
}

Index detail::current_skin_attachment_or(const SkeletonPose& pose, Index slot, Index attachment_name,
                                         Index otherwise) {
    if (attachment_name == k_none) return k_none;
    const SkinData* skin = pose.current_skin();
    const Index found = skin != nullptr ? skin_attachment(*skin, slot, attachment_name) : k_none;
    return found != k_none ? found : otherwise;
}

void set_slot_attachment(SkeletonPose& pose, Index slot, Index attachment) {
    SlotPose& s = pose.slots[static_cast<std::size_t>(slot)];
    if (s.attachment == attachment) return;
    // The deform survives only between vertex attachments driven by the same timelines (linked meshes).
    const std::vector<AttachmentData>& attachments = pose.data->attachments;
    const bool keep_deform =
        attachment != k_none && s.attachment != k_none &&
        is_vertex_attachment(attachments[static_cast<std::size_t>(attachment)].type) &&
        is_vertex_attachment(attachments[static_cast<std::size_t>(s.attachment)].type) &&
        attachments[static_cast<std::size_t>(attachment)].timeline_attachment ==
            attachments[static_cast<std::size_t>(s.attachment)].timeline_attachment;
    if (!keep_deform) s.deform_count = 0;
    s.attachment = attachment;
    s.sequence_index = -1;
}

bool set_skin(SkeletonPose& pose, Index skin) {
    const std::vector<SkinData>& skins = pose.data->skins;
    if (skin != k_none && !names_a_skin(skins, skin)) return false;
    if (skin == pose.skin) return true;
    const SkinData* new_skin = skin == k_none ? nullptr : &skins[static_cast<std::size_t>(skin)];
    attach_new_skin(pose, pose.current_skin(), new_skin);
    pose.skin = skin;
    update_cache(pose);
    return true;
}

bool set_combined_skin(SkeletonPose& pose, std::span<const Index> skins) {
    // Skin.addSkin for each skin in order: bones and constraints appended without duplicates, attachments set by
    // (slot, name) so that a later skin replaces an earlier one's entry.
    const SkeletonData& data = *pose.data;
    if (!std::all_of(skins.begin(), skins.end(), [&](Index index) { return names_a_skin(data.skins, index); }))
        return false;
    SkinData combined;
    for (Index index : skins) {
        const SkinData& source = data.skins[static_cast<std::size_t>(index)];
        for (Index bone : source.bones)
            if (std::find(combined.bones.begin(), combined.bones.end(), bone) == combined.bones.end())
                combined.bones.push_back(bone);
        for (const ConstraintRef& constraint : source.constraints)
            if (std::find(combined.constraints.begin(), combined.constraints.end(), constraint) ==
                combined.constraints.end())
                combined.constraints.push_back(constraint);
        combined.entries.insert(combined.entries.end(), source.entries.begin(), source.entries.end());
    }
    // Sorted by (slot, name) with the last added entry of each key kept.
    std::stable_sort(combined.entries.begin(), combined.entries.end(), entry_less);
    std::vector<SkinEntry> unique;
    unique.reserve(combined.entries.size());
    for (std::size_t i = 0; i < combined.entries.size(); ++i) {
        const bool last_of_key = i + 1 == combined.entries.size() ||
                                 entry_less(combined.entries[i], combined.entries[i + 1]);
        if (last_of_key) unique.push_back(combined.entries[i]);
    }
    combined.entries = std::move(unique);

    // A new skin object is never the current one, so this is always a skin change; the old skin (perhaps the
    // previous combined skin) is still needed by attachAll, so the new one replaces it only afterwards.
    attach_new_skin(pose, pose.current_skin(), &combined);
    pose.custom_skin = std::move(combined);
    pose.skin = SkeletonPose::k_custom_skin;
    update_cache(pose);
    return true;
}

}  // namespace spinegpu
