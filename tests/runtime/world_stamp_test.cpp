// World stamps (SkeletonPose::world_stamp, shape_stamp): next_world_stamp never returns 0 nor a number it returned
// before, on any thread, past the blocks each thread takes; the runtime gives a pose new ones whenever it computes its
// world transforms, and a copy keeps its pose's. A crowd update moving a passed-over character gives it a new
// world_stamp and keeps its shape_stamp, and PosedAt::drift bounds how far rounding has carried its bones from the
// exact move. (What each change of world transforms does to a stamp, and what depends on it, is tested with the
// culling memo in tests/gpu/culling_memo_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "pose_test_support.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu {
namespace {

TEST(WorldStamp, is_never_zero_nor_repeated_on_any_thread) {
    // One thread takes more than a block of 2^20 stamps; three others take a few thousand at once.
    constexpr std::size_t k_threads = 4, k_many = (std::size_t{1} << 20) + 10, k_few = 5000;
    std::vector<std::vector<std::uint64_t>> taken(k_threads);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < k_threads; ++t)
        threads.emplace_back([&taken, t] {
            const std::size_t count = t == 0 ? k_many : k_few;
            taken[t].reserve(count);
            for (std::size_t i = 0; i < count; ++i) taken[t].push_back(next_world_stamp());
        });
    for (std::thread& thread : threads) thread.join();
    std::vector<std::uint64_t> all;
    for (const auto& stamps : taken) all.insert(all.end(), stamps.begin(), stamps.end());
    std::sort(all.begin(), all.end());
    EXPECT_NE(all.front(), 0u);
    EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a stamp was returned twice";
}

TEST(WorldStamp, changes_whenever_the_world_transforms_are_computed_and_a_copy_keeps_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = test::load_skeleton_and_atlas("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas");
    ASSERT_NE(loaded, nullptr);
    SkeletonPose pose = create_pose(loaded->data);
    std::vector<std::uint64_t> seen{pose.world_stamp};
    for (int i = 0; i < 3; ++i) {
        update_world_transform(pose, Physics::none);
        EXPECT_EQ(pose.shape_stamp, pose.world_stamp);
        seen.push_back(pose.world_stamp);
    }
    const SkeletonPose copy = pose;
    EXPECT_EQ(copy.world_stamp, pose.world_stamp);
    SkeletonPose other = create_pose(loaded->data);
    update_world_transform(other, Physics::none);
    seen.push_back(other.world_stamp);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
    EXPECT_NE(seen.front(), 0u);
}

TEST(WorldStamp, moving_a_passed_over_character_keeps_its_shape_and_the_drift_bounds_the_rounding) {
    // Spineboy near 2^22 world units, where a float's step is 0.25 to 0.5 and its bones straddle the power of two,
    // moved 3,000 times by uneven amounts: every active bone stays within the drift of its exact move.
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = test::load_skeleton_and_atlas("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas");
    ASSERT_NE(loaded, nullptr);
    SkeletonPose pose = create_pose(loaded->data);
    AnimationState state(loaded->data);
    state.set_animation(0, loaded->data.animation_names.find("walk"), true);
    const double start_x = 4194204, start_y = -2097100;
    pose.x = static_cast<float>(start_x);
    pose.y = static_cast<float>(start_y);
    update_characters(std::span(&pose, 1), std::span(&state, 1), FrameStep(1.0 / 60, Physics::update));
    const std::vector<BoneWorld> then = pose.world;
    const float then_x = pose.x, then_y = pose.y;
    const std::uint64_t shape = pose.shape_stamp;
    EXPECT_EQ(pose.posed_at.drift, 0.0);
    const PoseFilter pass_over{[](void*, CharacterIndex, const SkeletonPose&) { return false; }, nullptr};
    double drift = 0, worst = 0;
    for (int k = 1; k <= 3000; ++k) {
        pose.x = static_cast<float>(start_x + 0.37 * k);
        pose.y = static_cast<float>(start_y - 0.29 * k + 40 * std::sin(k * 0.01));
        const std::uint64_t world = pose.world_stamp;
        const bool moves = pose.x != pose.posed_at.x || pose.y != pose.posed_at.y;  // (not when both round back)
        update_characters(std::span(&pose, 1), std::span(&state, 1),
                          FrameStep(1.0 / 60, Physics::update, pass_over));
        ASSERT_TRUE(pose.posed_at.skipped);
        ASSERT_EQ(pose.shape_stamp, shape) << "move " << k;
        ASSERT_EQ(pose.world_stamp != world, moves) << "move " << k;
        ASSERT_EQ(pose.posed_at.drift > drift, moves) << "move " << k;
        drift = pose.posed_at.drift;
        const double sx = static_cast<double>(pose.x) - then_x, sy = static_cast<double>(pose.y) - then_y;
        for (std::size_t b = 0; b < then.size(); ++b) {
            if (!pose.bone_active[b]) continue;
            const double off = std::max(std::fabs(pose.world[b].x - (then[b].x + sx)),
                                        std::fabs(pose.world[b].y - (then[b].y + sy)));
            worst = std::max(worst, off);
            ASSERT_LE(off, drift) << "bone " << b << ", move " << k;
        }
    }
    EXPECT_GT(worst, 1.0) << "the moves should round by whole units here";
    update_characters(std::span(&pose, 1), std::span(&state, 1), FrameStep(1.0 / 60, Physics::update));
    EXPECT_NE(pose.shape_stamp, shape) << "posing the character gives it a new shape";
    EXPECT_EQ(pose.posed_at.drift, 0.0);
}

}  // namespace
}  // namespace spinegpu
