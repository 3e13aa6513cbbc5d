// AnimationState: construction, entry access, and update (Spine's AnimationState.update and updateMixingFrom):
// delays, switching to queued entries with the leftover time, ending tracks and finished mixes.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "animation_state_internal.hpp"

namespace spinegpu {

using Access = AnimationStateAccess;

AnimationState::AnimationState(const SkeletonData& data, MixTable mix_table)
    : mixes(std::move(mix_table)), data_(&data),
      rotations_(data.bones.size(), std::numeric_limits<double>::quiet_NaN()) {
    assert(data.finished);
}

std::span<const TimelineData> Access::timelines(const Self& s, Index animation) {
    if (animation < 0) return {};
    const Range r = s.data_->animations[static_cast<std::size_t>(animation)].timelines;
    return {s.data_->timelines.data() + r.offset, r.count};
}

float Access::duration(const Self& s, Index animation) {
    return animation < 0 ? 0.0f : s.data_->animations[static_cast<std::size_t>(animation)].duration;
}

double Access::animation_time(const TrackEntry& e) {
    if (e.loop) {
        const double duration = e.animation_end - e.animation_start;
        if (duration == 0) return e.animation_start;
        return std::fmod(e.track_time, duration) + e.animation_start;
    }
    return std::min(e.track_time + e.animation_start, e.animation_end);
}

double Access::track_complete(const TrackEntry& e) {
    const double duration = e.animation_end - e.animation_start;
    if (duration != 0) {
        // Looping: the end of the loop in progress. The official runtime truncates with `| 0`.
        if (e.loop) return duration * (1 + std::trunc(e.track_time / duration));
        if (e.track_time < duration) return duration;
    }
    return e.track_time;  // the next update
}

TrackEntry* AnimationState::entry(TrackEntryId id) {
    if (!id.valid() || id.index >= pool_.size()) return nullptr;
    TrackEntry& e = pool_[id.index];
    return e.in_use && e.generation == id.generation ? &e : nullptr;
}

const TrackEntry* AnimationState::entry(TrackEntryId id) const {
    return const_cast<AnimationState*>(this)->entry(id);
}

TrackEntryId AnimationState::current(std::int32_t track) const {
    if (track < 0 || static_cast<std::size_t>(track) >= tracks_.size()) return {};
    const std::uint32_t index = tracks_[static_cast<std::size_t>(track)];
    if (index == k_no_entry) return {};
    return {index, pool_[index].generation};
}

TrackEntryId AnimationState::handle(std::uint32_t index) const {
    if (index >= pool_.size() || !pool_[index].in_use) return {};
    return {index, pool_[index].generation};
}

double AnimationState::animation_time(TrackEntryId id) const {
    const TrackEntry* e = entry(id);
    return e ? Access::animation_time(*e) : std::numeric_limits<double>::quiet_NaN();
}

double AnimationState::track_complete(TrackEntryId id) const {
    const TrackEntry* e = entry(id);
    return e ? Access::track_complete(*e) : std::numeric_limits<double>::quiet_NaN();
}

void AnimationState::set_mix_duration(TrackEntryId id, double mix_duration, double delay) {
    TrackEntry* e = entry(id);
    if (!e) return;
    e->mix_duration = mix_duration;
    if (delay <= 0) {
        if (e->previous != k_no_entry)
            delay = std::max(delay + Access::track_complete(pool_[e->previous]) - mix_duration, 0.0);
        else
            delay = 0;
    }
    e->delay = delay;
}

void AnimationState::reset_rotation_directions(TrackEntryId id) {
    if (TrackEntry* e = entry(id)) e->timelines_rotation.clear();
}

void AnimationState::update(double delta) {
    delta *= time_scale;
    for (std::size_t i = 0; i < tracks_.size(); i++) {
        const std::uint32_t current_index = tracks_[i];
        if (current_index == k_no_entry) continue;
        // No entry is created here, so references into the pool stay valid.
        TrackEntry& current = pool_[current_index];
        current.animation_last = current.next_animation_last;
        current.track_last = current.next_track_last;

        double current_delta = delta * current.time_scale;
        if (current.delay > 0) {
            current.delay -= current_delta;
            if (current.delay > 0) continue;
            current_delta = -current.delay;
            current.delay = 0;
        }

        if (current.next != k_no_entry) {
            // Once the next entry's delay has passed, it becomes current and keeps the leftover time.
            TrackEntry& next = pool_[current.next];
            const double next_time = current.track_last - next.delay;
            if (next_time >= 0) {
                next.delay = 0;
                next.track_time +=
                    current.time_scale == 0 ? 0 : (next_time / current.time_scale + delta) * next.time_scale;
                current.track_time += current_delta;
                const std::uint32_t next_index = current.next;
                Access::set_current(*this, static_cast<std::int32_t>(i), next_index, true);
                for (std::uint32_t e = next_index; pool_[e].mixing_from != k_no_entry; e = pool_[e].mixing_from)
                    pool_[e].mix_time += delta;
                continue;
            }
        } else if (current.track_last >= current.track_end && current.mixing_from == k_no_entry) {
            tracks_[i] = k_no_entry;
            Access::queue(*this, StateNotification::Type::end, current_index);
            Access::clear_next(*this, current_index);
            continue;
        }

        if (current.mixing_from != k_no_entry && Access::update_mixing_from(*this, current_index, delta)) {
            // Every entry mixed from has completed: end them all.
            std::uint32_t from = current.mixing_from;
            current.mixing_from = k_no_entry;
            if (from != k_no_entry) pool_[from].mixing_to = k_no_entry;
            while (from != k_no_entry) {
                Access::queue(*this, StateNotification::Type::end, from);
                from = pool_[from].mixing_from;
            }
        }
        current.track_time += current_delta;
    }
    Access::drain(*this);
}

bool Access::update_mixing_from(Self& s, std::uint32_t to_index, double delta) {
    TrackEntry& to = s.pool_[to_index];
    const std::uint32_t from_index = to.mixing_from;
    if (from_index == k_no_entry) return true;
    const bool finished = update_mixing_from(s, from_index, delta);
    TrackEntry& from = s.pool_[from_index];
    from.animation_last = from.next_animation_last;
    from.track_last = from.next_track_last;

    // The entry mixed to was applied at least once and its mix is complete.
    if (to.next_track_last != -1 && to.mix_time >= to.mix_duration) {
        // The entries before `from` are done, or the mix is instantaneous: `from` ends.
        if (from.total_alpha == 0 || to.mix_duration == 0) {
            to.mixing_from = from.mixing_from;
            if (from.mixing_from != k_no_entry) s.pool_[from.mixing_from].mixing_to = to_index;
            to.interrupt_alpha = from.interrupt_alpha;
            queue(s, StateNotification::Type::end, from_index);
        }
        return finished;
    }
    from.track_time += delta * from.time_scale;
    to.mix_time += delta;
    return false;
}

}  // namespace spinegpu
