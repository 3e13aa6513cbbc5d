// AnimationState::apply_without_pose leaves the state as apply() does: on random schedules over every skeleton of the
// mixed crowd (set, add, empty and clear on three tracks, random delays and mix durations, alpha, additive and setup
// blends, reverse, hold previous, event and draw-order thresholds, one-frame mixes, time scales, track ends), two
// states driven alike, one applied and one applied without posing, give the same notifications and the same live
// entries, field for field, every frame. (The oracle scripts, replayed without posing in animation_state_ops.hpp,
// check the same against the official runtime's logs on hand-written cases.)
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "crowd_test_support.hpp"

namespace spinegpu {
namespace {

using namespace test;

// Every live entry's fields that update() and apply() read or write, one line per entry.
std::string entries(const AnimationState& state) {
    std::ostringstream out;
    out.precision(17);
    for (std::uint32_t i = 0; i < state.pool_size(); ++i) {
        const TrackEntry* e = state.entry(state.handle(i));
        if (e == nullptr) continue;
        out << i << ": animation " << e->animation << " previous " << e->previous << " next " << e->next << " from "
            << e->mixing_from << " to " << e->mixing_to << " animation_last " << e->animation_last << " next "
            << e->next_animation_last << " delay " << e->delay << " track_time " << e->track_time << " track_last "
            << e->track_last << " next " << e->next_track_last << " mix " << e->mix_time << "/" << e->mix_duration
            << " interrupt_alpha " << e->interrupt_alpha << " total_alpha " << e->total_alpha << " modes "
            << e->timeline_mode.size() << " holds " << e->timeline_hold_mix.size() << "\n";
    }
    return out.str();
}

// The notifications, then cleared.
std::string take(AnimationState& state) {
    std::ostringstream out;
    for (const StateNotification& n : state.notifications)
        out << static_cast<int>(n.type) << "/" << n.track << "/" << n.animation << "/" << n.event_key << "/"
            << n.entry.index << " ";
    state.notifications.clear();
    return out.str();
}

// One random change to both states (the same call with the same arguments), with random entry fields.
void change_both(std::mt19937& random, const SkeletonData& data, AnimationState& a, AnimationState& b) {
    const auto track = static_cast<std::int32_t>(random() % 3);
    const auto animation = static_cast<Index>(random() % data.animations.size());
    const bool loop = random() % 2 != 0;
    const double delay = (static_cast<int>(random() % 5) - 2) * 0.1, mix = (random() % 4) * 0.1;
    TrackEntryId ia, ib;
    switch (random() % 7) {
        case 0:
        case 1: ia = a.set_animation(track, animation, loop), ib = b.set_animation(track, animation, loop); break;
        case 2:
        case 3:
            ia = a.add_animation(track, animation, loop, delay), ib = b.add_animation(track, animation, loop, delay);
            break;
        case 4: ia = a.set_empty_animation(track, mix), ib = b.set_empty_animation(track, mix); break;
        case 5: ia = a.add_empty_animation(track, mix, delay), ib = b.add_empty_animation(track, mix, delay); break;
        default:
            if (random() % 2 != 0) {
                a.clear_track(track);
                b.clear_track(track);
            } else {
                a.set_empty_animations(mix);
                b.set_empty_animations(mix);
            }
            return;
    }
    if (!ia.valid()) return;
    const std::uint32_t bits = random();
    for (TrackEntry* e : {a.entry(ia), b.entry(ib)}) {
        if (bits & 1) e->alpha = 0.5;
        if (bits & 2) e->mix_blend = MixBlend::add;
        if (bits & 4) e->reverse = true;
        if (bits & 8) e->hold_previous = true;
        if (bits & 16) e->event_threshold = 0.5;
        if (bits & 32) e->mix_draw_order_threshold = 0.5;
        if (bits & 64) e->mix_duration = 0;
        if (bits & 128) e->time_scale = 1.7;
        if (bits & 256) e->shortest_rotation = true;
        if (bits & 512) e->mix_blend = MixBlend::setup;
        if (bits & 1024) e->track_end = 0.3;
    }
}

TEST(AnimationStateUnposed, random_schedules_leave_the_same_entries_and_notifications_as_apply) {
    ASSERT_FALSE(skeletons().empty());
    for (std::size_t k = 0; k < skeletons().size(); ++k) {
        const SkeletonData& data = *skeletons()[k];
        ASSERT_FALSE(data.animations.empty());
        for (std::uint32_t seed = 0; seed < 40; ++seed) {
            std::mt19937 random(seed * 31 + static_cast<std::uint32_t>(k));
            MixTable mixes;
            mixes.default_mix = (random() % 3) * 0.15;
            AnimationState applied(data, mixes), unposed(data, mixes);
            SkeletonPose pose = create_pose(data);
            if (data.skins.size() > 1) set_skin(pose, 1);
            set_to_setup_pose(pose);
            for (int frame = 0; frame < 300; ++frame) {
                if (random() % 12 == 0) change_both(random, data, applied, unposed);
                const double dt = random() % 4 == 0 ? 0.05 : 1.0 / 60;
                applied.update(dt);
                unposed.update(dt);
                ASSERT_EQ(applied.apply(pose), unposed.apply_without_pose());
                update_world_transform(pose, Physics::update);
                ASSERT_EQ(take(applied), take(unposed))
                    << k_skeleton_files[k] << ", seed " << seed << ", frame " << frame;
                ASSERT_EQ(entries(applied), entries(unposed))
                    << k_skeleton_files[k] << ", seed " << seed << ", frame " << frame;
            }
        }
    }
}

}  // namespace
}  // namespace spinegpu
