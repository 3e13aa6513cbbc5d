// Loading a skeleton with its atlas and pages: see skeleton_assets.hpp.
#include "skeleton_assets.hpp"

#include <cstdio>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/skeleton_features.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::tools {

Result<SkeletonAssets> load_skeleton_assets(const std::string& skeleton_path, const std::string& atlas_path,
                                            PageBudget& budget) {
    SkeletonAssets assets;
    assets.skeleton_path = skeleton_path;
    Result<SkeletonData> data = load_skeleton_file(skeleton_path);
    if (!data) return data.error();
    assets.data = std::move(*data);
    Result<Atlas> atlas = load_atlas_file(atlas_path);
    if (!atlas) return atlas.error();
    assets.atlas = std::move(*atlas);
    // Every page's size from its header first, so that no pixel is decoded for an atlas past the budget. (Each file
    // is read again to decode it: holding them all would let large files named many times fill memory.)
    for (std::size_t i = 0; i < assets.atlas.pages.size(); ++i) {
        const std::string path = atlas_page_path(assets.atlas, static_cast<Index>(i));
        Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path);
        // (Named from the atlas: the page's file name was never typed, so the atlas and page say where it came from.)
        if (!bytes)
            return make_error(atlas_path, "page \"" + assets.atlas.pages[i].name + "\"", bytes.error().message());
        Result<ImageSize> size = image_size(*bytes, path);
        if (!size) return size.error();
        const std::uint64_t pixel_bytes = std::uint64_t{size->width} * size->height * 4;
        if (budget.pages == 0 || pixel_bytes > budget.bytes)
            return make_error(atlas_path, "page \"" + assets.atlas.pages[i].name + "\"",
                              budget.pages == 0
                                  ? "more than " + std::to_string(PageBudget::k_pages) + " atlas pages in all"
                                  : "a " + std::to_string(size->width) + "x" + std::to_string(size->height) +
                                        " image: the atlas pages would take more than " +
                                        std::to_string(PageBudget::k_bytes >> 20) + " MiB of pixels in all");
        budget.pages -= 1;
        budget.bytes -= pixel_bytes;
    }
    for (std::size_t i = 0; i < assets.atlas.pages.size(); ++i) {
        const auto page = static_cast<Index>(i);
        Result<Image> image = load_image_file(atlas_page_path(assets.atlas, page));
        if (!image) return image.error();
        const AtlasPage& p = assets.atlas.pages[i];
        if (p.width == 0 || p.height == 0) {
            if (Result<void> sized = set_atlas_page_size(assets.atlas, page, image->width, image->height); !sized)
                return sized.error();
        } else if (p.width != image->width || p.height != image->height) {
            return make_error(atlas_page_path(assets.atlas, page), "size",
                              "the image is " + std::to_string(image->width) + "x" + std::to_string(image->height) +
                                  " but the atlas says " + std::to_string(p.width) + "x" + std::to_string(p.height));
        }
        assets.pages.push_back(std::move(*image));
    }
    Result<AtlasBinding> binding = bind_atlas(assets.data, assets.atlas);
    if (!binding) return binding.error();
    assets.binding = std::move(*binding);
    return assets;
}

void warn_if_drawn_unclipped(const char* command, const std::string& name, const SkeletonData& data,
                             gpu::RenderPath path) {
    const SkeletonFeatures features = analyze_features(data);
    // (With draw-order timelines the path refuses the skeleton when it draws: a warning first would only mislead.)
    if (path == gpu::RenderPath::gpu_vertex && features.clipping && !features.draw_order)
        std::fprintf(stderr,
                     "spinegpu %s: warning: %s has clipping attachments, which --path gpu-vertex draws unclipped (this "
                     "path does not clip; the gpu path does)\n",
                     command, name.c_str());
}

}  // namespace spinegpu::tools
