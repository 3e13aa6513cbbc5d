// IK constraints against the official Spine 4.2 runtime (spine-core 4.2.119): one-bone aiming with mix, compress,
// stretch and uniform scale, two-bone solving with softness, bend direction and stretch, non-uniformly scaled parents
// (reachable and unreachable targets), and the inherit-mode special cases. Expected world transforms were printed
// by the official runtime with
//   node tests/oracle/setup_pose_dump.mjs SKELETON ATLAS [OPERATION...]
// (each test's comment gives the skeleton and operations; paths relative to the examples folder), or by calling its
// IkConstraint.apply1/apply2 directly where the test says so.
#include <gtest/gtest.h>

#include "../../src/runtime/constraints.hpp"
#include "pose_test_support.hpp"

namespace spinegpu {
namespace {

using test::expect_bones;

std::unique_ptr<test::LoadedSkeleton> spineboy() {
    return test::load_skeleton_and_atlas("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
}

// spineboy/spineboy-pro.skel bone:crosshair.x=-120 bone:crosshair.y=310 ik:aim-ik.mix=0.8
TEST(IkConstraint, one_bone_aims_at_the_target_with_mix_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose =
        test::posed(loaded->data, {"bone:crosshair.x=-120", "bone:crosshair.y=310", "ik:aim-ik.mix=0.8"});
    expect_bones(pose, {
        {"aim-constraint-target", -0.904713564, -0.426020363, 0.426020426, -0.904713554, 0.804744758, 252.892543},
        {"rear-upper-arm", -0.798925076, 0.601430555, -0.601430531, -0.798925107, -5.31065582, 346.443627},
    });
}

// spineboy/spineboy-pro.skel bone:front-leg-target.x=80 bone:front-leg-target.y=-90 bone:rear-leg-target.x=10
//   bone:rear-leg-target.y=60 ik:front-leg-ik.softness=40 ik:rear-leg-ik.bendDirection=1 ik:rear-leg-ik.mix=0.6
TEST(IkConstraint, two_bones_bend_with_softness_direction_and_mix_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:front-leg-target.x=80", "bone:front-leg-target.y=-90", "bone:rear-leg-target.x=10",
                       "bone:rear-leg-target.y=60", "ik:front-leg-ik.softness=40", "ik:rear-leg-ik.bendDirection=1",
                       "ik:rear-leg-ik.mix=0.6"});
    expect_bones(pose, {
        {"rear-thigh", 0.0471373063, 0.998888418, -0.998888422, 0.0471372831, 8.71195183, 241.650593},
        {"rear-shin", 0.3734753, 0.927640114, -0.927640134, 0.373475301, 11.4466148, 155.583821},
        {"front-thigh", 0.230672585, 0.973031422, -0.973031438, 0.230672563, -17.6553387, 235.61101},
        {"front-shin", 0.250426397, 0.96813563, -0.968135652, 0.250426397, 2.05482745, 159.412515},
    });
}

// spineboy/spineboy-pro.skel bone:front-leg-target.x=300 bone:front-leg-target.y=-200 ik:front-leg-ik.stretch=1
//   data.ik:front-leg-ik.uniform=1 ik:front-foot-ik.stretch=1 ik:front-foot-ik.compress=1
//   bone:front-foot-target.x=200
TEST(IkConstraint, stretch_and_uniform_scale_bones_to_reach_a_far_target_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:front-leg-target.x=300", "bone:front-leg-target.y=-200", "ik:front-leg-ik.stretch=1",
                       "data.ik:front-leg-ik.uniform=1", "ik:front-foot-ik.stretch=1", "ik:front-foot-ik.compress=1",
                       "bone:front-foot-target.x=200"});
    expect_bones(pose, {
        {"front-thigh", 2.49603574, 2.09755596, -2.09755613, 2.49603569, -17.6553387, 235.61101},
        {"front-shin", 2.49603574, 2.0975559, -2.09755613, 2.49603574, 178.758024, 70.5540575},
        {"front-foot", -7.30148036, -1.81449914, 4.89094611, -2.70878721, 499.425109, -200.365241},
    });
}

