// A culling memo (CullingMemo) answers as character_in_view does for any view while the pose's world transforms stay
// as they were, and while crowd updates move them with a passed-over character (its box moved along, answering only
// where the move's rounding cannot matter), and is not used once anything else the runtime does changes them:
// posing, one bone posed by hand, a new skin's bone activity, a grouped crowd update; nor for another type.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "gpu_test_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "../../src/runtime/world_group.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

constexpr WorldRect k_around_origin{-100, -100, 100, 100};

TEST(CullingMemo, answers_as_the_bones_do_for_any_view_while_the_pose_stays) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::mt19937 random(7);
    for_each_example_pose(30, 15, [&](const GpuType& t, const Player& player, const std::string& where) {
        // Fill the memo with a view the character is far from, then ask about views around, across and away from it.
        CullingMemo memo;
        const float away = 1e6f;
        EXPECT_FALSE(character_in_view(t.type, player.pose, {away, away, away + 1, away + 1}, memo)) << where;
        EXPECT_EQ(memo.stamp, player.pose.world_stamp) << where << ": a walk through every bone is kept";
        EXPECT_NE(memo.stamp, 0u) << where;
        std::uniform_real_distribution<float> corner(-1500, 1500), size(0, 800);
        for (int v = 0; v < 200; ++v) {
            const float x = corner(random), y = corner(random);
            const WorldRect view{x, y, x + size(random), y + size(random)};
            const bool expected = character_in_view(t.type, player.pose, view);
            if (character_in_view(t.type, player.pose, view, memo) != expected) {
                ADD_FAILURE() << where << ": the memo answers " << !expected << " for view (" << view.min_x << ", "
                              << view.min_y << ", " << view.max_x << ", " << view.max_y << ")";
                return false;
            }
        }
        return true;
    });
}

// Spineboy walking, posed at `x`.
struct Walker {
    std::unique_ptr<GpuType> t = load_gpu_type("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas");
    std::unique_ptr<Player> player;

    explicit Walker(float x) {
        if (!t) return;
        player = std::make_unique<Player>(t->data(), k_none, t->data().animation_names.find("walk"));
        player->pose.x = x;
        player->step(1.0 / 60);
    }
};

TEST(CullingMemo, is_not_used_once_the_character_is_posed_again) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Walker w(50000);
    ASSERT_NE(w.player, nullptr);
    CullingMemo memo;
    ASSERT_FALSE(character_in_view(w.t->type, w.player->pose, k_around_origin, memo));
    w.player->pose.x = 0;
    w.player->step(1.0 / 60);
    EXPECT_TRUE(character_in_view(w.t->type, w.player->pose, k_around_origin, memo));
}

TEST(CullingMemo, is_not_used_once_a_bone_is_posed_by_hand) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Walker w(50000);
    ASSERT_NE(w.player, nullptr);
    CullingMemo memo;
    SkeletonPose& pose = w.player->pose;
    ASSERT_FALSE(character_in_view(w.t->type, pose, k_around_origin, memo));
    // Bones come after their parents: posing each in turn moves the whole skeleton.
    pose.x = 0;
    for (std::size_t b = 0; b < pose.world.size(); ++b) update_bone_world(pose, static_cast<Index>(b));
    EXPECT_TRUE(character_in_view(w.t->type, pose, k_around_origin, memo));
}

TEST(CullingMemo, is_not_used_once_a_new_skin_changes_which_bones_are_active) {
    // Mix-and-match without a skin: its skin-required bones are inactive and hold zero world transforms, at the
    // origin. A skin makes them active without posing them: at the origin, in view.
    SPINEGPU_REQUIRE_EXAMPLES();
    MixAndMatchWalker m(nullptr);
    ASSERT_NE(m.player, nullptr);
    const std::unique_ptr<GpuType>& t = m.t;
    const SkeletonData& data = m.data();
    Player& player = *m.player;
    player.pose.x = 50000;
    player.step(1.0 / 60);
    CullingMemo memo;
    ASSERT_FALSE(character_in_view(t->type, player.pose, k_around_origin, memo));
    ASSERT_TRUE(set_skin(player.pose, data.skin_names.find("full-skins/girl")));
    ASSERT_TRUE(character_in_view(t->type, player.pose, k_around_origin)) << "the test needs a bone at the origin";
    EXPECT_TRUE(character_in_view(t->type, player.pose, k_around_origin, memo));
}

