// The two kinds of work in update_world_transform's walk over the update cache, shared by the one-pose walk
// (skeleton_pose.cpp) and the walk over a group of poses with one cache (world_group.cpp): a run of bone steps, and
// one constraint step.
#pragma once

#include <cstddef>

#include "bone_world.hpp"
#include "constraints.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::detail {

// Poses the bones of the run of bone steps that starts at `step` (a bone step), up to the first step that is not a
// bone step or `end`; returns that step. Constraints run only between runs and never resize the pose's arrays, so
// their pointers are read once per run instead of once per bone.
inline const UpdateStep* pose_bone_run(SkeletonPose& pose, const UpdateStep* step, const UpdateStep* end) {
    const BoneTransform* applied = pose.applied.data();
    const Inherit* inherit = pose.inherit.data();
    BoneWorld* world = pose.world.data();
    const BoneSetupAxis* axes = setup_axes(pose);
    do {
        const auto i = static_cast<std::size_t>(step->index);
        const Index parent = step->parent;
        if (parent != k_none && inherit[i] == Inherit::normal && axes != nullptr)
            normal_bone_world(applied[i], world[static_cast<std::size_t>(parent)], world[i], axes[i]);
        else if (parent != k_none && inherit[i] == Inherit::normal)
            normal_bone_world(applied[i], world[static_cast<std::size_t>(parent)], world[i]);
        else
            compute_bone_world(pose, step->index);
    } while (++step != end && step->kind == UpdateStep::Kind::bone);
    return step;
}

// Applies the constraint of `step` (not a bone step).
inline void apply_constraint_step(SkeletonPose& pose, const UpdateStep& step, Physics physics) {
    switch (step.kind) {
    case UpdateStep::Kind::bone: break;
    case UpdateStep::Kind::ik: apply_ik_constraint(pose, step.index, physics); break;
    case UpdateStep::Kind::transform:
        apply_transform_constraint(pose, step.index, physics, step.update_applied);
        break;
    case UpdateStep::Kind::path: apply_path_constraint(pose, step.index, physics, step.update_applied); break;
    case UpdateStep::Kind::physics:
        apply_physics_constraint(pose, step.index, physics, step.update_applied);
        break;
    }
}

}  // namespace spinegpu::detail
