// The tile rasterizer (RenderPath::gpu_tiles) on a real device (lavapipe in CI), with the validation layer: it draws
// the raster pipeline's pixels, for overlapping characters, close-ups whose edges need 64 bits, close-ups whose
// vertices lie beyond its 32-bit grid, tiles with more than 256 characters, frames with more characters than one
// chunk of a tile's bitset, and characters without triangle masks (the pool full or not there), and a character
// whose masks are built in the pool; its coverage masks equal the edge functions at every pixel, and its triangle
// masks their counts. Skipped, with the reason, when no Vulkan device exists.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "renderer_test_support.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// Counts the pixels that a diagnostic build 4 renderer (SPINEGPU_DIAGNOSE_TILES=4) found disagreeing with the edge
// functions after drawing `characters` with `camera`, and returns the covered pixels it checked in `checked`.
std::uint32_t coverage_disagreements(Renderer& renderer, std::span<const CharacterDraw> characters,
                                     const Camera2D& camera, std::uint64_t& checked) {
    Result<FrameStats> frame =
        renderer.draw(characters, camera, k_width, k_height, k_background, RenderPath::gpu_tiles);
    EXPECT_TRUE(frame.ok()) << frame.error().message();
    if (!frame) return ~0u;
    Result<FrameStats> done = renderer.finish();
    EXPECT_TRUE(done.ok()) << done.error().message();
    if (!done) return ~0u;
    checked = done->fragments;
    Result<Image> image = renderer.read_back();
    EXPECT_TRUE(image.ok()) << image.error().message();
    if (!image) return ~0u;
    std::uint32_t disagreeing = 0;
    for (std::size_t i = 0; i < image->rgba.size(); i += 4)
        if (image->rgba[i] != 0 || image->rgba[i + 3] != 255) ++disagreeing;
    return disagreeing;
}

// A renderer whose mask pool holds at most `pool` words (SPINEGPU_DIAGNOSE_MASK_POOL), or as many as frames ask for
// when null; null, with the reason in `skip_reason` (empty after a recorded failure), when there is none.
std::unique_ptr<Renderer> renderer_with_mask_pool(const char* pool, std::string& skip_reason) {
    return pool ? create_renderer_with("SPINEGPU_DIAGNOSE_MASK_POOL", pool, skip_reason) : create_renderer(skip_reason);
}

// 8,300 powerups about 10 px tall over the 160 x 160 target, 300 of them stacked on one spot: about 250
// characters per tile and more than 500 on one, more visible characters than one 256-word chunk of a tile's
// bitset holds.
struct Swarm {
    AddedType powerup;
    std::vector<std::unique_ptr<Player>> players;  // owns the poses
    std::vector<CharacterDraw> characters;
    Camera2D camera{0.05f, 0, static_cast<float>(k_height)};
};

// Loads powerup-pro into `renderer` and makes the swarm; nothing after recording a failure.
std::optional<Swarm> powerup_swarm(Renderer& renderer) {
    std::optional<AddedType> powerup =
        load_type(renderer, "powerup/powerup-pro.skel", "powerup/powerup-pma.atlas", "powerup-pro");
    if (!powerup) return std::nullopt;
    Swarm swarm;
    swarm.powerup = std::move(*powerup);
    const SkeletonData& data = swarm.powerup.data();
    for (int i = 0; i < 8300; ++i) {
        swarm.players.push_back(std::make_unique<Player>(data, k_none, data.animation_names.find("bounce")));
        for (int s = 0; s <= i % 5; ++s) swarm.players.back()->step(1.0 / 30);
        SkeletonPose& pose = swarm.players.back()->pose;
        if (i < 300) {
            pose.x = 1000 + static_cast<float>(i % 3);
            pose.y = 1000 + static_cast<float>(i % 7);
        } else {
            pose.x = static_cast<float>((i % 91) * 35);
            pose.y = static_cast<float>((i / 91) * 35) - 200;
        }
        update_world_transform(pose, Physics::pose);
        swarm.characters.push_back({&pose, swarm.powerup.type, Color{}});
    }
    return swarm;
}

