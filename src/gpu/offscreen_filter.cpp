// OffscreenFilter (offscreen_filter.hpp) and the view rectangle draw() culls against.
#include "spinegpu/gpu/offscreen_filter.hpp"

#include <cassert>

namespace spinegpu::gpu {

WorldRect view_rect(const Camera2D& camera, std::uint32_t width, std::uint32_t height) {
    // Pixels (px, py) = (ox + scale x, oy - scale y): the target's [0, width] x [0, height] in world units.
    return {-camera.ox / camera.scale, (camera.oy - static_cast<float>(height)) / camera.scale,
            (static_cast<float>(width) - camera.ox) / camera.scale, camera.oy / camera.scale};
}

OffscreenFilter::OffscreenFilter(const Renderer& renderer, std::span<const std::uint32_t> types)
    : renderer_(&renderer), types_(types) {}

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
                const auto& self = *static_cast<const OffscreenFilter*>(context);
                assert(i < self.types_.size());
                return character_in_view(self.renderer_->skeleton_type(self.types_[i]), pose, self.view_);
            },
            this};
}

}  // namespace spinegpu::gpu
