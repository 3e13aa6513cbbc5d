// Fitting a camera to skeletons' bounds: see camera_fit.hpp.
#include "camera_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spinegpu::tools {

void CameraFit::add(const SkeletonPose& pose, const AtlasBinding& binding) {
    float x, y, w, h;
    if (!skeleton_bounds(pose, binding, x, y, w, h)) return;
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(w) || !std::isfinite(h)) {
        finite_ = false;
        return;
    }
    min_x_ = any_ ? std::min(min_x_, x) : x;
    min_y_ = any_ ? std::min(min_y_, y) : y;
    max_x_ = any_ ? std::max(max_x_, x + w) : x + w;
    max_y_ = any_ ? std::max(max_y_, y + h) : y + h;
    any_ = true;
}

bool in_range(const gpu::Camera2D& camera, const CameraRange& range) {
    const double scale = camera.scale;
    return scale > 0 && scale >= range.min_scale && scale <= range.max_scale &&
           std::fabs(static_cast<double>(camera.ox)) <= range.max_offset &&
           std::fabs(static_cast<double>(camera.oy)) <= range.max_offset;
}

std::string camera_text(const gpu::Camera2D& camera) {
    char text[96];
    std::snprintf(text, sizeof text, "%.9g,%.9g,%.9g", camera.scale, camera.ox, camera.oy);
    return text;
}

gpu::Camera2D CameraFit::camera(std::uint32_t width, std::uint32_t height) const {
    const double w = max_x_ - min_x_, h = max_y_ - min_y_;
    double scale = std::min(w > 0 ? width * 0.9 / w : 1e30, h > 0 ? height * 0.9 / h : 1e30);
    if (!(scale < 1e30)) scale = 1;
    gpu::Camera2D camera;
    camera.scale = static_cast<float>(scale);
    camera.ox = static_cast<float>(width / 2.0 - scale * (min_x_ + w / 2.0));
    camera.oy = static_cast<float>(height / 2.0 + scale * (min_y_ + h / 2.0));
    return camera;
}

}  // namespace spinegpu::tools
