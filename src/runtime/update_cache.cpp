// The update cache: the order in which bones are posed and constraints applied, built exactly as Spine's
// Skeleton.updateCache builds it (skin-required bones and constraints, sortBone/sortReset, constraints in
// SkeletonData::constraint_order, path constraints' attachment bones from every skin). Run when the skin changes,
// never per frame; it fills update_cache within the capacity create_pose reserved (see there).
#include <algorithm>

#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {
namespace {

struct CacheBuilder {
    SkeletonPose& pose;
    const SkeletonData& data;
    const SkinData* skin;

    bool active(Index bone) const { return pose.bone_active[static_cast<std::size_t>(bone)] != 0; }
    std::uint8_t& sorted(Index bone) { return pose.bone_sorted[static_cast<std::size_t>(bone)]; }
    Index parent(Index bone) const { return data.bones[static_cast<std::size_t>(bone)].parent; }

    void push(UpdateStep::Kind kind, Index index) {
        const Index parent_bone = kind == UpdateStep::Kind::bone ? parent(index) : k_none;
        pose.update_cache.push_back(UpdateStep{.kind = kind, .index = index, .parent = parent_bone});
    }

    // Spine's sortBone: a bone goes in after its parents, once.
    void sort_bone(Index bone) {
        if (bone == k_none || sorted(bone)) return;
        sort_bone(parent(bone));
        sorted(bone) = 1;
        push(UpdateStep::Kind::bone, bone);
    }

    // Spine's sortReset on `bone`'s children: descendants of a constrained bone must be posed again after it.
    // Children are the later bones naming it as parent, in bone order (the runtime's children arrays).
    void sort_reset_children(Index bone) {
        const auto count = static_cast<Index>(data.bones.size());
        for (Index child = bone + 1; child < count; ++child) {
            if (parent(child) != bone || !active(child)) continue;
            if (sorted(child)) sort_reset_children(child);
            sorted(child) = 0;
        }
    }

    // Whether a constraint that needs its skin is in the current one.
    bool skin_has(ConstraintKind kind, Index index) const {
        if (skin == nullptr) return false;
        return std::find(skin->constraints.begin(), skin->constraints.end(), ConstraintRef{kind, index}) !=
               skin->constraints.end();
    }
    bool constraint_active(bool target_active, bool skin_required, ConstraintKind kind, Index index) const {
        return target_active && (!skin_required || skin_has(kind, index));
    }

    void sort_ik(Index index) {
        const IkConstraintData& c = data.ik_constraints[static_cast<std::size_t>(index)];
        bool& is_active = pose.ik[static_cast<std::size_t>(index)].active;
        is_active = constraint_active(active(c.target), c.skin_required, ConstraintKind::ik, index);
        if (!is_active) return;
        sort_bone(c.target);
        const std::span<const Index> bones = data.index_span(c.bones);
        const Index parent_bone = bones.front();
        sort_bone(parent_bone);
        if (bones.size() == 1) {
            push(UpdateStep::Kind::ik, index);
            sort_reset_children(parent_bone);
        } else {
            const Index child = bones.back();
            sort_bone(child);
            push(UpdateStep::Kind::ik, index);
            sort_reset_children(parent_bone);
            sorted(child) = 1;
        }
    }

    void sort_transform(Index index) {
        const TransformConstraintData& c = data.transform_constraints[static_cast<std::size_t>(index)];
        bool& is_active = pose.transform[static_cast<std::size_t>(index)].active;
        is_active = constraint_active(active(c.target), c.skin_required, ConstraintKind::transform, index);
        if (!is_active) return;
        sort_bone(c.target);
        const std::span<const Index> bones = data.index_span(c.bones);
        // A local constraint reads its bones' applied poses, which need their parents posed first.
        for (Index bone : bones) {
            if (c.local) sort_bone(parent(bone));
            sort_bone(bone);
        }
        push(UpdateStep::Kind::transform, index);
        for (Index bone : bones) sort_reset_children(bone);
        for (Index bone : bones) sorted(bone) = 1;
    }

    // The bones a path attachment's world vertices depend on: its weights' bones, or the slot's bone.
    void sort_path_attachment(Index attachment, Index slot_bone) {
        const AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
        if (a.type != AttachmentType::path) return;
        if (a.bones.count == 0) {
            sort_bone(slot_bone);
            return;
        }
        const std::span<const Index> path_bones = data.index_span(a.bones);
        for (std::size_t i = 0; i < path_bones.size();) {
            const auto n = static_cast<std::size_t>(path_bones[i++]);
            for (const std::size_t end = i + n; i < end && i < path_bones.size(); ++i) sort_bone(path_bones[i]);
        }
    }
    void sort_path_skin(const SkinData& from, Index slot, Index slot_bone) {
        auto first = std::lower_bound(from.entries.begin(), from.entries.end(), slot,
                                      [](const SkinEntry& e, Index s) { return e.slot < s; });
        for (auto it = first; it != from.entries.end() && it->slot == slot; ++it)
            sort_path_attachment(it->attachment, slot_bone);
    }