// stretchyman/stretchyman-pro.skel bone:back-leg-ik-target.x=-200 bone:back-leg-ik-target.y=-150
//   bone:front-arm-ik-target.x=260 bone:front-arm-ik-target.y=400 ik:front-arm-ik.stretch=1 ik:back-leg-ik.stretch=1
TEST(IkConstraint, stretchyman_limbs_stretch_to_far_targets_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = test::load_skeleton_and_atlas("stretchyman/stretchyman-pro.skel", "stretchyman/stretchyman.atlas");
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:back-leg-ik-target.x=-200", "bone:back-leg-ik-target.y=-150",
                       "bone:front-arm-ik-target.x=260", "bone:front-arm-ik-target.y=400", "ik:front-arm-ik.stretch=1",
                       "ik:back-leg-ik.stretch=1"});
    expect_bones(pose, {
        {"back-leg-ik1", -0.823993402, 0.8791502, -1.52013817, -0.476544819, 38.2433824, 289.521545},
        {"back-leg-ik2", -0.823993402, 0.879150219, -1.52013817, -0.476544784, -77.2577829, 76.44007},
        {"front-arm-ik1", 1.99348072, 0.119577169, -0.240097504, 0.992824932, -11.6588867, 432.718987},
        {"front-arm-ik2", 1.99348072, 0.119577122, -0.240097504, 0.992824938, 126.999414, 416.018794},
    });
}

// A parent scaled non-uniformly takes the ellipse solution; an unreachable target takes the nearest/farthest
// point; a negative parent scale flips the solution.
//   spineboy/spineboy-pro.skel bone:front-thigh.scaleX=1.3 bone:front-thigh.scaleY=0.8 bone:front-leg-target.x=60
//     bone:front-leg-target.y=-60 ik:front-leg-ik.mix=0.9
//   spineboy/spineboy-pro.skel bone:front-thigh.scaleX=1.3 bone:front-thigh.scaleY=0.8 bone:front-leg-target.x=500
//     bone:front-leg-target.y=-400 bone:rear-thigh.scaleX=-1 bone:rear-leg-target.x=-20
TEST(IkConstraint, non_uniformly_scaled_parents_solve_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    {
        SkeletonPose pose = test::posed(
            loaded->data, {"bone:front-thigh.scaleX=1.3", "bone:front-thigh.scaleY=0.8", "bone:front-leg-target.x=60",
                           "bone:front-leg-target.y=-60", "ik:front-leg-ik.mix=0.9"});
        expect_bones(pose, {
            {"front-thigh", 0.236463117, 0.786654408, -1.27831343, 0.145515746, -17.6553387, 235.61101},
            {"front-shin", 0.233422204, 0.78756208, -1.27886607, 0.140576073, 0.951973457, 135.020368},
        });
    }
    {
        SkeletonPose pose = test::posed(
            loaded->data, {"bone:front-thigh.scaleX=1.3", "bone:front-thigh.scaleY=0.8", "bone:front-leg-target.x=500",
                           "bone:front-leg-target.y=-400", "bone:rear-thigh.scaleX=-1", "bone:rear-leg-target.x=-20"});
        expect_bones(pose, {
            {"rear-thigh", 0.28268073, -0.959214049, -0.959214069, -0.282680707, 8.71195183, 241.650593},
            {"rear-shin", 0.0619867255, -0.998076969, -0.998076982, -0.0619866762, 34.3220421, 159.436902},
            {"front-thigh", 0.808508568, 0.626458473, -1.01799507, 0.497543719, -17.6553387, 235.61101},
            {"front-shin", 0.808508568, 0.626458454, -1.01799507, 0.497543743, 45.9663011, 155.504851},
        });
    }
}

// A target too close for a non-uniformly scaled parent takes the ellipse's nearest point; a one-bone IK on a bone
// with negative scale X aims its flipped axis:
//   spineboy/spineboy-pro.skel bone:front-thigh.scaleX=0.5 bone:front-leg-target.x=-17 bone:front-leg-target.y=220
//   bone:rear-upper-arm.scaleX=-1 ik:aim-ik.mix=1 bone:crosshair.x=80 bone:crosshair.y=500
TEST(IkConstraint, unreachable_near_targets_and_flipped_bones_solve_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:front-thigh.scaleX=0.5", "bone:front-leg-target.x=-17", "bone:front-leg-target.y=220",
                       "bone:rear-upper-arm.scaleX=-1", "ik:aim-ik.mix=1", "bone:crosshair.x=80",
                       "bone:crosshair.y=500"});
    expect_bones(pose, {
        {"front-thigh", 0.320971361, -0.766752609, 0.383376282, 0.641942741, -17.6553387, 235.61101},
        {"front-shin", -0.320971397, 0.766752602, -0.383376252, -0.641942749, 7.60193769, 265.778938},
        {"rear-upper-arm", 0.483673578, 0.875248454, 0.875248457, -0.483673601, -5.31065582, 346.443627},
    });
}

