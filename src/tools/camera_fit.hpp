// The camera `--fit` chooses (render) and a scene without a camera gets: the union of skeletons' bounds, fitted into
// the image with a 5% margin on each side, centred.
#pragma once

#include <cstdint>
#include <string>

#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::tools {

// The cameras a command takes: scale from `min_scale` (and above 0) to `max_scale`, offsets within ±`max_offset`.
struct CameraRange {
    double min_scale, max_scale, max_offset;
    const char* text;  // the range in words, for messages
};
// `render --camera`: as generous as the close-up checks need (bench/closeups: 2.5 million times), finite in float.
inline constexpr CameraRange k_render_camera{0, 1e7, 1e9, "SCALE above 0 up to 1e7, OX and OY from -1e9 to 1e9"};
// A scene file's "camera" (scene_file.cpp reads it with these bounds).
inline constexpr CameraRange k_scene_camera{1e-6, 1e6, 1e9, "scale from 1e-6 to 1e6, x and y from -1e9 to 1e9"};

// Whether `camera` lies in `range` (NaN does not).
bool in_range(const gpu::Camera2D& camera, const CameraRange& range);
// "SCALE,OX,OY" as --camera takes it, each number with 9 significant digits (enough to read back the same float).
std::string camera_text(const gpu::Camera2D& camera);

// World bounds gathered over poses (skeleton_bounds), then the camera that fits them.
class CameraFit {
public:
    // Adds the bounds of `pose`'s visible attachments, if it shows any.
    void add(const SkeletonPose& pose, const AtlasBinding& binding);
    // False once some bounds added were not finite (world transforms that overflowed): no camera fits them.
    bool finite() const { return finite_; }
    // False until some pose added showed an attachment.
    bool any() const { return any_; }
    // True when the attachments shown have no area, all on one line or at one point (a bone scaled to 0 on an axis,
    // say): nothing for a camera to frame.
    bool flat() const { return any_ && (max_x_ == min_x_ || max_y_ == min_y_); }
    // The camera that fits everything added into width x height with a 5% margin, centred; with nothing added, scale
    // 1 and the world origin at the image's centre.
    gpu::Camera2D camera(std::uint32_t width, std::uint32_t height) const;

private:
    float min_x_ = 0, min_y_ = 0, max_x_ = 0, max_y_ = 0;
    bool any_ = false;
    bool finite_ = true;
};

}  // namespace spinegpu::tools
