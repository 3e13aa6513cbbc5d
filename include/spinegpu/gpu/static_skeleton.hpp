// A skeleton type in bind form, built once on the CPU for upload (renderer.hpp): every drawable
// attachment of every skin (each frame of a sequence separately), its vertices as bone influences with positions in
// each bone's space (weighted meshes keep all their influences, however many), UVs in the page array, triangles,
// and per-attachment metadata. Also the tables the frame packer needs to turn a pose into a draw list.
// Pure data: no Vulkan here, so it is built and tested without a device.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/data/skeleton_features.hpp"
#include "spinegpu/gpu/gpu_layout.h"

namespace spinegpu::gpu {

// Where an atlas page lands in the renderer's page array: its layer and the fraction of the layer it covers.
struct PagePlacement {
    std::uint32_t layer = 0;
    float u_scale = 1, v_scale = 1;
};

struct StaticSkeleton {
    // Renderer-local indices: influence_first, vertex_first and index_first count from 0 within this type; the
    // renderer adds its buffer offsets at upload (see rebase_static_skeleton).
    std::vector<GpuInfluence> influences;
    std::vector<GpuBindVertex> vertices;
    std::vector<std::uint32_t> indices;
    std::vector<GpuAttachment> attachments;   // draw-list ids index this
    std::vector<GpuSlotSetup> slot_setups;    // per slot
    std::vector<Index> color_slots;           // slots colour timelines animate: the colour section's entries
    std::vector<Index> deform_slots;          // slots deform timelines animate: the deform section's entries
    std::vector<Index> drawn_bones;           // drawn-bone index -> skeleton bone; only these are packed per frame
    std::vector<std::uint16_t> first_id;      // per AttachmentData: id of its frame 0, or k_no_attachment
    std::vector<std::uint16_t> frame_count;   // per AttachmentData: ids first_id .. first_id + count - 1
    std::vector<std::uint16_t> slot_marker;   // per slot: empty marker id (clip end slots), or k_no_attachment
    std::vector<Index> slot_hiding_bone;      // per slot: its bone if skin-required (inactive unless the skin
                                              // has it, and then the slot draws nothing), else k_none
    std::vector<float> bone_radius;           // per drawn bone: farthest its vertices can be from it, in its
                                              // space (deform keys and their curves' overshoot included; not
                                              // SkeletonPose::deform_beyond_keys), for culling
    bool drawn_bones_may_be_inactive = false; // some drawn bone is skin-required (only those can be inactive)
    std::vector<std::uint32_t> setup_lists;   // per skin (no skin first, then the data's skins in order, up to
                                              // k_max_setup_lists): the draw list of the setup pose with that skin,
                                              // (slots + 1) / 2 words; a character whose list equals its skin's
                                              // sends none
    std::uint32_t flags = 0;                  // GpuSkeletonType::flags (sections the type packs)
    std::uint32_t max_vertex_floats = 8;      // largest world_vertices_length of a drawn attachment
    SkeletonFeatures features;
};

// Builds the bind form of `data` bound to `atlas` through `binding`. `pages` gives each atlas page's place in the
// page array. Fails (naming the skeleton) when the type is too large for the GPU layout: more than k_max_slots
// slots or k_max_type_attachments attachment frames, or an attachment shared by two slots.
Result<StaticSkeleton> build_static_skeleton(const SkeletonData& data, const Atlas& atlas,
                                             const AtlasBinding& binding, std::span<const PagePlacement> pages,
                                             const std::string& name);

// The PageFilters word (k_page_* bits) of an atlas page: its filters as OpenGL reads them (mipmap filters, which
// OpenGL refuses as a mag filter, leave the mag filter Linear).
std::uint32_t page_filter_word(const AtlasPage& page);

// Whether a page with filter word `word` samples by its level of detail: its min filter is not its mag filter, or
// makes mipmaps (its materials have k_material_scaled_bit).
bool filters_depend_on_scale(std::uint32_t word);

// Whether a page with filter word `word` samples mipmaps (its min filter is a MipMap one), so that the page array
// needs them.
bool filters_make_mipmaps(std::uint32_t word);

}  // namespace spinegpu::gpu
