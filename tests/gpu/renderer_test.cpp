// The renderer on a real device (lavapipe in CI, the hardware driver where there is one), with the validation layer:
// an empty frame is the background, a frame with spineboy draws him, characters of two types draw in one frame,
// a pose job updates each range before it is packed, and types can only be added before the first frame. Skipped, with the reason, when no Vulkan device exists.
#include <gtest/gtest.h>

#include <span>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

constexpr std::uint32_t k_width = 160, k_height = 160;
const Color k_background{0.2f, 0.4f, 0.6f, 1.0f};

// Creates a renderer with validation; null (the caller skips) when there is no Vulkan device or loader. Any other
// failure fails the test.
std::unique_ptr<Renderer> create_renderer(std::string& skip_reason) {
    RendererDesc desc;
    desc.validation = true;
    Result<std::unique_ptr<Renderer>> r = Renderer::create(desc);
    if (r) return std::move(*r);
    const Error& e = r.error();
    if (e.file == "vulkan" && (e.where == "instance" || e.where == "devices" || e.where == "vkCreateInstance"))
        skip_reason = e.message();
    else
        ADD_FAILURE() << e.message();
    return nullptr;
}

#define SPINEGPU_REQUIRE_RENDERER(name)                                    \
    std::string skip_reason;                                               \
    std::unique_ptr<Renderer> name = create_renderer(skip_reason);         \
    if (!name) {                                                           \
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;             \
        return;                                                            \
    }

// An example skeleton with its page images, ready for add_skeleton_type.
struct DrawableType {
    std::unique_ptr<LoadedSkeleton> loaded;
    std::vector<Image> pages;
};

std::unique_ptr<DrawableType> load_drawable(const std::string& skeleton, const std::string& atlas) {
    auto out = std::make_unique<DrawableType>();
    out->loaded = load_skeleton_and_atlas(skeleton, atlas);
    if (!out->loaded) return nullptr;
    for (std::size_t i = 0; i < out->loaded->atlas.pages.size(); ++i) {
        Result<Image> image = load_image_file(atlas_page_path(out->loaded->atlas, static_cast<Index>(i)));
        if (!image) {
            ADD_FAILURE() << image.error().message();
            return nullptr;
        }
        out->pages.push_back(std::move(*image));
    }
    return out;
}

// Adds an example skeleton to the renderer as a skeleton type (its page images move into the renderer).
Result<std::uint32_t> add_type(Renderer& renderer, DrawableType& drawable, const std::string& name) {
    return renderer.add_skeleton_type(drawable.loaded->data, drawable.loaded->atlas, drawable.loaded->binding,
                                      std::move(drawable.pages), name);
}

// An example skeleton loaded and added to a renderer as a skeleton type.
struct AddedType {
    std::unique_ptr<DrawableType> drawable;  // keeps the skeleton data the renderer reads alive
    std::uint32_t type = 0;
    const SkeletonData& data() const { return drawable->loaded->data; }
    const AtlasBinding& binding() const { return drawable->loaded->binding; }
};

// Loads an example skeleton and adds it to `renderer` as a type named `name`; nothing after recording a failure.
std::optional<AddedType> load_type(Renderer& renderer, const std::string& skeleton, const std::string& atlas,
                                   const std::string& name) {
    AddedType out{load_drawable(skeleton, atlas)};
    if (!out.drawable) {
        ADD_FAILURE() << "cannot load " << skeleton;
        return std::nullopt;
    }
    Result<std::uint32_t> type = add_type(renderer, *out.drawable, name);
    if (!type) {
        ADD_FAILURE() << type.error().message();
        return std::nullopt;
    }
    out.type = *type;
    return out;
}

// A camera that fits the pose's bounds into the target with a margin.
Camera2D fit(const SkeletonPose& pose, const AtlasBinding& binding) {
    float x = 0, y = 0, w = 0, h = 0;
    if (!skeleton_bounds(pose, binding, x, y, w, h)) return {1, k_width / 2.0f, k_height / 2.0f};
    const float scale = 0.9f * std::min(k_width / std::max(w, 1.0f), k_height / std::max(h, 1.0f));
    return {scale, k_width / 2.0f - scale * (x + w / 2), k_height / 2.0f + scale * (y + h / 2)};
}

// Whether pixel `index` differs from the background by more than a rounding step.
bool off_background(const Image& image, std::size_t index) {
    const float bg[4] = {k_background.r, k_background.g, k_background.b, k_background.a};
    for (std::size_t k = 0; k < 4; ++k)
        if (std::abs(static_cast<float>(image.rgba[index * 4 + k]) - bg[k] * 255.0f) > 1.5f) return true;
    return false;
}