TEST(TileRasterizer, draws_the_pixels_of_the_raster_pipeline) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const std::vector<CharacterDraw>& characters = crowd->characters;
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

TEST(TileRasterizer, coverage_masks_equal_the_edge_functions) {
    // The tile rasterizer's per-row spans (a float estimate settled by the integer edge functions) against the
    // edge functions at every pixel: its diagnostic build 4 paints each pixel where they disagree white.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_TILES", "4");
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const std::vector<CharacterDraw>& characters = crowd->characters;
    // The crowd at three sizes, with cameras off the pixel grid, and one character close up (64-bit edges).
    const Camera2D cameras[] = {{0.12f, 80, 110}, {0.0371f, 80.3f, 90.7f}, {0.61f, 30.25f, 170.5f},
                                {9.0f, -900, 1400}};
    for (const Camera2D& camera : cameras) {
        const bool close = camera.scale > 1;
        std::uint64_t checked = 0;
        const std::uint32_t disagreeing = coverage_disagreements(
            *renderer, close ? std::span<const CharacterDraw>(&characters[1], 1) : characters, camera, checked);
        EXPECT_EQ(disagreeing, 0u) << "pixels whose coverage disagrees, camera scale " << camera.scale;
        EXPECT_GT(checked, 500u) << "covered pixels checked, camera scale " << camera.scale;
    }
    expect_no_validation_messages(*renderer);
}

TEST(TileRasterizer, draws_crowded_tiles_and_thousands_of_characters_with_and_without_masks) {
    // Through the normal renderer, one whose mask pool holds nothing (every character offers all its triangles),
    // and one whose pool fills part way (some characters have masks, the rest not); then the coverage check.
    SPINEGPU_REQUIRE_EXAMPLES();
    const char* pools[] = {nullptr, "0", "3000"};
    for (const char* pool : pools) {
        std::string skip_reason;
        std::unique_ptr<Renderer> renderer = renderer_with_mask_pool(pool, skip_reason);
        if (!renderer) {
            if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
            return;
        }
        std::optional<Swarm> swarm = powerup_swarm(*renderer);
        ASSERT_TRUE(swarm);
        std::uint32_t drawn = 0;
        std::uint64_t shaded = 0;
        const std::uint32_t differing =
            path_differences(*renderer, swarm->characters, swarm->camera, RenderPath::gpu_tiles, drawn, shaded);
        const char* which = pool ? pool : "as needed";
        EXPECT_GT(drawn, k_width * k_height / 2) << "mask pool " << which;
        EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255, mask pool " << which;
        expect_no_validation_messages(*renderer);
    }
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_TILES", "4");
    std::optional<Swarm> swarm = powerup_swarm(*renderer);
    ASSERT_TRUE(swarm);
    std::uint64_t checked = 0;
    EXPECT_EQ(coverage_disagreements(*renderer, swarm->characters, swarm->camera, checked), 0u);
    EXPECT_GT(checked, std::uint64_t{k_width} * k_height);
    expect_no_validation_messages(*renderer);
}

// Draws `characters` into a `width` x `height` target through `path`; the image, and the frame's figures in `stats`.
std::optional<Image> draw_image(Renderer& renderer, std::span<const CharacterDraw> characters, const Camera2D& camera,
                                std::uint32_t width, std::uint32_t height, RenderPath path, FrameStats& stats) {
    Result<FrameStats> frame = renderer.draw(characters, camera, width, height, k_background, path);
    EXPECT_TRUE(frame.ok()) << frame.error().message();
    if (!frame) return std::nullopt;
    Result<FrameStats> done = renderer.finish();
    EXPECT_TRUE(done.ok()) << done.error().message();
    if (!done) return std::nullopt;
    stats = *done;
    Result<Image> image = renderer.read_back();
    EXPECT_TRUE(image.ok()) << image.error().message();
    if (!image) return std::nullopt;
    return std::move(*image);
}

// A raptor-pro walking, drawn as one character filling a `size` x `size` target (`zoom` > 1: magnified about the
// target's centre, past its edges).
struct WalkingRaptor {
    AddedType raptor;
    std::unique_ptr<Player> player;  // owns the pose `character` draws
    CharacterDraw character;
    Camera2D camera;
};

