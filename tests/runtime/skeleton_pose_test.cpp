// The skeleton side of the runtime against the official Spine 4.2 runtime: setup-pose world transforms, inherit
// modes, skeleton position/scale/flip, skins (switching, skin-required bones, combined skins), the update cache and
// world vertices. Expected numbers were printed by the official runtime (spine-core 4.2.119) with
//   node tests/oracle/setup_pose_dump.mjs SKELETON ATLAS [OPERATION...]
// (the command of each table is in its comment; paths relative to the examples folder), or follow from first
// principles where the test says so. tests/cli/oracle_setup_pose.sh compares whole poses of every example.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pose_test_support.hpp"

namespace spinegpu {
namespace {

using test::BoneGolden;
using test::expect_bones;

std::unique_ptr<test::LoadedSkeleton> load(const std::string& skeleton, const std::string& atlas) {
    return test::load_skeleton_and_atlas(skeleton, atlas);
}

// Setup pose, no skin, Physics.none:  setup_pose_dump.mjs spineboy/spineboy-pro.{json,skel} spineboy/spineboy.atlas
// (and likewise for the other five skeletons).
TEST(SkeletonPose, setup_pose_world_transforms_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    struct Case {
        const char* skeleton;
        const char* atlas;
        std::initializer_list<BoneGolden> bones;
    };
    const Case cases[] = {
        {"spineboy/spineboy-pro.json", "spineboy/spineboy.atlas",
         {{"rear-shin", -0.0535035585, 0.998567653, -0.998567664, -0.0535035639, 34.4880498, 159.489846},
          {"front-fist", 0.544346367, 0.838860514, -0.838860551, 0.544346441, -29.0298128, 241.577459},
          {"head", -0.146601066, -0.989195684, 0.989195701, -0.146601125, -23.4598929, 402.301273}}},
        {"spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas",
         {{"rear-shin", -0.053416552, 0.998572311, -0.998572322, -0.0534165573, 34.4781092, 159.48568},
          {"front-fist", 0.544366731, 0.838847299, -0.838847335, 0.544366805, -29.0281869, 241.575834},
          {"head", -0.146652079, -0.989188123, 0.98918814, -0.146652139, -23.4542725, 402.304966}}},
        {"raptor/raptor-pro.json", "raptor/raptor.atlas",
         {{"back-foot1", 0.975965642, -0.217924418, 0.217924358, 0.975965669, -49.038858, 12.4032142},
          {"head2", 0.235650888, -0.971837779, 0.971837774, 0.235650865, -97.3321229, 687.075372},
          {"front-foot3", 0.8410808, 0.0653948989, -0.0765326119, 0.8202044, -8.85273587, -13.0676331}}},
        {"raptor/raptor-pro.skel", "raptor/raptor.atlas",
         {{"back-foot1", 0.97596566, -0.217924339, 0.217924278, 0.975965687, -49.0388629, 12.4032202},
          {"head2", 0.235692454, -0.9718277, 0.971827694, 0.235692431, -97.319168, 687.069435},
          {"front-foot3", 0.841080786, 0.0653949016, -0.0765326131, 0.820204414, -8.85273429, -13.0676334}}},
        {"owl/owl-pro.json", "owl/owl.atlas",
         {{"head", 1.00000001, -1.10930966e-07, 2.82996545e-08, 0.999999993, 0.0345408614, 315.784176},
          {"control-back", 1.00000001, -1.3413607e-07, 2.82996545e-08, 0.999999993, 3.51453812, 340.744176},
          {"leaf-7", 0.529030857, -0.848602611, 0.848602564, 0.529030858, -395.256883, -127.940685}}},
        {"owl/owl-pro.skel", "owl/owl.atlas",
         {{"head", 1.00000001, -1.10929745e-07, 2.83008761e-08, 0.999999992, -1.82220636e-05, 315.820157},
          {"control-back", 1.00000001, -2.757619e-09, -1.03076351e-07, 0.999999992, 3.47727339, 340.780179},
          {"leaf-7", 0.528893311, -0.848688344, 0.848688296, 0.528893312, -395.268674, -127.928624}}},
        {"stretchyman/stretchyman-pro.json", "stretchyman/stretchyman.atlas",
         {{"back-leg8", -0.21022193, 0.972009274, -0.869734697, -0.234942519, 53.0446626, 44.5919402},
          {"front-foot1", 0.981693728, 0.188752655, -0.190466334, 0.982024661, -37.6958198, 2.50102359},
          {"head", 0.331831781, -0.943338584, 0.943338576, 0.331831759, 0.339396386, 472.523073}}},
        {"stretchyman/stretchyman-pro.skel", "stretchyman/stretchyman.atlas",
         {{"back-leg8", -0.210314906, 0.971986064, -0.869743179, -0.235038524, 53.0467456, 44.5902249},
          {"front-foot1", 0.981706573, 0.188686414, -0.190400116, 0.982037391, -37.6928151, 2.50433716},
          {"head", 0.331882522, -0.943320733, 0.943320726, 0.3318825, 0.361892853, 472.523596}}},
        {"tank/tank-pro.json", "tank/tank.atlas",
         {{"antenna6", -1.62435723e-07, -1, 1, -1.62435723e-07, 142.889908, 903.15},
          {"cannon", -0.999999991, -0.000133507548, 0.000133669984, -0.999999991, -256.77004, 546.69},
          {"machinegun-tip", -1, 2.0884593e-07, -6.961531e-08, -1, -354.850069, 772.679985}}},
        {"tank/tank-pro.skel", "tank/tank.atlas",
         {{"antenna6", -1.62435723e-07, -1, 1, -1.62435723e-07, 142.884237, 903.139637},
          {"cannon", -0.999999991, -0.000135579331, 0.000135741767, -0.999999991, -256.767366, 546.684265},
          {"machinegun-tip", -1, 2.0884593e-07, -6.961531e-08, -1, -354.847924, 772.671677}}},
        {"hero/hero-pro.json", "hero/hero.atlas",
         {{"cape4", -0.00436326152, 0.999990487, -0.999990475, -0.00436319475, -20.7523506, 59.708065},
          {"shin1", -0.287399587, 0.957810784, -0.957810763, -0.287399586, -22.9138372, 60.3685759},
          {"hand2", 0.268583622, 0.963256354, -0.963256377, 0.268583669, 44.5538967, 109.224253}}},
        {"hero/hero-pro.skel", "hero/hero.atlas",
         {{"cape4", -0.00436320742, 0.999990487, -0.999990476, -0.00436314065, -20.752344, 59.7080663},
          {"shin1", -0.287400241, 0.957810587, -0.957810567, -0.28740024, -22.9138197, 60.3685715},
          {"hand2", 0.268583503, 0.963256387, -0.96325641, 0.268583549, 44.5538894, 109.224253}}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.skeleton);
        auto loaded = load(c.skeleton, c.atlas);
        ASSERT_TRUE(loaded);
        SkeletonPose pose = create_pose(loaded->data);
        update_world_transform(pose, Physics::none);
        expect_bones(pose, c.bones);
    }
}

// Every inherit mode under a scaled, sheared and flipped parent:
//   spineboy/spineboy-pro.skel bone:torso.scaleX=1.6 bone:torso.scaleY=0.7 bone:torso.shearY=12 bone:neck.inherit=3
//   bone:head.inherit=4 bone:front-upper-arm.inherit=2 bone:rear-upper-arm.inherit=1 skeleton.scaleX=-1
// and under a rotated, reflected parent:
//   spineboy/spineboy-pro.skel bone:hip.rotation=150 bone:hip.scaleX=-1.2 bone:torso.inherit=4
//   bone:front-thigh.inherit=3 bone:rear-thigh.inherit=2 bone:neck.inherit=1 skeleton.scaleY=-1
TEST(SkeletonPose, inherit_modes_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    {
        SkeletonPose pose = test::posed(loaded->data, {"bone:torso.scaleX=1.6", "bone:torso.scaleY=0.7",
                                                       "bone:torso.shearY=12", "bone:neck.inherit=3",
                                                       "bone:head.inherit=4", "bone:front-upper-arm.inherit=2",
                                                       "bone:rear-upper-arm.inherit=1", "skeleton.scaleX=-1"});
        expect_bones(pose, {
            {"torso", 0.383613623, 0.629838249, 1.55333211, -0.305456645, 1.82765837, 252.172622},
            {"front-upper-arm", 0.0651220022, -0.723945672, -1.52792045, 0.162864976, 53.8055813, 407.441552},
            {"rear-upper-arm", -0.415543771, -0.909573173, -0.909573182, 0.415543792, 25.1508083, 401.503987},
            {"neck", -0.00168012504, 0.999998589, 0.999998589, 0.00168010184, 50.5429851, 450.312405},
            {"head", 0.438407027, 0.898776535, 0.898776545, -0.438407048, 50.2366047, 477.975198},
        });
    }
    {
        SkeletonPose pose = test::posed(loaded->data, {"bone:hip.rotation=150", "bone:hip.scaleX=-1.2",
                                                       "bone:torso.inherit=4", "bone:front-thigh.inherit=3",
                                                       "bone:rear-thigh.inherit=2", "bone:neck.inherit=1",
                                                       "skeleton.scaleY=-1"});
        expect_bones(pose, {
            {"hip", 1.03973014, -0.499278091, 0.599133758, 0.866441785, -0.206056529, -247.269857},
            {"rear-thigh", 0.427603329, 1.07120156, 1.0274486, -0.232447809, 11.8706784, -246.804788},
            {"torso", -0.72421723, 0.689571916, 0.689571899, 0.724217214, -4.33635278, -243.989836},
            {"front-thigh", 0.396296833, 0.918122434, -0.918122443, 0.396296854, -12.5449517, -267.819239},
            {"neck", 0.852294534, 0.523062143, 0.523062163, -0.852294547, -96.8848149, -156.294801},
        });
    }
}

// spineboy/spineboy-pro.skel skeleton.scaleX=-1.5 skeleton.scaleY=-0.75 skeleton.x=120 skeleton.y=-40
//   bone:root.rotation=30
TEST(SkeletonPose, skeleton_position_scale_and_flip_apply_to_the_root_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(loaded->data, {"skeleton.scaleX=-1.5", "skeleton.scaleY=-0.75", "skeleton.x=120",
                                                   "skeleton.y=-40", "bone:root.rotation=30"});
    expect_bones(pose, {
        {"root", -1.2990381, 0.75000004, -0.375000005, -0.649519041, 120, -40},
        {"hip", -1.2990381, 0.75000007, -0.375000005, -0.649519033, 305.452467, -200.606536},
        {"front-fist", -1.33572034, -0.682532789, 0.341266446, -0.667860205, 338.647161, -186.113686},
    });
}

// World vertices, spineboy/spineboy-pro.skel bone:torso.rotation=40 skeleton.scaleX=-1: a weighted mesh (head, 63
// vertices), a region rotated 90 degrees in the atlas (front-thigh) and an unweighted mesh (front-shin).
TEST(SkeletonPose, world_vertices_of_meshes_and_rotated_regions_match_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(loaded->data, {"bone:torso.rotation=40", "skeleton.scaleX=-1"});
    struct Case {
        const char* slot;
        std::uint32_t count;
        std::vector<double> first;
    };
    const Case cases[] = {
        {"head", 126, {-363.05784, 475.749502, -369.743324, 427.473783, -350.921376, 393.397626, -379.419797}},
        {"front-thigh", 8, {53.5971287, 143.429482, 28.3838517, 252.554595, -15.4610607, 242.42426, 9.75221597,
                            133.299142}},
        {"front-shin", 104, {4.85084849, 178.681314, -3.29716539, 165.704429, -3.2636953, 149.529538, 4.76668783}},
    };
    std::vector<float> out(256);
    for (const Case& c : cases) {
        SCOPED_TRACE(c.slot);
        const std::uint32_t n =
            compute_world_vertices(pose, loaded->binding, test::slot_index(loaded->data, c.slot), out);
        ASSERT_EQ(n, c.count);
        for (std::size_t i = 0; i < c.first.size(); ++i) EXPECT_NEAR(out[i], c.first[i], 2e-3) << i;
    }
}

// Skeleton.getBoundsRect() in the setup pose (no clipper), Physics.none, binary exports.
TEST(SkeletonPose, bounds_match_the_official_get_bounds) {
    SPINEGPU_REQUIRE_EXAMPLES();
    struct Case {
        const char* skeleton;
        const char* atlas;
        double x, y, w, h;
    };
    const Case cases[] = {
        {"spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", -188.6338047246768, -7.939543517937927,
         418.4499470402693, 686.2022811153763},
        {"raptor/raptor-pro.skel", "raptor/raptor.atlas", -809.1629767931606, -73.53877958987361, 1287.6458253206767,
         1039.4431509504348},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.skeleton);
        auto loaded = load(c.skeleton, c.atlas);
        ASSERT_TRUE(loaded);
        SkeletonPose pose = create_pose(loaded->data);
        update_world_transform(pose, Physics::none);
        float x = 0, y = 0, w = 0, h = 0;
        ASSERT_TRUE(skeleton_bounds(pose, loaded->binding, x, y, w, h));
        EXPECT_NEAR(x, c.x, 1e-2);
        EXPECT_NEAR(y, c.y, 1e-2);
        EXPECT_NEAR(w, c.w, 1e-2);
        EXPECT_NEAR(h, c.h, 1e-2);
    }
}

// The setup pose's height is the height of the official bounds above (spineboy 686.2), in the skin asked for; a
// skeleton that shows nothing in its setup pose gets 1, so that tools can divide by it.
TEST(SkeletonPose, setup_pose_height_is_the_setup_bounds_height_or_one) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    EXPECT_NEAR(setup_pose_height(loaded->data, loaded->binding), 686.2022811153763, 1e-2);
    Result<SkeletonData> empty =
        load_skeleton_json(R"({"skeleton": {"spine": "4.2.43"}, "bones": [{"name": "root"}]})", "empty.json");
    ASSERT_TRUE(empty.ok()) << empty.error().message();
    EXPECT_EQ(setup_pose_height(*empty, AtlasBinding{}), 1.0f);
    // Mix-and-match shows nothing without a skin; in a full skin it is a character's height.
    auto mix_and_match = load("mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas");
    ASSERT_TRUE(mix_and_match);
    const SkeletonData& data = mix_and_match->data;
    EXPECT_EQ(setup_pose_height(data, mix_and_match->binding), 1.0f);
    const float girl = setup_pose_height(data, mix_and_match->binding, data.skin_names.find("full-skins/girl"));
    EXPECT_GT(girl, 300.0f);
    EXPECT_LT(girl, 1000.0f);
}