TEST(CullingMemo, is_not_used_for_another_type) {
    // The same pose asked about as a type whose bones reach a thousand times further: that type's box meets a view
    // the first type's kept box misses.
    SPINEGPU_REQUIRE_EXAMPLES();
    Walker w(5000);
    ASSERT_NE(w.player, nullptr);
    StaticSkeleton wide = w.t->type;
    for (float& r : wide.bone_radius) r = r * 1000 + 1000;
    CullingMemo memo;
    ASSERT_FALSE(character_in_view(w.t->type, w.player->pose, k_around_origin, memo));
    ASSERT_TRUE(character_in_view(wide, w.player->pose, k_around_origin)) << "the test needs a wider box";
    EXPECT_TRUE(character_in_view(wide, w.player->pose, k_around_origin, memo));
}

// A filter that passes over every character.
PoseFilter pass_over_everyone() {
    return {[](void*, CharacterIndex, const SkeletonPose&) { return false; }, nullptr};
}

TEST(CullingMemo, moves_along_with_a_passed_over_character_a_crowd_update_moves_into_the_view) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Walker w(50000);
    ASSERT_NE(w.player, nullptr);
    SkeletonPose& pose = w.player->pose;
    AnimationState& state = w.player->state;
    update_characters(std::span(&pose, 1), std::span(&state, 1), FrameStep(1.0 / 60, Physics::update));
    CullingMemo memo;
    ASSERT_FALSE(character_in_view(w.t->type, pose, k_around_origin, memo));
    pose.x = 0;
    update_characters(std::span(&pose, 1), std::span(&state, 1),
                      FrameStep(1.0 / 60, Physics::update, pass_over_everyone()));
    ASSERT_TRUE(pose.posed_at.skipped);
    EXPECT_TRUE(character_in_view(w.t->type, pose, k_around_origin, memo));
}

// Views that touch `box` on each side (in view) and views a float's step away from each side (out).
std::array<WorldRect, 8> views_at_the_edges_of(const WorldRect& box) {
    const float inf = std::numeric_limits<float>::infinity();
    return {WorldRect{box.max_x, box.min_y, box.max_x + 50, box.max_y},
            WorldRect{box.min_x - 50, box.min_y, box.min_x, box.max_y},
            WorldRect{box.min_x, box.max_y, box.max_x, box.max_y + 50},
            WorldRect{box.min_x, box.min_y - 50, box.max_x, box.min_y},
            WorldRect{std::nextafter(box.max_x, inf), box.min_y, box.max_x + 50, box.max_y},
            WorldRect{box.min_x - 50, box.min_y, std::nextafter(box.min_x, -inf), box.max_y},
            WorldRect{box.min_x, std::nextafter(box.max_y, inf), box.max_x, box.max_y + 50},
            WorldRect{box.min_x, box.min_y - 50, box.max_x, std::nextafter(box.min_y, -inf)}};
}

// The box of the character's world transforms now: the memo a walk through all its bones fills.
WorldRect box_now(const StaticSkeleton& type, const SkeletonPose& pose) {
    CullingMemo fresh;
    const float away = 1e30f;
    EXPECT_FALSE(character_in_view(type, pose, {away, away, away, away}, fresh));
    return fresh.box;
}

// Spineboy walking near 2^25 world units (a float's step there is 1 to 4), posed there by a crowd update, then moved
// by uneven amounts and passed over: each move rounds its bones by up to a step.
struct FarWalker : Walker {
    static constexpr double k_x = 33554000, k_y = -16777000;

    FarWalker() : Walker(0) {
        if (!player) return;
        pose().x = static_cast<float>(k_x);
        pose().y = static_cast<float>(k_y);
        update(FrameStep(1.0 / 60, Physics::update));
    }
    SkeletonPose& pose() { return player->pose; }
    void update(const FrameStep& step) {
        update_characters(std::span(&player->pose, 1), std::span(&player->state, 1), step);
    }
    // Moves it to its k-th place (wobbling up and down by `wobble`) and passes it over.
    void move(int k, double wobble) {
        pose().x = static_cast<float>(k_x + 3.7 * k);
        pose().y = static_cast<float>(k_y - 2.9 * k + wobble * std::sin(k * 0.01));
        update(FrameStep(1.0 / 60, Physics::update, pass_over_everyone()));
    }
};

