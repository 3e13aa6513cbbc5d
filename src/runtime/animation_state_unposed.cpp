// AnimationState::apply_without_pose: apply's walk over the tracks and their mixing-from chains, keeping only what
// changes the state itself: event timelines, queued events and completions, each mixed-out entry's total_alpha (which
// decides when update() ends its mix) and the tracks' next last times. No timeline that poses is evaluated, so a
// character not shown costs its state's bookkeeping only.
#include <algorithm>

#include "animation_state_internal.hpp"
#include "timeline_eval.hpp"

namespace spinegpu {

using Access = AnimationStateAccess;

void Access::collect_events(Self& s, Index animation, double last_time, double time) {
    for (const TimelineData& timeline : timelines(s, animation))
        if (timeline.type == TimelineType::event && timeline.frame_count != 0)
            detail::apply_event_timeline(*s.data_, timeline, last_time, time, s.events_);
}

double Access::mix_from_without_pose(Self& s, std::uint32_t to_index, MixBlend blend) {
    TrackEntry& to = s.pool_[to_index];
    const std::uint32_t from_index = to.mixing_from;
    TrackEntry& from = s.pool_[from_index];
    if (from.mixing_from != k_no_entry) mix_from_without_pose(s, from_index, blend);

    // The mix and blend as apply_mixing_from computes them.
    double mix;
    if (to.mix_duration == 0) {
        mix = 1;
        if (blend == MixBlend::first) blend = MixBlend::setup;
    } else {
        mix = to.mix_time / to.mix_duration;
        if (mix > 1) mix = 1;
        if (blend != MixBlend::first) blend = from.mix_blend;
    }
    const double animation_time = Access::animation_time(from);
    if (!from.reverse && mix < from.event_threshold)
        collect_events(s, from.animation, from.animation_last, animation_time);

    // total_alpha: the sum of the alphas apply_mixing_from would give its timelines (it leaves it as it was when the
    // blend is additive).
    if (blend != MixBlend::add) {
        const std::span<const TimelineData> timelines = Access::timelines(s, from.animation);
        const std::size_t count = timelines.size();
        if (from.timeline_mode.size() != count) from.timeline_mode.resize(count, k_mode_first);
        if (from.timeline_hold_mix.size() != count) from.timeline_hold_mix.resize(count, k_no_entry);
        const bool draw_order = mix < from.mix_draw_order_threshold;
        const double alpha_hold = from.alpha * to.interrupt_alpha, alpha_mix = alpha_hold * (1 - mix);
        from.total_alpha = 0;
        for (std::size_t i = 0; i < count; i++) {
            switch (from.timeline_mode[i]) {
                case k_mode_subsequent:
                    if (!draw_order && timelines[i].type == TimelineType::draw_order) break;
                    from.total_alpha += alpha_mix;
                    break;
                case k_mode_first: from.total_alpha += alpha_mix; break;
                case k_mode_hold_subsequent:
                case k_mode_hold_first: from.total_alpha += alpha_hold; break;
                default: {
                    const TrackEntry& hold_mix = s.pool_[from.timeline_hold_mix[i]];
                    from.total_alpha += alpha_hold * std::max(0.0, 1 - hold_mix.mix_time / hold_mix.mix_duration);
                    break;
                }
            }
        }
    }

    if (to.mix_duration > 0) queue_events(s, from_index, animation_time);
    s.events_.clear();
    from.next_animation_last = animation_time;
    from.next_track_last = from.track_time;
    return mix;
}

bool AnimationState::apply_without_pose() {
    if (animations_changed_) Access::animations_changed(*this);
    bool applied = false;
    for (std::size_t i = 0; i < tracks_.size(); i++) {
        const std::uint32_t current_index = tracks_[i];
        if (current_index == k_no_entry) continue;
        TrackEntry& current = pool_[current_index];
        if (current.delay > 0) continue;
        applied = true;
        if (current.mixing_from != k_no_entry)
            Access::mix_from_without_pose(*this, current_index, i == 0 ? MixBlend::first : current.mix_blend);
        const double animation_time = Access::animation_time(current);
        if (!current.reverse) Access::collect_events(*this, current.animation, current.animation_last, animation_time);
        Access::queue_events(*this, current_index, animation_time);
        events_.clear();
        current.next_animation_last = animation_time;
        current.next_track_last = current.track_time;
    }
    Access::drain(*this);
    return applied;
}

}  // namespace spinegpu