// goblins/goblins-pro.skel skin=goblin setup [skin=goblingirl]: the slots showing the old skin's attachments get the
// new skin's attachment of the same name (head: the goblin's mesh, then goblingirl's region); attachments of the
// default skin (left-hand-item's spear) stay. Without a previous skin (skin=goblingirl alone), the new skin's setup
// attachments are attached.
TEST(SkeletonPose, skin_switch_swaps_the_attachments_the_old_skin_was_showing) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("goblins/goblins-pro.skel", "goblins/goblins.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    const Index head = test::slot_index(data, "head"), item = test::slot_index(data, "left-hand-item");
    std::vector<float> out(128);

    SkeletonPose pose = create_pose(data);
    EXPECT_EQ(test::attachment_name(pose, head), "-");  // no skin: the default skin has no head
    set_skin(pose, test::skin_index(data, "goblin"));
    set_to_setup_pose(pose);
    update_world_transform(pose, Physics::none);
    EXPECT_EQ(test::attachment_name(pose, head), "goblin/head");
    EXPECT_EQ(compute_world_vertices(pose, loaded->binding, head, out), 62u);
    EXPECT_EQ(test::attachment_name(pose, item), "spear");

    set_skin(pose, test::skin_index(data, "goblingirl"));
    update_world_transform(pose, Physics::none);
    EXPECT_EQ(test::attachment_name(pose, head), "goblingirl/head");
    EXPECT_EQ(test::attachment_name(pose, item), "spear");
    const double girl_head[8] = {-63.8445919, 211.210406, -53.8369042, 291.589792,
                                 48.3739217,  278.863968, 38.3662338,  198.484582};
    ASSERT_EQ(compute_world_vertices(pose, loaded->binding, head, out), 8u);
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(out[static_cast<std::size_t>(i)], girl_head[i], 2e-3) << i;

    SkeletonPose fresh = create_pose(data);
    set_skin(fresh, test::skin_index(data, "goblingirl"));
    EXPECT_EQ(test::attachment_name(fresh, head), "goblingirl/head");
    EXPECT_EQ(test::attachment_name(fresh, test::slot_index(data, "torso")), "goblingirl/torso");
}