TEST(CullingMemo, answers_as_the_bones_do_while_crowd_updates_move_a_passed_over_character) {
    // A far walker moved 2,000 times: the box kept before the moves, moved by how far the skeleton moved, strays
    // from the box now by whole units. Asked about views that touch the box now on one side (in view) or miss it by a
    // float's step (out), the kept memo answers as the bones do; asked about views well away, it answers from the
    // kept box, without a walk.
    SPINEGPU_REQUIRE_EXAMPLES();
    FarWalker w;
    ASSERT_NE(w.player, nullptr);
    const SkeletonPose& pose = w.pose();
    const StaticSkeleton& type = w.t->type;
    CullingMemo kept;
    const float away = 1e30f;
    ASSERT_FALSE(character_in_view(type, pose, {away, away, away, away}, kept));
    const CullingMemo before = kept;
    double strayed = 0;
    for (int k = 1; k <= 2000; ++k) {
        w.move(k, 400);
        ASSERT_TRUE(pose.posed_at.skipped);
        const WorldRect box = box_now(type, pose);
        const double sx = static_cast<double>(pose.x) - before.x, sy = static_cast<double>(pose.y) - before.y;
        strayed = std::max({strayed, std::fabs(box.min_x - (before.box.min_x + sx)),
                            std::fabs(box.max_x - (before.box.max_x + sx)),
                            std::fabs(box.min_y - (before.box.min_y + sy)),
                            std::fabs(box.max_y - (before.box.max_y + sy))});
        const std::array<WorldRect, 8> views = views_at_the_edges_of(box);
        for (std::size_t v = 0; v < views.size(); ++v) {
            CullingMemo memo = kept;
            ASSERT_EQ(character_in_view(type, pose, views[v], memo), v < 4) << "view " << v << ", move " << k;
        }
        const float off = box.max_x + 100000;
        ASSERT_FALSE(character_in_view(type, pose, {off, box.min_y, off + 50, box.max_y}, kept)) << "move " << k;
        ASSERT_EQ(kept.stamp, before.stamp) << "move " << k << ": answered from the kept box, not by a walk";
    }
    EXPECT_GT(strayed, 1.0) << "the moves should round the box by whole units";
}

TEST(CullingMemo, answers_as_the_bones_do_for_a_pose_restored_from_a_copy_after_more_moves) {
    // A memo filled after 600 moves of a far walker, asked about the same pose restored from a copy taken after 300
    // (one shape stamp, less drift than the memo's): it must not trust the box where the restored pose's own
    // rounding and the memo's may add up.
    SPINEGPU_REQUIRE_EXAMPLES();
    FarWalker w;
    ASSERT_NE(w.player, nullptr);
    SkeletonPose& pose = w.pose();
    std::optional<SkeletonPose> saved;
    for (int k = 1; k <= 600; ++k) {
        w.move(k, 0);
        if (k == 300) saved = pose;
    }
    const StaticSkeleton& type = w.t->type;
    CullingMemo kept;
    const float away = 1e30f;
    ASSERT_FALSE(character_in_view(type, pose, {away, away, away, away}, kept));
    pose = *saved;
    ASSERT_EQ(pose.shape_stamp, kept.shape_stamp) << "the test needs the copy to keep the shape";
    ASSERT_LT(pose.posed_at.drift, kept.drift);
    const std::array<WorldRect, 8> views = views_at_the_edges_of(box_now(type, pose));
    for (std::size_t v = 0; v < views.size(); ++v) {
        CullingMemo memo = kept;
        EXPECT_EQ(character_in_view(type, pose, views[v], memo), v < 4) << "view " << v;
    }
}

TEST(CullingMemo, answers_as_the_bones_do_while_a_character_with_inactive_drawn_bones_is_moved) {
    // Mix-and-match in one full skin: the skin-required bones of the other skins are drawn bones left inactive, which
    // the moves leave where they are and culling leaves out. 300 moves by uneven amounts, passed over; the memo kept
    // from before them answers as the bones do at the edges of the box after each move.
    SPINEGPU_REQUIRE_EXAMPLES();
    MixAndMatchWalker m("full-skins/girl");
    ASSERT_NE(m.player, nullptr);
    const std::unique_ptr<GpuType>& t = m.t;
    Player& player = *m.player;
    SkeletonPose& pose = player.pose;
    ASSERT_TRUE(t->type.drawn_bones_may_be_inactive);
    const auto inactive = std::count_if(t->type.drawn_bones.begin(), t->type.drawn_bones.end(),
                                        [&](Index b) { return !pose.bone_active[static_cast<std::size_t>(b)]; });
    ASSERT_GT(inactive, 0) << "the test needs drawn bones the skin leaves inactive";
    pose.x = 123456.7f;
    pose.y = -98765.4f;
    update_characters(std::span(&pose, 1), std::span(&player.state, 1), FrameStep(1.0 / 60, Physics::update));
    CullingMemo kept;
    const float away = 1e30f;
    ASSERT_FALSE(character_in_view(t->type, pose, {away, away, away, away}, kept));
    for (int k = 1; k <= 300; ++k) {
        pose.x = static_cast<float>(123456.7 + 13.37 * k);
        pose.y = static_cast<float>(-98765.4 - 7.1 * k);
        update_characters(std::span(&pose, 1), std::span(&player.state, 1),
                          FrameStep(1.0 / 60, Physics::update, pass_over_everyone()));
        const std::array<WorldRect, 8> views = views_at_the_edges_of(box_now(t->type, pose));
        for (std::size_t v = 0; v < views.size(); ++v) {
            CullingMemo memo = kept;
            ASSERT_EQ(character_in_view(t->type, pose, views[v], memo), v < 4) << "view " << v << ", move " << k;
        }
        CullingMemo memo = kept;
        ASSERT_FALSE(character_in_view(t->type, pose, {away, away, away, away}, memo));
        ASSERT_EQ(memo.stamp, kept.stamp) << "move " << k << ": answered from the kept box, not by a walk";
    }
}

