// Keyframe search and curve evaluation, inline (Spine's Timeline.search, CurveTimeline.getBezierValue,
// CurveTimeline1.getCurveValue and its relative/absolute/scale value helpers): every timeline of every character
// runs through these each frame, and as calls across files they cost more than the arithmetic they do. Included
// through timeline_eval.hpp.
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation.hpp"

#include "../core/spine_math.hpp"

namespace spinegpu::detail {

// The first float of the timeline's keyframe rows.
inline const float* timeline_rows(const SkeletonData& data, const TimelineData& timeline) {
    return data.frames.data() + timeline.frames;
}

// The timeline's curve table (frame_count curve types, then the bezier samples).
inline const float* timeline_curves(const SkeletonData& data, const TimelineData& timeline) {
    return data.curves.data() + timeline.curves.offset;
}

// The bezier samples are 9 (x, y) pairs.
inline constexpr std::uint32_t k_bezier_floats = static_cast<std::uint32_t>(k_bezier_size);

// The frame's curve type as stored: 0 linear, 1 stepped, 2 + sample offset for a bezier. Anything that is not a
// bezier whose samples fit in the table reads as stepped, so a malformed table cannot make us read outside it.
struct CurveType {
    enum Kind { linear, stepped, bezier } kind;
    std::uint32_t samples;  // bezier: offset of the first value's samples in the curve table
};

inline CurveType curve_type(const SkeletonData& data, const TimelineData& timeline, std::uint32_t frame,
                            std::uint32_t values) {
    if (frame + 1 >= timeline.frame_count || frame >= timeline.curves.count) return {CurveType::stepped, 0};
    float type = timeline_curves(data, timeline)[frame];
    if (type == k_curve_linear) return {CurveType::linear, 0};
    if (!(type >= k_curve_bezier)) return {CurveType::stepped, 0};
    auto samples = static_cast<std::uint32_t>(type - k_curve_bezier);
    if (samples + values * k_bezier_floats > timeline.curves.count) {
        assert(false && "bezier samples outside the curve table");
        return {CurveType::stepped, 0};
    }
    return {CurveType::bezier, samples};
}

// Timeline.search1/search over times `time_of(row)` of rows 0..count-1: the last row whose time is <= `time`, 0
// when `time` is before all of them. Keys are sorted, so a binary search gives the official linear search's answer.
// `hint`, when given, is the row this timeline found last time for this character (any value is safe): a time
// that has stayed in that row or moved to the next is answered without a search, and the row found is stored back.
inline std::uint32_t search_rows(const float* rows, std::uint32_t count, std::uint32_t stride, double time,
                                 std::uint32_t* hint = nullptr) {
    if (hint) {
        const std::uint32_t h = *hint;
        if (h < count && static_cast<double>(rows[h * stride]) <= time) {
            if (h + 1 == count || static_cast<double>(rows[(h + 1) * stride]) > time) return h;
            if (h + 2 == count || static_cast<double>(rows[(h + 2) * stride]) > time) return *hint = h + 1;
        }
    }
    // First row whose time is > time (upper bound), then the row before it.
    std::uint32_t low = 0, high = count;
    while (low < high) {
        std::uint32_t mid = low + (high - low) / 2;
        if (static_cast<double>(rows[mid * stride]) > time) high = mid;
        else low = mid + 1;
    }
    const std::uint32_t row = low == 0 ? 0 : low - 1;
    if (hint) *hint = row;
    return row;
}

// CurveTimeline.getBezierValue in doubles: value `value_offset` of row `frame`, bezier samples at `bezier_index`
// relative to the curve table.
inline double bezier_value_d(const SkeletonData& data, const TimelineData& timeline, double time,
                             std::uint32_t frame, std::uint32_t value_offset, std::uint32_t bezier_index) {
    const float* rows = timeline_rows(data, timeline);
    const float* c = timeline_curves(data, timeline);
    std::uint32_t row = frame * timeline.entries;
    std::uint32_t i = bezier_index;
    // Before the first sample: between the key and the first sample.
    if (c[i] > time) {
        double x = rows[row], y = rows[row + value_offset];
        return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
    }
    // The scan counts samples rather than comparing indices (an unsigned index could wrap, so the compiler would
    // test it at every sample); same samples in the same order.
    const float* samples = c + i;
    for (std::uint32_t k = 2; k < k_bezier_floats; k += 2) {
        if (samples[k] >= time) {
            double x = samples[k - 2], y = samples[k - 1];
            return y + (time - x) / (samples[k] - x) * (samples[k + 1] - y);
        }
    }
    // After the last sample: between it and the next key.
    row += timeline.entries;
    double x = samples[k_bezier_floats - 2], y = samples[k_bezier_floats - 1];
    return y + (time - x) / (rows[row] - x) * (rows[row + value_offset] - y);
}

// CurveTimeline1.getCurveValue in doubles. Precondition: frame_count > 0.
inline double curve_value_d(const SkeletonData& data, const TimelineData& timeline, double time,
                            std::uint32_t* hint = nullptr) {
    assert(timeline.frame_count > 0);
    const float* rows = timeline_rows(data, timeline);
    std::uint32_t frame = search_rows(rows, timeline.frame_count, 2, time, hint);
    std::uint32_t row = frame * 2;
    CurveType type = curve_type(data, timeline, frame, 1);
    switch (type.kind) {
        case CurveType::linear: {
            double before = rows[row], value = rows[row + 1];
            return value + (time - before) / (rows[row + 2] - before) * (rows[row + 3] - value);
        }
        case CurveType::stepped: return rows[row + 1];
        case CurveType::bezier: break;
    }
    return bezier_value_d(data, timeline, time, frame, 1, type.samples);
}

// Evaluates values 1..count of a multi-value curve timeline at `time` (linear, stepped or one bezier per value, as
// every CurveTimeline subclass does) into out[0..count). Returns the frame found. `hint` as for search_rows, here
// and in the helpers below. Precondition: time >= the first
// key's time, count <= 7.
inline std::uint32_t curve_values(const SkeletonData& data, const TimelineData& timeline, double time, int count,
                                  double* out, std::uint32_t* hint = nullptr) {
    assert(timeline.frame_count > 0 && count >= 1 && count < timeline.entries);
    const std::uint32_t entries = timeline.entries;
    const float* rows = timeline_rows(data, timeline);
    std::uint32_t frame = search_rows(rows, timeline.frame_count, entries, time, hint);
    const float* row = rows + frame * entries;
    CurveType type = curve_type(data, timeline, frame, static_cast<std::uint32_t>(count));
    switch (type.kind) {
        case CurveType::linear: {
            double before = row[0];
            double t = (time - before) / (row[entries] - before);
            for (int k = 0; k < count; ++k) {
                double value = row[1 + k];
                out[k] = value + (row[entries + 1 + k] - value) * t;
            }
            break;
        }
        case CurveType::stepped:
            for (int k = 0; k < count; ++k) out[k] = row[1 + k];
            break;
        case CurveType::bezier:
            // One bezier per value, stored one after the other.
            for (int k = 0; k < count; ++k)
                out[k] = bezier_value_d(data, timeline, time, frame, static_cast<std::uint32_t>(1 + k),
                                        type.samples + static_cast<std::uint32_t>(k) * k_bezier_floats);
            break;
    }
    return frame;
}

// Before the first key every CurveTimeline1 helper does the same: setup snaps to the setup value, first mixes
// toward it, replace and add keep the current value.
inline double before_first_key(double alpha, MixBlend blend, double current, double setup) {
    switch (blend) {
        case MixBlend::setup: return setup;
        case MixBlend::first: return current + (setup - current) * alpha;
        default: return current;
    }
}

inline bool before_first_key_time(const SkeletonData& data, const TimelineData& timeline, double time) {
    return time < timeline_rows(data, timeline)[0];
}

// CurveTimeline1.getRelativeValue: timeline values added to the setup value (rotate, translate x/y, shear x/y).
inline double relative_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                             MixBlend blend, double current, double setup, std::uint32_t* hint = nullptr) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time, hint);
    switch (blend) {
        case MixBlend::setup: return setup + value * alpha;
        case MixBlend::first:
        case MixBlend::replace: value += setup - current; break;
        case MixBlend::add: break;
    }
    return current + value * alpha;
}