TEST(SkeletonPose, a_skin_index_the_data_lacks_changes_nothing) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("goblins/goblins-pro.skel", "goblins/goblins.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    const Index head = test::slot_index(data, "head");
    const Index goblin = test::skin_index(data, "goblin");
    SkeletonPose pose = create_pose(data);
    ASSERT_TRUE(set_skin(pose, goblin));
    const auto past_the_end = static_cast<Index>(data.skins.size());
    EXPECT_FALSE(set_skin(pose, past_the_end));
    EXPECT_FALSE(set_skin(pose, -5));
    const Index with_a_stranger[] = {goblin, past_the_end};
    EXPECT_FALSE(set_combined_skin(pose, with_a_stranger));
    const Index with_none[] = {k_none, goblin};
    EXPECT_FALSE(set_combined_skin(pose, with_none));
    EXPECT_EQ(pose.skin, goblin);
    EXPECT_EQ(test::attachment_name(pose, head), "goblin/head");
    EXPECT_TRUE(set_skin(pose, k_none)) << "k_none is no skin";
    EXPECT_EQ(pose.skin, k_none);
}

// hero/hero-pro.skel: the weapon bones are skin-required. Without a skin they are inactive and keep the official
// runtime's initial all-zero transform; skin=weapon/sword setup activates weapon-sword only; switching to
// weapon/morningstar activates its 13 bones (and the path constraint its skin holds).
TEST(SkeletonPose, skin_required_bones_are_active_only_with_their_skin) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("hero/hero-pro.skel", "hero/hero.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    const auto sword = static_cast<std::size_t>(test::bone_index(data, "weapon-sword"));
    const auto chain = static_cast<std::size_t>(test::bone_index(data, "chain8"));

    SkeletonPose pose = create_pose(data);
    update_world_transform(pose, Physics::none);
    EXPECT_FALSE(pose.bone_active[sword]);
    expect_bones(pose, {{"weapon-sword", 0, 0, 0, 0, 0, 0}, {"chain8", 0, 0, 0, 0, 0, 0}});
    ASSERT_EQ(pose.path.size(), 1u);
    EXPECT_FALSE(pose.path[0].active);

    SkeletonPose with_sword = test::posed(loaded->data, {"skin=weapon/sword", "setup"});
    EXPECT_TRUE(with_sword.bone_active[sword]);
    EXPECT_FALSE(with_sword.bone_active[chain]);
    expect_bones(with_sword, {{"weapon-sword", 0.998145422, -0.0608743443, 0.060874362, 0.998145452, 50.2233102,
                               94.2154902},
                              {"chain8", 0, 0, 0, 0, 0, 0}});

    SkeletonPose with_star = test::posed(loaded->data, {"skin=weapon/sword", "setup", "skin=weapon/morningstar",
                                                        "setup"});
    EXPECT_FALSE(with_star.bone_active[sword]);
    EXPECT_TRUE(with_star.bone_active[chain]);
    EXPECT_TRUE(with_star.path[0].active);
    expect_bones(with_star, {{"weapon-morningstar", 0.998145422, -0.0608743443, 0.060874362, 0.998145452,
                              50.2233102, 94.2154902},
                             {"chain8", 0.997530461, -0.0702351273, 0.0702349596, 0.997530479, 204.272904,
                              103.537175}});
}

