// The renderer at the edges of what it takes (lavapipe in CI, the hardware driver where there is one; validation on):
// a clip that starts past 65,535 vertices of its character clips as the CPU path does, a refused target size (or one
// the device cannot make) leaves the last frame to read back, a frame past the device's largest draw index is refused
// on the indexed paths, and atlas pages past the page array are refused naming each type, for good.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// A skeleton whose clipping polygon comes after 66,000 vertices in draw order: two meshes of 33,000 vertices, all on
// the origin (they draw nothing), then a clip over the left half of a 100 x 100 white square centred on the origin.
std::string clip_after_many_vertices_skeleton() {
    constexpr int k_mesh_vertices = 33000;
    std::string uvs, vertices;
    for (int v = 0; v < k_mesh_vertices; ++v) {
        uvs += v == 0 ? "0,0" : ",0,0";
        vertices += v == 0 ? "0,0" : ",0,0";
    }
    const std::string mesh = R"({"type": "mesh", "path": "white", "hull": 3, "triangles": [0, 1, 2], "uvs": [)" + uvs +
                             R"(], "vertices": [)" + vertices + "]}";
    return R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}],
"slots": [{"name": "a", "bone": "root", "attachment": "big"}, {"name": "b", "bone": "root", "attachment": "big"},
          {"name": "clip", "bone": "root", "attachment": "clip"}, {"name": "c", "bone": "root", "attachment": "white"}],
"skins": [{"name": "default", "attachments": {"a": {"big": )" +
           mesh + R"(}, "b": {"big": )" + mesh + R"(},
  "clip": {"clip": {"type": "clipping", "end": "c", "vertexCount": 4, "vertices": [-50,-50, 0,-50, 0,50, -50,50]}},
  "c": {"white": {"width": 100, "height": 100}}}}]})";
}

// An atlas of `blank` one-pixel pages without regions, then a 4 x 4 page with the region "white" over all of it.
Result<Atlas> atlas_after_blank_pages(int blank, const std::string& file) {
    std::string text;
    for (int page = 0; page < blank; ++page)
        text.append("blank").append(std::to_string(page)).append(".png\nsize: 1, 1\n\n");
    text += k_white_atlas;
    return parse_atlas(text, file);
}

// The skeleton above with a white page.
using ClipFar = TextSkeleton;

// Loads ClipFar; null after recording a failure.
std::unique_ptr<ClipFar> load_clip_far() {
    return load_text_skeleton(clip_after_many_vertices_skeleton(), "clip-far.json", k_white_atlas, "white.atlas");
}

// Adds `clip_far` to `renderer` as the skeleton type "clip-far".
Result<std::uint32_t> add_clip_far(Renderer& renderer, const ClipFar& clip_far) {
    return renderer.add_skeleton_type(clip_far.data, clip_far.atlas, clip_far.binding, white_pages(1, 4), "clip-far");
}

// Declares `renderer`, holding ClipFar as its one skeleton type, and `character`, ClipFar's setup pose on it (its data
// in `clip_far`); or records the failure, or skips, and returns.
#define SPINEGPU_CLIP_FAR_CHARACTER(renderer, character)                        \
    std::unique_ptr<ClipFar> clip_far = load_clip_far();                       \
    ASSERT_NE(clip_far, nullptr);                                              \
    SPINEGPU_REQUIRE_RENDERER(renderer);                                       \
    Result<std::uint32_t> clip_far_type = add_clip_far(*renderer, *clip_far); \
    ASSERT_TRUE(clip_far_type.ok()) << clip_far_type.error().message();        \
    const CharacterDraw character{&clip_far->pose, *clip_far_type, Color{}}

TEST(Renderer, a_clip_past_65535_vertices_of_its_character_clips_as_the_cpu_path_does) {
    // The skinning pass once kept a clip's first vertex in 16 bits: past 65,535 it clipped with other vertices.
    SPINEGPU_CLIP_FAR_CHARACTER(renderer, character);
    const Camera2D camera{1, 80, 80};  // the square covers pixels 30 to 130 on both axes
    for (const RenderPath other : {RenderPath::cpu, RenderPath::gpu_tiles}) {
        std::uint32_t drawn = 0;
        std::uint64_t shaded = 0;
        EXPECT_EQ(path_differences(*renderer, {&character, 1}, camera, other, drawn, shaded), 0u)
            << "gpu against " << (other == RenderPath::cpu ? "cpu" : "gpu_tiles");
        // The left half of the square: 50 x 100 pixels.
        EXPECT_NEAR(static_cast<double>(drawn), 5000.0, 200.0);
    }
    Result<FrameStats> frame =
        renderer->draw({&character, 1}, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_TRUE(frame.ok()) << frame.error().message();
    Result<Image> image = renderer->read_back();
    ASSERT_TRUE(image.ok()) << image.error().message();
    EXPECT_TRUE(off_background(*image, 80u * k_width + 55u)) << "the left half is not drawn";
    EXPECT_FALSE(off_background(*image, 80u * k_width + 105u)) << "the right half is not clipped";
    expect_no_validation_messages(*renderer);
}

// Slots clip, a, b and after (in draw order): a clipping attachment of `count` vertices (`vertices`) ending at b, then
// three 20 x 20 white squares side by side, centred on x -30, 0 and 30.
std::string short_clip_skeleton(int count, const std::string& vertices) {
    return R"({"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
  "slots": [{"name": "clip", "bone": "root", "attachment": "c"},
            {"name": "a", "bone": "root", "attachment": "white"}, {"name": "b", "bone": "root", "attachment": "white"},
            {"name": "after", "bone": "root", "attachment": "white"}],
  "skins": [{"name": "default", "attachments": {
    "clip": {"c": {"type": "clipping", "end": "b", "vertexCount": )" +
           std::to_string(count) + R"(, "vertices": [)" + vertices + R"(]}},
    "a": {"white": {"x": -30, "width": 20, "height": 20}}, "b": {"white": {"width": 20, "height": 20}},
    "after": {"white": {"x": 30, "width": 20, "height": 20}}}}]})";
}

