// AnimationState's entry pool, track changes (set, add, empty, clear) and notification queue (Spine's EventQueue),
// in the official order: what is queued while a call runs is drained into `notifications` when it returns, and an
// end is always followed by the entry's dispose, which returns the entry to the pool.
#include <algorithm>
#include <cassert>
#include <limits>

#include "animation_state_internal.hpp"

namespace spinegpu {

using Access = AnimationStateAccess;
using Type = StateNotification::Type;

std::uint32_t Access::obtain(Self& s) {
    std::uint32_t index;
    if (!s.free_.empty()) {
        index = s.free_.back();  // last freed first, as the official pool does
        s.free_.pop_back();
    } else {
        index = static_cast<std::uint32_t>(s.pool_.size());
        s.pool_.emplace_back();
    }
    TrackEntry& e = s.pool_[index];
    e.in_use = true;
    e.previous = e.next = e.mixing_from = e.mixing_to = k_no_entry;
    // clear() keeps the capacity: a recycled entry does not allocate for an animation no larger than before.
    e.timeline_mode.clear();
    e.timeline_hold_mix.clear();
    e.timelines_rotation.clear();
    return index;
}

void Access::release(Self& s, std::uint32_t index) {
    TrackEntry& e = s.pool_[index];
    if (!e.in_use) return;  // already freed (an entry is never queued for disposal twice by the official order)
    e.in_use = false;
    e.generation++;  // handles to it are stale from now on
    s.free_.push_back(index);
}

void Access::queue(Self& s, Type type, std::uint32_t entry, Index event_key) {
    s.queue_.push_back({type, entry, event_key});
    if (type == Type::start || type == Type::end) s.animations_changed_ = true;
}

void Access::drain(Self& s) {
    if (s.draining_) return;
    s.draining_ = true;
    for (const AnimationState::Queued& q : s.queue_) {
        const TrackEntry& e = s.pool_[q.entry];
        StateNotification n;
        n.type = q.type;
        n.track = e.track_index;
        n.animation = e.animation;
        n.event_key = q.event_key;
        n.entry = {q.entry, e.generation};
        s.notifications.push_back(n);
        if (q.type == Type::end) {
            // The official listeners get dispose right after end.
            n.type = Type::dispose;
            n.event_key = k_none;
            s.notifications.push_back(n);
        }
        if (q.type == Type::end || q.type == Type::dispose) release(s, q.entry);
    }
    s.queue_.clear();
    s.draining_ = false;
}

std::uint32_t Access::expand_to_index(Self& s, std::int32_t track) {
    assert(track >= 0);
    const auto i = static_cast<std::size_t>(track);
    if (i < s.tracks_.size()) return s.tracks_[i];
    s.tracks_.resize(i + 1, k_no_entry);
    return k_no_entry;
}

std::uint32_t Access::new_entry(Self& s, std::int32_t track, Index animation, bool loop, std::uint32_t last) {
    assert(animation == k_empty_animation ||
           (animation >= 0 && static_cast<std::size_t>(animation) < s.data_->animations.size()));
    const std::uint32_t index = obtain(s);
    TrackEntry& e = s.pool_[index];
    e.track_index = track;
    e.animation = animation;
    e.loop = loop;
    e.hold_previous = false;
    e.reverse = false;
    e.shortest_rotation = false;
    e.event_threshold = 0;
    e.alpha_attachment_threshold = 0;
    e.mix_attachment_threshold = 0;
    e.mix_draw_order_threshold = 0;
    e.animation_start = 0;
    e.animation_end = duration(s, animation);
    e.animation_last = -1;
    e.next_animation_last = -1;
    e.delay = 0;
    e.track_time = 0;
    e.track_last = -1;
    e.next_track_last = -1;
    e.track_end = std::numeric_limits<double>::max();
    e.time_scale = 1;
    e.alpha = 1;
    e.mix_time = 0;
    e.mix_duration = last == k_no_entry ? 0 : s.mixes.get(s.pool_[last].animation, animation);
    e.interrupt_alpha = 1;
    e.total_alpha = 0;
    e.mix_blend = MixBlend::replace;
    return index;
}

void Access::set_current(Self& s, std::int32_t track, std::uint32_t index, bool interrupt) {
    const std::uint32_t from_index = expand_to_index(s, track);
    s.tracks_[static_cast<std::size_t>(track)] = index;
    TrackEntry& current = s.pool_[index];
    current.previous = k_no_entry;
    if (from_index != k_no_entry) {
        TrackEntry& from = s.pool_[from_index];
        if (interrupt) queue(s, Type::interrupt, from_index);
        current.mixing_from = from_index;
        from.mixing_to = index;
        current.mix_time = 0;
        // Keep how far the interrupted mix had come.
        if (from.mixing_from != k_no_entry && from.mix_duration > 0)
            current.interrupt_alpha *= std::min(1.0, from.mix_time / from.mix_duration);
        from.timelines_rotation.clear();  // it may have been mixed in; it mixes out from now on
    }
    queue(s, Type::start, index);
}

void Access::clear_next(Self& s, std::uint32_t index) {
    for (std::uint32_t next = s.pool_[index].next; next != k_no_entry; next = s.pool_[next].next)
        queue(s, Type::dispose, next);
    s.pool_[index].next = k_no_entry;
}

bool Access::queueable(const Self& s, std::int32_t track, Index animation) {
    return track >= 0 && (animation == k_empty_animation ||
                          (animation >= 0 && static_cast<std::size_t>(animation) < s.data_->animations.size()));
}

TrackEntryId AnimationState::set_animation(std::int32_t track, Index animation, bool loop) {
    if (!Access::queueable(*this, track, animation)) return {};
    bool interrupt = true;
    std::uint32_t current = Access::expand_to_index(*this, track);
    if (current != k_no_entry) {
        TrackEntry& c = pool_[current];
        if (c.next_track_last == -1) {
            // Never applied: replace it instead of mixing from it.
            tracks_[static_cast<std::size_t>(track)] = c.mixing_from;
            Access::queue(*this, StateNotification::Type::interrupt, current);
            Access::queue(*this, StateNotification::Type::end, current);
            Access::clear_next(*this, current);
            current = c.mixing_from;
            interrupt = false;
        } else {
            Access::clear_next(*this, current);
        }
    }
    const std::uint32_t index = Access::new_entry(*this, track, animation, loop, current);
    Access::set_current(*this, track, index, interrupt);
    Access::drain(*this);
    return {index, pool_[index].generation};
}

TrackEntryId AnimationState::add_animation(std::int32_t track, Index animation, bool loop, double delay) {
    if (!Access::queueable(*this, track, animation)) return {};
    std::uint32_t last = Access::expand_to_index(*this, track);
    if (last != k_no_entry)
        while (pool_[last].next != k_no_entry) last = pool_[last].next;
    const std::uint32_t index = Access::new_entry(*this, track, animation, loop, last);
    if (last == k_no_entry) {
        Access::set_current(*this, track, index, true);
        Access::drain(*this);
        if (delay < 0) delay = 0;
    } else {
        pool_[last].next = index;
        pool_[index].previous = last;
        // Relative to when the previous entry completes, ending the mix at (0) or before (< 0) that time.
        if (delay <= 0)
            delay = std::max(delay + Access::track_complete(pool_[last]) - pool_[index].mix_duration, 0.0);
    }
    pool_[index].delay = delay;
    return {index, pool_[index].generation};
}

TrackEntryId AnimationState::set_empty_animation(std::int32_t track, double mix_duration) {
    const TrackEntryId id = set_animation(track, k_empty_animation, false);
    if (!id.valid()) return id;
    TrackEntry& e = pool_[id.index];
    e.mix_duration = mix_duration;
    e.track_end = mix_duration;
    return id;
}

TrackEntryId AnimationState::add_empty_animation(std::int32_t track, double mix_duration, double delay) {
    const TrackEntryId id = add_animation(track, k_empty_animation, false, delay);
    if (!id.valid()) return id;
    TrackEntry& e = pool_[id.index];
    if (delay <= 0) e.delay = std::max(e.delay + e.mix_duration - mix_duration, 0.0);
    e.mix_duration = mix_duration;
    e.track_end = mix_duration;
    return id;
}

void AnimationState::set_empty_animations(double mix_duration) {
    const bool old_draining = draining_;
    draining_ = true;  // one drain at the end, as the official runtime does
    for (std::size_t i = 0; i < tracks_.size(); i++) {
        const std::uint32_t current = tracks_[i];
        if (current != k_no_entry) set_empty_animation(pool_[current].track_index, mix_duration);
    }
    draining_ = old_draining;
    Access::drain(*this);
}

void AnimationState::clear_track(std::int32_t track) {
    if (track < 0 || static_cast<std::size_t>(track) >= tracks_.size()) return;
    const std::uint32_t current = tracks_[static_cast<std::size_t>(track)];
    if (current == k_no_entry) return;
    Access::queue(*this, StateNotification::Type::end, current);
    Access::clear_next(*this, current);
    std::uint32_t e = current;
    while (true) {
        const std::uint32_t from = pool_[e].mixing_from;
        if (from == k_no_entry) break;
        Access::queue(*this, StateNotification::Type::end, from);
        pool_[e].mixing_from = k_no_entry;
        pool_[e].mixing_to = k_no_entry;
        e = from;
    }
    tracks_[static_cast<std::size_t>(pool_[current].track_index)] = k_no_entry;
    Access::drain(*this);
}

void AnimationState::clear_tracks() {
    const bool old_draining = draining_;
    draining_ = true;
    for (std::size_t i = 0; i < tracks_.size(); i++) clear_track(static_cast<std::int32_t>(i));
    tracks_.clear();
    draining_ = old_draining;
    Access::drain(*this);
}

}  // namespace spinegpu
