// AnimationState behaviour that needs no official log: mix table lookups, generational handles, entry defaults,
// apply's return value, and that the steady state allocates nothing. (animation_state_oracle_test.cpp compares
// whole sequences with the official runtime.)
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>
#include <new>

#include "counted_allocations.hpp"  // counts to show that the steady state allocates nothing
#include "pose_test_support.hpp"
#include "spinegpu/runtime/animation_state.hpp"

namespace spinegpu {
namespace {

using test::g_allocations;
using test::g_counting;

const SkeletonData* spineboy() {
    static std::unique_ptr<test::LoadedSkeleton> loaded =
        test::load_skeleton_and_atlas("spineboy/spineboy-pro.json", "spineboy/spineboy.atlas");
    return loaded ? &loaded->data : nullptr;
}

Index anim(const SkeletonData& data, const char* name) {
    const Index i = data.animation_names.find(name);
    EXPECT_NE(i, k_none) << name;
    return i;
}

TEST(MixTable, returns_the_pair_duration_else_the_default) {
    MixTable mixes;
    mixes.default_mix = 0.2;
    mixes.set(1, 2, 0.4);
    mixes.set(2, 1, 0.1);
    mixes.set(1, 2, 0.5);  // replaces the first pair
    EXPECT_EQ(mixes.get(1, 2), 0.5);
    EXPECT_EQ(mixes.get(2, 1), 0.1);
    EXPECT_EQ(mixes.get(1, 3), 0.2);
    EXPECT_EQ(mixes.get(k_empty_animation, 1), 0.2);
    EXPECT_EQ(mixes.pairs.size(), 2u);
}

TEST(AnimationState, new_entries_take_their_mix_duration_from_the_table) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    MixTable mixes;
    mixes.default_mix = 0.2;
    mixes.set(anim(*data, "walk"), anim(*data, "run"), 0.4);
    AnimationState state(*data, mixes);
    // Nothing before it on the track: no mix.
    const TrackEntryId walk = state.set_animation(0, anim(*data, "walk"), true);
    EXPECT_EQ(state.entry(walk)->mix_duration, 0);
    // The pair walk -> run.
    const TrackEntryId run = state.add_animation(0, anim(*data, "run"), true, 0);
    EXPECT_EQ(state.entry(run)->mix_duration, 0.4);
    // No pair run -> jump: the default.
    const TrackEntryId jump = state.add_animation(0, anim(*data, "jump"), false, 0);
    EXPECT_EQ(state.entry(jump)->mix_duration, 0.2);
    // An entry's own mix duration, as the official setMixDuration(mix, delay): the delay follows it.
    state.set_mix_duration(jump, 0.1, 0);
    EXPECT_EQ(state.entry(jump)->mix_duration, 0.1);
    const double run_duration = data->animations[static_cast<std::size_t>(anim(*data, "run"))].duration;
    EXPECT_DOUBLE_EQ(state.entry(jump)->delay, run_duration - 0.1);
    // The entry fields the official trackEntry() sets.
    const TrackEntry& e = *state.entry(jump);
    EXPECT_EQ(e.animation_last, -1);
    EXPECT_EQ(e.track_last, -1);
    EXPECT_EQ(e.next_track_last, -1);
    EXPECT_EQ(e.animation_end, data->animations[static_cast<std::size_t>(anim(*data, "jump"))].duration);
    EXPECT_EQ(e.interrupt_alpha, 1);
    EXPECT_EQ(e.mix_blend, MixBlend::replace);
    EXPECT_EQ(e.previous, run.index);
}

TEST(AnimationState, disposed_entries_make_their_handles_stale) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    AnimationState state(*data);
    EXPECT_EQ(state.entry(TrackEntryId{}), nullptr);
    EXPECT_FALSE(state.current(0).valid());
    EXPECT_FALSE(state.current(5).valid());