TEST(CullingMemo, is_not_used_once_a_grouped_crowd_update_poses_the_character) {
    // Four spineboys of one skeleton take their world transforms together in update_in_order.
    SPINEGPU_REQUIRE_EXAMPLES();
    if (!detail::world_group_simd_available())
        GTEST_SKIP() << "no grouped update here (no AVX2, a scalar build or SPINEGPU_DIAGNOSE_NO_WORLD_GROUP)";
    Walker w(0);
    ASSERT_NE(w.player, nullptr);
    const SkeletonData& data = w.t->data();
    Crowd crowd;
    for (int c = 0; c < 4; ++c) {
        const CharacterIndex i = crowd.add(data);
        crowd.state(i).set_animation(0, data.animation_names.find("walk"), true);
        crowd.pose(i).x = 50000;
    }
    crowd.update_order().refresh(crowd.size());
    const auto order = crowd.update_order().characters();
    update_in_order(crowd, order, 0, order.size(), FrameStep(1.0 / 60, Physics::update));
    std::array<CullingMemo, 4> memos;
    for (std::size_t i = 0; i < 4; ++i)
        ASSERT_FALSE(character_in_view(w.t->type, crowd.pose(static_cast<CharacterIndex>(i)), k_around_origin,
                                       memos[i]));
    for (std::size_t i = 0; i < 4; ++i) crowd.pose(static_cast<CharacterIndex>(i)).x = 0;
    update_in_order(crowd, order, 0, order.size(), FrameStep(1.0 / 60, Physics::update));
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_TRUE(character_in_view(w.t->type, crowd.pose(static_cast<CharacterIndex>(i)), k_around_origin,
                                      memos[i]))
            << "character " << i;
}

TEST(CullingMemo, draw_culls_as_the_bones_do_while_it_keeps_boxes) {
    // Twelve spineboys: four left unposed outside the view (their boxes kept from frame to frame), four posed in
    // place outside it, four walking across it; at frame 20 one of the first four is posed in view, at frame 30 one
    // of them (kept box) and a walker trade places in the draw list.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    ASSERT_TRUE(renderer->finalize().ok());
    const StaticSkeleton& bind = renderer->skeleton_type(spineboy->type);
    const Camera2D camera{0.12f, 80, 110};
    const WorldRect view = view_rect(camera, k_width, k_height);
    std::vector<std::unique_ptr<Player>> players;
    for (int i = 0; i < 12; ++i) {
        players.push_back(std::make_unique<Player>(spineboy->data(), k_none,
                                                   spineboy->data().animation_names.find(i < 8 ? "idle" : "walk")));
        const auto f = static_cast<float>(i);
        players.back()->pose.x = i < 8 ? 4000.0f + 1000.0f * f : -3000.0f * (f - 7);
        players.back()->step(1.0 / 60);
    }
    std::vector<CharacterDraw> draws;
    for (const auto& p : players) draws.push_back({&p->pose, spineboy->type, Color{}});
    for (int frame = 0; frame < 40; ++frame) {
        for (std::size_t i = 4; i < 12; ++i) {
            if (i >= 8) players[i]->pose.x += 200;
            players[i]->step(1.0 / 60);
        }
        if (frame == 20) {
            players[0]->pose.x = 0;
            players[0]->step(1.0 / 60);
        }
        if (frame == 30) std::swap(draws[1], draws[8]);
        std::uint32_t expected_culled = 0;
        for (const CharacterDraw& d : draws) expected_culled += character_in_view(bind, *d.pose, view) ? 0u : 1u;
        Result<FrameStats> stats = renderer->draw(draws, camera, k_width, k_height, k_background, RenderPath::gpu);
        ASSERT_TRUE(stats.ok()) << stats.error().message();
        EXPECT_EQ(stats->culled, expected_culled) << "frame " << frame;
        EXPECT_EQ(stats->characters, draws.size() - expected_culled) << "frame " << frame;
    }
    EXPECT_TRUE(character_in_view(bind, players[0]->pose, view)) << "the test poses one into view";
    ASSERT_TRUE(renderer->finish().ok());
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
