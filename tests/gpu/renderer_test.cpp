// The renderer on a real device (lavapipe in CI, the hardware driver where there is one), with the validation layer: an
// empty frame is the background, a frame with spineboy draws him, characters of two types draw in one frame, a pose job
// updates each range before it is packed, characters keep their places among thousands culled, frames and skeleton
// types past one storage buffer are refused, page images that do not fit the atlas and a character of an unknown type
// are refused, and types can only be added before the first frame. Skipped, with the reason, when no Vulkan device
// exists. (The tile rasterizer's own tests: tile_rasterizer_test.cpp.)
#include <gtest/gtest.h>

#include <span>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/gpu/static_skeleton.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

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

TEST(Renderer, pose_job_updates_each_range_before_it_is_packed) {
    // The same crowd stepped one frame before draw(), and stepped inside draw() by a pose job on two threads (ranges
    // run concurrently), in the draw list's order and in an order of its own (reversed, with a swap: the job's ranges
    // are positions in it): the same image, and every character stepped exactly once. An order that is not a
    // permutation of the draw list is refused.
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
    for (int mode : {0, 1, 2}) {  // stepped before draw(), in the pack in list order, in its own order
        const bool in_pack = mode != 0;
        std::vector<std::unique_ptr<Player>> players;
        std::vector<CharacterDraw> characters;
        spineboy_crowd(*spineboy, players, characters);
        steps.assign(players.size(), 0);
        std::vector<std::uint32_t> order;
        if (mode == 2) {
            for (std::size_t i = players.size(); i-- > 0;) order.push_back(static_cast<std::uint32_t>(i));
            std::swap(order[0], order[order.size() / 2]);
        }
        struct Context {
            std::vector<std::unique_ptr<Player>>* players;
            std::vector<int>* steps;
            const std::vector<std::uint32_t>* order;
        } context{&players, &steps, &order};
        PoseJob job{[](void* raw, std::size_t begin, std::size_t end) {
                        auto& x = *static_cast<Context*>(raw);
                        for (std::size_t k = begin; k < end; ++k) {
                            const std::size_t i = x.order->empty() ? k : (*x.order)[k];
                            (*x.players)[i]->step(1.0 / 30);
                            ++(*x.steps)[i];
                        }
                    },
                    &context, order};
        if (mode == 2) {
            std::vector<std::uint32_t> twice = order;
            twice[1] = twice[0];
            PoseJob wrong = job;
            wrong.order = twice;
            Result<FrameStats> refused = renderer->draw(characters, camera, k_width, k_height, k_background,
                                                        RenderPath::gpu, wrong);
            ASSERT_FALSE(refused.ok());
            EXPECT_NE(refused.error().message().find("PoseJob::order[1] is"), std::string::npos)
                << refused.error().message();
            wrong.order = std::span<const std::uint32_t>(order).first(order.size() - 1);
            EXPECT_FALSE(renderer->draw(characters, camera, k_width, k_height, k_background, RenderPath::gpu, wrong)
                             .ok());
            for (int count : steps) ASSERT_EQ(count, 0) << "a refused draw ran the job";
        }
        if (!in_pack) job.run(job.context, 0, players.size());
        Result<FrameStats> frame =
            renderer->draw(characters, camera, k_width, k_height, k_background, RenderPath::gpu,
                           in_pack ? job : PoseJob{});
        ASSERT_TRUE(frame.ok()) << frame.error().message();
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << image.error().message();
        images.push_back(std::move(*image));
        for (std::size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(steps[i], 1) << "character " << i;
    }
    EXPECT_GT(pixels_off_background(images[0]), k_width * k_height / 4);
    EXPECT_EQ(images[0].rgba, images[1].rgba);
    EXPECT_EQ(images[0].rgba, images[2].rgba);
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

// Adds spineboy-pro, then goblins-pro, to `renderer` as two types; false after recording a failure.
bool load_spineboy_and_goblins(Renderer& renderer, std::optional<AddedType>& spineboy,
                               std::optional<AddedType>& goblins) {
    spineboy = load_type(renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "spineboy-pro");
    goblins = load_type(renderer, "goblins/goblins-pro.skel", "goblins/goblins-pma.atlas", "goblins-pro");
    return spineboy && goblins;
}

TEST(Renderer, draws_characters_of_two_types_in_one_frame) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy, goblins;
    ASSERT_TRUE(load_spineboy_and_goblins(*renderer, spineboy, goblins));
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

TEST(Renderer, characters_that_send_no_draw_list_draw_their_skins_setup_list_in_every_type) {
    // Characters in their skin's setup pose send no draw list (FramePacker's tests show it): the passes read their
    // type's setup list for that skin instead. Goblins are the second type, so their lists start past spineboy's;
    // one goblin hides its head and sends its list. The CPU path builds its vertices from the poses alone.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy, goblins;
    ASSERT_TRUE(load_spineboy_and_goblins(*renderer, spineboy, goblins));
    const SkeletonData& goblin = goblins->data();
    const Index goblin_skin = goblin.skin_names.find("goblin"), girl_skin = goblin.skin_names.find("goblingirl");
    const Index head = goblin.slot_names.find("head");
    ASSERT_TRUE(goblin_skin != k_none && girl_skin != k_none && head != k_none);
    auto posed = [](const SkeletonData& data, Index skin, float x, float y) {
        SkeletonPose pose = setup_pose(data, skin);
        pose.x = x;
        pose.y = y;
        update_world_transform(pose, Physics::pose);
        return pose;
    };
    SkeletonPose boy = posed(spineboy->data(), k_none, 0, 0);
    SkeletonPose a = posed(goblin, goblin_skin, 650, 0), b = posed(goblin, girl_skin, 0, 750);
    SkeletonPose headless = posed(goblin, goblin_skin, 650, 750);
    ASSERT_NE(headless.slots[static_cast<std::size_t>(head)].attachment, k_none);
    set_slot_attachment(headless, head, k_none);
    const CharacterDraw characters[] = {{&boy, spineboy->type, Color{}},
                                        {&a, goblins->type, Color{}},
                                        {&b, goblins->type, Color{}},
                                        {&headless, goblins->type, Color{}}};
    const Camera2D camera{0.1f, 40.0f, 150.0f};
    for (RenderPath other : {RenderPath::cpu, RenderPath::gpu_vertex}) {
        std::uint32_t drawn = 0;
        std::uint64_t shaded = 0;
        const std::uint32_t differing = path_differences(*renderer, characters, camera, other, drawn, shaded);
        EXPECT_GT(drawn, k_width * k_height / 20);  // the four characters cover 7% of the target
        EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255 against path " << int(other);
    }
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, visible_characters_keep_their_places_among_thousands_culled_and_empty_ones) {
    // The places passes scan the draw list in blocks of k_places_workgroup characters. The forty spineboys of the
    // crowd spread over 9,000 entries (over 70 blocks, the middle third none of them), among characters outside the
    // view (packed as their type only) and characters in view that draw nothing (no vertices), must draw exactly as
    // the forty alone, on the three GPU paths, and as the CPU path draws the same list.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const SkeletonData& data = crowd->spineboy.data();
    const std::uint32_t type = crowd->spineboy.type;
    Player away(data, k_none, data.animation_names.find("run"));
    away.pose.x = 1.0e6f;
    update_world_transform(away.pose, Physics::pose);
    Player empty(data, k_none, data.animation_names.find("walk"));
    for (SlotPose& slot : empty.pose.slots) slot.attachment = k_none;
    const std::size_t count = 9000;
    std::vector<CharacterDraw> list(count, CharacterDraw{&away.pose, type, Color{}});
    for (std::size_t k = 0; k < crowd->characters.size(); ++k)
        list[k < 20 ? 37 + k * 151 : 6000 + (k - 20) * 147] = crowd->characters[k];
    std::uint32_t empties = 0;
    for (std::size_t i = 101; i < count && empties < 30; i += 293)
        if (list[i].pose == &away.pose) list[i] = CharacterDraw{&empty.pose, type, Color{}}, ++empties;
    ASSERT_EQ(empties, 30u);
    static_assert(6000 - 2906 > 2 * k_places_workgroup, "the gap between the first twenty and the rest spans blocks");

    const Camera2D camera{0.12f, 80, 110};
    auto image_of = [&](std::span<const CharacterDraw> characters, RenderPath path) -> std::optional<Image> {
        Result<FrameStats> frame = renderer->draw(characters, camera, k_width, k_height, k_background, path);
        EXPECT_TRUE(frame.ok()) << frame.error().message();
        if (!frame.ok()) return std::nullopt;
        if (characters.size() == count) {
            EXPECT_EQ(frame->characters, 70u);
            EXPECT_EQ(frame->culled, count - 70);
        }
        Result<Image> image = renderer->read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        if (!image.ok()) return std::nullopt;
        return std::move(*image);
    };
    for (RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles, RenderPath::gpu_vertex}) {
        const char* name = path == RenderPath::gpu ? "gpu" : path == RenderPath::gpu_tiles ? "gpu_tiles" : "gpu_vertex";
        std::optional<Image> alone = image_of(crowd->characters, path);
        std::optional<Image> among = image_of(list, path);
        ASSERT_TRUE(alone && among) << name;
        EXPECT_GT(pixels_off_background(*alone), k_width * k_height / 4) << name;
        EXPECT_TRUE(alone->rgba == among->rgba) << name << ": the forty draw differently among the others";
    }
    std::uint32_t drawn = 0;
    std::uint64_t shaded = 0;
    const std::uint32_t differing = path_differences(*renderer, list, camera, RenderPath::cpu, drawn, shaded);
    EXPECT_GT(drawn, k_width * k_height / 4);
    EXPECT_LE(differing, drawn / 1000) << "channels off by more than 2/255 against the CPU path";
    expect_no_validation_messages(*renderer);
}

TEST(Renderer, frames_and_skeleton_types_past_one_storage_buffer_are_refused_by_name) {
    // SPINEGPU_DIAGNOSE_STORAGE_RANGE lowers the range one storage buffer covers, as a device with a small
    // maxStorageBufferRange would have it. The gpu and cpu paths' output arrays (vertices, and indices where the GPU
    // writes them) must fit it: at exactly their size the forty draw as without the cap, a byte less and the frame is
    // refused with the output and its size named (gpu_tiles too, which writes the same outputs), while gpu_vertex (no
    // output arrays) still draws. Past it, the packed arrays of a long draw list and the skeleton types' static arrays
    // are refused too, and a refused frame leaves the renderer usable.
    SPINEGPU_REQUIRE_EXAMPLES();
    struct Drawn { FrameStats stats; Image image; };
    auto draw = [](Renderer& renderer, std::span<const CharacterDraw> characters, RenderPath path) -> Result<Drawn> {
        Result<FrameStats> frame =
            renderer.draw(characters, Camera2D{0.12f, 80, 110}, k_width, k_height, k_background, path);
        if (!frame) return frame.error();
        Result<Image> image = renderer.read_back();
        if (!image) return image.error();
        return Drawn{*frame, std::move(*image)};
    };
    const RenderPath paths[] = {RenderPath::gpu, RenderPath::gpu_tiles, RenderPath::gpu_vertex, RenderPath::cpu};
    auto name_of = [](RenderPath path) {
        return path == RenderPath::gpu         ? "gpu"
               : path == RenderPath::gpu_tiles ? "gpu_tiles"
               : path == RenderPath::gpu_vertex ? "gpu_vertex"
                                                : "cpu";
    };
    std::vector<Drawn> uncapped;
    std::uint64_t static_bytes = 0, bone_bytes = 0;
    {
        SPINEGPU_REQUIRE_RENDERER(renderer);
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
        ASSERT_TRUE(crowd);
        for (RenderPath path : paths) {
            Result<Drawn> drawn = draw(*renderer, crowd->characters, path);
            ASSERT_TRUE(drawn.ok()) << name_of(path) << ": " << drawn.error().message();
            uncapped.push_back(std::move(*drawn));
        }
        const StaticSkeleton& bind = renderer->skeleton_type(crowd->spineboy.type);
        static_bytes = std::max({bind.influences.size() * sizeof(GpuInfluence),
                                 bind.vertices.size() * sizeof(GpuBindVertex), bind.indices.size() * 4,
                                 bind.attachments.size() * sizeof(GpuAttachment)});
        bone_bytes = crowd->characters.size() * bind.drawn_bones.size() * k_bone_bytes;
    }
    // What each path's frame reads or writes through one storage buffer at most, and the words naming it when it
    // passes `cap`.
    auto output_bytes = [&](std::size_t p) {
        const FrameStats& stats = uncapped[p].stats;
        const std::uint64_t vertices = std::uint64_t{stats.vertices} * sizeof(GpuOutVertex);
        return paths[p] == RenderPath::cpu ? vertices : std::max(vertices, std::uint64_t{stats.triangles} * 12);
    };
    auto refusal = [&](std::size_t p, std::uint64_t cap) {
        const FrameStats& stats = uncapped[p].stats;
        const std::uint64_t vertices = std::uint64_t{stats.vertices} * sizeof(GpuOutVertex);
        return vertices > cap ? std::to_string(stats.vertices) + " output vertices (" + std::to_string(vertices)
                              : std::to_string(stats.triangles * 3) + " output indices (" +
                                    std::to_string(std::uint64_t{stats.triangles} * 12);
    };
    ASSERT_LT(std::max(static_bytes, bone_bytes), output_bytes(0)) << "the test needs outputs larger than the rest";
    ASSERT_LT(std::max(static_bytes, bone_bytes), output_bytes(3)) << "the test needs outputs larger than the rest";
    for (std::size_t p : {std::size_t{0}, std::size_t{3}}) {
        const std::uint64_t need = output_bytes(p);
        for (std::uint64_t cap : {need, need - 1}) {
            SCOPED_TRACE(std::string(name_of(paths[p])) + "'s outputs with a range of " + std::to_string(cap));
            SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_STORAGE_RANGE",
                                                 std::to_string(cap).c_str());
            std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
            ASSERT_TRUE(crowd);
            Result<Drawn> drawn = draw(*renderer, crowd->characters, paths[p]);
            if (cap == need) {
                ASSERT_TRUE(drawn.ok()) << drawn.error().message();
                EXPECT_TRUE(drawn->image.rgba == uncapped[p].image.rgba) << "drawn otherwise than without the cap";
            } else {
                ASSERT_FALSE(drawn.ok());
                EXPECT_NE(drawn.error().message().find(refusal(p, cap)), std::string::npos)
                    << drawn.error().message();
                if (paths[p] == RenderPath::gpu) {
                    Result<Drawn> tiles = draw(*renderer, crowd->characters, RenderPath::gpu_tiles);
                    ASSERT_FALSE(tiles.ok()) << "gpu_tiles writes the same outputs";
                    EXPECT_NE(tiles.error().message().find(refusal(p, cap)), std::string::npos)
                        << tiles.error().message();
                }
            }
            // The vertex-shader path has no output arrays; it draws after a refused frame as without the cap.
            Result<Drawn> collapsed = draw(*renderer, crowd->characters, RenderPath::gpu_vertex);
            ASSERT_TRUE(collapsed.ok()) << collapsed.error().message();
            EXPECT_TRUE(collapsed->image.rgba == uncapped[2].image.rgba) << "gpu_vertex drawn otherwise";
            // Thousands of characters: their packed bones pass the range, and the frame is refused before packing.
            std::vector<CharacterDraw> list(9000, crowd->characters[0]);
            Result<Drawn> many = draw(*renderer, list, RenderPath::gpu);
            ASSERT_FALSE(many.ok());
            EXPECT_NE(many.error().message().find("too many characters"), std::string::npos)
                << many.error().message();
            expect_no_validation_messages(*renderer);
        }
    }
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_STORAGE_RANGE",
                                         std::to_string(static_bytes - 1).c_str());
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    Result<Drawn> drawn = draw(*renderer, crowd->characters, RenderPath::gpu);
    ASSERT_FALSE(drawn.ok());
    EXPECT_EQ(drawn.error().where, "skeleton types") << drawn.error().message();
    EXPECT_NE(drawn.error().message().find("more than one storage buffer"), std::string::npos)
        << drawn.error().message();
}

