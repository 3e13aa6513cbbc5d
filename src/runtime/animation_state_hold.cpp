// AnimationState's hold computation (Spine's _animationsChanged and computeHold): when the entries playing change,
// each timeline of each entry gets its mode (timeline_mode) from which properties lower timelines and the entries
// it mixes to key. Runs only after a start or end, never in the steady state; the property-id set and the sorted
// ids of the entry mixed to live in scratch vectors that keep their capacity.
#include <algorithm>
#include <cassert>

#include "animation_state_internal.hpp"

namespace spinegpu {

using Access = AnimationStateAccess;

namespace {

constexpr std::uint64_t k_empty_slot = ~std::uint64_t{0};

std::size_t slot_of(std::uint64_t id, std::size_t mask) {
    return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

// Adds `id` to the open-addressing set; returns true if it was not there. Grows (the only allocation) when the
// set would become more than half full.
bool set_add(std::vector<std::uint64_t>& set, std::uint32_t& count, std::uint64_t id) {
    assert(id != k_empty_slot);
    if ((count + 1) * 2 > set.size()) {
        std::vector<std::uint64_t> old;
        old.swap(set);
        set.assign(std::max<std::size_t>(64, old.size() * 2), k_empty_slot);
        for (const std::uint64_t v : old) {
            if (v == k_empty_slot) continue;
            std::size_t i = slot_of(v, set.size() - 1);
            while (set[i] != k_empty_slot) i = (i + 1) & (set.size() - 1);
            set[i] = v;
        }
    }
    const std::size_t mask = set.size() - 1;
    for (std::size_t i = slot_of(id, mask);; i = (i + 1) & mask) {
        if (set[i] == id) return false;
        if (set[i] == k_empty_slot) {
            set[i] = id;
            count++;
            return true;
        }
    }
}

// Spine's StringSet.addAll: true if any id was new.
bool set_add_all(std::vector<std::uint64_t>& set, std::uint32_t& count, const std::uint64_t* ids, int n) {
    bool added = false;
    for (int i = 0; i < n; i++) added |= set_add(set, count, ids[i]);
    return added;
}

bool sorted_has_any(const std::vector<std::uint64_t>& sorted, const std::uint64_t* ids, int n) {
    for (int i = 0; i < n; i++)
        if (std::binary_search(sorted.begin(), sorted.end(), ids[i])) return true;
    return false;
}

// Spine's Animation.hasTimeline, by scanning the animation's timelines (only for chains of three or more entries
// keying the same property, which are rare).
bool animation_has_any(const SkeletonData& data, std::span<const TimelineData> timelines, const std::uint64_t* ids,
                       int n) {
    std::uint64_t other[3];
    for (const TimelineData& timeline : timelines) {
        const int m = timeline_property_ids(data, timeline, other);
        for (int a = 0; a < m; a++)
            for (int b = 0; b < n; b++)
                if (other[a] == ids[b]) return true;
    }
    return false;
}

}  // namespace

void Access::animations_changed(Self& s) {
    s.animations_changed_ = false;
    std::fill(s.property_ids_.begin(), s.property_ids_.end(), k_empty_slot);
    s.property_count_ = 0;
    for (const std::uint32_t track_entry : s.tracks_) {
        if (track_entry == k_no_entry) continue;
        // From the oldest entry mixed from to the current one.
        std::uint32_t e = track_entry;
        while (s.pool_[e].mixing_from != k_no_entry) e = s.pool_[e].mixing_from;
        do {
            const TrackEntry& entry = s.pool_[e];
            if (entry.mixing_to == k_no_entry || entry.mix_blend != MixBlend::add) compute_hold(s, e);
            e = entry.mixing_to;
        } while (e != k_no_entry);
    }
}

void Access::compute_hold(Self& s, std::uint32_t index) {
    const SkeletonData& data = *s.data_;
    TrackEntry& entry = s.pool_[index];
    const std::uint32_t to_index = entry.mixing_to;
    const std::span<const TimelineData> timelines = Access::timelines(s, entry.animation);
    const std::size_t count = timelines.size();
    entry.timeline_mode.resize(count);
    entry.timeline_hold_mix.assign(count, k_no_entry);
    std::uint64_t ids[3];

    if (to_index != k_no_entry && s.pool_[to_index].hold_previous) {
        for (std::size_t i = 0; i < count; i++) {
            const int n = timeline_property_ids(data, timelines[i], ids);
            entry.timeline_mode[i] =
                set_add_all(s.property_ids_, s.property_count_, ids, n) ? k_mode_hold_first : k_mode_hold_subsequent;
        }
        return;
    }

    s.to_ids_.clear();
    if (to_index != k_no_entry) {
        for (const TimelineData& timeline : Access::timelines(s, s.pool_[to_index].animation)) {
            const int n = timeline_property_ids(data, timeline, ids);
            s.to_ids_.insert(s.to_ids_.end(), ids, ids + n);
        }
        std::sort(s.to_ids_.begin(), s.to_ids_.end());
    }

    for (std::size_t i = 0; i < count; i++) {
        const TimelineData& timeline = timelines[i];
        const int n = timeline_property_ids(data, timeline, ids);
        if (!set_add_all(s.property_ids_, s.property_count_, ids, n)) {
            entry.timeline_mode[i] = k_mode_subsequent;
            continue;
        }
        if (to_index == k_no_entry || timeline.type == TimelineType::attachment ||
            timeline.type == TimelineType::draw_order || timeline.type == TimelineType::event ||
            !sorted_has_any(s.to_ids_, ids, n)) {
            entry.timeline_mode[i] = k_mode_first;
            continue;
        }
        // The entry mixed to keys it too: hold it, mixed out by the first later entry that does not key it.
        entry.timeline_mode[i] = k_mode_hold_first;
        for (std::uint32_t next = s.pool_[to_index].mixing_to; next != k_no_entry; next = s.pool_[next].mixing_to) {
            if (animation_has_any(data, Access::timelines(s, s.pool_[next].animation), ids, n)) continue;
            if (entry.mix_duration > 0) {
                entry.timeline_mode[i] = k_mode_hold_mix;
                entry.timeline_hold_mix[i] = next;
            }
            break;
        }
    }
}

}  // namespace spinegpu
