// AnimationState.apply (Spine's apply, applyMixingFrom, applyRotateTimeline, applyAttachmentTimeline and
// queueEvents): tracks from the lowest, each entry's mixing-from chain first; timelines applied through
// apply_timeline, except rotate timelines being mixed (which remember their rotation direction per entry) and
// attachment timelines (which honour the thresholds and record which slots were keyed, so that unkeyed slots go
// back to their setup attachment at the end).
//
// Times and alphas are doubles here, as in the official runtime, and are handed to apply_timeline as they are: its
// parameters decide the precision (a time rounded to float can land exactly on a key and fire an event or switch
// an attachment one step early).
#include <cassert>
#include <cmath>
#include <limits>

#include "animation_state_internal.hpp"
#include "bone_timelines.hpp"
#include "timeline_eval.hpp"

namespace spinegpu {

using Access = AnimationStateAccess;
using Type = StateNotification::Type;

namespace {

double signum(double value) { return value > 0 ? 1 : value < 0 ? -1 : 0; }

// The first frame's time of a timeline.
float first_frame_time(const SkeletonData& data, const TimelineData& timeline) { return data.frames[timeline.frames]; }

// Spine's AnimationState.setAttachment: sets the attachment and, when attachments are applied, marks the slot keyed.
// `in_default` is what `name` names in the default skin (see detail::set_attachment_by_name).
void set_attachment(SkeletonPose& pose, Index slot, Index name, Index in_default, bool attachments,
                    std::int64_t unkeyed_state) {
    detail::set_attachment_by_name(pose, slot, name, in_default);
    if (attachments) pose.attachment_states[static_cast<std::size_t>(slot)] = unkeyed_state + k_attachment_current;
}

}  // namespace

inline double Access::rotation(const Self& s, const SkeletonPose& pose, std::size_t bone) {
    const double kept = s.rotations_[bone];
    const float held = pose.local[bone].rotation;
    if (static_cast<float>(kept) == held) return kept;
    // Set elsewhere: the setup pose's (setToSetupPose leaves the official bone the setup double), else the float.
    const double setup = setup_rotation(s.data_->bones[bone]);
    return static_cast<float>(setup) == held ? setup : held;
}

inline void Access::set_rotation(Self& s, SkeletonPose& pose, std::size_t bone, double value) {
    s.rotations_[bone] = value;
    pose.local[bone].rotation = static_cast<float>(value);
}

std::uint32_t* Access::frame_hints(TrackEntry& e, std::size_t count) {
    if (e.timeline_frames.size() != count) e.timeline_frames.resize(count, 0);
    return e.timeline_frames.data();
}

// Inline: AnimationState::apply runs it for most timelines of every track each frame, and as a call it passed ten
// arguments to do a few dozen instructions of work.
inline void Access::apply_plain(Self& s, const TimelineData& timeline, SkeletonPose& pose, double last_time,
                                double time, std::vector<Index>* events, double alpha, MixBlend blend,
                                MixDirection direction, std::uint32_t* hint) {
    if (timeline.type != TimelineType::rotate) {
        // Bone timelines (most of every animation; their types come first in TimelineType) straight to their
        // family, with the search hint.
        if (timeline.type <= TimelineType::inherit) {
            if (timeline.frame_count != 0)
                detail::apply_bone_timeline(*s.data_, timeline, pose, time, alpha, blend, direction, hint);
        } else {
            apply_timeline(*s.data_, timeline, pose, last_time, time, events, alpha, blend, direction);
        }
        return;
    }
    // RotateTimeline.apply (as bone_timelines.hpp does it), keeping the double result for later mixes.
    const auto bone = static_cast<std::size_t>(timeline.target);
    if (timeline.frame_count == 0 || !pose.bone_active[bone]) return;
    set_rotation(s, pose, bone,
                 detail::relative_value(*s.data_, timeline, time, alpha, blend, rotation(s, pose, bone),
                                        setup_rotation(s.data_->bones[bone]), hint));
}

bool AnimationState::apply(SkeletonPose& pose) {
    if (pose.data != data_) return false;
    if (animations_changed_) Access::animations_changed(*this);
    bool applied = false;
    // No entry is created while applying, so references into the pool stay valid.
    for (std::size_t i = 0; i < tracks_.size(); i++) {
        const std::uint32_t current_index = tracks_[i];
        if (current_index == k_no_entry) continue;
        TrackEntry& current = pool_[current_index];
        if (current.delay > 0) continue;
        applied = true;
        const MixBlend blend = i == 0 ? MixBlend::first : current.mix_blend;

        // Entries mixed from are applied first.
        double alpha = current.alpha;
        if (current.mixing_from != k_no_entry)
            alpha *= Access::apply_mixing_from(*this, current_index, pose, blend);
        else if (current.track_time >= current.track_end && current.next == k_no_entry)
            alpha = 0;
        bool attachments = alpha >= current.alpha_attachment_threshold;

        const double animation_last = current.animation_last, animation_time = Access::animation_time(current);
        double apply_time = animation_time;
        std::vector<Index>* apply_events = &events_;
        if (current.reverse) {
            apply_time = Access::duration(*this, current.animation) - apply_time;
            apply_events = nullptr;
        }
        const std::span<const TimelineData> timelines = Access::timelines(*this, current.animation);
        const std::size_t count = timelines.size();
        std::uint32_t* const hints = Access::frame_hints(current, count);
        if ((i == 0 && alpha == 1) || blend == MixBlend::add) {
            if (i == 0) attachments = true;
            for (std::size_t ii = 0; ii < count; ii++) {
                const TimelineData& timeline = timelines[ii];
                if (timeline.type == TimelineType::attachment)
                    Access::apply_attachment_timeline(*this, timeline, pose, apply_time, blend, attachments,
                                                      hints + ii);
                else
                    Access::apply_plain(*this, timeline, pose, animation_last, apply_time, apply_events, alpha,
                                        blend, MixDirection::in, hints + ii);
            }
        } else {
            // Sized by compute_hold; the fallback mode blends from the setup pose, as an unset mode does officially.
            if (current.timeline_mode.size() != count) current.timeline_mode.resize(count, k_mode_first);
            const bool shortest_rotation = current.shortest_rotation;
            const bool first_frame = !shortest_rotation && current.timelines_rotation.size() != count * 2;
            // NaN stands for the official runtime's unset array slots (never read before being written, except
            // a rotation direction whose first apply returned early, which then compares as unset does).
            if (first_frame) current.timelines_rotation.resize(count * 2, std::numeric_limits<double>::quiet_NaN());
            for (std::size_t ii = 0; ii < count; ii++) {
                const TimelineData& timeline = timelines[ii];
                const MixBlend timeline_blend =
                    current.timeline_mode[ii] == k_mode_subsequent ? blend : MixBlend::setup;
                if (!shortest_rotation && timeline.type == TimelineType::rotate) {
                    Access::apply_rotate_timeline(*this, timeline, pose, apply_time, alpha, timeline_blend,
                                                  current.timelines_rotation.data() + ii * 2, first_frame, hints + ii);
                } else if (timeline.type == TimelineType::attachment) {
                    Access::apply_attachment_timeline(*this, timeline, pose, apply_time, blend, attachments,
                                                      hints + ii);
                } else {
                    Access::apply_plain(*this, timeline, pose, animation_last, apply_time, apply_events, alpha,
                                        timeline_blend, MixDirection::in, hints + ii);
                }
            }
        }
        Access::queue_events(*this, current_index, animation_time);
        events_.clear();
        current.next_animation_last = animation_time;
        current.next_track_last = current.track_time;
    }

    // Slots whose attachment a mixed-out animation set (so later timelines see its deform) but no timeline keyed
    // since go back to their setup attachment.
    // Only apply_attachment_timeline marks slots so, and it says when it has: most frames skip the sweep.
    if (setup_attachments_due_) {
        setup_attachments_due_ = false;
        const std::int64_t setup_state = unkeyed_state_ + k_attachment_setup;
        for (std::size_t slot = 0; slot < pose.slots.size(); slot++) {
            if (pose.attachment_states[slot] == setup_state)
                detail::set_attachment_by_name(pose, static_cast<Index>(slot), data_->slots[slot].attachment_name,
                                               data_->slots[slot].default_attachment);
        }
    }
    unkeyed_state_ += 2;  // a new base each apply: slots' states never need resetting
    Access::drain(*this);
    return applied;
}

double Access::apply_mixing_from(Self& s, std::uint32_t to_index, SkeletonPose& pose, MixBlend blend) {
    TrackEntry& to = s.pool_[to_index];
    const std::uint32_t from_index = to.mixing_from;
    TrackEntry& from = s.pool_[from_index];
    if (from.mixing_from != k_no_entry) apply_mixing_from(s, from_index, pose, blend);

    double mix;
    if (to.mix_duration == 0) {  // a one-frame mix, to undo what `from` set
        mix = 1;
        if (blend == MixBlend::first) blend = MixBlend::setup;
    } else {
        mix = to.mix_time / to.mix_duration;
        if (mix > 1) mix = 1;
        if (blend != MixBlend::first) blend = from.mix_blend;
    }

    const bool attachments = mix < from.mix_attachment_threshold, draw_order = mix < from.mix_draw_order_threshold;
    const std::span<const TimelineData> timelines = Access::timelines(s, from.animation);
    const std::size_t count = timelines.size();
    const double alpha_hold = from.alpha * to.interrupt_alpha, alpha_mix = alpha_hold * (1 - mix);
    const double animation_last = from.animation_last, animation_time = Access::animation_time(from);
    double apply_time = animation_time;
    std::vector<Index>* events = nullptr;
    if (from.reverse)
        apply_time = duration(s, from.animation) - apply_time;
    else if (mix < from.event_threshold)
        events = &s.events_;

    std::uint32_t* const hints = frame_hints(from, count);
    if (blend == MixBlend::add) {
        for (std::size_t i = 0; i < count; i++)
            apply_plain(s, timelines[i], pose, animation_last, apply_time, events, alpha_mix, blend,
                        MixDirection::out, hints + i);
    } else {
        if (from.timeline_mode.size() != count) from.timeline_mode.resize(count, k_mode_first);
        if (from.timeline_hold_mix.size() != count) from.timeline_hold_mix.resize(count, k_no_entry);
        const bool shortest_rotation = from.shortest_rotation;
        const bool first_frame = !shortest_rotation && from.timelines_rotation.size() != count * 2;
        if (first_frame) from.timelines_rotation.resize(count * 2, std::numeric_limits<double>::quiet_NaN());
        from.total_alpha = 0;
        for (std::size_t i = 0; i < count; i++) {
            const TimelineData& timeline = timelines[i];
            MixDirection direction = MixDirection::out;
            MixBlend timeline_blend;
            double alpha;
            switch (from.timeline_mode[i]) {
                case k_mode_subsequent:
                    if (!draw_order && timeline.type == TimelineType::draw_order) continue;
                    timeline_blend = blend;
                    alpha = alpha_mix;
                    break;
                case k_mode_first:
                    timeline_blend = MixBlend::setup;
                    alpha = alpha_mix;
                    break;
                case k_mode_hold_subsequent:
                    timeline_blend = blend;
                    alpha = alpha_hold;
                    break;
                case k_mode_hold_first:
                    timeline_blend = MixBlend::setup;
                    alpha = alpha_hold;
                    break;
                default: {  // hold mix: mixed out as the entry that no longer keys the property mixes in
                    timeline_blend = MixBlend::setup;
                    const TrackEntry& hold_mix = s.pool_[from.timeline_hold_mix[i]];
                    alpha = alpha_hold * std::max(0.0, 1 - hold_mix.mix_time / hold_mix.mix_duration);
                    break;
                }
            }
            from.total_alpha += alpha;
            if (!shortest_rotation && timeline.type == TimelineType::rotate) {
                apply_rotate_timeline(s, timeline, pose, apply_time, alpha, timeline_blend,
                                      from.timelines_rotation.data() + i * 2, first_frame, hints + i);
            } else if (timeline.type == TimelineType::attachment) {
                apply_attachment_timeline(s, timeline, pose, apply_time, timeline_blend,
                                          attachments && alpha >= from.alpha_attachment_threshold, hints + i);
            } else {
                if (draw_order && timeline.type == TimelineType::draw_order && timeline_blend == MixBlend::setup)
                    direction = MixDirection::in;
                apply_plain(s, timeline, pose, animation_last, apply_time, events, alpha, timeline_blend, direction,
                            hints + i);
            }
        }
    }

    if (to.mix_duration > 0) queue_events(s, from_index, animation_time);
    s.events_.clear();
    from.next_animation_last = animation_time;
    from.next_track_last = from.track_time;
    return mix;
}

void Access::apply_attachment_timeline(Self& s, const TimelineData& timeline, SkeletonPose& pose, double time,
                                       MixBlend blend, bool attachments, std::uint32_t* hint) {
    const SkeletonData& data = *s.data_;
    const Index slot = timeline.target;
    if (timeline.frame_count == 0) return;  // never in an export: every official timeline has a key
    if (!pose.bone_active[static_cast<std::size_t>(data.slots[static_cast<std::size_t>(slot)].bone)]) return;
    if (time < first_frame_time(data, timeline)) {
        if (blend == MixBlend::setup || blend == MixBlend::first) {
            const SlotData& setup = data.slots[static_cast<std::size_t>(slot)];
            set_attachment(pose, slot, setup.attachment_name, setup.default_attachment, attachments,
                           s.unkeyed_state_);
        }
    } else {
        // Searched with the double time, as the runtime does (rounded to float it could land on a key early).
        const std::size_t key = timeline.aux.offset + detail::search_rows(detail::timeline_rows(data, timeline),
                                                                          timeline.frame_count, timeline.entries,
                                                                          time, hint);
        set_attachment(pose, slot, data.indices[key], data.indices[key + timeline.aux.count], attachments,
                       s.unkeyed_state_);
    }
    // No attachment was keyed (before the first frame, or below a threshold): the setup one is set at the end.
    std::int64_t& state = pose.attachment_states[static_cast<std::size_t>(slot)];
    if (state <= s.unkeyed_state_) {
        state = s.unkeyed_state_ + k_attachment_setup;
        s.setup_attachments_due_ = true;
    }
}

void Access::apply_rotate_timeline(Self& s, const TimelineData& timeline, SkeletonPose& pose, double time,
                                   double alpha, MixBlend blend, double* memory, bool first_frame,
                                   std::uint32_t* hint) {
    const SkeletonData& data = *s.data_;
    if (first_frame) memory[0] = 0;
    if (alpha == 1) {
        apply_plain(s, timeline, pose, 0, time, nullptr, 1, blend, MixDirection::in, hint);
        return;
    }
    const auto bone = static_cast<std::size_t>(timeline.target);
    if (timeline.frame_count == 0 || !pose.bone_active[bone]) return;
    const double setup = setup_rotation(data.bones[bone]);
    double r1, r2;
    if (time < first_frame_time(data, timeline)) {
        switch (blend) {
            case MixBlend::setup:
                set_rotation(s, pose, bone, setup);
                return;
            case MixBlend::first:
                r1 = rotation(s, pose, bone);
                r2 = setup;
                break;
            default:
                return;
        }
    } else {
        r1 = blend == MixBlend::setup ? setup : rotation(s, pose, bone);
        r2 = setup + detail::curve_value_d(data, timeline, time, hint);
    }

    // Mix along the shortest way the first time, then keep that direction while the two rotations move, even
    // when it becomes the long way (so the bone does not flip to the other side mid-mix).
    // `diff == 0` keeps the last total: a discontinuity, so r1 must be the official double (rotations_), not the
    // pose's float, which equals r2 more often (a key reached within 1e-13 of its time would take the wrong branch).
    double total, diff = r2 - r1;
    diff -= std::ceil(diff / 360 - 0.5) * 360;
    if (diff == 0) {
        total = memory[0];
    } else {
        double last_total, last_diff;
        if (first_frame) {
            last_total = 0;
            last_diff = diff;
        } else {
            last_total = memory[0];
            last_diff = memory[1];
        }
        const double loops = last_total - std::fmod(last_total, 360.0);
        total = diff + loops;
        const bool current = diff >= 0;
        bool dir = last_total >= 0;
        // NaN (an unset direction) fails this test, as the official runtime's undefined does.
        if (std::abs(last_diff) <= 90 && signum(last_diff) != signum(diff)) {
            if (std::abs(last_total - loops) > 180) {
                total += 360 * signum(last_total);
                dir = current;
            } else if (loops != 0) {
                total -= 360 * signum(last_total);
            } else {
                dir = current;
            }
        }
        if (dir != current) total += 360 * signum(last_total);
        memory[0] = total;
    }
    memory[1] = diff;
    set_rotation(s, pose, bone, r1 + total * alpha);
}

void Access::queue_events(Self& s, std::uint32_t index, double animation_time) {
    const TrackEntry& e = s.pool_[index];
    const double animation_start = e.animation_start, animation_end = e.animation_end;
    const double duration = animation_end - animation_start;
    const double track_last_wrapped = std::fmod(e.track_last, duration);  // NaN for 0: no event counts as wrapped

    // Events before the loop wrapped come before complete; events outside [start, end] are dropped.
    const std::vector<Index>& events = s.events_;
    std::size_t i = 0;
    const std::size_t n = events.size();
    for (; i < n; i++) {
        const double time = s.data_->event_keys[static_cast<std::size_t>(events[i])].time;
        if (time < track_last_wrapped) break;
        if (time > animation_end) continue;
        queue(s, Type::event, index, events[i]);
    }

    // Complete when a loop iteration or the animation has been completed.
    bool complete;
    if (e.loop) {
        if (duration == 0) {
            complete = true;
        } else {
            const double cycles = std::floor(e.track_time / duration);
            complete = cycles > 0 && cycles > std::floor(e.track_last / duration);
        }
    } else {
        complete = animation_time >= animation_end && e.animation_last < animation_end;
    }
    if (complete) queue(s, Type::complete, index);

    for (; i < n; i++) {
        const double time = s.data_->event_keys[static_cast<std::size_t>(events[i])].time;
        if (time < animation_start) continue;
        queue(s, Type::event, index, events[i]);
    }
}

}  // namespace spinegpu
