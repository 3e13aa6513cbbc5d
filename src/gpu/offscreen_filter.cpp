// OffscreenFilter (offscreen_filter.hpp) and the view rectangle draw() culls against.
#include "spinegpu/gpu/offscreen_filter.hpp"

#include <string>

namespace spinegpu::gpu {

WorldRect view_rect(const Camera2D& camera, std::uint32_t width, std::uint32_t height) {
    // Pixels (px, py) = (ox + scale x, oy - scale y): the target's [0, width] x [0, height] in world units.
    return {-camera.ox / camera.scale, (camera.oy - static_cast<float>(height)) / camera.scale,
            (static_cast<float>(width) - camera.ox) / camera.scale, camera.oy / camera.scale};
}

Result<OffscreenFilter> OffscreenFilter::create(Renderer& renderer, std::span<const std::uint32_t> types) {
    if (Result<void> finalized = renderer.finalize(); !finalized) return finalized.error();
    OffscreenFilter filter;
    const std::uint32_t type_count = renderer.skeleton_type_count();
    for (std::size_t i = 0; i < types.size(); ++i)
        if (types[i] >= type_count)
            return make_error("offscreen filter", "types[" + std::to_string(i) + "]",
                              "type " + std::to_string(types[i]) + " is not one of the renderer's " +
                                  std::to_string(type_count) + " skeleton types");
    filter.types_ = types;
    filter.culling_.resize(types.size());
    for (std::uint32_t t = 0; t < type_count; ++t) {
        filter.skeletons_.push_back(&renderer.skeleton_type(t));
        filter.data_.push_back(&renderer.skeleton_type_data(t));
    }
    return filter;
}

void OffscreenFilter::set_view(const Camera2D& camera, std::uint32_t width, std::uint32_t height,
                               float margin_pixels) {
    view_ = view_rect(camera, width, height);
    if (margin_pixels > 0) {
        const float margin = margin_pixels / camera.scale;
        view_ = {view_.min_x - margin, view_.min_y - margin, view_.max_x + margin, view_.max_y + margin};
    }
}

PoseFilter OffscreenFilter::filter() {
    return {[](void* context, CharacterIndex i, const SkeletonPose& pose) {
                auto& self = *static_cast<OffscreenFilter*>(context);
                if (i >= self.types_.size() || self.data_[self.types_[i]] != pose.data) return true;
                return character_in_view(*self.skeletons_[self.types_[i]], pose, self.view_, self.culling_[i]);
            },
            this};
}

}  // namespace spinegpu::gpu
