// Building timelines from JSON key arrays, for json_animations.cpp: the keyframe rows, the curve tables (stepped
// or Bezier, sampled exactly as the official runtime samples them) and the duration. Private to the data layer.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "json_loader.hpp"

namespace spinegpu::detail::json {

// The values of one key row after its time (at most 7: rgba2).
using RowValues = std::array<double, 7>;

// Describes a curve timeline: its type and target, the row width (`entries`, time included), how many of the row's
// first values are interpolated with a curve each (`curve_values`), and how Bezier handle values are scaled per
// curve value (the official loader scales cy by the same factor as the value).
struct CurveTimelineSpec {
    TimelineType type = TimelineType::rotate;
    Index target = k_none;
    int entries = 2;
    int curve_values = 1;
    std::array<double, 7> curve_scales = {1, 1, 1, 1, 1, 1, 1};
    // Transform timelines only: row[6] holds the key's own mixShearY, which ends the curve of value 5 while the
    // row stores the first key's (see read_transform_timeline).
    bool first_shear_y_quirk = false;
};

// Reads the values of key number `frame` (everything after the time) into `row`; returns false once the reader
// has failed. Runs with the reader's path at the key.
using KeyReader = std::function<bool(Object key, std::size_t frame, RowValues& row)>;

// Appends a curve timeline from `keys` (at least one). Key times default to 0; "curve" is "stepped" or an array of
// 4 numbers (cx1, cy1, cx2, cy2) per curve value.
bool read_curve_timeline(Load& load, Array keys, const CurveTimelineSpec& spec, const KeyReader& reader);

// Appends a timeline without curves whose rows are filled by `reader` (`entries` includes the time).
bool read_plain_timeline(Load& load, Array keys, TimelineType type, Index target, int entries,
                         const KeyReader& reader);

// Appends a deform timeline for attachment `attachment` (a vertex attachment) of `slot`.
bool read_deform_timeline(Load& load, Array keys, Index slot, Index attachment);

// Returns the time of the last key of timeline `t` (its duration contribution).
float last_key_time(const SkeletonData& data, const TimelineData& t);

}  // namespace spinegpu::detail::json
