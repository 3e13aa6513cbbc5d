// Keyframe search and curve evaluation (Spine's Timeline.search, CurveTimeline.getBezierValue,
// CurveTimeline1.getCurveValue and its relative/absolute/scale value helpers).
#include <cassert>
#include <cmath>

#include "spinegpu/runtime/animation.hpp"
#include "timeline_eval.hpp"

namespace spinegpu {
namespace detail {

namespace {

// The bezier samples are 9 (x, y) pairs.
constexpr std::uint32_t k_bezier_floats = static_cast<std::uint32_t>(k_bezier_size);

// The frame's curve type as stored: 0 linear, 1 stepped, 2 + sample offset for a bezier. Anything that is not a
// bezier whose samples fit in the table reads as stepped, so a malformed table cannot make us read outside it.
struct CurveType {
    enum Kind { linear, stepped, bezier } kind;
    std::uint32_t samples;  // bezier: offset of the first value's samples in the curve table
};

CurveType curve_type(const SkeletonData& data, const TimelineData& timeline, std::uint32_t frame,
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

}  // namespace

std::uint32_t search_rows(const float* rows, std::uint32_t count, std::uint32_t stride, double time) {
    // First row whose time is > time (upper bound), then the row before it.
    std::uint32_t low = 0, high = count;
    while (low < high) {
        std::uint32_t mid = low + (high - low) / 2;
        if (static_cast<double>(rows[mid * stride]) > time) high = mid;
        else low = mid + 1;
    }
    return low == 0 ? 0 : low - 1;
}

double bezier_value_d(const SkeletonData& data, const TimelineData& timeline, double time, std::uint32_t frame,
                      std::uint32_t value_offset, std::uint32_t bezier_index) {
    const float* rows = timeline_rows(data, timeline);
    const float* c = timeline_curves(data, timeline);
    std::uint32_t row = frame * timeline.entries;
    std::uint32_t i = bezier_index;
    // Before the first sample: between the key and the first sample.
    if (c[i] > time) {
        double x = rows[row], y = rows[row + value_offset];
        return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
    }
    std::uint32_t end = i + k_bezier_floats;
    for (i += 2; i < end; i += 2) {
        if (c[i] >= time) {
            double x = c[i - 2], y = c[i - 1];
            return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
        }
    }
    // After the last sample: between it and the next key.
    row += timeline.entries;
    double x = c[end - 2], y = c[end - 1];
    return y + (time - x) / (rows[row] - x) * (rows[row + value_offset] - y);
}

double curve_value_d(const SkeletonData& data, const TimelineData& timeline, double time) {
    assert(timeline.frame_count > 0);
    const float* rows = timeline_rows(data, timeline);
    std::uint32_t frame = search_rows(rows, timeline.frame_count, 2, time);
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

std::uint32_t curve_values(const SkeletonData& data, const TimelineData& timeline, double time, int count,
                           double* out) {
    assert(timeline.frame_count > 0 && count >= 1 && count < timeline.entries);
    const std::uint32_t entries = timeline.entries;
    const float* rows = timeline_rows(data, timeline);
    std::uint32_t frame = search_rows(rows, timeline.frame_count, entries, time);
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

namespace {

// Before the first key every CurveTimeline1 helper does the same: setup snaps to the setup value, first mixes
// toward it, replace and add keep the current value.
double before_first_key(double alpha, MixBlend blend, double current, double setup) {
    switch (blend) {
        case MixBlend::setup: return setup;
        case MixBlend::first: return current + (setup - current) * alpha;
        default: return current;
    }
}

bool before_first_key_time(const SkeletonData& data, const TimelineData& timeline, double time) {
    return time < timeline_rows(data, timeline)[0];
}

}  // namespace

double relative_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                      MixBlend blend, double current, double setup) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time);
    switch (blend) {
        case MixBlend::setup: return setup + value * alpha;
        case MixBlend::first:
        case MixBlend::replace: value += setup - current; break;
        case MixBlend::add: break;
    }
    return current + value * alpha;
}

double absolute_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                      MixBlend blend, double current, double setup) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time);
    if (blend == MixBlend::setup) return setup + (value - setup) * alpha;
    return current + (value - current) * alpha;
}

double absolute_value_at(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                         MixBlend blend, double current, double setup, double value) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    if (blend == MixBlend::setup) return setup + (value - setup) * alpha;
    return current + (value - current) * alpha;
}

double scale_value(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                   MixBlend blend, MixDirection direction, double current, double setup) {
    if (before_first_key_time(data, timeline, time)) return before_first_key(alpha, blend, current, setup);
    double value = curve_value_d(data, timeline, time) * setup;
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

std::int32_t to_int32(double value) {
    if (!std::isfinite(value)) return 0;
    double wrapped = std::fmod(std::trunc(value), 4294967296.0);
    if (wrapped < 0) wrapped += 4294967296.0;
    if (wrapped >= 2147483648.0) wrapped -= 4294967296.0;
    return static_cast<std::int32_t>(wrapped);
}

}  // namespace detail

std::uint32_t search_frame(const SkeletonData& data, const TimelineData& timeline, double time) {
    assert(timeline.frame_count > 0);
    return detail::search_rows(detail::timeline_rows(data, timeline), timeline.frame_count, timeline.entries, time);
}

float curve_value(const SkeletonData& data, const TimelineData& timeline, double time) {
    return static_cast<float>(detail::curve_value_d(data, timeline, time));
}

float bezier_value(const SkeletonData& data, const TimelineData& timeline, double time, std::uint32_t frame,
                   std::uint32_t value_offset, std::uint32_t bezier_index) {
    return static_cast<float>(detail::bezier_value_d(data, timeline, time, frame, value_offset, bezier_index));
}

}  // namespace spinegpu
