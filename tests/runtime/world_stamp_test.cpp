// World stamps (SkeletonPose::world_stamp): next_world_stamp never returns 0 nor a number it returned before, on
// any thread, past the blocks each thread takes; the runtime gives a pose a new one whenever it computes its world
// transforms, and a copy keeps its pose's. (What each change of world transforms does to a stamp, and what depends
// on it, is tested with the culling memo in tests/gpu/culling_memo_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "pose_test_support.hpp"

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

}  // namespace
}  // namespace spinegpu