// Skin.addSkin semantics, from the official source: bones and constraints are appended once each; an attachment at
// the same (slot, name) as an earlier skin's replaces it.
TEST(SkeletonPose, combined_skin_keeps_each_bone_once_and_the_last_attachment_per_name) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto goblins = load("goblins/goblins-pro.skel", "goblins/goblins.atlas");
    ASSERT_TRUE(goblins);
    const SkeletonData& data = goblins->data;
    SkeletonPose pose = create_pose(data);
    const Index girl_then_goblin[] = {test::skin_index(data, "goblingirl"), test::skin_index(data, "goblin")};
    set_combined_skin(pose, girl_then_goblin);
    set_to_setup_pose(pose);
    EXPECT_EQ(pose.skin, SkeletonPose::k_custom_skin);
    EXPECT_EQ(test::attachment_name(pose, test::slot_index(data, "head")), "goblin/head");
    const std::vector<SkinEntry>& entries = pose.custom_skin.entries;
    EXPECT_TRUE(std::is_sorted(entries.begin(), entries.end(), [](const SkinEntry& a, const SkinEntry& b) {
        return a.slot != b.slot ? a.slot < b.slot : a.name < b.name;
    }));
    EXPECT_EQ(std::adjacent_find(entries.begin(), entries.end(),
                                 [](const SkinEntry& a, const SkinEntry& b) {
                                     return a.slot == b.slot && a.name == b.name;
                                 }),
              entries.end());

    auto hero = load("hero/hero-pro.skel", "hero/hero.atlas");
    ASSERT_TRUE(hero);
    SkeletonPose hero_pose = create_pose(hero->data);
    const Index sword = test::skin_index(hero->data, "weapon/sword");
    const Index star = test::skin_index(hero->data, "weapon/morningstar");
    const Index skins[] = {sword, star, sword};
    set_combined_skin(hero_pose, skins);
    EXPECT_EQ(hero_pose.custom_skin.bones.size(), 14u);  // 1 sword bone + 13 morningstar bones
    EXPECT_EQ(hero_pose.custom_skin.constraints.size(), 1u);
    EXPECT_TRUE(hero_pose.path[0].active);
}