// A mesh of three vertices and 40 triangles over them (the same one repeated): its output indices take 480 bytes per
// character against 3 output vertices, so a frame's indices pass the storage range before its vertices do.
constexpr const char* k_dense_triangle_skeleton = R"({"skeleton": {"spine": "4.2.00"},
"bones": [{"name": "root"}],
"slots": [{"name": "s", "bone": "root", "attachment": "m"}],
"skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1],
  "triangles": [0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2,
                0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2,
                0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2,
                0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2, 0,1,2],
  "vertices": [-40,-40, 40,-40, 40,40]}}}}]})";

// The dense mesh's skeleton, its atlas of one 16 x 16 page, and their binding.
struct DenseType {
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
};

// A page image of `width` x `height` whose pixel bytes are `bytes` times 255 (4 x width x height when it fits).
Image white_page(std::uint32_t width, std::uint32_t height, std::size_t bytes) {
    Image page;
    page.width = width;
    page.height = height;
    page.rgba.assign(bytes, 255);
    return page;
}

// Loads DenseType; null after recording a failure.
std::unique_ptr<DenseType> load_dense_type() {
    Result<SkeletonData> data = load_skeleton_json(k_dense_triangle_skeleton, "dense.json");
    if (!data) {
        ADD_FAILURE() << data.error().message();
        return nullptr;
    }
    Result<Atlas> atlas = parse_atlas("dense.png\nsize: 16, 16\nm\n  bounds: 0, 0, 16, 16\n", "dense.atlas");
    if (!atlas) {
        ADD_FAILURE() << atlas.error().message();
        return nullptr;
    }
    Result<AtlasBinding> binding = bind_atlas(*data, *atlas);
    if (!binding) {
        ADD_FAILURE() << binding.error().message();
        return nullptr;
    }
    return std::make_unique<DenseType>(DenseType{std::move(*data), std::move(*atlas), std::move(*binding)});
}

