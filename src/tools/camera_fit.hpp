// The camera `--fit` chooses (render) and a scene without a camera gets: the union of skeletons' bounds, fitted into
// the image with a 5% margin on each side, centred.
#pragma once

#include <cstdint>

#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::tools {

// World bounds gathered over poses (skeleton_bounds), then the camera that fits them.
class CameraFit {
public:
    // Adds the bounds of `pose`'s visible attachments, if it shows any.
    void add(const SkeletonPose& pose, const AtlasBinding& binding);
    // False once some bounds added were not finite (world transforms that overflowed): no camera fits them.
    bool finite() const { return finite_; }
    // False until some pose added showed an attachment.
    bool any() const { return any_; }
    // The camera that fits everything added into width x height with a 5% margin, centred; with nothing added, scale
    // 1 and the world origin at the image's centre.
    gpu::Camera2D camera(std::uint32_t width, std::uint32_t height) const;

private:
    float min_x_ = 0, min_y_ = 0, max_x_ = 0, max_y_ = 0;
    bool any_ = false;
    bool finite_ = true;
};

}  // namespace spinegpu::tools