// Loads raptor-pro into `renderer` and steps its walk `steps` times 1/30 s; nothing after recording a failure.
std::optional<WalkingRaptor> walking_raptor(Renderer& renderer, int steps, std::uint32_t size, float zoom) {
    std::optional<AddedType> raptor =
        load_type(renderer, "raptor/raptor-pro.skel", "raptor/raptor-pma.atlas", "raptor-pro");
    if (!raptor) return std::nullopt;
    const SkeletonData& data = raptor->data();
    auto player = std::make_unique<Player>(data, k_none, data.animation_names.find("walk"));
    for (int s = 0; s < steps; ++s) player->step(1.0 / 30);
    const CharacterDraw character{&player->pose, raptor->type, Color{}};
    const Camera2D fitted = fit(player->pose, raptor->binding());
    const float grow = static_cast<float>(size) / static_cast<float>(k_width) * zoom;
    const float centre = static_cast<float>(size) / 2 * (1 - zoom);
    const Camera2D camera{fitted.scale * grow, centre + fitted.ox * grow, centre + fitted.oy * grow};
    return WalkingRaptor{std::move(*raptor), std::move(player), character, camera};
}

TEST(TileRasterizer, builds_the_masks_of_a_character_too_large_for_shared_memory_in_the_pool) {
    // A raptor about 460 pixels across: its masks (about 26 words for each of some 500 tiles) pass the 4,088 words
    // of shared memory, so the triangle pass builds them in the pool. The first frame's pool is a guess; from the
    // second frame on the character has masks, and the pixels are the raster pipeline's. Without a pool it is
    // drawn without masks, and counted.
    SPINEGPU_REQUIRE_EXAMPLES();
    constexpr std::uint32_t k_size = 512;
    for (const char* pool : {static_cast<const char*>(nullptr), "0"}) {
        std::string skip_reason;
        std::unique_ptr<Renderer> renderer = renderer_with_mask_pool(pool, skip_reason);
        if (!renderer) {
            if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
            return;
        }
        std::optional<WalkingRaptor> r = walking_raptor(*renderer, 7, k_size, 1);
        ASSERT_TRUE(r);
        FrameStats stats;
        std::optional<Image> tiles;
        for (int frame = 0; frame < 2; ++frame)
            tiles = draw_image(*renderer, {&r->character, 1}, r->camera, k_size, k_size, RenderPath::gpu_tiles, stats);
        ASSERT_TRUE(tiles);
        EXPECT_EQ(stats.unmasked, pool ? 1u : 0u) << "characters without masks, mask pool " << (pool ? pool : "");
        FrameStats raster_stats;
        std::optional<Image> raster =
            draw_image(*renderer, {&r->character, 1}, r->camera, k_size, k_size, RenderPath::gpu, raster_stats);
        ASSERT_TRUE(raster);
        const std::uint32_t drawn = pixels_off_background(*raster);
        std::uint32_t differing = 0;
        for (std::size_t i = 0; i < raster->rgba.size(); ++i)
            if (std::abs(int(raster->rgba[i]) - int(tiles->rgba[i])) > 2) ++differing;
        EXPECT_GT(drawn, k_size * k_size / 8);
        EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255, mask pool " << (pool ? pool : "");
        expect_no_validation_messages(*renderer);
    }
}

