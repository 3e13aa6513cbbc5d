#include "spinegpu/data/skeleton_data.hpp"

#include <algorithm>

#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"
#include "linked_meshes.hpp"

namespace spinegpu {

Index SkeletonData::find_skin_attachment(Index skin, Index slot, Index name) const {
    if (skin < 0 || static_cast<std::size_t>(skin) >= skins.size()) return k_none;
    const std::vector<SkinEntry>& entries = skins[static_cast<std::size_t>(skin)].entries;
    auto it = std::lower_bound(entries.begin(), entries.end(), SkinEntry{slot, name, 0},
                               [](const SkinEntry& a, const SkinEntry& b) {
                                   return a.slot != b.slot ? a.slot < b.slot : a.name < b.name;
                               });
    if (it == entries.end() || it->slot != slot || it->name != name) return k_none;
    return it->attachment;
}

namespace {

// The runtime builds its update cache by asking, for each position i in 0..count-1, for the first constraint whose
// order is i, looking at IK, then transform, then path, then physics constraints. A constraint whose order no
// position asks for is never updated; we keep that behaviour rather than invent another. One pass per kind, so that
// a file with many constraints costs linear time.
template <class T>
void claim_orders(const std::vector<T>& list, ConstraintKind kind, std::vector<ConstraintRef>& first,
                  std::vector<bool>& claimed) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        auto order = static_cast<std::size_t>(list[i].order);  // loaders keep orders non-negative
        if (order >= first.size() || claimed[order]) continue;
        first[order] = ConstraintRef{kind, static_cast<Index>(i)};
        claimed[order] = true;
    }
}

// The attachment `name` has in the default skin for `slot`, k_none for no name (as the runtime's lookup answers).
Index in_default_skin(const SkeletonData& data, Index slot, Index name) {
    return name == k_none ? k_none : data.find_skin_attachment(data.default_skin, slot, name);
}

// The default-skin half of the runtime's attachment lookup, done once; the skin entries must be sorted. Each
// attachment timeline's names move to a block of their own at the end of `indices`, frame_count names followed by
// their default-skin attachments. The block is whole for every frame the runtime can find, whatever range the
// loader left (a name outside that range or the pool, which no loader makes, becomes k_none).
void resolve_default_attachments(SkeletonData& data) {
    for (std::size_t i = 0; i < data.slots.size(); ++i) {
        SlotData& slot = data.slots[i];
        slot.default_attachment = in_default_skin(data, static_cast<Index>(i), slot.attachment_name);
    }
    const std::size_t loaded = data.indices.size();  // names come from here, never from the blocks made below
    for (TimelineData& t : data.timelines) {
        if (t.type != TimelineType::attachment) continue;
        const std::size_t count = t.frame_count, start = data.indices.size();
        data.indices.resize(start + 2 * count, k_none);
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t at = std::size_t{t.aux.offset} + k;
            const Index name = k < t.aux.count && at < loaded ? data.indices[at] : k_none;
            data.indices[start + k] = name;
            data.indices[start + count + k] = in_default_skin(data, t.target, name);
        }
        t.aux = Range{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(count)};
    }
}

}  // namespace

void finish_skeleton_data(SkeletonData& data) {
    detail::sort_skin_entries(data);
    data.bone_setup_axes.resize(data.bones.size());
    for (std::size_t i = 0; i < data.bones.size(); ++i) {
        BoneSetupAxis& axis = data.bone_setup_axes[i];
        axis.angle = static_cast<double>(data.bones[i].rotation) + data.bones[i].shear_x;
        detail::fast_sincos(axis.angle * detail::k_deg_rad, axis.sin, axis.cos);
    }
    resolve_default_attachments(data);
    data.finished = true;
    std::size_t count = data.ik_constraints.size() + data.transform_constraints.size() +
                        data.path_constraints.size() + data.physics_constraints.size();
    std::vector<ConstraintRef> first(count);
    std::vector<bool> claimed(count, false);
    claim_orders(data.ik_constraints, ConstraintKind::ik, first, claimed);
    claim_orders(data.transform_constraints, ConstraintKind::transform, first, claimed);
    claim_orders(data.path_constraints, ConstraintKind::path, first, claimed);
    claim_orders(data.physics_constraints, ConstraintKind::physics, first, claimed);
    data.constraint_order.clear();
    for (std::size_t i = 0; i < count; ++i)
        if (claimed[i]) data.constraint_order.push_back(first[i]);
}

const char* timeline_type_name(TimelineType type) {
    static const char* const names[k_timeline_type_count] = {
        "rotate", "translate", "translateX", "translateY", "scale", "scaleX", "scaleY", "shear", "shearX", "shearY",
        "inherit", "rgba", "rgb", "alpha", "rgba2", "rgb2", "attachment", "deform", "sequence", "drawOrder", "event",
        "ik", "transform", "pathPosition", "pathSpacing", "pathMix", "physicsInertia", "physicsStrength",
        "physicsDamping", "physicsMass", "physicsWind", "physicsGravity", "physicsMix", "physicsReset"};
    return names[static_cast<int>(type)];
}

const char* attachment_type_name(AttachmentType type) {
    static const char* const names[] = {"region", "mesh", "boundingbox", "path", "point", "clipping"};
    return names[static_cast<int>(type)];
}

const char* blend_mode_name(BlendMode mode) {
    static const char* const names[] = {"normal", "additive", "multiply", "screen"};
    return names[static_cast<int>(mode)];
}

const char* inherit_name(Inherit inherit) {
    static const char* const names[] = {"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
                                        "noScaleOrReflection"};
    return names[static_cast<int>(inherit)];
}

}  // namespace spinegpu