// Slot.setAttachment (official source): a change of attachment resets the sequence index and clears the deform,
// unless both are vertex attachments driven by the same timelines; setting the same attachment changes nothing.
TEST(SkeletonPose, set_slot_attachment_clears_deform_and_sequence_index_on_change) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("goblins/goblins-pro.skel", "goblins/goblins.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    SkeletonPose pose = test::posed(loaded->data, {"skin=goblin", "setup", "deform:head=1"});
    const Index head = test::slot_index(data, "head");
    SlotPose& slot = pose.slots[static_cast<std::size_t>(head)];
    ASSERT_GT(slot.deform_count, 0u);
    slot.sequence_index = 3;
    set_slot_attachment(pose, head, slot.attachment);
    EXPECT_GT(slot.deform_count, 0u);
    EXPECT_EQ(slot.sequence_index, 3);
    set_slot_attachment(pose, head, k_none);
    EXPECT_EQ(slot.deform_count, 0u);
    EXPECT_EQ(slot.sequence_index, -1);

    // goblingirl's left-foot is a linked mesh that inherits the goblin mesh's timelines: a switch keeps the deform;
    // its torso is a region: the switch clears it.
    SkeletonPose linked = test::posed(loaded->data, {"skin=goblin", "setup", "deform:left-foot=1", "deform:torso=1",
                                                     "skin=goblingirl"});
    const SlotPose& foot = linked.slots[static_cast<std::size_t>(test::slot_index(data, "left-foot"))];
    EXPECT_EQ(test::attachment_name(linked, test::slot_index(data, "left-foot")), "goblingirl/left-foot");
    EXPECT_GT(foot.deform_count, 0u);
    EXPECT_EQ(linked.slots[static_cast<std::size_t>(test::slot_index(data, "torso"))].deform_count, 0u);
}