TEST(TileRasterizer, pool_masks_equal_their_counts_in_frames_that_reuse_the_pool) {
    // The raptor above walking over six frames, which reuse each frame slot's pool (so that one not cleared would
    // show): the diagnostic build checks every mask against its count, and coverage against the edge functions.
    SPINEGPU_REQUIRE_EXAMPLES();
    constexpr std::uint32_t k_size = 512;
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_TILES", "4");
    std::optional<WalkingRaptor> r = walking_raptor(*renderer, 1, k_size, 1);
    ASSERT_TRUE(r);
    for (int frame = 0; frame < 6; ++frame) {
        FrameStats stats;
        std::optional<Image> checked =
            draw_image(*renderer, {&r->character, 1}, r->camera, k_size, k_size, RenderPath::gpu_tiles, stats);
        ASSERT_TRUE(checked);
        std::uint32_t disagreeing = 0;
        for (std::size_t i = 0; i < checked->rgba.size(); i += 4)
            if (checked->rgba[i] != 0 || checked->rgba[i + 3] != 255) ++disagreeing;
        EXPECT_EQ(disagreeing, 0u) << "pixels of wrong masks or coverage, frame " << frame;
        if (frame > 0) {
            EXPECT_EQ(stats.unmasked, 0u) << "characters without masks, frame " << frame;
        }
        EXPECT_GT(stats.fragments, k_size * k_size / 8) << "covered pixels checked, frame " << frame;
        r->player->step(1.0 / 10);
    }
    expect_no_validation_messages(*renderer);
}

TEST(TileRasterizer, a_character_filling_a_4096_pixel_view_gets_masks_from_its_second_frame) {
    // A raptor magnified past a 4,096-pixel target, whose masks (some 1.6 million words) ask for more than one
    // character adds to the count with a plain atomic: the count takes them all, so the second frame's pool has
    // room for them.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    constexpr std::uint32_t k_huge = 4096;
    std::optional<WalkingRaptor> r = walking_raptor(*renderer, 1, k_huge, 1.5f);
    ASSERT_TRUE(r);
    Result<FrameStats> done = FrameStats{};
    for (int frame = 0; frame < 2 && done; ++frame) {
        Result<FrameStats> drawn =
            renderer->draw({&r->character, 1}, r->camera, k_huge, k_huge, k_background, RenderPath::gpu_tiles);
        ASSERT_TRUE(drawn.ok()) << drawn.error().message();
        done = renderer->finish();
    }
    ASSERT_TRUE(done.ok()) << done.error().message();
    EXPECT_EQ(done->unmasked, 0u) << "characters without masks";
    EXPECT_GT(done->fragments, std::uint64_t{k_huge} * k_huge / 8);
    expect_no_validation_messages(*renderer);
}

// A one-slot mesh skeleton written in a test, with a one-page 64 x 64 atlas whose region is named `name`, and its
// setup pose.
struct TestMesh {
    std::string name;
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    SkeletonPose pose;
};

// Loads `json` as a TestMesh; null after recording a failure.
std::unique_ptr<TestMesh> load_test_mesh(const char* json, const std::string& name) {
    Result<SkeletonData> data = load_skeleton_json(json, name + ".json");
    Result<Atlas> atlas = parse_atlas(name + ".png\nsize: 64, 64\nfilter: Linear, Linear\n" + name +
                                          "\n  bounds: 0, 0, 64, 64\n",
                                      name + ".atlas");
    if (!data || !atlas) {
        ADD_FAILURE() << (data ? atlas.error().message() : data.error().message());
        return nullptr;
    }
    Result<AtlasBinding> binding = bind_atlas(*data, *atlas);
    if (!binding) {
        ADD_FAILURE() << binding.error().message();
        return nullptr;
    }
    auto mesh =
        std::make_unique<TestMesh>(TestMesh{name, std::move(*data), std::move(*atlas), std::move(*binding), {}});
    mesh->pose = create_pose(mesh->data);
    update_world_transform(mesh->pose, Physics::none);
    return mesh;
}