std::uint32_t pixels_off_background(const Image& image) {
    std::uint32_t count = 0;
    for (std::size_t p = 0; p < image.rgba.size() / 4; ++p) count += off_background(image, p) ? 1 : 0;
    return count;
}

void expect_no_validation_messages(const Renderer& renderer) {
    EXPECT_EQ(renderer.validation_messages(), 0u) << renderer.first_validation_message();
}

TEST(Renderer, empty_frame_is_the_background) {
    SPINEGPU_REQUIRE_RENDERER(renderer);
    for (RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles}) {
        Result<FrameStats> frame = renderer->draw({}, Camera2D{}, k_width, k_height, k_background, path);
        ASSERT_TRUE(frame.ok()) << frame.error().message();
        EXPECT_EQ(frame->characters, 0u);
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << image.error().message();
        ASSERT_EQ(image->width, k_width);
        ASSERT_EQ(image->height, k_height);
        EXPECT_EQ(pixels_off_background(*image), 0u);
    }
    expect_no_validation_messages(*renderer);
}

// Draws `characters` through the gpu path and through `other` and returns how many channels differ by more than
// 2/255; `drawn` gets the gpu path's pixels off the background and `shaded` the other path's fragment count.
std::uint32_t path_differences(Renderer& renderer, std::span<const CharacterDraw> characters, const Camera2D& camera,
                               RenderPath other, std::uint32_t& drawn, std::uint64_t& shaded) {
    std::vector<Image> images;
    for (RenderPath path : {RenderPath::gpu, other}) {
        Result<FrameStats> frame = renderer.draw(characters, camera, k_width, k_height, k_background, path);
        EXPECT_TRUE(frame.ok()) << frame.error().message();
        if (!frame) return ~0u;
        Result<FrameStats> done = renderer.finish();
        if (path == other && done) shaded = done->fragments;
        Result<Image> image = renderer.read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        if (!image) return ~0u;
        images.push_back(std::move(*image));
    }
    drawn = pixels_off_background(images[0]);
    std::uint32_t differing = 0;
    for (std::size_t i = 0; i < images[0].rgba.size(); ++i)
        if (std::abs(int(images[0].rgba[i]) - int(images[1].rgba[i])) > 2) ++differing;
    return differing;
}

// Forty overlapping spineboys in different animations and phases, some tinted and translucent: many characters
// per tile, whose order must hold. `players` owns the poses that `characters` points at.
void spineboy_crowd(const AddedType& spineboy, std::vector<std::unique_ptr<Player>>& players,
                    std::vector<CharacterDraw>& characters) {
    const SkeletonData& data = spineboy.data();
    const char* animations[] = {"run", "shoot", "walk", "portal"};
    for (int i = 0; i < 40; ++i) {
        players.push_back(std::make_unique<Player>(data, k_none, data.animation_names.find(animations[i % 4])));
        for (int s = 0; s <= i % 7; ++s) players.back()->step(1.0 / 30);
        players.back()->pose.x = static_cast<float>((i % 8) * 90 - 320);
        players.back()->pose.y = static_cast<float>((i / 8) * 60 - 120);
        update_world_transform(players.back()->pose, Physics::pose);
        const float shade = 0.5f + 0.5f * static_cast<float>(i % 3) / 2.0f;
        characters.push_back(
            {&players.back()->pose, spineboy.type, Color{1, shade, shade, i % 5 == 0 ? 0.6f : 1.0f}});
    }
}