TEST(Renderer, a_frame_whose_output_indices_pass_the_storage_range_is_refused_naming_the_indices) {
    // The output vertices fit in the range; the output indices fit at exactly their size and are refused one byte
    // below it, on both paths that write them, naming the indices and their bytes.
    std::unique_ptr<DenseType> dense = load_dense_type();
    ASSERT_NE(dense, nullptr);
    SkeletonPose pose = create_pose(dense->data);
    update_world_transform(pose, Physics::none);
    constexpr std::uint64_t k_characters = 4, k_indices = 4 * 40 * 3;
    const std::uint64_t index_bytes = k_indices * 4, vertex_bytes = k_characters * 3 * sizeof(GpuOutVertex);
    ASSERT_LT(vertex_bytes, index_bytes - 1) << "the test needs the indices to pass the range first";
    for (const std::uint64_t cap : {index_bytes, index_bytes - 1}) {
        SCOPED_TRACE("a range of " + std::to_string(cap) + " bytes");
        SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "SPINEGPU_DIAGNOSE_STORAGE_RANGE", std::to_string(cap).c_str());
        std::vector<Image> pages;
        pages.push_back(white_page(16, 16, 16 * 16 * 4));
        Result<std::uint32_t> type =
            renderer->add_skeleton_type(dense->data, dense->atlas, dense->binding, std::move(pages), "dense");
        ASSERT_TRUE(type.ok()) << type.error().message();
        const std::vector<CharacterDraw> characters(k_characters, CharacterDraw{&pose, *type, Color{}});
        for (const RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles}) {
            // At the indices' exact size only the gpu path draws: gpu_tiles' set-up triangles take more.
            if (cap == index_bytes && path == RenderPath::gpu_tiles) continue;
            Result<FrameStats> frame =
                renderer->draw(characters, Camera2D{1, 80, 80}, k_width, k_height, k_background, path);
            if (cap == index_bytes) {
                ASSERT_TRUE(frame.ok()) << frame.error().message();
                EXPECT_EQ(frame->triangles * 3, k_indices);
                Result<Image> image = renderer->read_back();
                ASSERT_TRUE(image.ok()) << image.error().message();
                EXPECT_GT(pixels_off_background(*image), 0u);
            } else {
                ASSERT_FALSE(frame.ok()) << "a frame of " << index_bytes << " bytes of indices drawn";
                EXPECT_NE(frame.error().message().find(std::to_string(k_indices) + " output indices (" +
                                                       std::to_string(index_bytes) + " bytes)"),
                          std::string::npos)
                    << frame.error().message();
            }
        }
        expect_no_validation_messages(*renderer);
    }
}

