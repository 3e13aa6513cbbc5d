// Playing and drawing a scene (scene_file.hpp): every character steps as `pose` steps one (its schedule, DESIGN.md's
// stepping), all are drawn back to front (layer, then farther up the canvas first) in one frame by the renderer,
// and each frame is written as a PNG. Shared by `render --scene` and `demo`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene_file.hpp"
#include "spinegpu/core/result.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::tools {

struct SceneRenderOptions {
    std::uint32_t frames = 1;
    std::string out_dir;            // frame-0001.png, frame-0002.png, ...
    gpu::RenderPath path = gpu::RenderPath::gpu;
    std::string device;
    bool validation = false;
    bool quiet = false;             // no per-frame lines on stdout
    bool write_images = true;       // false: frames are drawn and timed, not read back or written
};

// Per-frame figures, medians over the frames.
struct SceneRenderReport {
    std::string device;
    std::uint32_t characters = 0;
    std::uint32_t culled = 0;       // outside the view in the last frame
    // Medians over the timed frames: every frame but the first use of each frame slot, which allocates the slot's
    // buffers (every frame when there are no others).
    double update_ms = 0, pack_ms = 0, record_ms = 0, gpu_ms = -1;
    std::uint32_t timed_frames = 0;
    std::uint64_t bytes_uploaded = 0;
    std::uint32_t vertices = 0, triangles = 0;
    gpu::Camera2D camera;
};

// The median of per-frame figures (the upper one of an even count), 0 for none.
double median(std::vector<double> values);

// Loads the scene's types, plays and draws `options.frames` frames into options.out_dir. Errors name the file
// and place (scene file, skeleton, schedule) or the Vulkan call.
Result<SceneRenderReport> render_scene(const SceneFile& scene, const SceneRenderOptions& options);

}  // namespace spinegpu::tools