    void sort_path(Index index) {
        const PathConstraintData& c = data.path_constraints[static_cast<std::size_t>(index)];
        const Index slot = c.target;
        const Index slot_bone = data.slots[static_cast<std::size_t>(slot)].bone;
        bool& is_active = pose.path[static_cast<std::size_t>(index)].active;
        is_active = constraint_active(active(slot_bone), c.skin_required, ConstraintKind::path, index);
        if (!is_active) return;
        // Every path attachment the slot could show, so that a skin or attachment change needs no new cache.
        const SkinData* default_skin =
            data.default_skin != k_none ? &data.skins[static_cast<std::size_t>(data.default_skin)] : nullptr;
        if (skin != nullptr) sort_path_skin(*skin, slot, slot_bone);
        if (default_skin != nullptr && default_skin != skin) sort_path_skin(*default_skin, slot, slot_bone);
        for (const SkinData& s : data.skins) sort_path_skin(s, slot, slot_bone);
        const Index shown = pose.slots[static_cast<std::size_t>(slot)].attachment;
        if (shown != k_none) sort_path_attachment(shown, slot_bone);

        const std::span<const Index> bones = data.index_span(c.bones);
        for (Index bone : bones) sort_bone(bone);
        push(UpdateStep::Kind::path, index);
        for (Index bone : bones) sort_reset_children(bone);
        for (Index bone : bones) sorted(bone) = 1;
    }

    void sort_physics(Index index) {
        const PhysicsConstraintData& c = data.physics_constraints[static_cast<std::size_t>(index)];
        bool& is_active = pose.physics[static_cast<std::size_t>(index)].active;
        is_active = constraint_active(active(c.bone), c.skin_required, ConstraintKind::physics, index);
        if (!is_active) return;
        sort_bone(c.bone);
        push(UpdateStep::Kind::physics, index);
        sort_reset_children(c.bone);
        sorted(c.bone) = 1;
    }
};

// Whether update step `step` reads the applied pose of `bone`: posing the bone itself, or a constraint that reads
// its bones' applied poses (IK) or its bones' and target's (local transform constraints; world ones are counted
// too, to keep the rule simple). Path and physics constraints read only world transforms.
bool reads_applied(const SkeletonData& data, const UpdateStep& step, Index bone) {
    const auto has = [&](Range range) {
        const std::span<const Index> bones = data.index_span(range);
        return std::find(bones.begin(), bones.end(), bone) != bones.end();
    };
    const auto i = static_cast<std::size_t>(step.index);
    switch (step.kind) {
    case UpdateStep::Kind::bone: return step.index == bone;
    case UpdateStep::Kind::ik: return has(data.ik_constraints[i].bones);
    case UpdateStep::Kind::transform:
        return data.transform_constraints[i].target == bone || has(data.transform_constraints[i].bones);
    case UpdateStep::Kind::path:
    case UpdateStep::Kind::physics: return false;
    }
    return true;
}

// Clears UpdateStep::update_applied on transform, path and physics steps whose bones' applied poses no later step
// reads (update_world_transform starts by overwriting every applied pose, so nothing after the cache does either).
void mark_unread_applied_poses(SkeletonPose& pose) {
    const SkeletonData& data = *pose.data;
    std::vector<UpdateStep>& cache = pose.update_cache;
    for (std::size_t k = 0; k < cache.size(); ++k) {
        UpdateStep& step = cache[k];
        std::span<const Index> moved;
        const auto i = static_cast<std::size_t>(step.index);
        switch (step.kind) {
        case UpdateStep::Kind::bone:
        case UpdateStep::Kind::ik: continue;
        case UpdateStep::Kind::transform: moved = data.index_span(data.transform_constraints[i].bones); break;
        case UpdateStep::Kind::path: moved = data.index_span(data.path_constraints[i].bones); break;
        case UpdateStep::Kind::physics: moved = {&data.physics_constraints[i].bone, 1}; break;
        }
        bool read = false;
        for (std::size_t j = k + 1; j < cache.size() && !read; ++j)
            for (Index bone : moved) read = read || reads_applied(data, cache[j], bone);
        step.update_applied = read;
    }
}

}  // namespace

void update_cache(SkeletonPose& pose) {
    const SkeletonData& data = *pose.data;
    pose.update_cache.clear();
    CacheBuilder builder{pose, data, pose.current_skin()};

    // Skin-required bones start inactive (and count as sorted, so nothing pushes them); the skin's bones and all
    // their ancestors become active.
    for (std::size_t i = 0; i < data.bones.size(); ++i) {
        const bool required = data.bones[i].skin_required;
        pose.bone_sorted[i] = required ? 1 : 0;
        pose.bone_active[i] = required ? 0 : 1;
    }
    if (builder.skin != nullptr) {
        for (Index bone : builder.skin->bones) {
            for (Index b = bone; b != k_none; b = data.bones[static_cast<std::size_t>(b)].parent) {
                pose.bone_sorted[static_cast<std::size_t>(b)] = 0;
                pose.bone_active[static_cast<std::size_t>(b)] = 1;
            }
        }
    }

    // Constraints that no cache pass reaches stay inactive.
    for (IkPose& p : pose.ik) p.active = false;
    for (TransformPose& p : pose.transform) p.active = false;
    for (PathPose& p : pose.path) p.active = false;
    for (PhysicsPose& p : pose.physics) p.active = false;

    // constraint_order already holds what the runtime's search by order finds: per order, the first constraint of
    // the kinds in ik, transform, path, physics order.
    for (const ConstraintRef& ref : data.constraint_order) {
        switch (ref.kind) {
        case ConstraintKind::ik: builder.sort_ik(ref.index); break;
        case ConstraintKind::transform: builder.sort_transform(ref.index); break;
        case ConstraintKind::path: builder.sort_path(ref.index); break;
        case ConstraintKind::physics: builder.sort_physics(ref.index); break;
        }
    }

    for (std::size_t i = 0; i < data.bones.size(); ++i) builder.sort_bone(static_cast<Index>(i));
    mark_unread_applied_poses(pose);
    renew_world_stamps(pose);  // (the bones' activity may have changed)
}

}  // namespace spinegpu