TEST(Renderer, tile_rasterizer_draws_the_pixels_of_the_raster_pipeline) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    std::vector<std::unique_ptr<Player>> players;
    std::vector<CharacterDraw> characters;
    spineboy_crowd(*spineboy, players, characters);
    std::uint32_t drawn = 0;
    std::uint64_t shaded = 0;
    const std::uint32_t differing =
        path_differences(*renderer, characters, Camera2D{0.12f, 80, 110}, RenderPath::gpu_tiles, drawn, shaded);
    EXPECT_GT(drawn, k_width * k_height / 4);
    EXPECT_GE(shaded, drawn) << "the tile rasterizer counts every covered pixel it shades";
    EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255";

    // One character so close that its triangles span far more than a tile and reach past the target: the edge
    // functions need 64 bits there.
    std::uint32_t close_drawn = 0;
    const std::uint32_t close_differing =
        path_differences(*renderer, {&characters[1], 1}, Camera2D{9.0f, -900, 1400}, RenderPath::gpu_tiles,
                         close_drawn, shaded);
    EXPECT_GT(close_drawn, k_width * k_height / 4);
    EXPECT_LE(close_differing, close_drawn / 1000) << "channels off by more than 2/255, close up";
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, tile_coverage_masks_equal_the_edge_functions) {
    // The tile rasterizer's per-row spans (a float estimate settled by the integer edge functions) against the
    // edge functions at every pixel: its diagnostic build 4 paints each pixel where they disagree white.
    SPINEGPU_REQUIRE_EXAMPLES();
    setenv("SPINEGPU_DIAGNOSE_TILES", "4", 1);
    std::string skip_reason;
    std::unique_ptr<Renderer> renderer = create_renderer(skip_reason);
    unsetenv("SPINEGPU_DIAGNOSE_TILES");
    if (!renderer) {
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
        return;
    }
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    std::vector<std::unique_ptr<Player>> players;
    std::vector<CharacterDraw> characters;
    spineboy_crowd(*spineboy, players, characters);
    // The crowd at three sizes, with cameras off the pixel grid, and one character close up (64-bit edges).
    const Camera2D cameras[] = {{0.12f, 80, 110}, {0.0371f, 80.3f, 90.7f}, {0.61f, 30.25f, 170.5f},
                                {9.0f, -900, 1400}};
    for (const Camera2D& camera : cameras) {
        const bool close = camera.scale > 1;
        Result<FrameStats> frame =
            renderer->draw(close ? std::span<const CharacterDraw>(&characters[1], 1) : characters, camera, k_width,
                           k_height, k_background, RenderPath::gpu_tiles);
        ASSERT_TRUE(frame.ok()) << frame.error().message();
        Result<FrameStats> done = renderer->finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << image.error().message();
        std::uint32_t disagreeing = 0;
        for (std::size_t i = 0; i < image->rgba.size(); i += 4)
            if (image->rgba[i] != 0 || image->rgba[i + 3] != 255) ++disagreeing;
        EXPECT_EQ(disagreeing, 0u) << "pixels whose coverage disagrees, camera scale " << camera.scale;
        EXPECT_GT(done->fragments, 500u) << "covered pixels checked, camera scale " << camera.scale;
    }
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, pose_job_updates_each_range_before_it_is_packed) {
    // The same crowd stepped one frame before draw(), and stepped inside draw() by a pose job on two threads (ranges
    // run concurrently): the same image, and every character stepped exactly once.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    WorkerPool pool(2);
    renderer->set_worker_pool(&pool);
    const Camera2D camera{0.12f, 80, 110};
    std::vector<Image> images;
    std::vector<int> steps;
    for (bool in_pack : {false, true}) {
        std::vector<std::unique_ptr<Player>> players;
        std::vector<CharacterDraw> characters;
        spineboy_crowd(*spineboy, players, characters);
        steps.assign(players.size(), 0);
        struct Context {
            std::vector<std::unique_ptr<Player>>* players;
            std::vector<int>* steps;
        } context{&players, &steps};
        const PoseJob job{[](void* raw, std::size_t begin, std::size_t end) {
                              auto& x = *static_cast<Context*>(raw);
                              for (std::size_t i = begin; i < end; ++i) {
                                  (*x.players)[i]->step(1.0 / 30);
                                  ++(*x.steps)[i];
                              }
                          },
                          &context};
        if (!in_pack) job.run(job.context, 0, players.size());
        Result<FrameStats> frame =
            renderer->draw(characters, camera, k_width, k_height, k_background, RenderPath::gpu, in_pack ? job : PoseJob{});
        ASSERT_TRUE(frame.ok()) << frame.error().message();
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << image.error().message();
        images.push_back(std::move(*image));
        for (std::size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(steps[i], 1) << "character " << i;
    }
    EXPECT_GT(pixels_off_background(images[0]), k_width * k_height / 4);
    EXPECT_EQ(images[0].rgba, images[1].rgba);
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, draws_spineboy_on_both_paths_without_validation_messages) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    const SkeletonData& data = spineboy->data();
    Player player(data, k_none, data.animation_names.find("walk"));
    for (int i = 0; i < 10; ++i) player.step(1.0 / 60);
    const CharacterDraw character{&player.pose, spineboy->type, Color{}};
    const Camera2D camera = fit(player.pose, spineboy->binding());
    for (RenderPath path : {RenderPath::gpu, RenderPath::cpu}) {
        const char* name = path == RenderPath::gpu ? "gpu" : "cpu";
        Result<FrameStats> frame = renderer->draw({&character, 1}, camera, k_width, k_height, k_background, path);
        ASSERT_TRUE(frame.ok()) << name << ": " << frame.error().message();
        EXPECT_EQ(frame->characters, 1u) << name;
        EXPECT_GT(frame->triangles, 0u) << name;
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << name << ": " << image.error().message();
        const std::uint32_t drawn = pixels_off_background(*image);
        std::cout << renderer->device_name() << ", " << name << " path: spineboy covers " << drawn << " of "
                  << k_width * k_height << " pixels\n";
        if (const char* dir = std::getenv("SPINEGPU_TEST_IMAGES"); dir && *dir) {
            Result<void> written = write_png_file(std::string(dir) + "/spineboy_" + name + ".png", *image);
            EXPECT_TRUE(written.ok()) << written.error().message();
        }
        EXPECT_GT(drawn, k_width * k_height / 50) << name << ": spineboy covers too few pixels";
        EXPECT_LT(drawn, k_width * k_height) << name;
    }
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, vertex_shader_path_draws_the_pixels_of_the_skinning_pass) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    const SkeletonData& data = spineboy->data();
    // Two characters overlapping, one tinted: the per-type instanced draw must keep their order.
    Player a(data, k_none, data.animation_names.find("run")), b(data, k_none, data.animation_names.find("shoot"));
    for (int i = 0; i < 12; ++i) {
        a.step(1.0 / 60);
        b.step(1.0 / 60);
    }
    const CharacterDraw characters[2] = {{&a.pose, spineboy->type, Color{}},
                                         {&b.pose, spineboy->type, Color{1, 0.6f, 0.6f, 0.8f}}};
    std::uint32_t drawn = 0;
    std::uint64_t shaded = 0;
    const std::uint32_t differing = path_differences(*renderer, characters, fit(a.pose, spineboy->binding()),
                                                     RenderPath::gpu_vertex, drawn, shaded);
    EXPECT_GT(drawn, k_width * k_height / 50);
    EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255";
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, draws_characters_of_two_types_in_one_frame) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "spineboy-pro");
    std::optional<AddedType> goblins =
        load_type(*renderer, "goblins/goblins-pro.skel", "goblins/goblins-pma.atlas", "goblins-pro");
    ASSERT_TRUE(spineboy && goblins);
    const SkeletonData& boy = spineboy->data();
    const SkeletonData& goblin = goblins->data();
    const std::uint32_t boy_type = spineboy->type, goblin_type = goblins->type;
    EXPECT_NE(boy_type, goblin_type);

    Player a(boy, k_none, boy.animation_names.find("run"));
    Player b(goblin, showcase_skin(goblin), goblin.animation_names.find("walk"));
    for (int i = 0; i < 10; ++i) a.step(1.0 / 60), b.step(1.0 / 60);
    // Spineboy on the left half, the goblin on the right: both fit in 1,000 world units at scale 0.08.
    b.pose.x = 1000;
    update_world_transform(b.pose, Physics::pose);
    const CharacterDraw characters[] = {{&a.pose, boy_type, Color{}}, {&b.pose, goblin_type, Color{}}};
    const Camera2D camera{0.08f, 40.0f, 140.0f};
    Result<FrameStats> frame = renderer->draw(characters, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_TRUE(frame.ok()) << frame.error().message();
    EXPECT_EQ(frame->characters, 2u);
    Result<Image> image = renderer->read_back();
    ASSERT_TRUE(image.ok()) << image.error().message();
    std::uint32_t left = 0, right = 0;
    for (std::uint32_t y = 0; y < k_height; ++y)
        for (std::uint32_t x = 0; x < k_width; ++x)
            if (off_background(*image, std::size_t{y} * k_width + x)) ++(x < k_width / 2 ? left : right);
    EXPECT_GT(left, 50u) << "spineboy (type " << boy_type << ") not drawn";
    EXPECT_GT(right, 50u) << "goblin (type " << goblin_type << ") not drawn";
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, add_skeleton_type_after_the_first_frame_fails) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    auto spineboy = load_drawable("spineboy/spineboy-ess.skel", "spineboy/spineboy.atlas");
    auto late = load_drawable("spineboy/spineboy-ess.skel", "spineboy/spineboy.atlas");
    ASSERT_NE(spineboy, nullptr);
    ASSERT_NE(late, nullptr);
    Result<std::uint32_t> type = add_type(*renderer, *spineboy, "spineboy-ess");
    ASSERT_TRUE(type.ok()) << type.error().message();
    Result<FrameStats> frame = renderer->draw({}, Camera2D{}, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_TRUE(frame.ok()) << frame.error().message();
    Result<std::uint32_t> again = add_type(*renderer, *late, "late");
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().message().find("before the first frame"), std::string::npos) << again.error().message();
    // The renderer still draws the type it has.
    Player player(spineboy->loaded->data, k_none, 0);
    player.step(1.0 / 60);
    const CharacterDraw character{&player.pose, *type, Color{}};
    frame = renderer->draw({&character, 1}, fit(player.pose, spineboy->loaded->binding), k_width, k_height,
                           k_background, RenderPath::gpu);
    ASSERT_TRUE(frame.ok()) << frame.error().message();
    Result<Image> image = renderer->read_back();
    ASSERT_TRUE(image.ok()) << image.error().message();
    EXPECT_GT(pixels_off_background(*image), 0u);
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
