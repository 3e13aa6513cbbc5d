// Passing over the characters a frame will not draw: a PoseFilter (runtime/batch_update.hpp) that poses only the
// characters Renderer::draw keeps in view for a camera and target size, so that characters outside the view are
// neither posed nor packed. It asks character_in_view of each character's last pose moved to its skeleton position,
// as draw() then asks of the same pose: a character passed over is never drawn with its stale pose, provided the
// frame is drawn with the same camera and size, each character as the type given here.
//
// What it cannot see: a character whose animation would carry it into view by itself (root motion, a long reach)
// while its last pose lies outside shows up only once that pose, moved with its skeleton position, meets the view,
// and then one frame late. A margin around the view poses such characters a little ahead.
#pragma once

#include <cstdint>
#include <span>

#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::gpu {

// The world rectangle a camera shows in a width x height target: what draw() culls against.
WorldRect view_rect(const Camera2D& camera, std::uint32_t width, std::uint32_t height);

class OffscreenFilter {
public:
    // `types[i]`: crowd character i's skeleton type in `renderer`, as its CharacterDraw names it. Both must outlive
    // the filter's use; the renderer's types must be final (finalize() or a first frame drawn).
    OffscreenFilter(const Renderer& renderer, std::span<const std::uint32_t> types);

    // The view of the frames to come: the camera and target size they are drawn with, widened on every side by
    // `margin_pixels` (0: exactly what draw() keeps).
    void set_view(const Camera2D& camera, std::uint32_t width, std::uint32_t height, float margin_pixels = 0);

    // The filter for FrameStep::filter. It reads this object: keep it in place while batches use it.
    PoseFilter filter();

private:
    const Renderer* renderer_;
    std::span<const std::uint32_t> types_;
    WorldRect view_;
};

}  // namespace spinegpu::gpu
