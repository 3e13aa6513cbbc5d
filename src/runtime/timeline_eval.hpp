// Internal pieces of timeline evaluation shared by the timeline files: frame rows, curve evaluation in double
// precision, the CurveTimeline1 value helpers, and one apply function per timeline family that animation.cpp's
// switch dispatches to.
//
// The official runtime keeps keys and curves in Float32Arrays but evaluates them in doubles and stores the results
// in doubles; we evaluate in doubles too and round once, when the result is stored in the pose.
#pragma once

#include <cstdint>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

#include "attachment_lookup.hpp"
#include "curve_eval.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {

// Keyframe search and curve evaluation (search_rows, bezier_value_d, curve_value_d, curve_values) and the
// CurveTimeline1 value helpers (relative_value, absolute_value, absolute_value_at, scale_value) are inline, in
// curve_eval.hpp.

// JavaScript's `value | 0` (ToInt32): truncation toward zero, wrapped to 32 bits; NaN and infinities give 0.
std::int32_t to_int32(double value);

// True when `attachment` is one of Spine's VertexAttachment types: every type but region (the official
// PointAttachment is a VertexAttachment too).
inline bool is_vertex_attachment(const AttachmentData& attachment) { return attachment.type != AttachmentType::region; }

// True when the slot's current attachment is driven by timelines keyed on `attachment`, as DeformTimeline checks
// it: a vertex attachment whose timeline attachment is `attachment`. With `accept_same`, also `attachment` itself
// whatever its type (SequenceTimeline's check, which must accept a region attachment).
bool slot_shows_timeline_attachment(const SkeletonPose& pose, Index slot, Index attachment, bool accept_same);

// set_attachment_by_name for a name whose attachment in the default skin is known (`in_default`, as for the
// find_attachment that takes it): the same result, without searching the default skin.
inline void set_attachment_by_name(SkeletonPose& pose, Index slot, Index attachment_name, Index in_default) {
    set_slot_attachment(pose, slot, find_attachment(pose, slot, attachment_name, in_default));
}

// Bone timelines (rotate, translate, scale, shear, inherit): apply_bone_timeline, inline, in bone_timelines.hpp.

// slot_timelines.cpp: rgba, rgb, alpha, rgba2, rgb2, attachment, sequence.
void apply_slot_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                         double alpha, MixBlend blend, MixDirection direction);

// deform_timeline.cpp: deform of the slot's vertex attachment.
void apply_deform_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                           double alpha, MixBlend blend);

// constraint_timelines.cpp: ik, transform, path position/spacing/mix, physics parameters and reset.
void apply_constraint_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                               double last_time, double time, double alpha, MixBlend blend, MixDirection direction);

// skeleton_timelines.cpp: draw order and events.
void apply_draw_order_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                               double time, MixBlend blend, MixDirection direction);
void apply_event_timeline(const SkeletonData& data, const TimelineData& timeline, double last_time, double time,
                          std::vector<Index>& events);

}  // namespace spinegpu::detail
