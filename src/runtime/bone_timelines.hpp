// Bone timelines (Spine's RotateTimeline, TranslateTimeline, ScaleTimeline, ShearTimeline and their one-axis
// variants, InheritTimeline): they write a bone's local pose (SkeletonPose::local, ::inherit). Inline, like the curve
// evaluation they use: AnimationState::apply runs them for most timelines of every character each frame, and as
// three layers of calls (family, pair, curve values) they cost more than their arithmetic.
#pragma once

#include <cmath>
#include <cstdint>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

#include "curve_eval.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {

namespace bone_timeline {

// Before a pair timeline's first key: setup blending sets the setup values, first blending mixes towards them,
// the others leave the pair alone. Returns whether `time` is before the first key (the caller is then done).
inline bool pair_before_first_key(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                                  MixBlend blend, float& x, float& y, float setup_x, float setup_y) {
    if (time >= timeline_rows(data, timeline)[0]) return false;
    if (blend == MixBlend::setup) {
        x = setup_x;
        y = setup_y;
    } else if (blend == MixBlend::first) {
        x = static_cast<float>(x + (setup_x - static_cast<double>(x)) * alpha);
        y = static_cast<float>(y + (setup_y - static_cast<double>(y)) * alpha);
    }
    return true;
}

// Translate and shear: two values added to the setup values.
inline void apply_offset_pair(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                              MixBlend blend, float& x, float& y, float setup_x, float setup_y, std::uint32_t* hint) {
    if (pair_before_first_key(data, timeline, time, alpha, blend, x, y, setup_x, setup_y)) return;
    double v[2];
    curve_values(data, timeline, time, 2, v, hint);
    switch (blend) {
        case MixBlend::setup:
            x = static_cast<float>(setup_x + v[0] * alpha);
            y = static_cast<float>(setup_y + v[1] * alpha);
            break;
        case MixBlend::first:
        case MixBlend::replace:
            x = static_cast<float>(x + (setup_x + v[0] - x) * alpha);
            y = static_cast<float>(y + (setup_y + v[1] - y) * alpha);
            break;
        case MixBlend::add:
            x = static_cast<float>(x + v[0] * alpha);
            y = static_cast<float>(y + v[1] * alpha);
            break;
    }
}

// Scale: the keys multiply the setup scale; when mixing, the sign comes from the side mixed from (see
// scale_value, which does the same for one axis).
inline void apply_scale_pair(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                             MixBlend blend, MixDirection direction, float& scale_x, float& scale_y, float setup_x,
                             float setup_y, std::uint32_t* hint) {
    if (pair_before_first_key(data, timeline, time, alpha, blend, scale_x, scale_y, setup_x, setup_y)) return;
    double v[2];
    curve_values(data, timeline, time, 2, v, hint);
    double x = v[0] * setup_x, y = v[1] * setup_y;
    double cx = scale_x, cy = scale_y;
    if (alpha == 1) {
        if (blend == MixBlend::add) {
            scale_x = static_cast<float>(cx + (x - setup_x));
            scale_y = static_cast<float>(cy + (y - setup_y));
        } else {
            scale_x = static_cast<float>(x);
            scale_y = static_cast<float>(y);
        }
        return;
    }
    if (blend == MixBlend::add) {
        scale_x = static_cast<float>(cx + (x - setup_x) * alpha);
        scale_y = static_cast<float>(cy + (y - setup_y) * alpha);
        return;
    }
    // The pose mixed from: the setup pose for setup, the current pose for first and replace.
    double bx = blend == MixBlend::setup ? setup_x : cx, by = blend == MixBlend::setup ? setup_y : cy;
    if (direction == MixDirection::out) {
        scale_x = static_cast<float>(bx + (std::abs(x) * signum(bx) - bx) * alpha);
        scale_y = static_cast<float>(by + (std::abs(y) * signum(by) - by) * alpha);
    } else {
        bx = std::abs(bx) * signum(x);
        by = std::abs(by) * signum(y);
        scale_x = static_cast<float>(bx + (x - bx) * alpha);
        scale_y = static_cast<float>(by + (y - by) * alpha);
    }
}

inline void apply_inherit(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, Index bone,
                          double time, MixBlend blend, MixDirection direction, std::uint32_t* hint) {
    auto b = static_cast<std::size_t>(bone);
    Inherit setup = data.bones[b].inherit;
    if (direction == MixDirection::out) {
        if (blend == MixBlend::setup) pose.inherit[b] = setup;
        return;
    }
    const float* rows = timeline_rows(data, timeline);
    if (time < rows[0]) {
        if (blend == MixBlend::setup || blend == MixBlend::first) pose.inherit[b] = setup;
        return;
    }
    float value = rows[search_rows(rows, timeline.frame_count, 2, time, hint) * 2 + 1];
    // Loaders store one of the five modes; anything else leaves the bone as it is.
    if (value >= 0 && value <= static_cast<float>(Inherit::no_scale_or_reflection))
        pose.inherit[b] = static_cast<Inherit>(static_cast<int>(value));
}

}  // namespace bone_timeline

