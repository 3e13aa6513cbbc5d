// character_in_view is conservative: a view around any vertex the character draws keeps it (deform and weights
// included, deforms carried past their keys by an overshooting curve or by additive tracks too), and a view far from
// everything drops it; bones its skin leaves inactive (at the world origin) do not keep it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

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

// A 10 x 10 mesh at the origin whose deform animation "go" moves it 100 to the right at 1 s, through a bezier that
// overshoots (its percent reaches about 2.5 midway, carrying the mesh about 250 to the right), with its bind form.
struct DeformedSquare {
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    StaticSkeleton type;
};

std::unique_ptr<DeformedSquare> load_deformed_square() {
    const char* json = R"({"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
      "slots": [{"name": "m", "bone": "root", "attachment": "mesh"}],
      "skins": [{"name": "default", "attachments": {"m": {"mesh": {"type": "mesh", "path": "sq", "hull": 4,
        "uvs": [0, 0, 1, 0, 1, 1, 0, 1], "triangles": [0, 1, 2, 2, 3, 0], "vertices": [0, 0, 10, 0, 10, 10, 0, 10]}}}}],
      "animations": {"go": {"attachments": {"default": {"m": {"mesh": {"deform": [
        {"time": 0, "curve": [0.25, 3, 0.75, 3]}, {"time": 1, "vertices": [100, 0, 100, 0, 100, 0, 100, 0]}]}}}}}}})";
    Result<SkeletonData> data = load_skeleton_json(json, "square.json");
    Result<Atlas> atlas = parse_atlas("square.png\nsize: 4, 4\nsq\nbounds: 0, 0, 4, 4\n", "square.atlas");
    EXPECT_TRUE(data.ok()) << data.error().message();
    EXPECT_TRUE(atlas.ok()) << atlas.error().message();
    if (!data || !atlas) return nullptr;
    auto out = std::make_unique<DeformedSquare>(DeformedSquare{std::move(*data), std::move(*atlas), {}, {}});
    Result<AtlasBinding> binding = bind_atlas(out->data, out->atlas);
    EXPECT_TRUE(binding.ok()) << binding.error().message();
    if (!binding) return nullptr;
    out->binding = std::move(*binding);
    Result<StaticSkeleton> type =
        build_static_skeleton(out->data, out->atlas, out->binding, layer_per_page(out->atlas), "square.json");
    EXPECT_TRUE(type.ok()) << type.error().message();
    if (!type) return nullptr;
    out->type = std::move(*type);
    return out;
}

// The x range of the square's deformed vertices in `pose`.
std::pair<float, float> deformed_x_range(const SkeletonPose& pose) {
    const SlotPose& slot = pose.slots[0];
    float low = std::numeric_limits<float>::infinity(), high = -low;
    for (std::uint32_t i = 0; i < slot.deform_count; i += 2) {
        low = std::min(low, pose.deform[slot.deform_offset + i]);
        high = std::max(high, pose.deform[slot.deform_offset + i]);
    }
    return {low, high};
}

TEST(CharacterInView, keeps_a_mesh_that_a_curve_carries_past_its_deform_keys) {
    std::unique_ptr<DeformedSquare> square = load_deformed_square();
    ASSERT_NE(square, nullptr);
    Player player(square->data, k_none, 0);
    for (int step = 0; step < 30; ++step) player.step(1.0 / 60);
    const auto [low, high] = deformed_x_range(player.pose);
    ASSERT_GT(low, 150) << "the curve no longer overshoots: the test shows nothing";
    EXPECT_FALSE(player.pose.deform_beyond_keys) << "one track, alpha 1: the keys and curves bound the deform";
    EXPECT_TRUE(character_in_view(square->type, player.pose, {low, -5, high, 5}));
    const float away = 10 * (high + 100);  // (the bound is loose, but not unbounded)
    EXPECT_FALSE(character_in_view(square->type, player.pose, {away, -5, away + 100, 5}));
}

TEST(CharacterInView, keeps_a_mesh_that_additive_tracks_carry_past_its_deform_keys) {
    std::unique_ptr<DeformedSquare> square = load_deformed_square();
    ASSERT_NE(square, nullptr);
    // The same animation on three tracks, the upper two added: each adds its move once more, three times as far as
    // one track's, past what the keys and the curve can give.
    Player player(square->data, k_none, 0);
    for (std::int32_t track = 1; track <= 2; ++track)
        player.state.entry(player.state.set_animation(track, 0, true))->mix_blend = MixBlend::add;
    for (int step = 0; step < 30; ++step) player.step(1.0 / 60);
    const auto [low, high] = deformed_x_range(player.pose);
    ASSERT_GT(low, 600) << "the tracks no longer add up: the test shows nothing";
    EXPECT_TRUE(player.pose.deform_beyond_keys);
    EXPECT_TRUE(character_in_view(square->type, player.pose, {low, -5, high, 5}));
    const float away = 10 * (high + 100);  // (the bound is loose, but not unbounded)
    EXPECT_FALSE(character_in_view(square->type, player.pose, {away, -5, away + 100, 5}));
}

}  // namespace
}  // namespace spinegpu::test
