// A skeleton export with everything drawing it needs: data, atlas, binding and decoded page images. Shared by the
// commands that render (render, bench, demo).
#pragma once

#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::tools {

struct SkeletonAssets {
    std::string skeleton_path;
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    std::vector<Image> pages;  // in atlas page order; moved into the renderer when it takes them
};

// Loads the skeleton (.json or .skel), the atlas and its page images (sizing pages the atlas leaves unsized from
// their images), and binds the atlas. Errors name the file and the place.
Result<SkeletonAssets> load_skeleton_assets(const std::string& skeleton_path, const std::string& atlas_path);

}  // namespace spinegpu::tools
