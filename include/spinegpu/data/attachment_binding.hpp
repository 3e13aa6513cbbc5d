// Resolving a skeleton's attachments against an atlas, as the official AtlasAttachmentLoader does: each region and
// mesh attachment (each frame of its sequence) finds its atlas region by path; region attachments get their
// corner offsets and UVs, meshes their UVs in page space (rotated regions included).
//
// The result sits beside the immutable SkeletonData (one skeleton may be bound to several atlases, e.g. straight
// and premultiplied). A missing region is an error naming the attachment, the skin and the atlas.
//
// Numbers match the official runtime's: computed in double from the atlas's integers and rounded to float once
// (bit-identical for binary exports loaded at scale 1; JSON exports differ by the float rounding of the model's values,
// and so do exports loaded at another scale, whose scaled values the loaders round to float where the official
// runtime keeps doubles). A sequence
// frame's region is named path + (start + i) zero-padded to `digits`; each frame gets its own offsets and UVs, as
// the runtime recomputes them when a sequence shows that frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu {

// One attachment frame bound to an atlas region.
struct BoundRegion {
    Index region = k_none;         // into Atlas::regions
    Index page = k_none;           // into Atlas::pages
    // Region attachments: corner offsets in the attachment's space (x, y for bottom-left, top-left, top-right,
    // bottom-right, as the official RegionAttachment::offset) and the matching UVs.
    float offset[8] = {};
    float uvs[8] = {};
    // Mesh attachments: 2 UVs per vertex in page space, in AtlasBinding::mesh_uvs.
    Range mesh_uvs;
};

struct AtlasBinding {
    // For attachment i, its frames in `regions`: 1 frame, or the sequence's count; empty for types without images.
    std::vector<Range> frames;
    std::vector<BoundRegion> regions;
    std::vector<float> mesh_uvs;
};

// Most floats AtlasBinding::mesh_uvs may hold (every frame of every mesh gets its own UVs, so a long sequence on a
// big mesh multiplies); past it binding fails instead of allocating gigabytes.
inline constexpr std::size_t k_max_binding_uvs = std::size_t{1} << 26;
// Most frames AtlasBinding::regions may hold, over all attachments (many attachments may share one long sequence);
// past it binding fails instead of allocating gigabytes.
inline constexpr std::size_t k_max_binding_regions = std::size_t{1} << 20;

// Binds every region and mesh attachment of `skeleton` to `atlas`. Fails when a region is missing (what:
// `region "head" (attachment "head") not found in atlas ATLAS`, where: the skin and slot holding it), lies on a
// page whose size is unknown (see set_atlas_page_size), or when the mesh UVs would pass k_max_binding_uvs. The
// binding refers to `atlas` by index only.
Result<AtlasBinding> bind_atlas(const SkeletonData& skeleton, const Atlas& atlas);

// The atlas region name of frame `frame` of a sequence attachment with region path `path`, as bind_atlas looks it
// up (the official naming): the path, then start + frame zero-padded to `digits`.
std::string sequence_frame_path(std::string_view path, const SequenceData& sequence, std::int32_t frame);

}  // namespace spinegpu
