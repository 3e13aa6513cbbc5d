// JavaScript ToInt32 for the timelines, and the public curve API (search_frame, curve_value, bezier_value) over the
// inline evaluation in curve_eval.hpp.
#include <cassert>
#include <cmath>

#include "spinegpu/runtime/animation.hpp"
#include "timeline_eval.hpp"

namespace spinegpu {
namespace detail {

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
