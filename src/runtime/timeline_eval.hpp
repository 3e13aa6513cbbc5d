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

#include "runtime_math.hpp"

namespace spinegpu::detail {

// The first float of the timeline's keyframe rows.
inline const float* timeline_rows(const SkeletonData& data, const TimelineData& timeline) {
    return data.frames.data() + timeline.frames;
}

// The timeline's curve table (frame_count curve types, then the bezier samples).
inline const float* timeline_curves(const SkeletonData& data, const TimelineData& timeline) {
    return data.curves.data() + timeline.curves.offset;
}

// Timeline.search1/search over times `time_of(row)` of rows 0..count-1: the last row whose time is <= `time`, 0
// when `time` is before all of them. Keys are sorted, so a binary search gives the official linear search's answer.
std::uint32_t search_rows(const float* rows, std::uint32_t count, std::uint32_t stride, double time);

// CurveTimeline.getBezierValue in doubles: value `value_offset` of row `frame`, bezier samples at `bezier_index`
// relative to the curve table.
double bezier_value_d(const SkeletonData& data, const TimelineData& timeline, double time, std::uint32_t frame,
                      std::uint32_t value_offset, std::uint32_t bezier_index);

// CurveTimeline1.getCurveValue in doubles. Precondition: frame_count > 0.
double curve_value_d(const SkeletonData& data, const TimelineData& timeline, double time);

// Evaluates values 1..count of a multi-value curve timeline at `time` (linear, stepped or one bezier per value, as
// every CurveTimeline subclass does) into out[0..count). Returns the frame found. Precondition: time >= the first
// key's time, count <= 7.
std::uint32_t curve_values(const SkeletonData& data, const TimelineData& timeline, double time, int count,
                           double* out);

// CurveTimeline1.getRelativeValue: timeline values added to the setup value (rotate, translate x/y, shear x/y).
double relative_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                      MixBlend blend, double current, double setup);
// CurveTimeline1.getAbsoluteValue: timeline values replace the setup value (path position/spacing, physics).
double absolute_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                      MixBlend blend, double current, double setup);
// CurveTimeline1.getAbsoluteValue2: the same with the timeline's value already evaluated (`value`).
double absolute_value_at(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                         MixBlend blend, double current, double setup, double value);
// CurveTimeline1.getScaleValue: timeline values multiply the setup value, mixing keeps the sign of the side mixed
// from.
double scale_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                   MixBlend blend, MixDirection direction, double current, double setup);

// JavaScript's `value | 0` (ToInt32): truncation toward zero, wrapped to 32 bits; NaN and infinities give 0.
std::int32_t to_int32(double value);

// True when `attachment` is one of Spine's VertexAttachment types: every type but region (the official
// PointAttachment is a VertexAttachment too).
inline bool is_vertex_attachment(const AttachmentData& attachment) { return attachment.type != AttachmentType::region; }

// True when the slot's current attachment is driven by timelines keyed on `attachment`, as DeformTimeline checks
// it: a vertex attachment whose timeline attachment is `attachment`. With `accept_same`, also `attachment` itself
// whatever its type (SequenceTimeline's check, which must accept a region attachment).
bool slot_shows_timeline_attachment(const SkeletonPose& pose, Index slot, Index attachment, bool accept_same);

// bone_timelines.cpp: rotate, translate(_x/_y), scale(_x/_y), shear(_x/_y), inherit.
void apply_bone_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                         double alpha, MixBlend blend, MixDirection direction);

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