TEST(Renderer, a_clip_of_fewer_than_three_vertices_clips_all_it_covers_away) {
    // As the official SkeletonClipping: its polygon triangulates to nothing, so the squares of slots a and b (its end)
    // vanish and only the square after it is drawn, on every path.
    Result<Atlas> atlas = atlas_after_blank_pages(0, "white.atlas");
    ASSERT_TRUE(atlas.ok()) << atlas.error().message();
    for (const auto& [count, vertices] :
         {std::pair{0, ""}, std::pair{1, "-100,-100"}, std::pair{2, "-100,-100, 9,9"}}) {
        Result<SkeletonData> data = load_skeleton_json(short_clip_skeleton(count, vertices), "short-clip.json");
        ASSERT_TRUE(data.ok()) << data.error().message();
        Result<AtlasBinding> binding = bind_atlas(*data, *atlas);
        ASSERT_TRUE(binding.ok()) << binding.error().message();
        SPINEGPU_REQUIRE_RENDERER(renderer);
        Result<std::uint32_t> type =
            renderer->add_skeleton_type(*data, *atlas, *binding, white_pages(1, 4), "short-clip");
        ASSERT_TRUE(type.ok()) << type.error().message();
        SkeletonPose pose = create_pose(*data);
        update_world_transform(pose, Physics::none);
        const CharacterDraw character{&pose, *type, Color{}};
        for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_tiles}) {
            ASSERT_TRUE(renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background, path));
            Result<Image> image = renderer->read_back();
            ASSERT_TRUE(image.ok()) << image.error().message();
            EXPECT_NEAR(static_cast<double>(pixels_off_background(*image)), 400.0, 40.0)
                << count << " vertices, path " << static_cast<int>(path);
            EXPECT_TRUE(off_background(*image, 80u * k_width + 110u)) << "the square after the clip is not drawn";
        }
        expect_no_validation_messages(*renderer);
    }
}