// create_pose reserves, per slot, the largest deform any skin's attachment for that slot can key (first
// principles from the data: 2 floats per vertex unweighted, 2 per bone influence weighted), in one pool.
TEST(SkeletonPose, create_pose_reserves_each_slot_the_largest_deform_it_can_show) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    const SkeletonPose pose = create_pose(data);
    std::uint32_t total = 0;
    for (std::size_t s = 0; s < data.slots.size(); ++s) {
        std::uint32_t largest = 0;
        for (const SkinData& skin : data.skins)
            for (const SkinEntry& e : skin.entries) {
                if (e.slot != static_cast<Index>(s)) continue;
                const AttachmentData& a = data.attachments[static_cast<std::size_t>(e.attachment)];
                if (a.type == AttachmentType::region || a.type == AttachmentType::point) continue;
                largest = std::max(largest, a.bones.count ? a.vertices.count / 3 * 2 : a.world_vertices_length);
            }
        EXPECT_EQ(pose.slots[s].deform_capacity, largest) << data.slot_names[static_cast<Index>(s)];
        EXPECT_EQ(pose.slots[s].deform_offset, total);
        total += largest;
    }
    EXPECT_EQ(pose.deform.size(), total);
    const SlotPose& head = pose.slots[static_cast<std::size_t>(test::slot_index(data, "head"))];
    EXPECT_GT(head.deform_capacity, 126u);  // weighted: more influences than vertices
}