// A renderer (built with SPINEGPU_DIAGNOSE_TILES=4 when `diagnostic`) with `mesh` added as a type whose page's texel
// (x, y) is texel(x, y) (RGBA, straight); `character` draws the mesh's pose. Null, with the reason in `skip_reason`
// (empty after a recorded failure), when there is none.
std::unique_ptr<Renderer> renderer_with_mesh(bool diagnostic, TestMesh& mesh,
                                             std::array<std::uint8_t, 4> (*texel)(std::uint32_t, std::uint32_t),
                                             CharacterDraw& character, std::string& skip_reason) {
    std::unique_ptr<Renderer> renderer = diagnostic
                                             ? create_renderer_with("SPINEGPU_DIAGNOSE_TILES", "4", skip_reason)
                                             : create_renderer(skip_reason);
    if (!renderer) return nullptr;
    Image page;
    page.width = page.height = 64;
    for (std::uint32_t y = 0; y < 64; ++y)
        for (std::uint32_t x = 0; x < 64; ++x) {
            const std::array<std::uint8_t, 4> rgba = texel(x, y);
            page.rgba.insert(page.rgba.end(), rgba.begin(), rgba.end());
        }
    std::vector<Image> pages;
    pages.push_back(std::move(page));
    Result<std::uint32_t> type =
        renderer->add_skeleton_type(mesh.data, mesh.atlas, mesh.binding, std::move(pages), mesh.name);
    if (!type) {
        ADD_FAILURE() << type.error().message();
        return nullptr;
    }
    character = CharacterDraw{&mesh.pose, *type, Color{}};
    return renderer;
}

// Draws `character` with `camera` into a `size` x `size` target through gpu and gpu_tiles; how many pixels differ by
// more than 2/255 in some channel, and in `drawn` the gpu path's pixels off the background, and in `changes` how
// often a pixel's red differs from the one before it (more than one colour drawn).
std::uint32_t pixels_between_paths(Renderer& renderer, const CharacterDraw& character, const Camera2D& camera,
                                   std::uint32_t size, std::uint32_t& drawn, std::uint32_t& changes) {
    FrameStats stats;
    std::optional<Image> raster = draw_image(renderer, {&character, 1}, camera, size, size, RenderPath::gpu, stats);
    std::optional<Image> tiles =
        draw_image(renderer, {&character, 1}, camera, size, size, RenderPath::gpu_tiles, stats);
    if (!raster || !tiles) return ~0u;
    drawn = pixels_off_background(*raster);
    changes = 0;
    std::uint32_t differing = 0;
    for (std::size_t i = 0; i < raster->rgba.size(); i += 4) {
        bool off = false;
        for (std::size_t c = i; c < i + 4; ++c) off = off || std::abs(raster->rgba[c] - tiles->rgba[c]) > 2;
        differing += off ? 1 : 0;
        changes += i > 0 && raster->rgba[i] != raster->rgba[i - 4] ? 1 : 0;
    }
    return differing;
}

// A fan of four triangles around an inner vertex E, inside the hull A B D C (coordinates off any round value, so
// that no edge runs exactly through pixel centres, where rounding decides; two triangles wound each way), drawn from
// a translucent page: a pixel covered twice or not at all along a shared edge shows.
constexpr const char* k_fan_skeleton = R"({"skeleton": {"spine": "4.2.00"},
"bones": [{"name": "root"}],
"slots": [{"name": "s", "bone": "root", "attachment": "fan"}],
"skins": [{"name": "default", "attachments": {"s": {"fan": {"type": "mesh", "hull": 4,
  "uvs": [0.02,0.97, 0.96,0.91, 0.93,0.08, 0.11,0.03, 0.31,0.42],
  "triangles": [0,1,4, 1,2,4, 2,4,3, 3,4,0],
  "vertices": [-101.37,-79.13, 118.61,-61.29, 109.83,97.41, 9.47,151.73, -20.5,40.3]}}}}]})";

