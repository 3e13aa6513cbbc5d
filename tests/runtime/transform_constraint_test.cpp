// Transform constraints against the official Spine 4.2 runtime (spine-core 4.2.119) in all four modes (world or
// local, absolute or relative) with every mix and offset, and on the examples that use them (owl, tank). The
// examples' constraints are all world/absolute, so the other modes are reached by changing the data the way the
// official runtime's data is changed: expected world transforms were printed with
//   node tests/oracle/setup_pose_dump.mjs spineboy/spineboy-pro.skel spineboy/spineboy.atlas [OPERATION...]
// (each test's comment gives the operations; `M` stands for transform:shoulder.mixRotate=0.7
// transform:shoulder.mixX=0.5 transform:shoulder.mixY=0.3 transform:shoulder.mixScaleX=0.6
// transform:shoulder.mixScaleY=0.4 transform:shoulder.mixShearY=0.8).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pose_test_support.hpp"

namespace spinegpu {
namespace {

using test::expect_bones;

const std::vector<std::string> k_mixes = {
    "transform:shoulder.mixRotate=0.7",  "transform:shoulder.mixX=0.5",      "transform:shoulder.mixY=0.3",
    "transform:shoulder.mixScaleX=0.6", "transform:shoulder.mixScaleY=0.4", "transform:shoulder.mixShearY=0.8"};

// The shoulder constraint's six mixes all set to `value`, followed by `after`.
std::vector<std::string> mixes_at(const std::string& value, const std::vector<std::string>& after) {
    std::vector<std::string> ops;
    for (const char* mix : {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"})
        ops.push_back(std::string("transform:shoulder.") + mix + "=" + value);
    ops.insert(ops.end(), after.begin(), after.end());
    return ops;
}

// Moves of the shoulder constraint's bone and target, so that a constraint that runs changes the bone.
const std::vector<std::string> k_target_moves = {"bone:back-shoulder.x=10", "bone:front-shoulder.rotation=30",
                                                 "bone:front-shoulder.scaleX=1.5", "bone:front-shoulder.scaleY=0.5",
                                                 "bone:front-shoulder.shearY=20"};

std::vector<std::string> with_mixes(std::vector<std::string> before, std::vector<std::string> after) {
    before.insert(before.end(), k_mixes.begin(), k_mixes.end());
    before.insert(before.end(), after.begin(), after.end());
    return before;
}

std::unique_ptr<test::LoadedSkeleton> spineboy() {
    return test::load_skeleton_and_atlas("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
}

// M data.transform:shoulder.offsetScaleX=0.2 data.transform:shoulder.offsetShearY=10
//   transform:aim-head-transform.mixRotate=0.5
TEST(TransformConstraint, world_absolute_mixes_and_offsets_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, with_mixes({}, {"data.transform:shoulder.offsetScaleX=0.2",
                                      "data.transform:shoulder.offsetShearY=10",
                                      "transform:aim-head-transform.mixRotate=0.5"}));
    expect_bones(pose, {
        {"back-shoulder", 1.11999043, -0.133766357, -0.00462694109, 0.981191843, -5.31064803, 346.443639},
        {"head", -0.415855011, -0.909430898, 0.909430931, -0.415855064, -23.4542725, 402.304966},
    });
}

// data.transform:shoulder.relative=1 M data.transform:shoulder.offsetShearY=-15 skeleton.scaleX=-1
TEST(TransformConstraint, world_relative_matches_the_official_runtime_on_a_flipped_skeleton) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(loaded->data, with_mixes({"data.transform:shoulder.relative=1"},
                                                             {"data.transform:shoulder.offsetShearY=-15",
                                                              "skeleton.scaleX=-1"}));
    expect_bones(pose, {{"back-shoulder", 0.582088967, 0.653515403, 0.813125072, 0.14371323, 7.96597207, 450.37673}});
}

// data.transform:shoulder.local=1 M data.transform:shoulder.offsetRotation=20 data.transform:shoulder.offsetScaleY=0.3
TEST(TransformConstraint, local_absolute_matches_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(loaded->data, with_mixes({"data.transform:shoulder.local=1"},
                                                             {"data.transform:shoulder.offsetRotation=20",
                                                              "data.transform:shoulder.offsetScaleY=0.3"}));
    expect_bones(pose, {{"back-shoulder", -0.0738772308, 1.11693941, -0.997267361, -0.0827424583, -22.2365205,
                         368.823371}});
}

// data.transform:shoulder.relative=1 data.transform:shoulder.local=1 M data.transform:shoulder.offsetX=5
//   bone:front-shoulder.scaleX=1.3
TEST(TransformConstraint, local_relative_matches_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, with_mixes({"data.transform:shoulder.relative=1", "data.transform:shoulder.local=1"},
                                 {"data.transform:shoulder.offsetX=5", "bone:front-shoulder.scaleX=1.3"}));
    expect_bones(pose, {{"back-shoulder", -1.17977735, -0.0194242391, 0.0229206123, -0.999811348, -13.2999447,
                         356.687597}});
}

// A local constraint reads its bones' applied poses, so the update cache poses their parents first (the official
// sortTransformConstraint): the constraint's step comes after both the parent's and the bone's.
TEST(TransformConstraint, local_constraints_are_cached_after_their_bones_parents) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(loaded->data, {"data.transform:shoulder.local=1"});
    const Index shoulder = loaded->data.transform_names.find("shoulder");
    const Index bone = test::bone_index(loaded->data, "back-shoulder");
    const Index parent = loaded->data.bones[static_cast<std::size_t>(bone)].parent;
    auto position = [&](UpdateStep::Kind kind, Index index) {
        for (std::size_t i = 0; i < pose.update_cache.size(); ++i)
            if (pose.update_cache[i].kind == kind && pose.update_cache[i].index == index) return i;
        return pose.update_cache.size();
    };
    const std::size_t step = position(UpdateStep::Kind::transform, shoulder);
    ASSERT_LT(step, pose.update_cache.size());
    EXPECT_LT(position(UpdateStep::Kind::bone, parent), step);
    EXPECT_LT(position(UpdateStep::Kind::bone, bone), step);
}

// With every mix 0 the constraint does nothing, wherever its target is (official source: update returns at once).
// transform:shoulder.mix*=0 bone:back-shoulder.x=10 [bone:front-shoulder.rotation=30]: the same numbers both ways.
TEST(TransformConstraint, zero_mixes_leave_the_bones_alone) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    const std::vector<std::string> zero = mixes_at("0", {"bone:back-shoulder.x=10"});
    std::vector<std::string> moved_target = zero;
    moved_target.push_back("bone:front-shoulder.rotation=30");
    for (const std::vector<std::string>& ops : {zero, moved_target}) {
        SkeletonPose pose = test::posed(loaded->data, ops);
        expect_bones(pose, {{"back-shoulder", 0.99999145, 0.00413127642, -0.00413128456, 0.999991482, -5.95365279,
                             349.047297}});
    }
}

