// The skinning pass (skin.comp) read back from the device and compared with the CPU path's vertices, vertex for
// vertex: the draw lists, clipping, colours, materials, UVs and triangles exactly, the skinned positions within a
// float rounding's reach. Pixels (renderer_test.cpp) would hide a vertex off by less than a pixel, or one whose
// colour the blend happens to hide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "renderer_test_support.hpp"

namespace spinegpu::test {
namespace {

using gpu::CharacterDraw;
using gpu::DrawnGeometry;
using gpu::RenderPath;

TEST(SkinningPass, writes_what_the_cpu_path_writes_for_every_example_animation_of_every_type_in_one_frame) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    // Every example skeleton as a type of one renderer (each type's attachments, setup lists and slots then lie at
    // offsets past the others'), with its straight or, every other one, its premultiplied atlas.
    std::vector<AddedType> types;
    for (const ExampleSkeleton& e : example_skeletons()) {
        const std::string atlas = (types.size() % 2 == 0 ? e.atlas : e.pma_atlas).string();
        std::optional<AddedType> added = load_type(*renderer, e.binary.string(), atlas, e.name);
        if (added) types.push_back(std::move(*added));
    }
    ASSERT_FALSE(HasFailure());
    std::size_t rounds = 0;
    for (const AddedType& t : types) rounds = std::max(rounds, t.data().animations.size());
    // Small enough that every pose is in view (the vertices are in skeleton units whatever the camera).
    const gpu::Camera2D camera{0.01f, k_width / 2.0f, k_height / 2.0f};
    std::size_t frames = 0, vertices = 0;
    float most = 0;
    // Round r: each type plays its animation r (modulo its count), stepped to 20 and 40 steps.
    for (std::size_t r = 0; r < rounds; ++r) {
        std::vector<std::unique_ptr<Player>> players;
        for (const AddedType& t : types)
            players.push_back(std::make_unique<Player>(t.data(), showcase_skin(t.data()),
                                                       static_cast<Index>(r % t.data().animations.size())));
        for (int step = 1; step <= 40; ++step) {
            for (auto& player : players) player->step(1.0 / 60);
            if (step % 20 != 0) continue;
            const std::string where = "round " + std::to_string(r) + " step " + std::to_string(step);
            // Each pose twice, the second time tinted and translucent, after all the firsts.
            std::vector<CharacterDraw> characters;
            for (const Color tint : {Color{}, Color{0.5f, 0.75f, 1.0f, 0.8f}})
                for (std::size_t i = 0; i < types.size(); ++i)
                    characters.push_back({&players[i]->pose, types[i].type, tint});
            std::vector<DrawnGeometry> drawn;
            for (const RenderPath path : {RenderPath::cpu, RenderPath::gpu, RenderPath::gpu_tiles}) {
                Result<gpu::FrameStats> frame =
                    renderer->draw(characters, camera, k_width, k_height, k_background, path);
                ASSERT_TRUE(frame.ok()) << where << ": " << frame.error().message();
                EXPECT_EQ(frame->characters, characters.size()) << where;
                drawn.push_back(read_geometry(*renderer, where));
            }
            most = std::max(most, expect_same_geometry(drawn[1], drawn[0], where + " (gpu path)"));
            most = std::max(most, expect_same_geometry(drawn[2], drawn[0], where + " (gpu_tiles path)"));
            ++frames;
            vertices += drawn[0].vertices.size();
            if (HasFailure()) return;
        }
    }
    expect_no_validation_messages(*renderer);
    EXPECT_GE(types.size(), 8u);
    EXPECT_GT(vertices, 0u);
    std::printf("%zu types, %zu frames, %zu vertices, largest position difference %g\n", types.size(), frames,
                vertices, most);
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