TEST(TileRasterizer, draws_close_ups_whose_vertices_lie_millions_of_pixels_away_as_the_raster_pipeline_does) {
    // Magnified 20,000 to 2.5 million times, the fan's far vertices lie some 3 million to 400 million pixels away,
    // beyond the 2^21 pixels within which the tile rasterizer snaps vertices to its 32-bit grid: the edges through
    // them are set up per tile from their places in floats. Views of a vertex with its edges, of a hull edge, of
    // inner edges that two triangles share (one with both ends within the grid, between triangles with one vertex
    // beyond it), each through gpu and gpu_tiles: the same pixels, within DESIGN.md's bar between paths (at most
    // 0.1% of the covered pixels off by more than 2/255: not the other tile tests' stricter count of channels,
    // because the raster pipeline is not exact here: lavapipe clips a triangle that reaches so far past the view in
    // floats, which moves its edges by hundredths of a pixel, more the farther its vertices lie; the hull edge B D
    // has 6 pixel centres of its 160 on the other side, and one already where its vertices lie within the grid and
    // the tile rasterizer's setup is the usual one; on the H200, none); and in the diagnostic build, coverage equal
    // to the edge functions at every pixel. (With the vertices clamped to the grid, every view was 8,000 to 64,000
    // channels off.)
    std::unique_ptr<TestMesh> fan = load_test_mesh(k_fan_skeleton, "fan");
    ASSERT_TRUE(fan);
    // The world point at the target's centre, and the magnification.
    struct View {
        const char* name;
        float x, y, scale;
    };
    const View views[] = {{"the inner vertex E", -20.5f, 40.3f, 100003.7f},
                          {"the hull vertex A", -101.37f, -79.13f, 31234.5f},
                          {"the hull edge B D, 0.37 of the way", 115.3614f, -2.571f, 100003.7f},
                          {"the inner edge E B, 0.4 of the way", 35.144f, -0.336f, 100003.7f},
                          // (A and E within the grid, B, C and D beyond: triangles with one far vertex.)
                          {"the inner edge A E, half way", -60.935f, -19.415f, 20000.3f},
                          {"the inner vertex E", -20.5f, 40.3f, 2500017.3f}};
    for (const bool diagnostic : {false, true}) {
        std::string skip_reason;
        CharacterDraw character;
        std::unique_ptr<Renderer> renderer = renderer_with_mesh(
            diagnostic, *fan, [](std::uint32_t x, std::uint32_t y) {
                return std::array<std::uint8_t, 4>{std::uint8_t(x * 4), std::uint8_t(y * 4), 200, 160};
            },
            character, skip_reason);
        if (!renderer) {
            if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
            return;
        }
        for (const View& view : views) {
            SCOPED_TRACE(std::string(view.name) + " magnified " + std::to_string(view.scale) + " times" +
                         (diagnostic ? ", coverage check" : ""));
            // (The point a little off the pixel grid.)
            const Camera2D camera{view.scale, k_width / 2.0f + 0.37f - view.scale * view.x,
                                  k_height / 2.0f + 0.61f + view.scale * view.y};
            if (diagnostic) {
                std::uint64_t checked = 0;
                EXPECT_EQ(coverage_disagreements(*renderer, {&character, 1}, camera, checked), 0u);
                EXPECT_GT(checked, 1000u) << "covered pixels checked";
                continue;
            }
            std::uint32_t drawn = 0, changes = 0;
            const std::uint32_t differing = pixels_between_paths(*renderer, character, camera, k_width, drawn, changes);
            EXPECT_GT(drawn, 1000u);
            EXPECT_LE(differing, drawn / 1000) << "pixels off by more than 2/255";
        }
        expect_no_validation_messages(*renderer);
    }
}

// Four triangles around O = (0, 0), one in each quadrant between the axes, each with its own copies of its vertices
// and its own colour (its UVs inside one quadrant of a page of four colours), two wound each way: their shared edges
// lie on the axes, so which triangle covers a pixel centre on an axis shows.
constexpr const char* k_cross_skeleton = R"({"skeleton": {"spine": "4.2.00"},
"bones": [{"name": "root"}],
"slots": [{"name": "s", "bone": "root", "attachment": "cross"}],
"skins": [{"name": "default", "attachments": {"s": {"cross": {"type": "mesh", "hull": 12,
  "uvs": [0.2,0.2, 0.2,0.3, 0.3,0.2,  0.7,0.2, 0.7,0.3, 0.8,0.2,  0.2,0.7, 0.2,0.8, 0.3,0.7,
          0.7,0.7, 0.7,0.8, 0.8,0.7],
  "triangles": [0,1,2, 3,4,5, 6,7,8, 9,10,11],
  "vertices": [0,0, 0,100, 100,0,  0,0, 0,-100, 100,0,  0,0, 0,-100, -100,0,  0,0, 0,100, -100,0]}}}}]})";

