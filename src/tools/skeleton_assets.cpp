// Loading a skeleton with its atlas and pages: see skeleton_assets.hpp.
#include "skeleton_assets.hpp"

#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::tools {

Result<SkeletonAssets> load_skeleton_assets(const std::string& skeleton_path, const std::string& atlas_path) {
    SkeletonAssets assets;
    assets.skeleton_path = skeleton_path;
    Result<SkeletonData> data = load_skeleton_file(skeleton_path);
    if (!data) return data.error();
    assets.data = std::move(*data);
    Result<Atlas> atlas = load_atlas_file(atlas_path);
    if (!atlas) return atlas.error();
    assets.atlas = std::move(*atlas);
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

}  // namespace spinegpu::tools