// CurveTimeline1.getAbsoluteValue: timeline values replace the setup value (path position/spacing, physics).
inline double absolute_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                             MixBlend blend, double current, double setup, std::uint32_t* hint = nullptr) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time, hint);
    if (blend == MixBlend::setup) return setup + (value - setup) * alpha;
    return current + (value - current) * alpha;
}

// CurveTimeline1.getAbsoluteValue2: the same with the timeline's value already evaluated (`value`).
inline double absolute_value_at(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                                MixBlend blend, double current, double setup, double value) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    if (blend == MixBlend::setup) return setup + (value - setup) * alpha;
    return current + (value - current) * alpha;
}

// CurveTimeline1.getScaleValue: timeline values multiply the setup value, mixing keeps the sign of the side mixed
// from.
inline double scale_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                          MixBlend blend, MixDirection direction, double current, double setup,
                          std::uint32_t* hint = nullptr) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time, hint) * setup;
    if (alpha == 1) return blend == MixBlend::add ? current + value - setup : value;
    if (direction == MixDirection::out) {
        // Mixing out keeps the sign of the pose mixed toward.
        switch (blend) {
            case MixBlend::setup: return setup + (std::abs(value) * signum(setup) - setup) * alpha;
            case MixBlend::first:
            case MixBlend::replace: return current + (std::abs(value) * signum(current) - current) * alpha;
            case MixBlend::add: break;
        }
    } else {
        // Mixing in takes the key's sign at once and mixes the magnitude.
        double s = 0;
        switch (blend) {
            case MixBlend::setup:
                s = std::abs(setup) * signum(value);
                return s + (value - s) * alpha;
            case MixBlend::first:
            case MixBlend::replace:
                s = std::abs(current) * signum(value);
                return s + (value - s) * alpha;
            case MixBlend::add: break;
        }
    }
    return current + (value - setup) * alpha;
}

}  // namespace spinegpu::detail