// Page images that do not match the atlas are refused by name before anything is kept: too few, one of no pixels
// (0 x 0), one whose bytes are not its size's RGBA8. The same type with fitting pages is then added and drawn.
TEST(Renderer, page_images_that_do_not_fit_the_atlas_are_refused_naming_the_page) {
    std::unique_ptr<DenseType> dense = load_dense_type();
    ASSERT_NE(dense, nullptr);
    SPINEGPU_REQUIRE_RENDERER(renderer);
    auto refusal = [&](std::vector<Image> pages) {
        Result<std::uint32_t> type =
            renderer->add_skeleton_type(dense->data, dense->atlas, dense->binding, std::move(pages), "dense");
        return type ? std::string("added") : type.error().message();
    };
    EXPECT_NE(refusal({}).find("dense: pages: the atlas has 1 pages but 0 images were given"), std::string::npos)
        << refusal({});
    std::vector<Image> empty;
    empty.push_back(white_page(0, 0, 0));
    EXPECT_NE(refusal(std::move(empty)).find("page image 0 (0 x 0) has no pixels"), std::string::npos);
    std::vector<Image> short_page;
    short_page.push_back(white_page(16, 16, 16 * 16 * 4 - 1));
    const std::string message = refusal(std::move(short_page));
    EXPECT_NE(message.find("page image 0 (16 x 16) holds 1023 bytes of pixels; RGBA8 needs 1024"), std::string::npos)
        << message;
    std::vector<Image> fitting;
    fitting.push_back(white_page(16, 16, 16 * 16 * 4));
    Result<std::uint32_t> type =
        renderer->add_skeleton_type(dense->data, dense->atlas, dense->binding, std::move(fitting), "dense");
    ASSERT_TRUE(type.ok()) << type.error().message();
    EXPECT_EQ(*type, 0u) << "a refused type was kept";
    SkeletonPose pose = create_pose(dense->data);
    update_world_transform(pose, Physics::none);
    const CharacterDraw character{&pose, *type, Color{}};
    ASSERT_TRUE(renderer->draw({&character, 1}, Camera2D{1, 80, 80}, k_width, k_height, k_background,
                               RenderPath::gpu).ok());
    Result<Image> image = renderer->read_back();
    ASSERT_TRUE(image.ok()) << image.error().message();
    EXPECT_GT(pixels_off_background(*image), 0u);
    expect_no_validation_messages(*renderer);
}