TEST(TileRasterizer, far_edges_through_pixel_centres_follow_the_top_left_rule_as_the_raster_pipeline_does) {
    // The cross magnified 100,000 times in a 128 x 128 target, its outer vertices 10 million pixels away, its x axis
    // on pixel centres (y = 64.5): every pixel centre on it lies exactly on two triangles' edges, and the top-left
    // rule gives it to the one below. On lavapipe the raster pipeline's edges are exact, even clipped (the clipped
    // vertex keeps the axis coordinate), so the two paths must agree on every pixel. (The y axis is put between pixel
    // centres, x = 64.25: the root bone's y axis leans by cos(90 degrees) in floats, so its far vertices lie some 0.4
    // pixel off it, and a pixel centre on it would be a near tie that lavapipe's snapped clipped vertices decide.)
    // Views of O (edges with one end beyond the grid) and of each axis 50 units out (both ends beyond it); then the
    // coverage check.
    std::unique_ptr<TestMesh> cross = load_test_mesh(k_cross_skeleton, "cross");
    ASSERT_TRUE(cross);
    constexpr std::uint32_t k_size = 128;
    constexpr float k_scale = 100000, k_x = 64.25f, k_y = 64.5f;
    const Camera2D cameras[] = {
        {k_scale, k_x, k_y}, {k_scale, k_x, k_y + k_scale * 50}, {k_scale, k_x - k_scale * 50, k_y}};
    for (const bool diagnostic : {false, true}) {
        std::string skip_reason;
        CharacterDraw character;
        std::unique_ptr<Renderer> renderer = renderer_with_mesh(
            diagnostic, *cross, [](std::uint32_t x, std::uint32_t y) {
                const bool right = x >= 32, low = y >= 32;
                return std::array<std::uint8_t, 4>{std::uint8_t(right ? 40 : 230), std::uint8_t(low ? 200 : 60),
                                                   std::uint8_t(right != low ? 220 : 30), 255};
            },
            character, skip_reason);
        if (!renderer) {
            if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;
            return;
        }
        for (const Camera2D& camera : cameras) {
            SCOPED_TRACE("camera " + std::to_string(camera.ox) + ", " + std::to_string(camera.oy) +
                         (diagnostic ? ", coverage check" : ""));
            if (diagnostic) {
                FrameStats stats;
                std::optional<Image> tiles =
                    draw_image(*renderer, {&character, 1}, camera, k_size, k_size, RenderPath::gpu_tiles, stats);
                ASSERT_TRUE(tiles);
                std::uint32_t disagreeing = 0;
                for (std::size_t i = 0; i < tiles->rgba.size(); i += 4)
                    if (tiles->rgba[i] != 0 || tiles->rgba[i + 3] != 255) ++disagreeing;
                EXPECT_EQ(disagreeing, 0u);
                EXPECT_EQ(stats.fragments, k_size * k_size) << "covered pixels checked, each once";
                continue;
            }
            FrameStats stats;
            std::optional<Image> raster =
                draw_image(*renderer, {&character, 1}, camera, k_size, k_size, RenderPath::gpu, stats);
            std::optional<Image> tiles =
                draw_image(*renderer, {&character, 1}, camera, k_size, k_size, RenderPath::gpu_tiles, stats);
            ASSERT_TRUE(raster && tiles);
            // A pixel centre the raster pipeline gave to no triangle (the cross fills the view) is a gap: a hardware
            // clipper may move an edge 10 million pixels long apart for the two triangles sharing it and leave the
            // centres between them uncovered (the H200's does on the x axis left of O in the first view:
            // docs/PERFORMANCE.md, session 26); lavapipe's clipped edges stay exact. A gap is allowed only there,
            // off lavapipe, and the tile path must give it to the triangle below, as the next row shows it. (This
            // branch has not run on hardware yet; the H200's images came from `spinegpu render`.)
            const bool software = renderer->device_name().find("llvmpipe") != std::string::npos;
            const std::uint32_t axis_row = static_cast<std::uint32_t>(k_y);
            auto pixel = [&](const Image& image, std::uint32_t x, std::uint32_t y) {
                return image.rgba.data() + (std::size_t{y} * k_size + x) * 4;
            };
            auto close = [](const std::uint8_t* a, const std::uint8_t* b) {
                for (int c = 0; c < 4; ++c)
                    if (std::abs(a[c] - b[c]) > 2) return false;
                return true;
            };
            std::uint32_t differing = 0, gaps = 0, changes = 0;
            for (std::uint32_t y = 0; y < k_size; ++y) {
                for (std::uint32_t x = 0; x < k_size; ++x) {
                    const std::uint8_t* r = pixel(*raster, x, y);
                    const std::uint8_t* t = pixel(*tiles, x, y);
                    changes += (x > 0 || y > 0) && r[0] != r[-4] ? 1 : 0;  // against the pixel before it
                    if (off_background(*raster, std::size_t{y} * k_size + x)) {
                        differing += close(r, t) ? 0 : 1;
                        continue;
                    }
                    ++gaps;
                    const bool allowed = !software && &camera == &cameras[0] && y == axis_row &&
                                         close(t, pixel(*raster, x, y + 1));
                    differing += allowed ? 0 : 1;
                }
            }
            EXPECT_EQ(differing, 0u) << "pixels off by more than 2/255, or gaps in the raster pipeline's image ("
                                     << gaps << ") where none is allowed";
            EXPECT_GT(changes, 0u) << "the view shows more than one triangle";
        }
        expect_no_validation_messages(*renderer);
    }
}