// One-bone IK on bones that inherit only part of their parent (no rotation or reflection, only translation,
// no scale with stretch, no scale or reflection with compress) on a flipped skeleton:
//   spineboy/spineboy-pro.skel bone:rear-upper-arm.inherit=2 ik:aim-ik.mix=1 bone:crosshair.x=200
//   bone:crosshair.y=100 bone:aim-constraint-target.inherit=1 bone:front-foot.inherit=3 ik:front-foot-ik.stretch=1
//   bone:front-foot-target.x=150 bone:rear-foot.inherit=4 ik:rear-foot-ik.compress=1 bone:rear-foot-target.x=40
//   bone:rear-foot-target.y=30 skeleton.scaleX=-1.2
TEST(IkConstraint, one_bone_inherit_mode_special_cases_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:rear-upper-arm.inherit=2", "ik:aim-ik.mix=1", "bone:crosshair.x=200",
                       "bone:crosshair.y=100", "bone:aim-constraint-target.inherit=1", "bone:front-foot.inherit=3",
                       "ik:front-foot-ik.stretch=1", "bone:front-foot-target.x=150", "bone:rear-foot.inherit=4",
                       "ik:rear-foot-ik.compress=1", "bone:rear-foot-target.x=40", "bone:rear-foot-target.y=30",
                       "skeleton.scaleX=-1.2"});
    expect_bones(pose, {
        {"aim-constraint-target", -1.01109438, -0.646287956, -0.538573316, 0.842578663, -0.96569371, 252.892543},
        {"rear-foot", -0.805092575, -0.889846005, -0.741538353, 0.670910496, -6.67700511, 68.0666215},
        {"front-foot", -1.64834306, -0.927610616, -1.67375129, 0.634395242, -117.695047, 63.4303846},
        {"rear-upper-arm", -0.68427917, -0.985779863, -0.821483259, 0.57023268, 6.37278698, 346.443627},
    });
}

// Mix 0 leaves the bones as forward kinematics put them, wherever the target is (spineboy/spineboy-pro.skel
// bone:front-leg-target.x=300 or setup, then ik:front-leg-ik.mix=0: the official runtime prints the same).
TEST(IkConstraint, zero_mix_leaves_the_bones_where_forward_kinematics_put_them) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    for (const char* target_op : {"bone:front-leg-target.x=300", "setup"}) {
        SkeletonPose pose = test::posed(loaded->data, {target_op, "ik:front-leg-ik.mix=0"});
        expect_bones(pose, {
            {"front-thigh", -0.0952234133, 0.995455929, -0.995455922, -0.0952234364, -17.6553387, 235.61101},
            {"front-shin", -0.133601182, 0.991035183, -0.991035173, -0.133601182, -23.5540518, 157.12594},
        });
    }
}

// The solvers called directly, after the setup pose's world transforms, in this order, as the official
// IkConstraint.apply1 / apply2 were called on spineboy/spineboy-pro.skel:
//   apply1(rear-upper-arm, 100, 300, compress false, stretch false, uniform false, alpha 0.5)
//   apply1(front-foot, 150, -30, true, true, true, 1)
//   apply2(front-thigh, front-shin, 50, -20, bend -1, stretch false, uniform false, softness 10, alpha 0.7)
//   apply2(rear-thigh, rear-shin, 200, 50, bend 1, stretch true, uniform true, softness 0, alpha 1)
TEST(IkConstraint, solvers_called_directly_match_the_official_apply1_and_apply2) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = spineboy();
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    SkeletonPose pose = create_pose(data);
    update_world_transform(pose, Physics::none);
    auto bone = [&](const char* name) { return test::bone_index(data, name); };
    detail::solve_ik_one(pose, bone("rear-upper-arm"), 100, 300, false, false, false, 0.5f);
    detail::solve_ik_one(pose, bone("front-foot"), 150, -30, true, true, true, 1);
    detail::solve_ik_two(pose, bone("front-thigh"), bone("front-shin"), 50, -20, -1, false, false, 10, 0.7f);
    detail::solve_ik_two(pose, bone("rear-thigh"), bone("rear-shin"), 200, 50, 1, true, true, 0, 1);
    expect_bones(pose, {
        {"rear-upper-arm", 0.710299887, 0.703899151, -0.703899213, 0.710299904, -5.31065582, 346.443627},
        {"front-foot", 4.68756966, 1.45357524, -1.45357534, 4.68756963, -42.2317877, 29.6094365},
        {"front-thigh", 0.125309538, 0.992117692, -0.992117700, 0.125309515, -17.6553387, 235.611010},
        {"front-shin", 0.145473582, 0.989362130, -0.989362143, 0.145473582, -6.20563326, 157.741854},
        {"rear-thigh", 0.919754511, 0.921497642, -0.921497706, 0.919754490, 8.71195183, 241.650593},
        {"rear-shin", 0.919754511, 0.921497621, -0.921497706, 0.919754511, 87.9028208, 162.309635},
    });
}

}  // namespace
}  // namespace spinegpu
