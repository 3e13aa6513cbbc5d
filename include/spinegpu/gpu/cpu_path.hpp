// The CPU path (the usual approach, kept as the reference): each character's world vertices are
// computed on the CPU by the runtime (compute_world_vertices, as the official renderers do) and written, with the
// same colours, materials and clipping polygons the skinning pass would write, into mapped memory; the same draw
// pipeline then draws them. Pure CPU code.
#pragma once

#include <cstdint>
#include <span>

#include "spinegpu/core/color.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/gpu/static_skeleton.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::gpu {

// Output sizes of one character: what build_cpu_vertices will write.
struct CpuPathCounts {
    std::uint32_t vertices = 0, indices = 0;
};

// Counts what `pose` draws (the same draw list the frame packer writes).
CpuPathCounts count_cpu_vertices(const StaticSkeleton& type, const SkeletonPose& pose);

// Writes the character's vertices at out_vertices[0..] (their index in the whole out buffer starts at
// `vertex_first`) and its triangles, in draw order, at out_indices[0..]. `scratch` holds at least
// type.max_vertex_floats floats. `type` must have been built with `binding`. Returns the counts written.
CpuPathCounts build_cpu_vertices(const StaticSkeleton& type, const AtlasBinding& binding, const SkeletonPose& pose,
                                 Color tint, std::uint32_t vertex_first, GpuOutVertex* out_vertices,
                                 std::uint32_t* out_indices, std::span<float> scratch);

}  // namespace spinegpu::gpu