// On lavapipe: llvmpipe ends every loop of a shader invocation after 65,535 passes in all, so a tile holding a stack
// of hundreds of characters cannot be drawn by one workgroup there. Such a frame fails, naming the limit and the gpu
// path, where it used to come out as garbage (most of the tile never written); a stack under the limit draws the
// raster pipeline's pixels. (Other drivers have no such guard: skipped there.)
TEST(TileRasterizer, a_tile_past_llvmpipes_loop_guard_fails_the_frame_instead_of_drawing_it_wrong) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    if (renderer->device_name().find("llvmpipe") == std::string::npos)
        GTEST_SKIP() << "only llvmpipe guards loops this way: " << renderer->device_name();
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    Player player(spineboy->data(), k_none, spineboy->data().animation_names.find("walk"));
    player.step(1.0 / 60);
    const Camera2D camera{0.02f, 8, 14};  // spineboy about 12 pixels tall in a 16 x 16 target: one tile
    for (std::size_t stack : {300u, 700u}) {
        const std::vector<CharacterDraw> characters(stack, CharacterDraw{&player.pose, spineboy->type, Color{}});
        std::vector<Image> images;
        for (RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles}) {
            Result<FrameStats> frame = renderer->draw(characters, camera, 16, 16, k_background, path);
            ASSERT_TRUE(frame.ok()) << frame.error().message();
            Result<Image> image = renderer->read_back();
            if (stack == 700 && path == RenderPath::gpu_tiles) {
                ASSERT_FALSE(image.ok()) << "a stack of 700 drawn through the tile path on " << renderer->device_name();
                EXPECT_NE(image.error().message().find("65,535"), std::string::npos) << image.error().message();
                EXPECT_NE(image.error().message().find("gpu path"), std::string::npos) << image.error().message();
                continue;
            }
            ASSERT_TRUE(image.ok()) << image.error().message();
            images.push_back(std::move(*image));
        }
        if (stack == 300) {
            ASSERT_EQ(images.size(), 2u);
            EXPECT_GT(pixels_off_background(images[0]), 50u);
            std::uint32_t differing = 0;
            for (std::size_t i = 0; i < images[0].rgba.size(); ++i)
                differing += std::abs(int(images[0].rgba[i]) - int(images[1].rgba[i])) > 2 ? 1 : 0;
            EXPECT_EQ(differing, 0u);
        }
    }
    // The renderer draws on after the failed frame.
    const std::vector<CharacterDraw> one{CharacterDraw{&player.pose, spineboy->type, Color{}}};
    ASSERT_TRUE(renderer->draw(one, camera, 16, 16, k_background, RenderPath::gpu_tiles).ok());
    ASSERT_TRUE(renderer->read_back().ok());
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
