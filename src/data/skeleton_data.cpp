#include "spinegpu/data/skeleton_data.hpp"

#include <algorithm>

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
// position asks for is never updated; we keep that behaviour rather than invent another.
template <class T>
bool take_order(const std::vector<T>& list, ConstraintKind kind, std::int32_t order, std::vector<ConstraintRef>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].order == order) {
            out.push_back(ConstraintRef{kind, static_cast<Index>(i)});
            return true;
        }
    }
    return false;
}

}  // namespace

void finish_skeleton_data(SkeletonData& data) {
    for (SkinData& skin : data.skins) {
        std::stable_sort(skin.entries.begin(), skin.entries.end(), [](const SkinEntry& a, const SkinEntry& b) {
            return a.slot != b.slot ? a.slot < b.slot : a.name < b.name;
        });
    }
    data.constraint_order.clear();
    std::size_t count = data.ik_constraints.size() + data.transform_constraints.size() +
                        data.path_constraints.size() + data.physics_constraints.size();
    for (std::size_t i = 0; i < count; ++i) {
        auto order = static_cast<std::int32_t>(i);
        if (take_order(data.ik_constraints, ConstraintKind::ik, order, data.constraint_order)) continue;
        if (take_order(data.transform_constraints, ConstraintKind::transform, order, data.constraint_order)) continue;
        if (take_order(data.path_constraints, ConstraintKind::path, order, data.constraint_order)) continue;
        take_order(data.physics_constraints, ConstraintKind::physics, order, data.constraint_order);
    }
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