    const TrackEntryId walk = state.set_animation(0, anim(*data, "walk"), true);
    const TrackEntryId queued = state.add_animation(0, anim(*data, "jump"), false, 0);
    ASSERT_NE(state.entry(walk), nullptr);
    ASSERT_NE(state.entry(queued), nullptr);
    // Never applied, so replaced: walk ends and is disposed, its queue too.
    const TrackEntryId run = state.set_animation(0, anim(*data, "run"), true);
    EXPECT_EQ(state.entry(walk), nullptr);
    EXPECT_EQ(state.entry(queued), nullptr);
    EXPECT_EQ(state.current(0), run);
    EXPECT_EQ(state.handle(walk.index), TrackEntryId{}) << "a free entry has no handle";

    // The pool reuses the freed entries, under new generations: the old handles stay stale.
    const TrackEntryId idle = state.set_animation(1, anim(*data, "idle"), true);
    const TrackEntryId shoot = state.add_animation(1, anim(*data, "shoot"), false, 0);
    EXPECT_TRUE(idle.index == walk.index || idle.index == queued.index);
    EXPECT_TRUE(shoot.index == walk.index || shoot.index == queued.index);
    EXPECT_EQ(state.entry(walk), nullptr);
    EXPECT_EQ(state.entry(queued), nullptr);
    EXPECT_NE(state.entry(idle), nullptr);
    EXPECT_EQ(state.pool_size(), 3u);

    state.clear_tracks();
    EXPECT_EQ(state.entry(run), nullptr);
    EXPECT_EQ(state.entry(idle), nullptr);
    EXPECT_EQ(state.entry(shoot), nullptr);
    EXPECT_FALSE(state.current(0).valid());
}

TEST(AnimationState, queueing_an_animation_the_data_lacks_or_on_a_negative_track_changes_nothing) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    AnimationState state(*data);
    const auto past_the_end = static_cast<Index>(data->animations.size());
    EXPECT_FALSE(state.set_animation(0, k_none, true).valid()) << "a name not found";
    EXPECT_FALSE(state.set_animation(0, past_the_end, true).valid());
    EXPECT_FALSE(state.add_animation(0, k_none, true, 0).valid());
    EXPECT_FALSE(state.add_animation(0, -3, true, 0).valid());
    EXPECT_FALSE(state.current(0).valid());
    EXPECT_TRUE(state.notifications.empty());

    const TrackEntryId walk = state.set_animation(0, anim(*data, "walk"), true);
    state.notifications.clear();
    EXPECT_FALSE(state.set_animation(0, k_none, true).valid());
    EXPECT_FALSE(state.add_animation(0, past_the_end, false, 0).valid());
    EXPECT_FALSE(state.set_animation(-1, anim(*data, "run"), true).valid());
    EXPECT_FALSE(state.add_animation(-1, anim(*data, "run"), true, 0).valid());
    EXPECT_FALSE(state.set_empty_animation(-1, 0.2).valid());
    EXPECT_FALSE(state.add_empty_animation(-1, 0.2, 0).valid());
    EXPECT_EQ(state.current(0), walk);
    EXPECT_EQ(state.entry(walk)->next, TrackEntry::k_no_entry);
    EXPECT_TRUE(state.notifications.empty());
    EXPECT_TRUE(state.set_empty_animation(0, 0.2).valid()) << "the empty animation is queueable";
}

TEST(AnimationState, a_stale_handle_reads_nan_and_its_setters_do_nothing) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    AnimationState state(*data);
    const TrackEntryId walk = state.set_animation(0, anim(*data, "walk"), true);
    const TrackEntryId run = state.set_animation(0, anim(*data, "run"), true);  // walk, never applied, is disposed
    ASSERT_EQ(state.entry(walk), nullptr);
    for (const TrackEntryId id : {walk, TrackEntryId{}}) {
        EXPECT_TRUE(std::isnan(state.animation_time(id)));
        EXPECT_TRUE(std::isnan(state.track_complete(id)));
        state.set_mix_duration(id, 0.5, 0);
        state.reset_rotation_directions(id);
    }
    EXPECT_EQ(state.entry(run)->mix_duration, 0) << "the live entry is untouched";
    EXPECT_EQ(state.animation_time(run), 0);
}

