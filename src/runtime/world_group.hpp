// World transforms of several characters of one skeleton at once. Poses whose update caches are the same walk the cache
// together: each bone step with Inherit::normal or Inherit::no_rotation_or_reflection in every pose is composed for all
// of them in one pass of 4-wide AVX2 arithmetic in double (one lane per pose), and so is each IK constraint whose bones
// inherit normally in every pose (two-bone ones with uniform parent scales; one-bone ones without compress or stretch)
// and each world-space transform constraint that only translates; every other step runs per pose as
// update_world_transform runs it. Each lane performs the scalar code's operations on its own values in the same order,
// so every pose gets the same bits as update_world_transform gives it (a NaN result only has to be a NaN: which NaN an
// x86 operation passes on follows the operand order the compiler picks, as for bone_world.hpp's SSE2 form); the crowd
// update (batch_update.cpp) groups consecutive characters of its update order through this. Both forms need
// floating-point contraction off (CMakeLists.txt: -ffp-contract=off), or a build with FMA would fuse them differently.
// AVX2 is chosen at run time; without it, or in a SPINEGPU_SCALAR build, the group is walked pose by pose.
#pragma once

#include <cstddef>
#include <span>

#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::detail {

// The most poses update_world_transforms takes at once (the lanes of the AVX2 form).
inline constexpr std::size_t k_world_group_size = 4;

// Whether this build and CPU compose groups in AVX2 (otherwise update_world_transforms walks pose by pose).
bool world_group_simd_available();

// Whether `a` and `b` have the same update cache: the same skeleton and the same skin of it (update_cache builds the
// cache from those, and for path constraints from the path attachments shown, so a skeleton with path constraints
// also compares the caches; a combined skin is the pose's own, so two poses with one never count as the same).
bool share_update_cache(const SkeletonPose& a, const SkeletonPose& b);

// update_world_transform(*pose, physics) for each of `poses`, with the same result bit for bit (NaN as above).
// Requires 1 to k_world_group_size distinct poses, each sharing its update cache with the first (share_update_cache).
void update_world_transforms(std::span<SkeletonPose* const> poses, Physics physics);

// fast_sincos of four angles (radians) at once, in AVX2, with fast_sincos's result bit for bit. Returns false, and
// sets nothing, without AVX2 or when an angle is outside the range fast_sincos reduces itself (|x| >= 2^20 pi/2, or
// not finite: it calls libm there). For the tests.
bool sincos_4(const double x[4], double sin_x[4], double cos_x[4]);

// fast_atan2 of four pairs at once, in AVX2, with fast_atan2's result bit for bit. Returns false, and sets nothing,
// without AVX2 or when a pair is for libm (zeros, subnormals, infinities, NaN or quotients beyond 2^+-60, unless y is
// zero and x a finite non-zero). For the tests.
bool atan2_4(const double y[4], const double x[4], double out[4]);

}  // namespace spinegpu::detail
