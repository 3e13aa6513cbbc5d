// What a skeleton type needs beyond bones, read off its data once at load time. The GPU layer uses it to decide
// which optional per-frame sections a type packs (frame_packer.hpp); `spinegpu info` prints it.
#pragma once

#include <cstdint>

#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu {

struct SkeletonFeatures {
    bool color_animation = false;   // rgba/rgb/alpha/rgba2/rgb2 timelines: slot colours change per frame
    bool two_color_tint = false;    // a slot with a dark colour, or rgba2/rgb2 timelines
    bool deform = false;            // deform timelines
    bool draw_order = false;        // draw order timelines
    bool attachment_swaps = false;  // attachment timelines, or more than one attachment per slot across skins
    bool sequences = false;         // region or mesh attachments with a sequence
    bool clipping = false;          // clipping attachments
    bool physics = false;           // physics constraints
    bool multiple_skins = false;    // more than one skin besides the default
    std::uint8_t blend_modes = 0;   // bit (1 << BlendMode) for each blend mode a slot uses
    std::uint64_t timeline_types = 0;  // bit (1 << TimelineType) for each timeline type any animation uses
};

// Scans the whole skeleton (all skins, all animations).
SkeletonFeatures analyze_features(const SkeletonData& data);

// Bit (1 << TimelineType) for each timeline type animation `animation` uses. Precondition: `animation` indexes
// data.animations.
std::uint64_t animation_timeline_types(const SkeletonData& data, Index animation);

}  // namespace spinegpu
