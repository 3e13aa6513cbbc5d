// Spine's AnimationState and AnimationStateData, complete: tracks; set, add (positive, zero and negative delay),
// empty animations, clear; default and per-pair mix durations; alpha; mix blends; hold previous; reverse; time
// scales; loop; the rotation-direction memory of mixed rotate timelines; attachment, draw order and event
// thresholds; and the listener notifications (start, interrupt, end, complete, dispose, event) in the official
// order. One difference, on purpose: a hold-mix alpha of 0/0 (the entry mixed to has a mix time and a mix duration of
// 0, applied before any time passed) is 0 here, where spine-ts's arithmetic makes it NaN.
//
// Entries live in a pool owned by the state and are named by TrackEntryId handles (index + generation), so a
// handle to a disposed entry is detected instead of dereferenced. Notifications are not callbacks: they are
// appended to `notifications` in the order the official listeners would receive them, and the caller drains them
// (after a batch update, for many characters at once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {

// Mix durations between animations (Spine's AnimationStateData). Durations are double, as the official runtime
// keeps them: they are compared with mix times summed from double deltas, and a float 0.2 ends a mix a frame
// later or earlier than the official 0.2.
struct MixTable {
    double default_mix = 0;
    struct Pair {
        Index from = 0, to = 0;
        double duration = 0;
    };
    std::vector<Pair> pairs;

    // Sets the mix duration from `from` to `to` (replaces an existing pair).
    void set(Index from, Index to, double duration);
    // The duration for mixing from `from` to `to`: the pair's, else default_mix.
    double get(Index from, Index to) const;
};

// A handle to a track entry. Valid until the entry is disposed; a stale handle is detected by its generation.
struct TrackEntryId {
    std::uint32_t index = 0xffffffffu;
    std::uint32_t generation = 0;
    bool valid() const { return index != 0xffffffffu; }
    friend bool operator==(const TrackEntryId&, const TrackEntryId&) = default;
};

// The empty animation (Spine's "<empty>"): an animation index that names no animation of the data.
inline constexpr Index k_empty_animation = -2;

// Spine's TrackEntry, with entries linked by pool index (k_no_entry for none). Times, thresholds and alphas are
// double because the official runtime keeps them as doubles and takes decisions on them (when a delay has passed,
// a mix has ended, a loop has completed, an event fires): summed in float, those flip a frame early or late.
// A caller sets (through AnimationState::entry) what the official TrackEntry's setters set: loop, reverse,
// hold_previous, shortest_rotation, the thresholds, animation_start, animation_end, animation_last together with
// next_animation_last (as the official setter does), delay, track_time, track_end, time_scale, alpha, mix_time,
// mix_duration (AnimationState::set_mix_duration with a delay) and mix_blend. The rest (animation, the links,
// track_index, the per-timeline vectors, generation, in_use) is the state's: writing it breaks the state.
struct TrackEntry {
    static constexpr std::uint32_t k_no_entry = 0xffffffffu;

    Index animation = k_empty_animation;
    std::uint32_t previous = k_no_entry, next = k_no_entry, mixing_from = k_no_entry, mixing_to = k_no_entry;
    std::int32_t track_index = 0;
    bool loop = false, reverse = false, hold_previous = false, shortest_rotation = false;
    double event_threshold = 0, mix_attachment_threshold = 0, alpha_attachment_threshold = 0,
           mix_draw_order_threshold = 0;
    double animation_start = 0, animation_end = 0, animation_last = 0, next_animation_last = 0;
    double delay = 0, track_time = 0, track_last = 0, next_track_last = 0, track_end = 0, time_scale = 1;
    double alpha = 1, mix_time = 0, mix_duration = 0, interrupt_alpha = 0, total_alpha = 0;
    MixBlend mix_blend = MixBlend::replace;
    // Per timeline of the animation (AnimationState's bookkeeping).
    std::vector<std::uint8_t> timeline_mode;
    std::vector<std::uint32_t> timeline_hold_mix;  // entry indices
    std::vector<double> timelines_rotation;
    // The keyframe row each timeline found last (a search hint: any value is correct, a good one saves the search).
    std::vector<std::uint32_t> timeline_frames;

    std::uint32_t generation = 0;
    bool in_use = false;
};

// One listener notification, as the official listeners receive it.
struct StateNotification {
    enum class Type : std::uint8_t { start, interrupt, end, complete, dispose, event };
    Type type = Type::start;
    std::int32_t track = 0;
    Index animation = k_empty_animation;  // k_empty_animation for "<empty>"
    Index event_key = k_none;             // for Type::event: into SkeletonData::event_keys
    // The entry it is about (the official listeners get the TrackEntry): equal to the handle set/add returned for it,
    // so a caller tells which of two queued entries of one animation ended; stale once that entry is disposed.
    TrackEntryId entry;
};

class AnimationState {
public:
    // A state for skeletons of `data` (which must outlive it in place and be finished, see finish_skeleton_data),
    // with mix durations from `mixes`.
    explicit AnimationState(const SkeletonData& data, MixTable mixes = {});

