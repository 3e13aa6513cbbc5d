// A skeleton export with everything drawing it needs: data, atlas, binding and decoded page images. Shared by the
// commands that render (render, bench, demo).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/gpu/gpu_layout.h"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::tools {

struct SkeletonAssets {
    std::string skeleton_path;
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    std::vector<Image> pages;  // in atlas page order; moved into the renderer when it takes them
};

// How many page images, and how many bytes of decoded pixels, loading may still decode: what keeps an untrusted
// atlas (or a scene naming many) from decoding more than a renderer takes. One budget serves all the types of a
// scene: at most the renderer's page array layers and 2 GiB.
struct PageBudget {
    static constexpr std::uint32_t k_pages = gpu::k_material_layer_mask + 1;
    static constexpr std::uint64_t k_bytes = std::uint64_t{2} << 30;
    std::uint32_t pages = k_pages;  // left
    std::uint64_t bytes = k_bytes;  // left
};

// Loads the skeleton (.json or .skel), the atlas and its page images (sizing pages the atlas leaves unsized from
// their images), and binds the atlas. Each page's size is read from its header and charged to `budget` before its
// pixels are decoded. Errors name the file and the place.
Result<SkeletonAssets> load_skeleton_assets(const std::string& skeleton_path, const std::string& atlas_path,
                                            PageBudget& budget);

// Warns on stderr ("spinegpu COMMAND: warning: NAME ...") when `path` is the vertex-shader path and `data` has
// clipping attachments, which that path draws unclipped (it refuses draw-order timelines, but a clip is only wrong
// pixels, so the comparison path still draws); not for data with draw-order timelines, which that path refuses.
void warn_if_drawn_unclipped(const char* command, const std::string& name, const SkeletonData& data,
                             gpu::RenderPath path);

}  // namespace spinegpu::tools
