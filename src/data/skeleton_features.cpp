#include "spinegpu/data/skeleton_features.hpp"

namespace spinegpu {

std::uint64_t animation_timeline_types(const SkeletonData& data, Index animation) {
    std::uint64_t types = 0;
    Range r = data.animations[static_cast<std::size_t>(animation)].timelines;
    for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i)
        types |= std::uint64_t{1} << static_cast<int>(data.timelines[i].type);
    return types;
}

SkeletonFeatures analyze_features(const SkeletonData& data) {
    SkeletonFeatures f;
    for (const TimelineData& t : data.timelines) f.timeline_types |= std::uint64_t{1} << static_cast<int>(t.type);
    auto uses = [&](TimelineType type) { return (f.timeline_types >> static_cast<int>(type)) & 1; };
    f.color_animation = uses(TimelineType::rgba) || uses(TimelineType::rgb) || uses(TimelineType::alpha) ||
                        uses(TimelineType::rgba2) || uses(TimelineType::rgb2);
    f.two_color_tint = uses(TimelineType::rgba2) || uses(TimelineType::rgb2);
    f.deform = uses(TimelineType::deform);
    f.draw_order = uses(TimelineType::draw_order);
    f.attachment_swaps = uses(TimelineType::attachment);
    for (const SlotData& slot : data.slots) {
        f.two_color_tint = f.two_color_tint || slot.has_dark;
        f.blend_modes |= static_cast<std::uint8_t>(1u << static_cast<int>(slot.blend));
    }
    for (const AttachmentData& a : data.attachments) {
        f.sequences = f.sequences || a.sequence != k_none;
        f.clipping = f.clipping || a.type == AttachmentType::clipping;
    }
    // Attachment swaps also happen through skins: a slot with several attachments across all skins.
    if (!f.attachment_swaps) {
        std::vector<std::uint8_t> per_slot(data.slots.size(), 0);
        for (const SkinData& skin : data.skins)
            for (const SkinEntry& e : skin.entries)
                if (per_slot[static_cast<std::size_t>(e.slot)] < 2) ++per_slot[static_cast<std::size_t>(e.slot)];
        for (std::uint8_t n : per_slot) f.attachment_swaps = f.attachment_swaps || n > 1;
    }
    f.physics = !data.physics_constraints.empty();
    std::size_t named = data.skins.size() - (data.default_skin != k_none ? 1 : 0);
    f.multiple_skins = named > 1;
    return f;
}

}  // namespace spinegpu
