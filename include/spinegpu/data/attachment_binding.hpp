// Resolving a skeleton's attachments against an atlas, as the official AtlasAttachmentLoader does: each region and
// mesh attachment (each frame of its sequence) finds its atlas region by path; region attachments get their
// corner offsets and UVs, meshes their UVs in page space (rotated regions included).
//
// The result sits beside the immutable SkeletonData (one skeleton may be bound to several atlases, e.g. straight
// and premultiplied). A missing region is an error naming the attachment, the skin and the atlas.
#pragma once

#include <cstdint>
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

// Binds every region and mesh attachment of `skeleton` to `atlas`. Errors name the attachment path and the atlas.
Result<AtlasBinding> bind_atlas(const SkeletonData& skeleton, const Atlas& atlas);

}  // namespace spinegpu