    // Spine's update(delta): advances every track. Double, as the official runtime adds it (see TrackEntry).
    void update(double delta);
    // Spine's apply(skeleton): poses `pose` with every track. Returns true if any track was applied; false, posing
    // nothing, when `pose` is not of this state's skeleton data.
    bool apply(SkeletonPose& pose);
    // Everything apply() does but posing, for a character not shown this frame: event timelines fire, `complete`
    // and `end` follow, mixes progress and finish, the tracks' last times move on, as apply() leaves them (the same
    // notifications, the same entries and mixes); what apply() keeps only for posing is left as it was (the rotation
    // direction memory of mixed rotations, timeline search hints). A later apply() then poses as if every frame had
    // been applied where the pose depends only on the tracks' times (track 0, additive tracks over keyed
    // properties); it differs where a property keeps what earlier frames left (a higher track's partial alpha over a
    // property track 0 does not key, a running mix's rotation directions). Returns true if any track was applied.
    bool apply_without_pose();

    // Spine's setAnimation / addAnimation / setEmptyAnimation / addEmptyAnimation / setEmptyAnimations /
    // clearTrack / clearTracks. The returned handle names the new entry; set its fields through entry() (those
    // TrackEntry names). An animation the data lacks (k_none from a name not found, say), where the official runtimes
    // throw, and a negative track, which spine-libgdx refuses and spine-ts files where no update reaches it: set and
    // add change nothing and return an invalid handle. The tracks grow to the highest track index used (4 bytes
    // each).
    TrackEntryId set_animation(std::int32_t track, Index animation, bool loop);
    TrackEntryId add_animation(std::int32_t track, Index animation, bool loop, double delay);
    TrackEntryId set_empty_animation(std::int32_t track, double mix_duration);
    TrackEntryId add_empty_animation(std::int32_t track, double mix_duration, double delay);
    void set_empty_animations(double mix_duration);
    void clear_track(std::int32_t track);
    void clear_tracks();

    // The entry a handle names, or null when the handle is stale or invalid. The pointer is valid until the entry is
    // disposed (by update, apply or a clear, after which its pool slot may hold another entry: the handle goes stale,
    // the pointer cannot tell) or the next call that creates an entry (set/add), which may grow the pool. Keep
    // handles, not pointers.
    TrackEntry* entry(TrackEntryId id);
    const TrackEntry* entry(TrackEntryId id) const;
    // The current entry of `track`, or an invalid handle.
    TrackEntryId current(std::int32_t track) const;
    // The handle of the live entry at pool index `index`, for following TrackEntry's previous, next, mixing_from
    // and mixing_to links; an invalid handle for k_no_entry or a free entry.
    TrackEntryId handle(std::uint32_t index) const;

    // Spine's TrackEntry.getAnimationTime, getTrackComplete, setMixDuration(duration, delay), resetRotationDirections.
    // For a stale or invalid handle the two getters return NaN and the two setters do nothing.
    double animation_time(TrackEntryId id) const;
    double track_complete(TrackEntryId id) const;
    void set_mix_duration(TrackEntryId id, double mix_duration, double delay);
    void reset_rotation_directions(TrackEntryId id);

    // How many entries the pool holds, live or free: it grows only when more entries are alive at once than ever
    // before, so a steady schedule keeps it constant (tests check that the steady state does not allocate).
    std::size_t pool_size() const { return pool_.size(); }

    double time_scale = 1;
    MixTable mixes;
    // Notifications since the caller last cleared it, in the official listener order.
    std::vector<StateNotification> notifications;

private:
    const SkeletonData* data_;
    std::vector<TrackEntry> pool_;
    std::vector<std::uint32_t> free_;
    std::vector<std::uint32_t> tracks_;  // current entry per track, or TrackEntry::k_no_entry
    std::int64_t unkeyed_state_ = 0;     // +2 per apply (Spine's unkeyedState; 64 bits never wrap)
    bool setup_attachments_due_ = false;  // a slot was marked for its setup attachment during this apply
    bool animations_changed_ = false;
    std::vector<Index> events_;          // scratch: event keys fired during apply
    std::vector<std::uint64_t> property_ids_;  // scratch for animations_changed: open-addressing hash set
    std::uint32_t property_count_ = 0;         // ids in property_ids_
    std::vector<std::uint64_t> to_ids_;        // scratch: sorted property ids of the entry mixed to
    // Per bone, the double rotation last written by a rotate timeline applied here (the official bone keeps it in
    // a double; the pose holds it rounded to float). Used while the pose still holds that value rounded, so that
    // mixed rotations take the official branch when two rotations are equal (see apply_rotate_timeline).
    std::vector<double> rotations_;
    // The queue of pending notifications (Spine's EventQueue), drained into `notifications`.
    struct Queued {
        StateNotification::Type type;
        std::uint32_t entry;
        Index event_key;
    };
    std::vector<Queued> queue_;
    bool draining_ = false;  // Spine's drainDisabled: set while draining and while clear_tracks and
                             // set_empty_animations batch their notifications into one drain

    friend struct AnimationStateAccess;  // the implementation files' helpers
};

}  // namespace spinegpu
