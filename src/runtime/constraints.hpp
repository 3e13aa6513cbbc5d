// The four constraint solvers, each applying one constraint of a pose (Spine's IkConstraint.update,
// TransformConstraint.update, PathConstraint.update, PhysicsConstraint.update). Called by update_world_transform in
// update-cache order; a constraint whose pose is inactive is never called.
#pragma once

#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::detail {

// bone_transform.cpp: update_bone_world without a new world stamp, for passes that stamp the pose once at their end.
void compute_bone_world(SkeletonPose& pose, Index bone);

// ik_constraint.cpp: one- and two-bone IK with softness, stretch, compress, uniform and bend direction.
void apply_ik_constraint(SkeletonPose& pose, Index constraint, Physics physics);

// Spine's IkConstraint.apply for one bone / two bones (also used by tests).
void solve_ik_one(SkeletonPose& pose, Index bone, float target_x, float target_y, bool compress, bool stretch,
                  bool uniform, float alpha);
void solve_ik_two(SkeletonPose& pose, Index parent, Index child, float target_x, float target_y, int bend_direction,
                  bool stretch, bool uniform, float softness, float alpha);

// transform_constraint.cpp: absolute/local x relative/absolute.
// `update_applied`: recompute the applied poses of the bones it moves (false when nothing reads them later).
void apply_transform_constraint(SkeletonPose& pose, Index constraint, Physics physics, bool update_applied = true);

// path_constraint.cpp: position fixed/percent; spacing length/fixed/percent/proportional; rotate tangent/chain/
// chain scale; closed and constant-speed paths.
void apply_path_constraint(SkeletonPose& pose, Index constraint, Physics physics, bool update_applied = true);
// Floats of SkeletonPose::path_scratch that apply_path_constraint needs for path constraint `constraint` (its
// spaces, bone lengths, positions, path world vertices and curve lengths, for the longest path attachment any skin
// puts in its target slot). The pose's scratch is shared by all its path constraints: size it to the maximum.
std::uint32_t path_scratch_size(const SkeletonData& data, Index constraint);

// physics_constraint.cpp: the 4.2 spring simulation with reset, update and pose modes.
void apply_physics_constraint(SkeletonPose& pose, Index constraint, Physics physics, bool update_applied = true);
// Spine's PhysicsConstraint.setToSetupPose part for the simulation state: forget the simulation (next update resets).
void reset_physics_constraint(SkeletonPose& pose, Index constraint);
// Spine's PhysicsConstraint.translate / rotate: move the simulation as if the skeleton moved by (x, y) or rotated by
// `degrees` around (x, y), so physics do not react to a teleport.
void translate_physics_constraint(SkeletonPose& pose, Index constraint, float x, float y);
void rotate_physics_constraint(SkeletonPose& pose, Index constraint, float x, float y, float degrees);

}  // namespace spinegpu::detail
