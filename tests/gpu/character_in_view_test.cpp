// character_in_view is conservative: a view around any vertex the character draws keeps it (deform and weights
// included), and a view far from everything drops it; bones its skin leaves inactive (at the world origin) do not
// keep it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "gpu_test_support.hpp"
#include "skin_shader_model.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

TEST(CharacterInView, keeps_a_character_seen_through_any_one_of_its_vertices) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for_each_example_pose(40, 13, [](const GpuType& t, const Player& player, const std::string& where) {
        const auto slots = static_cast<std::uint32_t>(t.data().slots.size());
        PackedFrame frame(t.type, t.data(), 1);
        pack_character(t.type, 0, player.pose, Color{}, frame.cursor);
        SkinOutput out;
        run_skin_pass(t.type, slots, frame.characters[0], frame.bones.data(), frame.words.data(), out);
        float far = 0;
        for (const GpuOutVertex& v : out.vertices) {
            const WorldRect around{v.x - 0.01f, v.y - 0.01f, v.x + 0.01f, v.y + 0.01f};
            if (!character_in_view(t.type, player.pose, around)) {
                ADD_FAILURE() << where << ": dropped, yet it draws a vertex at (" << v.x << ", " << v.y << ")";
                return false;
            }
            far = std::max({far, std::abs(v.x), std::abs(v.y)});
        }
        const float away = 1000 * (far + 1000);
        EXPECT_FALSE(character_in_view(t.type, player.pose, {away, away, away + 1, away + 1})) << where;
        return true;
    });
}

TEST(CharacterInView, leaves_out_the_bones_its_skin_leaves_inactive) {
    // Mix-and-match in one full skin: a third of its bones are skin-required and inactive, their world transforms
    // all zero. Far from the origin, a view around the origin must not keep it.
    SPINEGPU_REQUIRE_EXAMPLES();
    MixAndMatchWalker m("full-skins/girl");
    ASSERT_NE(m.player, nullptr);
    const std::unique_ptr<GpuType>& t = m.t;
    Player& player = *m.player;
    player.pose.x = 50000;
    player.step(1.0 / 60);
    ASSERT_TRUE(std::count(player.pose.bone_active.begin(), player.pose.bone_active.end(), 0) > 0);
    EXPECT_FALSE(character_in_view(t->type, player.pose, {-100, -100, 100, 100}));
    EXPECT_TRUE(character_in_view(t->type, player.pose, {49900, -100, 50100, 100}));
}

}  // namespace
}  // namespace spinegpu::test
