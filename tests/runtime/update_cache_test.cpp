// The update cache (Spine's Skeleton.updateCache) against the official runtime's Skeleton._updateCache, on examples
// and on a small rig made for it (tests/runtime/update_cache_rig.json): a transform constraint sorts a bone that a
// later two-bone IK moves, so the IK must send it (and its children) to be posed again after itself; a local
// relative transform constraint; a skin-required bone. Expected lists and numbers were printed with
//   node tests/oracle/setup_pose_dump.mjs SKELETON ATLAS [OPERATION...]
// (the rig has no attachments; any atlas will do, e.g. spineboy/spineboy.atlas).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pose_test_support.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {
namespace {

using test::expect_bones;

std::vector<std::string> names(const SkeletonPose& pose) {
    const SkeletonData& d = *pose.data;
    std::vector<std::string> out;
    for (const UpdateStep& s : pose.update_cache) {
        switch (s.kind) {
        case UpdateStep::Kind::bone: out.push_back("bone " + d.bone_names[s.index]); break;
        case UpdateStep::Kind::ik: out.push_back("ik " + d.ik_names[s.index]); break;
        case UpdateStep::Kind::transform: out.push_back("transform " + d.transform_names[s.index]); break;
        case UpdateStep::Kind::path: out.push_back("path " + d.path_names[s.index]); break;
        case UpdateStep::Kind::physics: out.push_back("physics " + d.physics_names[s.index]); break;
        }
    }
    return out;
}

SkeletonData load_rig() {
    auto data = load_skeleton_file(std::string(SPINEGPU_SOURCE_DIR) + "/tests/runtime/update_cache_rig.json");
    EXPECT_TRUE(data) << (data ? "" : data.error().message());
    return data ? std::move(data.value()) : SkeletonData{};
}

// update_cache_rig.json (no operations; then skin=extra bone:t.x=20 bone:u.rotation=-70 skeleton.scaleX=-1).
TEST(UpdateCache, constrained_bones_children_are_posed_again_after_the_constraint) {
    SkeletonData data = load_rig();
    ASSERT_EQ(data.bones.size(), 10u);
    SkeletonPose pose = create_pose(data);
    const std::vector<std::string> expected = {
        "bone root", "bone u", "bone v", "bone a", "bone b", "bone c", "transform T", "bone t", "ik I", "bone c",
        "bone d", "ik J", "bone e", "transform L"};
    EXPECT_EQ(names(pose), expected);
    update_world_transform(pose, Physics::none);
    expect_bones(pose, {
        {"c", 0.3746315, -0.927173831, 0.927173756, 0.374631489, 38.3459822, 21.8215975},
        {"d", -0.734225668, -0.678905531, 0.67890551, -0.734225618, 45.8386123, 40.3650726},
        {"e", -1.15769977, -0.263168847, 0.315802649, -0.964749763, 25.748047, 11.2726484},
        {"s", 0, 0, 0, 0, 0, 0},  // skin-required, no skin: never posed
    });

    SkeletonPose skinned =
        test::posed(data, {"skin=extra", "bone:t.x=20", "bone:u.rotation=-70", "skeleton.scaleX=-1"});
    std::vector<std::string> with_skin = expected;
    with_skin.push_back("bone s");
    EXPECT_EQ(names(skinned), with_skin);
    expect_bones(skinned, {
        {"c", -0.333333629, 0.942809006, 0.942808897, 0.333333549, -30.7520286, 14.6349416},
        {"e", 0.260846192, 0.976088923, 1.17130658, -0.217371866, -15.018055, 6.13767226},
        {"s", 0.713602262, 0.700551052, 0.700551109, -0.713602256, -37.9053108, 15.4154554},
    });
}

// The update cache in order: owl/owl-pro.skel (no skin) and hero/hero-pro.skel skin=weapon/morningstar (IK, a path
// constraint whose path attachment is weighted to skin bones), as the official Skeleton._updateCache lists them.
TEST(UpdateCache, order_of_the_examples_matches_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto owl = test::load_skeleton_and_atlas("owl/owl-pro.skel", "owl/owl.atlas");
    ASSERT_TRUE(owl);
    const std::vector<std::string> owl_expected = {
        "bone root", "bone branch-1", "bone branch-2", "bone owl-base", "bone body-top-control", "bone head",
        "bone control", "bone control-back", "transform control-back", "bone branch-3", "bone branch-4",
        "bone branch-5", "bone branch-6", "bone leaf-1", "bone leaf-2", "bone leaf-3", "bone leaf-4", "bone leaf-5",
        "bone leaf-6", "bone leaf-7", "bone tail-feathers"};
    EXPECT_EQ(names(create_pose(owl->data)), owl_expected);

    auto hero = test::load_skeleton_and_atlas("hero/hero-pro.skel", "hero/hero.atlas");
    ASSERT_TRUE(hero);
    const std::vector<std::string> hero_expected = {
        "bone root", "bone left-ground", "bone left-ankle", "bone hip", "bone thigh1", "bone shin1", "ik left-leg",
        "bone look-target", "bone look-constraint-goal", "bone body", "bone head", "ik look-constraint",
        "bone right-ground", "bone right-ankle", "bone thigh2", "bone shin2", "ik right-leg", "bone upper-arm2",
        "bone forearm2", "bone hand2", "bone weapon-morningstar", "bone weapon-morningstar-physics1",
        "bone weapon-morningstar-physics2", "bone weapon-morningstar-physics3", "bone weapon-morningstar-physics4",
        "bone chain1", "bone chain2", "bone chain3", "bone chain4", "bone chain5", "bone chain6", "bone chain7",
        "bone chain8", "path weapon-morningstar", "bone bone2", "bone mantles", "bone cape-root", "bone cape1",
        "bone cape2", "bone cape3", "bone cape4", "bone foot1", "bone foot2", "bone upper-arm1", "bone forearm1",
        "bone hair01", "bone hand1"};
    SkeletonPose pose = create_pose(hero->data);
    set_skin(pose, test::skin_index(hero->data, "weapon/morningstar"));
    EXPECT_EQ(names(pose), hero_expected);
}

}  // namespace
}  // namespace spinegpu