// Spine's setToSetupPose: local poses, inherit modes, constraint mixes, slot colours, attachments and draw order.
TEST(SkeletonPose, set_to_setup_pose_restores_everything_the_pose_changed) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    SkeletonPose pose = create_pose(data);
    update_world_transform(pose, Physics::none);
    const std::vector<BoneWorld> setup_world = pose.world;

    pose.local[3].rotation += 40;
    pose.inherit[3] = Inherit::no_scale;
    pose.ik[0].mix = 0.25f;
    pose.transform[0].mix_x = 0.5f;
    pose.slots[2].color = Color{0.5f, 0.5f, 0.5f, 0.5f};
    std::reverse(pose.draw_order.begin(), pose.draw_order.end());
    set_slot_attachment(pose, 2, k_none);

    set_to_setup_pose(pose);
    update_world_transform(pose, Physics::none);
    EXPECT_EQ(pose.local[3].rotation, data.bones[3].rotation);
    EXPECT_EQ(pose.inherit[3], data.bones[3].inherit);
    EXPECT_EQ(pose.ik[0].mix, data.ik_constraints[0].mix);
    EXPECT_EQ(pose.transform[0].mix_x, data.transform_constraints[0].mix_x);
    EXPECT_EQ(pose.slots[2].color, data.slots[2].color);
    EXPECT_EQ(pose.slots[2].attachment, find_attachment(pose, 2, data.slots[2].attachment_name));
    for (std::size_t i = 0; i < pose.draw_order.size(); ++i) EXPECT_EQ(pose.draw_order[i], static_cast<Index>(i));
    for (std::size_t i = 0; i < setup_world.size(); ++i) {
        EXPECT_FLOAT_EQ(pose.world[i].a, setup_world[i].a);
        EXPECT_FLOAT_EQ(pose.world[i].x, setup_world[i].x);
    }
}

