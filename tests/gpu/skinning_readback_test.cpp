// The skinning pass (skin.comp) read back from the device and compared with the CPU path's vertices, vertex for
// vertex: the draw lists, clipping, colours, materials, UVs and triangles exactly, the skinned positions within a
// float rounding's reach. Pixels (renderer_test.cpp) would hide a vertex off by less than a pixel, or one whose
// colour the blend happens to hide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "renderer_test_support.hpp"

namespace spinegpu::test {
namespace {

using gpu::CharacterDraw;
using gpu::DrawnGeometry;
using gpu::RenderPath;

TEST(SkinningPass, writes_what_the_cpu_path_writes_for_every_example_animation) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(first);
    first.reset();
    std::size_t poses = 0, vertices = 0;
    float most = 0;
    for (const ExampleSkeleton& e : example_skeletons()) {
        // A renderer per skeleton: types are added before the first frame.
        std::unique_ptr<gpu::Renderer> renderer = create_renderer(skip_reason);
        ASSERT_NE(renderer, nullptr) << skip_reason;
        std::optional<AddedType> added = load_type(*renderer, e.binary.string(), e.atlas.string(), e.name);
        if (!added) continue;
        const SkeletonData& data = added->data();
        for (Index animation = 0; animation < static_cast<Index>(data.animations.size()); ++animation) {
            Player player(data, showcase_skin(data), animation);
            for (int step = 1; step <= 40; ++step) {
                player.step(1.0 / 60);
                if (step % 20 != 0) continue;
                const std::string where =
                    e.binary.filename().string() + " " + data.animation_names[animation] + " step " + std::to_string(step);
                // Twice, the second tinted and translucent: its vertices follow the first's.
                const CharacterDraw characters[2] = {{&player.pose, added->type, Color{}},
                                                     {&player.pose, added->type, Color{0.5f, 0.75f, 1.0f, 0.8f}}};
                // Small enough that every pose is in view (the vertices are in skeleton units whatever the camera).
                const gpu::Camera2D camera{0.01f, k_width / 2.0f, k_height / 2.0f};
                std::vector<DrawnGeometry> drawn;
                for (const RenderPath path : {RenderPath::cpu, RenderPath::gpu, RenderPath::gpu_tiles}) {
                    Result<gpu::FrameStats> frame =
                        renderer->draw(characters, camera, k_width, k_height, k_background, path);
                    ASSERT_TRUE(frame.ok()) << where << ": " << frame.error().message();
                    EXPECT_EQ(frame->characters, 2u) << where;
                    drawn.push_back(read_geometry(*renderer, where));
                }
                most = std::max(most, expect_same_geometry(drawn[1], drawn[0], where + " (gpu path)"));
                most = std::max(most, expect_same_geometry(drawn[2], drawn[0], where + " (gpu_tiles path)"));
                ++poses;
                vertices += drawn[0].vertices.size();
                if (HasFailure()) return;
            }
        }
        expect_no_validation_messages(*renderer);
    }
    EXPECT_GT(poses, 0u);
    EXPECT_GT(vertices, 0u);
    std::printf("%zu poses, %zu vertices, largest position difference %g\n", poses, vertices, most);
}

TEST(SkinningPass, geometry_is_read_back_only_from_a_frame_that_wrote_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    // One frame in flight, so that a failed draw reuses the last frame's slot; indexed draws up to vertex 1000, so
    // that a few spineboys fail the draw after it waited for that slot.
    setenv("SPINEGPU_DIAGNOSE_DRAW_INDEX", "1000", 1);
    gpu::RendererDesc desc;
    desc.validation = true;
    desc.frames_in_flight = 1;
    std::string skip_reason;
    std::unique_ptr<gpu::Renderer> renderer = create_renderer(desc, skip_reason);
    unsetenv("SPINEGPU_DIAGNOSE_DRAW_INDEX");
    if (!renderer) {
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
        return;
    }
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "spineboy");
    ASSERT_TRUE(spineboy.has_value());
    const SkeletonPose pose = setup_pose(spineboy->data(), k_none);
    const gpu::Camera2D camera = fit(pose, spineboy->binding());
    auto refusal = [&](const char* words) {
        Result<DrawnGeometry> read = renderer->read_back_geometry();
        if (read.ok()) return std::string("read back ") + std::to_string(read->vertices.size()) + " vertices";
        const std::string message = read.error().message();
        return message.find(words) != std::string::npos ? std::string() : message;
    };
    EXPECT_EQ(refusal("no frame has been drawn"), "");

    const std::vector<CharacterDraw> one(1, CharacterDraw{&pose, spineboy->type, Color{}});
    ASSERT_TRUE(renderer->draw(one, camera, k_width, k_height, k_background, RenderPath::gpu_vertex));
    EXPECT_EQ(refusal("gpu_vertex path"), "");

    Result<gpu::FrameStats> drawn = renderer->draw(one, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_TRUE(drawn.ok()) << drawn.error().message();
    Result<DrawnGeometry> read = renderer->read_back_geometry();
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->vertices.size(), drawn->vertices);
    EXPECT_EQ(read->indices.size(), std::size_t{drawn->triangles} * 3);
    EXPECT_GT(drawn->vertices, 100u);
    EXPECT_LE(drawn->vertices, 1001u);

    const std::vector<CharacterDraw> many(8, one.front());
    ASSERT_FALSE(renderer->draw(many, camera, k_width, k_height, k_background, RenderPath::gpu).ok());
    EXPECT_EQ(refusal("the last draw failed"), "");
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
