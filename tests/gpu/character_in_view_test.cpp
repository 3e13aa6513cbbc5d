// character_in_view is conservative: a view around any vertex the character draws keeps it (deform and weights
// included), and a view far from everything drops it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpu_test_support.hpp"
#include "skin_shader_model.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

TEST(CharacterInView, keeps_a_character_seen_through_any_one_of_its_vertices) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) continue;
        const SkeletonData& data = t->data();
        const auto slots = static_cast<std::uint32_t>(data.slots.size());
        for (Index animation = 0; animation < static_cast<Index>(data.animations.size()); ++animation) {
            Player player(data, showcase_skin(data), animation);
            for (int step = 1; step <= 40; ++step) {
                player.step(1.0 / 60);
                if (step % 13 != 0) continue;
                const std::string where = e.binary.filename().string() + " " + data.animation_names[animation] +
                                          " step " + std::to_string(step);
                PackedFrame frame(t->type, data, 1);
                pack_character(t->type, 0, player.pose, Color{}, frame.cursor);
                SkinOutput out;
                run_skin_pass(t->type, slots, frame.characters[0], frame.bones.data(), frame.words.data(), out);
                float far = 0;
                for (const GpuOutVertex& v : out.vertices) {
                    const WorldRect around{v.x - 0.01f, v.y - 0.01f, v.x + 0.01f, v.y + 0.01f};
                    ASSERT_TRUE(character_in_view(t->type, player.pose, around))
                        << where << ": dropped, yet it draws a vertex at (" << v.x << ", " << v.y << ")";
                    far = std::max({far, std::abs(v.x), std::abs(v.y)});
                }
                const float away = 1000 * (far + 1000);
                EXPECT_FALSE(character_in_view(t->type, player.pose, {away, away, away + 1, away + 1})) << where;
            }
        }
    }
}

}  // namespace
}  // namespace spinegpu::test