// Bone.updateAppliedTransform for every inherit mode under a reflected parent and a flipped skeleton:
//   spineboy/spineboy-pro.skel applied bone:hip.rotation=150 bone:hip.scaleX=-1.2 bone:torso.inherit=4
//   bone:front-thigh.inherit=3 bone:rear-thigh.inherit=2 bone:neck.inherit=1 bone:head.shearX=15
//   bone:head.shearY=-20 skeleton.scaleY=-1
// (x y rotation scaleX scaleY shearX shearY; angles compared modulo 360, reflections come back as 180 degree shears).
TEST(SkeletonPose, applied_transform_recovered_from_world_matches_the_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(loaded);
    SkeletonPose pose = test::posed(
        loaded->data, {"bone:hip.rotation=150", "bone:hip.scaleX=-1.2", "bone:torso.inherit=4",
                       "bone:front-thigh.inherit=3", "bone:rear-thigh.inherit=2", "bone:neck.inherit=1",
                       "bone:head.shearX=15", "bone:head.shearY=-20", "skeleton.scaleY=-1"});
    struct Golden {
        const char* bone;
        double v[7];
    };
    const Golden goldens[] = {
        {"root", {0, 0, -0.047744751, 1, 1, 0, -179.999996}},
        {"rear-thigh", {8.91332245, -5.62669373, 42.5887481, 1, -1, 0, 179.999996}},
        {"torso", {-1.61751556, 4.90411377, -87.192461, 0.999999999, -1, 0, 179.999997}},
        {"front-thigh", {-17.458992, -11.6443024, 133.306241, 1.00000001, -0.999999988, 0, 179.999996}},
        {"neck", {42.4588928, -0.308563232, 31.5378799, 1, -1, 0, 179.999996}},
        {"head", {27.663269, -0.259902954, 41.0985508, 1, 0.819152052, 0, -34.9999987}},
    };
    for (const Golden& g : goldens) {
        const Index bone = test::bone_index(loaded->data, g.bone);
        update_applied_transform(pose, bone);
        const BoneTransform& t = pose.applied[static_cast<std::size_t>(bone)];
        auto angle = [](double a, double b) { return std::fabs(std::remainder(a - b, 360.0)); };
        EXPECT_NEAR(t.x, g.v[0], 2e-3) << g.bone;
        EXPECT_NEAR(t.y, g.v[1], 2e-3) << g.bone;
        EXPECT_LT(angle(t.rotation, g.v[2]), 1e-3) << g.bone;
        EXPECT_NEAR(t.scale_x, g.v[3], 1e-5) << g.bone;
        EXPECT_NEAR(t.scale_y, g.v[4], 1e-5) << g.bone;
        EXPECT_LT(angle(t.shear_x, g.v[5]), 1e-3) << g.bone;
        EXPECT_LT(angle(t.shear_y, g.v[6]), 1e-3) << g.bone;
    }
}

// Sequence.apply (official source): index -1 shows the setup index; larger indices show the last frame.
TEST(SkeletonPose, sequence_frame_uses_the_setup_index_and_clamps_to_the_last_frame) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto loaded = load("dragon/dragon-ess.skel", "dragon/dragon.atlas");
    ASSERT_TRUE(loaded);
    const SkeletonData& data = loaded->data;
    SkeletonPose pose = create_pose(data);
    const Index wing = test::slot_index(data, "left-wing");
    const Index attachment = pose.slots[static_cast<std::size_t>(wing)].attachment;
    ASSERT_NE(attachment, k_none);
    const AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
    ASSERT_NE(a.sequence, k_none);
    const SequenceData& sequence = data.sequences[static_cast<std::size_t>(a.sequence)];
    EXPECT_EQ(sequence_frame(pose, wing, attachment), static_cast<std::uint32_t>(sequence.setup_index));
    pose.slots[static_cast<std::size_t>(wing)].sequence_index = 4;
    EXPECT_EQ(sequence_frame(pose, wing, attachment), 4u);
    pose.slots[static_cast<std::size_t>(wing)].sequence_index = 99;
    EXPECT_EQ(sequence_frame(pose, wing, attachment), static_cast<std::uint32_t>(sequence.count - 1));
}

}  // namespace
}  // namespace spinegpu
