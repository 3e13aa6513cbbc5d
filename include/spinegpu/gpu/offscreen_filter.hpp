// Passing over the characters a frame will not draw: a PoseFilter (runtime/batch_update.hpp) that poses only the
// characters Renderer::draw keeps in view for a camera and target size, so that characters outside the view are
// neither posed nor packed. It asks character_in_view of each character's last pose moved to its skeleton position,
// as draw() then asks of the same pose: a character passed over is never drawn with its stale pose, provided the
// frame is drawn with the same camera and size and each character as the type given here.
//
// What it cannot see: a character whose own animation carries it into view (root motion, a long reach) while its
// last pose, moved with its skeleton position, lies outside shows up only once that moved pose meets the view; if
// its skeleton position does not move, never. A margin around the view poses such characters a little ahead.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::gpu {

// The world rectangle a camera shows in a width x height target: what draw() culls against.
WorldRect view_rect(const Camera2D& camera, std::uint32_t width, std::uint32_t height);

class OffscreenFilter {
public:
    // A filter for the crowd whose character i is drawn as skeleton type `types[i]` of `renderer`. Finalizes the
    // renderer (its types are then final; fails as finalize() does) and fails when a type index names no type. The
    // renderer and `types` must outlive the filter's use.
    static Result<OffscreenFilter> create(Renderer& renderer, std::span<const std::uint32_t> types);

    // The view of the frames to come: the camera and target size they are drawn with, widened on every side by
    // `margin_pixels` (0: exactly what draw() keeps).
    void set_view(const Camera2D& camera, std::uint32_t width, std::uint32_t height, float margin_pixels = 0);

    // The filter for FrameStep::filter. It asks with crowd indices, as update_in_order and BatchUpdater do
    // (update_characters asks with positions in its spans: give it the whole crowd's). A character it knows no type
    // for (an index past `types`, a pose of another skeleton than its type's) is posed. It keeps the culling box of
    // each character it passes over (CullingMemo), so a character outside the view, standing or moved by the crowd
    // update, costs a look at its box, not a walk through its bones; so it must not be asked about one character from
    // two threads at once (a crowd update asks once per character): one filter per crowd, never shared by crowds
    // updated at the same time.
    // The filter points at this object: keep it in place while batches use it.
    PoseFilter filter();

private:
    OffscreenFilter() = default;

    std::span<const std::uint32_t> types_;
    std::vector<const StaticSkeleton*> skeletons_;  // per type of the renderer
    std::vector<const SkeletonData*> data_;         // per type of the renderer
    WorldRect view_;
    std::vector<CullingMemo> culling_;              // per character: its box while it stays outside the view
};

}  // namespace spinegpu::gpu