TEST(Renderer, a_refused_target_size_leaves_the_last_frame_to_read_back) {
    SPINEGPU_CLIP_FAR_CHARACTER(renderer, character);
    ASSERT_TRUE(renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background, RenderPath::gpu));
    Result<Image> first = renderer->read_back();
    ASSERT_TRUE(first.ok()) << first.error().message();
    for (const std::uint32_t size : {0u, 1u << 20}) {
        Result<FrameStats> refused =
            renderer->draw({&character, 1}, Camera2D{1, 80, 80}, size, size, k_background, RenderPath::gpu);
        ASSERT_FALSE(refused.ok()) << "a " << size << "x" << size << " target accepted";
        EXPECT_NE(refused.error().message().find("target"), std::string::npos) << refused.error().message();
        Result<Image> again = renderer->read_back();
        ASSERT_TRUE(again.ok()) << again.error().message();
        EXPECT_EQ(again->width, k_width);
        EXPECT_EQ(again->rgba, first->rgba);
    }
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, a_target_the_device_cannot_make_leaves_the_last_frame_and_the_renderer_drawing) {
    SPINEGPU_CLIP_FAR_CHARACTER(renderer, character);
    const Camera2D camera{1, 80, 80};
    ASSERT_TRUE(renderer->draw({&character, 1}, camera, k_width, k_height, k_background, RenderPath::gpu_tiles));
    Result<Image> first = renderer->read_back();
    ASSERT_TRUE(first.ok()) << first.error().message();
    // The larger target fails as if the device's memory ran out, after the smaller one was drawn with every path's
    // descriptor sets pointing at it.
    setenv("SPINEGPU_DIAGNOSE_TARGET_PIXELS", std::to_string(k_width * k_height).c_str(), 1);
    Result<FrameStats> failed =
        renderer->draw({&character, 1}, camera, 2 * k_width, 2 * k_height, k_background, RenderPath::gpu_tiles);
    unsetenv("SPINEGPU_DIAGNOSE_TARGET_PIXELS");
    ASSERT_FALSE(failed.ok()) << "the diagnostic switch made no failure";
    EXPECT_NE(failed.error().message().find("vkAllocateMemory"), std::string::npos) << failed.error().message();
    Result<Image> kept = renderer->read_back();
    ASSERT_TRUE(kept.ok()) << kept.error().message();
    EXPECT_EQ(kept->width, k_width);
    EXPECT_EQ(kept->rgba, first->rgba);
    // The old target still takes frames on every path, and a larger one can be made once memory allows.
    for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_tiles}) {
        Result<FrameStats> again = renderer->draw({&character, 1}, camera, k_width, k_height, k_background, path);
        ASSERT_TRUE(again.ok()) << again.error().message();
    }
    Result<Image> redrawn = renderer->read_back();
    ASSERT_TRUE(redrawn.ok()) << redrawn.error().message();
    EXPECT_EQ(redrawn->rgba, first->rgba);
    ASSERT_TRUE(
        renderer->draw({&character, 1}, camera, 2 * k_width, 2 * k_height, k_background, RenderPath::gpu_tiles));
    Result<Image> larger = renderer->read_back();
    ASSERT_TRUE(larger.ok()) << larger.error().message();
    EXPECT_EQ(larger->width, 2 * k_width);
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, a_frame_past_the_devices_largest_draw_index_is_refused_on_the_indexed_paths) {
    // As on a device without fullDrawIndexUint32, whose indexed draws may reach only vertex 2^24 - 1: here 1000, and
    // ClipFar draws 66,000 vertices and more.
    std::unique_ptr<ClipFar> clip_far = load_clip_far();
    ASSERT_NE(clip_far, nullptr);
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_DRAW_INDEX", "1000");
    Result<std::uint32_t> type = add_clip_far(*renderer, *clip_far);
    ASSERT_TRUE(type.ok()) << type.error().message();
    const CharacterDraw character{&clip_far->pose, *type, Color{}};
    for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu}) {
        Result<FrameStats> refused =
            renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background, path);
        ASSERT_FALSE(refused.ok()) << "a frame of 66,000 vertices drawn with indices up to 1000";
        EXPECT_NE(refused.error().message().find("past the 1001 one indexed draw reaches"), std::string::npos)
            << refused.error().message();
    }
    // The tile path draws without an index buffer.
    Result<FrameStats> tiles =
        renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background, RenderPath::gpu_tiles);
    EXPECT_TRUE(tiles.ok()) << tiles.error().message();
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, atlas_pages_past_the_page_array_are_refused_naming_each_type_for_good) {
    // 258 pages over two types (one-pixel ones, and each a white page for the square): past the 256 layers.
    Result<Atlas> many = atlas_after_blank_pages(200, "many.atlas"), more = atlas_after_blank_pages(56, "more.atlas");
    ASSERT_TRUE(many.ok()) << many.error().message();
    ASSERT_TRUE(more.ok()) << more.error().message();
    Result<SkeletonData> data = load_skeleton_json(clip_after_many_vertices_skeleton(), "clip-far.json");
    ASSERT_TRUE(data.ok()) << data.error().message();
    Result<AtlasBinding> many_binding = bind_atlas(*data, *many), more_binding = bind_atlas(*data, *more);
    ASSERT_TRUE(many_binding.ok()) << many_binding.error().message();
    ASSERT_TRUE(more_binding.ok()) << more_binding.error().message();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::vector<Image> many_pages = white_pages(201, 1), more_pages = white_pages(57, 1);
    many_pages.back() = white_pages(1, 4).front();
    more_pages.back() = white_pages(1, 4).front();
    ASSERT_TRUE(renderer->add_skeleton_type(*data, *many, *many_binding, std::move(many_pages), "many.skel"));
    ASSERT_TRUE(renderer->add_skeleton_type(*data, *more, *more_binding, std::move(more_pages), "more.skel"));
    SkeletonPose pose = create_pose(*data);
    update_world_transform(pose, Physics::none);
    const CharacterDraw character{&pose, 0, Color{}};
    std::string first_error;
    for (int attempt = 0; attempt < 2; ++attempt) {
        Result<FrameStats> frame =
            renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background, RenderPath::gpu);
        ASSERT_FALSE(frame.ok()) << "258 pages drawn";
        const std::string message = frame.error().message();
        EXPECT_NE(message.find("258 pages"), std::string::npos) << message;
        EXPECT_NE(message.find("many.skel: 201"), std::string::npos) << message;
        EXPECT_NE(message.find("more.skel: 57"), std::string::npos) << message;
        if (attempt == 0) first_error = message;
        else EXPECT_EQ(message, first_error) << "the second draw did not give the first one's error";
    }
    Result<std::uint32_t> late = renderer->add_skeleton_type(*data, *many, *many_binding, white_pages(201, 1), "late");
    ASSERT_FALSE(late.ok()) << "a type added after the failed upload";
    EXPECT_NE(late.error().message().find(first_error), std::string::npos) << late.error().message();
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