// The zero-mix shortcut tests all six mixes at once (as bits); each mix alone, the others 0, must still run the
// constraint: back-shoulder leaves its zero-mix world transform for every one of them.
TEST(TransformConstraint, each_mix_alone_runs_the_constraint) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    const std::vector<std::string> zero = mixes_at("0", k_target_moves);
    const BoneWorld still = test::world_of(test::posed(loaded->data, zero), "back-shoulder");
    for (std::size_t m = 0; m < 6; ++m) {
        std::vector<std::string> ops = zero;
        ops.push_back(k_mixes[m]);
        const BoneWorld moved = test::world_of(test::posed(loaded->data, ops), "back-shoulder");
        EXPECT_TRUE(moved.a != still.a || moved.b != still.b || moved.c != still.c || moved.d != still.d ||
                    moved.x != still.x || moved.y != still.y)
            << k_mixes[m];
    }
}

// The test that skips the solver compares the mixes with zero as the official `mix == 0` tests do: negative zero
// is zero, and NaN is not (a NaN mix runs the constraint, which then writes NaN).
TEST(TransformConstraint, negative_zero_mixes_skip_the_constraint_and_a_nan_mix_runs_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    const std::vector<std::string> zero = mixes_at("0", k_target_moves);
    const std::vector<std::string> negative_zero = mixes_at("-0", k_target_moves);
    const BoneWorld still = test::world_of(test::posed(loaded->data, zero), "back-shoulder");
    const BoneWorld skipped = test::world_of(test::posed(loaded->data, negative_zero), "back-shoulder");
    EXPECT_TRUE(skipped.a == still.a && skipped.b == still.b && skipped.c == still.c && skipped.d == still.d &&
                skipped.x == still.x && skipped.y == still.y);
    std::vector<std::string> nan_mix = zero;
    nan_mix.push_back("transform:shoulder.mixX=nan");
    const BoneWorld ran = test::world_of(test::posed(loaded->data, nan_mix), "back-shoulder");
    EXPECT_TRUE(std::isnan(ran.x)) << ran.x;
}

// owl/owl-pro.skel bone:control.x=30 bone:control.y=-25 transform:control-back.mixRotate=1
//   transform:control-back.mixScaleY=0.5;  tank/tank-pro.skel bone:wheel-big1.rotation=77 bone:wheel-mid1.rotation=-33
TEST(TransformConstraint, owl_and_tank_constraints_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto owl = test::load_skeleton_and_atlas("owl/owl-pro.skel", "owl/owl.atlas");
    ASSERT_TRUE(owl);
    SkeletonPose owl_pose = test::posed(owl->data, {"bone:control.x=30", "bone:control.y=-25",
                                                    "transform:control-back.mixRotate=1",
                                                    "transform:control-back.mixScaleY=0.5"});
    expect_bones(owl_pose, {
        {"control", 1.00000001, -2.757619e-09, -1.03076351e-07, 0.999999992, 29.9999848, 290.820158},
        {"control-back", 1.00000001, -2.757619e-09, -1.03076351e-07, 0.999999992, -26.5227328, 492.440119},
    });

    auto tank = test::load_skeleton_and_atlas("tank/tank-pro.skel", "tank/tank.atlas");
    ASSERT_TRUE(tank);
    SkeletonPose tank_pose = test::posed(tank->data, {"bone:wheel-big1.rotation=77", "bone:wheel-mid1.rotation=-33"});
    expect_bones(tank_pose, {
        {"wheel-big2", -0.79441468, -0.607375669, 0.607375762, -0.794414751, 547.33691, 209.53447},
        {"wheel-mid4", 0.499999963, -0.866025483, 0.866025425, 0.499999862, 80.8931674, 80.5719452},
    });
}

}  // namespace
}  // namespace spinegpu