// Timeline.apply of the bone timeline families: rotate, translate(_x/_y), scale(_x/_y), shear(_x/_y), inherit.
// `hint` as for search_rows.
inline void apply_bone_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                                double time, double alpha, MixBlend blend, MixDirection direction,
                                std::uint32_t* hint = nullptr) {
    Index bone = timeline.target;
    auto b = static_cast<std::size_t>(bone);
    if (!pose.bone_active[b]) return;
    const BoneData& setup = data.bones[b];
    BoneTransform& local = pose.local[b];
    switch (timeline.type) {
        case TimelineType::rotate:
            local.rotation = static_cast<float>(relative_value(data, timeline, time, alpha, blend, local.rotation,
                                                               setup.rotation, hint));
            break;
        case TimelineType::translate:
            bone_timeline::apply_offset_pair(data, timeline, time, alpha, blend, local.x, local.y, setup.x, setup.y,
                                             hint);
            break;
        case TimelineType::translate_x:
            local.x = static_cast<float>(relative_value(data, timeline, time, alpha, blend, local.x, setup.x, hint));
            break;
        case TimelineType::translate_y:
            local.y = static_cast<float>(relative_value(data, timeline, time, alpha, blend, local.y, setup.y, hint));
            break;
        case TimelineType::scale:
            bone_timeline::apply_scale_pair(data, timeline, time, alpha, blend, direction, local.scale_x,
                                            local.scale_y, setup.scale_x, setup.scale_y, hint);
            break;
        case TimelineType::scale_x:
            local.scale_x = static_cast<float>(
                scale_value(data, timeline, time, alpha, blend, direction, local.scale_x, setup.scale_x, hint));
            break;
        case TimelineType::scale_y:
            local.scale_y = static_cast<float>(
                scale_value(data, timeline, time, alpha, blend, direction, local.scale_y, setup.scale_y, hint));
            break;
        case TimelineType::shear:
            bone_timeline::apply_offset_pair(data, timeline, time, alpha, blend, local.shear_x, local.shear_y,
                                             setup.shear_x, setup.shear_y, hint);
            break;
        case TimelineType::shear_x:
            local.shear_x = static_cast<float>(relative_value(data, timeline, time, alpha, blend, local.shear_x,
                                                              setup.shear_x, hint));
            break;
        case TimelineType::shear_y:
            local.shear_y = static_cast<float>(relative_value(data, timeline, time, alpha, blend, local.shear_y,
                                                              setup.shear_y, hint));
            break;
        case TimelineType::inherit:
            bone_timeline::apply_inherit(data, timeline, pose, bone, time, blend, direction, hint);
            break;
        default: break;
    }
}

}  // namespace spinegpu::detail
