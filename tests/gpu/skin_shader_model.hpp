// A C++ model of the skinning pass (shaders/skin.comp), step for step: it reads only what the shader reads (the
// type's bind form as uploaded, one packed character's header, bones and words) and writes what the shader
// writes. The tests use it to show that frame_packer + static_skeleton carry everything the shader needs: its
// output is compared with the runtime's world vertices and with the CPU path.
#pragma once

#include <cstdint>
#include <vector>

#include "spinegpu/gpu/gpu_layout.h"
#include "spinegpu/gpu/static_skeleton.hpp"

namespace spinegpu::test {

// The output buffers of the pass (indexed like the shader's out_vertices and out_indices).
struct SkinOutput {
    std::vector<gpu::GpuOutVertex> vertices;
    std::vector<std::uint32_t> indices;
};

// A draw-order position that shows an attachment: what the shader's per-position shared arrays hold.
struct SkinnedPosition {
    std::uint32_t position = 0;
    std::uint32_t attachment = 0;   // type-local attachment id (the type's attachment_first is 0 here)
    std::uint32_t slot = 0;
    std::uint32_t vertex_base = 0;  // first vertex, relative to the character's out_vertex_first
    std::uint32_t vertex_count = 0;
};

// Entry `position` of character `ch`'s draw list, read as skinning.glsl's draw_list_entry reads it: from `words`
// (the frame's word array), or from type.setup_lists when the header says so (k_setup_list_bit).
std::uint32_t draw_list_entry(const gpu::StaticSkeleton& type, const gpu::GpuCharacter& ch,
                              const std::uint32_t* words, std::uint32_t position);

// Runs the pass for one character of `type` (uploaded alone: attachment_first = slot_setup_first = setup_list_first
// = 0, so draw-list ids index type.attachments directly and setup lists type.setup_lists). `bones` and `words` are
// the frame's whole arrays, as packed. Writes at out.vertices[ch.out_vertex_first ..] and
// out.indices[ch.out_index_first ..], growing them as needed. Returns the positions that show an attachment, in draw
// order.
std::vector<SkinnedPosition> run_skin_pass(const gpu::StaticSkeleton& type, std::uint32_t slot_count,
                                           const gpu::GpuCharacter& ch, const float* bones,
                                           const std::uint32_t* words, SkinOutput& out);

}  // namespace spinegpu::test
