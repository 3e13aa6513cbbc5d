// Applying animations and timelines to a pose, as the official Spine 4.2 runtime does (Animation.apply and every
// Timeline.apply), including how curves are evaluated: stepped, linear, and the sampled beziers the loaders stored
// (SkeletonData::curves), interpolated between the 9 samples exactly as the runtime does.
#pragma once

#include <cstdint>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {

// Spine's MixBlend: how a timeline's value combines with the current pose.
enum class MixBlend : std::uint8_t { setup, first, replace, add };
// Spine's MixDirection: mixing in (toward this animation) or out (away from it).
enum class MixDirection : std::uint8_t { in, out };

// Times are doubles, as the official runtime's are: a time just before a key must not round onto the key (which
// would fire its event or switch its attachment a step early). Keys and curves stay floats, as the official
// Float32Arrays are.

// Spine's Timeline.search: the index of the last frame whose time is <= `time` (0 if `time` is before the first
// frame), as a frame number (not a float offset). Precondition: frame_count > 0.
std::uint32_t search_frame(const SkeletonData& data, const TimelineData& timeline, double time);

// Spine's CurveTimeline1.getCurveValue: the value of a one-value curve timeline at `time`.
float curve_value(const SkeletonData& data, const TimelineData& timeline, double time);

// Spine's CurveTimeline.getBezierValue: value `value_offset` (1-based in the frame row) between frame `frame` and
// the next, with the frame's bezier samples starting at curve index `bezier_index` (relative to the timeline's
// curve range, without the k_curve_bezier base).
float bezier_value(const SkeletonData& data, const TimelineData& timeline, double time, std::uint32_t frame,
                   std::uint32_t value_offset, std::uint32_t bezier_index);

// Spine's property ids: what a timeline animates (e.g. rotate of bone 3, rgb of slot 5, deform of slot 2 with
// vertex attachment 7). Writes up to 3 ids to `out` and returns how many. AnimationState compares them to decide
// which timelines of two mixed animations touch the same property.
int timeline_property_ids(const SkeletonData& data, const TimelineData& timeline, std::uint64_t out[3]);

// Applies one timeline (Spine's Timeline.apply) of finished data (finish_skeleton_data). `events`, when not null,
// receives the indices into SkeletonData::event_keys of the events fired between last_time (exclusive) and time
// (inclusive).
void apply_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double last_time,
                    double time, std::vector<Index>* events, double alpha, MixBlend blend, MixDirection direction);

// Applies every timeline of animation `animation` of finished data (Spine's Animation.apply): with `loop` and a
// non-zero duration, times wrap around the duration first.
void apply_animation(const SkeletonData& data, Index animation, SkeletonPose& pose, double last_time, double time,
                     bool loop, std::vector<Index>* events, double alpha, MixBlend blend, MixDirection direction);

// Spine's AttachmentTimeline.setAttachment: sets slot's attachment by name (k_none clears it), looked up in the
// pose's skin then the default skin.
void set_attachment_by_name(SkeletonPose& pose, Index slot, Index attachment_name);

}  // namespace spinegpu
