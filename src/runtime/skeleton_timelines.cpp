// Skeleton-wide timelines: Spine's DrawOrderTimeline and EventTimeline.
#include <algorithm>
#include <limits>
#include <numeric>

#include "timeline_eval.hpp"

namespace spinegpu::detail {

namespace {

void set_setup_draw_order(SkeletonPose& pose) { std::iota(pose.draw_order.begin(), pose.draw_order.end(), Index{0}); }

}  // namespace

void apply_draw_order_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                               double time, MixBlend blend, MixDirection direction) {
    // Draw order changes are instant: mixing out only restores the setup order under the setup blend.
    if (direction == MixDirection::out) {
        if (blend == MixBlend::setup) set_setup_draw_order(pose);
        return;
    }
    const float* rows = timeline_rows(data, timeline);
    if (time < rows[0]) {
        if (blend == MixBlend::setup || blend == MixBlend::first) set_setup_draw_order(pose);
        return;
    }
    std::uint32_t frame = search_rows(rows, timeline.frame_count, 1, time);
    Index order = data.indices[timeline.aux.offset + frame];
    if (order == k_none) {
        set_setup_draw_order(pose);
        return;
    }
    const Index* slots = data.indices.data() + order;
    std::copy(slots, slots + pose.draw_order.size(), pose.draw_order.begin());
}

void apply_event_timeline(const SkeletonData& data, const TimelineData& timeline, double last_time, double time,
                          std::vector<Index>& events) {
    const float* rows = timeline_rows(data, timeline);
    const std::uint32_t count = timeline.frame_count;
    if (last_time > time) {
        // The animation looped: first the events after last_time up to the end, then those from the start.
        apply_event_timeline(data, timeline, last_time, std::numeric_limits<double>::max(), events);
        last_time = -1;
    } else if (last_time >= rows[count - 1]) {
        return;
    }
    if (time < rows[0]) return;
    std::uint32_t i = 0;
    if (last_time >= rows[0]) {
        // The first key after last_time, backed up over keys at the same time (all of them fire together).
        i = search_rows(rows, count, 1, last_time) + 1;
        if (i < count) {
            float key_time = rows[i];
            while (i > 0 && rows[i - 1] == key_time) --i;
        }
    }
    for (; i < count && time >= rows[i]; ++i) events.push_back(static_cast<Index>(timeline.aux.offset + i));
}

}  // namespace spinegpu::detail
