// The CPU path (build_cpu_vertices: world vertices from the runtime) and the skinning pass (modelled in C++ over the
// packed frame) write the same vertices, triangles, colours and material words for the same poses, clipping
// included (spineboy's portal, tank), with two characters in one frame so that output offsets are exercised.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "skin_shader_model.hpp"
#include "spinegpu/gpu/cpu_path.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

struct Case {
    const char* skeleton;
    const char* atlas;
    const char* animation;
};

// Compares the two paths' output for characters `first` .. of one frame; returns the clipped vertices seen.
std::uint32_t expect_paths_agree(const SkinOutput& gpu_out, const std::vector<GpuOutVertex>& cpu_vertices,
                                 const std::vector<std::uint32_t>& cpu_indices, const std::string& where) {
    EXPECT_EQ(gpu_out.vertices.size(), cpu_vertices.size()) << where;
    EXPECT_EQ(gpu_out.indices.size(), cpu_indices.size()) << where;
    if (gpu_out.vertices.size() != cpu_vertices.size() || gpu_out.indices.size() != cpu_indices.size()) return 0;
    int failures = 0;
    std::uint32_t clipped = 0;
    for (std::size_t v = 0; v < cpu_vertices.size() && failures < 5; ++v) {
        const GpuOutVertex& g = gpu_out.vertices[v];
        const GpuOutVertex& c = cpu_vertices[v];
        const bool same_words = g.u == c.u && g.v == c.v && g.light == c.light && g.dark == c.dark &&
                                g.material == c.material && g.clip_first == c.clip_first;
        const bool near = std::abs(g.x - c.x) <= 1e-3f * std::max(1.0f, std::abs(c.x)) &&
                          std::abs(g.y - c.y) <= 1e-3f * std::max(1.0f, std::abs(c.y));
        if (!same_words || !near) {
            ++failures;
            ADD_FAILURE() << where << " vertex " << v << ": pass (" << g.x << ", " << g.y << ") uv (" << g.u << ", "
                          << g.v << ") light " << std::hex << g.light << " dark " << g.dark << " material "
                          << g.material << std::dec << " clip_first " << g.clip_first << "; cpu (" << c.x << ", "
                          << c.y << ") uv (" << c.u << ", " << c.v << ") light " << std::hex << c.light << " dark "
                          << c.dark << " material " << c.material << std::dec << " clip_first " << c.clip_first;
        }
        if (c.material >> k_material_clip_count_shift) ++clipped;
    }
    for (std::size_t i = 0; i < cpu_indices.size() && failures < 5; ++i)
        if (gpu_out.indices[i] != cpu_indices[i]) {
            ++failures;
            ADD_FAILURE() << where << " index " << i << ": pass " << gpu_out.indices[i] << ", cpu " << cpu_indices[i];
        }
    return clipped;
}

TEST(CpuPath, writes_what_the_skinning_pass_model_writes_for_the_same_poses) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const Case cases[] = {
        {"spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "portal"},
        {"tank/tank-pro.skel", "tank/tank.atlas", "shoot"},
        {"goblins/goblins-pro.skel", "goblins/goblins.atlas", "walk"},
        {"dragon/dragon-ess.skel", "dragon/dragon.atlas", "flying"},
        {"mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match-pma.atlas", "dance"},
        {"celestial-circus/celestial-circus-pro.skel", "celestial-circus/celestial-circus.atlas", "swing"},
    };
    constexpr double k_dt = 1.0 / 60;
    const Color tint{0.8f, 0.9f, 1.0f, 0.75f};
    for (const Case& c : cases) {
        auto t = load_gpu_type(c.skeleton, c.atlas);
        ASSERT_NE(t, nullptr) << c.skeleton;
        const SkeletonData& data = t->data();
        const Index animation = data.animation_names.find(c.animation);
        ASSERT_NE(animation, k_none) << c.skeleton << " " << c.animation;
        const Index skin = showcase_skin(data);
        // Two characters half a second apart, drawn in one frame.
        Player a(data, skin, animation), b(data, skin, animation);
        for (int i = 0; i < 30; ++i) b.step(k_dt);
        std::uint32_t clipped = 0;
        for (int step = 1; step <= 120; ++step) {
            a.step(k_dt);
            b.step(k_dt);
            if (step % 10 != 0) continue;
            const std::string where = std::string(c.skeleton) + " " + c.animation + " step " + std::to_string(step);
            PackedFrame frame(t->type, data, 2);
            pack_character(t->type, 0, a.pose, tint, frame.cursor);
            pack_character(t->type, 0, b.pose, Color{}, frame.cursor);
            SkinOutput gpu_out;
            const auto slots = static_cast<std::uint32_t>(data.slots.size());
            for (std::uint32_t k = 0; k < 2; ++k)
                run_skin_pass(t->type, slots, frame.characters[k], frame.bones.data(), frame.words.data(), gpu_out);

            std::vector<GpuOutVertex> cpu_vertices(frame.cursor.out_vertex_count);
            std::vector<std::uint32_t> cpu_indices(frame.cursor.out_index_count);
            std::vector<float> scratch(t->type.max_vertex_floats);
            CpuPathCounts first = count_cpu_vertices(t->type, a.pose), second = count_cpu_vertices(t->type, b.pose);
            ASSERT_EQ(first.vertices + second.vertices, frame.cursor.out_vertex_count) << where;
            ASSERT_EQ(first.indices + second.indices, frame.cursor.out_index_count) << where;
            CpuPathCounts wrote = build_cpu_vertices(t->type, t->loaded->binding, a.pose, tint, 0, cpu_vertices.data(),
                                                     cpu_indices.data(), scratch);
            EXPECT_EQ(wrote.vertices, first.vertices) << where;
            EXPECT_EQ(wrote.indices, first.indices) << where;
            wrote = build_cpu_vertices(t->type, t->loaded->binding, b.pose, Color{}, first.vertices,
                                       cpu_vertices.data() + first.vertices, cpu_indices.data() + first.indices,
                                       scratch);
            EXPECT_EQ(wrote.vertices, second.vertices) << where;
            clipped += expect_paths_agree(gpu_out, cpu_vertices, cpu_indices, where);
            if (HasFailure()) return;
        }
        if (t->type.features.clipping) {
            EXPECT_GT(clipped, 0u) << c.skeleton << ": no vertex was clipped";
        }
    }
}

}  // namespace
}  // namespace spinegpu::test