TEST(AnimationState, notifications_name_the_entry_they_are_about) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    AnimationState state(*data);
    SkeletonPose pose = create_pose(*data);
    const Index jump = anim(*data, "jump");
    const TrackEntryId first = state.set_animation(0, jump, false);
    const TrackEntryId second = state.add_animation(0, jump, false, 0);  // the same animation: only entries differ
    std::vector<StateNotification> seen;
    for (int frame = 0; frame < 300; ++frame) {
        state.update(1.0 / 60);
        state.apply(pose);
        seen.insert(seen.end(), state.notifications.begin(), state.notifications.end());
        state.notifications.clear();
    }
    using Type = StateNotification::Type;
    auto entries_of = [&](Type type) {
        std::vector<TrackEntryId> out;
        for (const StateNotification& n : seen)
            if (n.type == type) out.push_back(n.entry);
        return out;
    };
    EXPECT_EQ(entries_of(Type::start), (std::vector<TrackEntryId>{first, second}));
    EXPECT_EQ(entries_of(Type::complete), (std::vector<TrackEntryId>{first, second}));
    EXPECT_EQ(entries_of(Type::end), (std::vector<TrackEntryId>{first}));
    EXPECT_EQ(entries_of(Type::dispose), (std::vector<TrackEntryId>{first}));
    EXPECT_EQ(state.entry(first), nullptr) << "disposed: the handle in its notifications is stale now";
    EXPECT_NE(state.entry(second), nullptr);
}

TEST(AnimationState, apply_poses_nothing_of_another_skeleton) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    const SkeletonData other = *data;  // the same bones, but another skeleton's data
    AnimationState state(*data);
    state.set_animation(0, anim(*data, "walk"), true);
    state.update(0.25);
    SkeletonPose pose = create_pose(other);
    const std::vector<BoneTransform> before = pose.local;
    EXPECT_FALSE(state.apply(pose));
    for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(pose.local[i].rotation, before[i].rotation) << i;
    SkeletonPose own = create_pose(*data);
    EXPECT_TRUE(state.apply(own));
}

TEST(AnimationState, apply_skips_tracks_whose_delay_has_not_passed) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    AnimationState state(*data);
    SkeletonPose pose = create_pose(*data);
    EXPECT_FALSE(state.apply(pose)) << "no tracks";
    // Added to an empty track with a delay: current, but waiting.
    const TrackEntryId jump = state.add_animation(0, anim(*data, "jump"), false, 0.05);
    EXPECT_EQ(state.current(0), jump);
    state.update(0.03);
    EXPECT_FALSE(state.apply(pose));
    EXPECT_DOUBLE_EQ(state.entry(jump)->track_time, 0);
    state.update(0.03);  // 0.01 past the delay: the leftover time plays
    EXPECT_TRUE(state.apply(pose));
    EXPECT_NEAR(state.entry(jump)->track_time, 0.01, 1e-12);
}

// A schedule that repeats every 120 steps: track 0 alternates walk and run with mixes, track 1 plays shoot then
// mixes it out; the state is updated and applied every step and its notifications are drained.
void run_schedule_step(AnimationState& state, SkeletonPose& pose, const SkeletonData& data, int step) {
    switch (step % 120) {
        case 0: state.set_animation(0, anim(data, "walk"), true); break;
        case 40: state.set_animation(0, anim(data, "run"), true); break;
        case 50: state.set_animation(1, anim(data, "shoot"), false); break;
        case 60: state.add_empty_animation(1, 0.2, 0); break;
        case 80: state.add_animation(0, anim(data, "jump"), false, -0.1); break;
        default: break;
    }
    state.update(1.0 / 60);
    state.apply(pose);
    state.notifications.clear();
}

TEST(AnimationState, a_repeating_schedule_allocates_nothing_after_warm_up) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const SkeletonData* data = spineboy();
    ASSERT_NE(data, nullptr);
    MixTable mixes;
    mixes.default_mix = 0.25;
    AnimationState state(*data, mixes);
    SkeletonPose pose = create_pose(*data);
    int step = 0;
    for (; step < 480; step++) run_schedule_step(state, pose, *data, step);
    const std::size_t pool = state.pool_size();

    g_allocations = 0;
    g_counting = true;
    for (; step < 1480; step++) run_schedule_step(state, pose, *data, step);
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 0) << "allocations in 1000 steady-state steps";
    EXPECT_EQ(state.pool_size(), pool);
}

}  // namespace
}  // namespace spinegpu