// A character of a type the renderer was never given, or with no pose, is refused by name on every path, before
// anything of it is read, and the renderer draws on.
TEST(Renderer, a_character_of_an_unknown_type_is_refused_on_every_path) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const Camera2D camera{0.12f, 80, 110};
    CharacterDraw past = crowd->characters[0], far = past, unposed = past;
    past.type = crowd->spineboy.type + 1;
    far.type = 50'000'000;
    unposed.pose = nullptr;
    for (const RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles, RenderPath::gpu_vertex, RenderPath::cpu}) {
        for (const CharacterDraw& bad : {past, far, unposed}) {
            SCOPED_TRACE("path " + std::to_string(static_cast<int>(path)) + ", type " + std::to_string(bad.type));
            const CharacterDraw list[] = {crowd->characters[1], bad};
            Result<FrameStats> frame = renderer->draw(list, camera, k_width, k_height, k_background, path);
            ASSERT_FALSE(frame.ok());
            EXPECT_NE(frame.error().message().find("draw: a character's pose is missing or not of its skeleton type"),
                      std::string::npos)
                << frame.error().message();
        }
        EXPECT_TRUE(renderer->draw(crowd->characters, camera, k_width, k_height, k_background, path).ok());
    }
    expect_no_validation_messages(*renderer);
}

// A camera whose scale is 0, negative or not finite, or whose origin is not finite, would cull every character; the
// frame is refused naming the camera, on every path.
TEST(Renderer, a_camera_without_a_positive_finite_scale_is_refused) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (const RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles, RenderPath::gpu_vertex, RenderPath::cpu}) {
        for (const Camera2D camera : {Camera2D{0, 80, 110}, Camera2D{-0.12f, 80, 110}, Camera2D{nan, 80, 110},
                                      Camera2D{inf, 80, 110}, Camera2D{0.12f, nan, 110}, Camera2D{0.12f, 80, -inf}}) {
            Result<FrameStats> frame =
                renderer->draw(crowd->characters, camera, k_width, k_height, k_background, path);
            ASSERT_FALSE(frame.ok()) << "scale " << camera.scale << ", ox " << camera.ox << ", oy " << camera.oy;
            EXPECT_NE(frame.error().message().find("draw: Camera2D is (scale "), std::string::npos)
                << frame.error().message();
        }
        EXPECT_TRUE(
            renderer->draw(crowd->characters, Camera2D{0.12f, 80, 110}, k_width, k_height, k_background, path).ok());
    }
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
