// The parts of AnimationState that its implementation files share (animation_state.cpp: update and entry access;
// animation_state_queue.cpp: the entry pool, set/add/clear and the notification queue; animation_state_apply.cpp:
// apply, mixing and hold computation). Not part of the public API.
#pragma once

#include <cstdint>
#include <span>

#include "spinegpu/runtime/animation_state.hpp"

namespace spinegpu {

// Spine's timeline modes (AnimationState's SUBSEQUENT, FIRST, HOLD_SUBSEQUENT, HOLD_FIRST, HOLD_MIX): how a
// timeline of an entry is mixed, decided by compute_hold from what the entries around it key.
enum TimelineMode : std::uint8_t {
    k_mode_subsequent = 0,  // a lower timeline set the property: mix from the current pose
    k_mode_first = 1,       // first to set it: mix from the setup pose
    k_mode_hold_subsequent = 2,
    k_mode_hold_first = 3,  // the next entry keys it too: do not mix out (avoids dipping)
    k_mode_hold_mix = 4,    // as hold_first, mixed out by timeline_hold_mix's entry
};

// Slot attachment states relative to the state's unkeyed_state_ (Spine's SETUP and CURRENT).
inline constexpr std::int64_t k_attachment_setup = 1, k_attachment_current = 2;

inline constexpr std::uint32_t k_no_entry = TrackEntry::k_no_entry;

struct AnimationStateAccess {
    using Self = AnimationState;

    // The timelines and duration of an animation index (k_empty_animation: none, 0).
    static std::span<const TimelineData> timelines(const Self& s, Index animation);
    static float duration(const Self& s, Index animation);

    // TrackEntry.getAnimationTime and getTrackComplete.
    static double animation_time(const TrackEntry& e);
    static double track_complete(const TrackEntry& e);

    // The entry pool (Spine's trackEntryPool): obtain reuses the last freed entry, keeping its arrays' capacity.
    static std::uint32_t obtain(Self& s);
    static void release(Self& s, std::uint32_t entry);

    // The event queue (Spine's EventQueue); start and end mark the animations as changed.
    static void queue(Self& s, StateNotification::Type type, std::uint32_t entry, Index event_key = k_none);
    static void drain(Self& s);

    // Whether set and add may queue `animation` on `track`: a track from 0 and an animation of the data or the empty
    // one (the official runtime throws for the others).
    static bool queueable(const Self& s, std::int32_t track, Index animation);
    // Spine's expandToIndex, trackEntry, setCurrent, clearNext, updateMixingFrom.
    static std::uint32_t expand_to_index(Self& s, std::int32_t track);
    static std::uint32_t new_entry(Self& s, std::int32_t track, Index animation, bool loop, std::uint32_t last);
    static void set_current(Self& s, std::int32_t track, std::uint32_t entry, bool interrupt);
    static void clear_next(Self& s, std::uint32_t entry);
    static bool update_mixing_from(Self& s, std::uint32_t to, double delta);

    // Spine's applyMixingFrom, applyRotateTimeline (`memory`: the entry's two timelinesRotation values for this
    // timeline), applyAttachmentTimeline, queueEvents.
    static double apply_mixing_from(Self& s, std::uint32_t to, SkeletonPose& pose, MixBlend blend);
    // `hint`: the entry's timeline_frames slot for this timeline (search_rows' hint).
    static void apply_rotate_timeline(Self& s, const TimelineData& timeline, SkeletonPose& pose, double time,
                                      double alpha, MixBlend blend, double* memory, bool first_frame,
                                      std::uint32_t* hint);
    static void apply_attachment_timeline(Self& s, const TimelineData& timeline, SkeletonPose& pose, double time,
                                          MixBlend blend, bool attachments, std::uint32_t* hint);
    static void queue_events(Self& s, std::uint32_t entry, double animation_time);
    // What apply_mixing_from does to the state, without posing (animation_state_unposed.cpp): the mix, its events
    // and the entry's total_alpha, which update_mixing_from reads to end the mix.
    static double mix_from_without_pose(Self& s, std::uint32_t to, MixBlend blend);
    // Collects into events_ the keys of `animation`'s event timelines fired in (last_time, time], as apply does.
    static void collect_events(Self& s, Index animation, double last_time, double time);

    // Timeline.apply for every timeline AnimationState does not special-case: rotate timelines here (keeping the
    // double rotation in rotations_), the others through apply_timeline. Defined inline in animation_state_apply.cpp,
    // its only user, as are rotation and set_rotation.
    static void apply_plain(Self& s, const TimelineData& timeline, SkeletonPose& pose, double last_time, double time,
                            std::vector<Index>* events, double alpha, MixBlend blend, MixDirection direction,
                            std::uint32_t* hint);
    // Sizes the entry's per-timeline hints for `count` timelines (allocates only when an entry first plays an
    // animation with more timelines than any it played before).
    static std::uint32_t* frame_hints(TrackEntry& e, std::size_t count);
    // A bone's rotation as the official runtime holds it: rotations_ while the pose still holds it rounded, else the
    // setup rotation's double where the pose holds it rounded (the setup pose), else the pose's float.
    static double rotation(const Self& s, const SkeletonPose& pose, std::size_t bone);
    static void set_rotation(Self& s, SkeletonPose& pose, std::size_t bone, double rotation);

    // Spine's _animationsChanged and computeHold, with the property-id set in reusable scratch.
    static void animations_changed(Self& s);
    static void compute_hold(Self& s, std::uint32_t entry);
};

}  // namespace spinegpu
