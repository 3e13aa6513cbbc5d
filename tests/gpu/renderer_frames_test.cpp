// Frames as an application draws them: several in flight at once, the poses moving between them, and a steady state
// that allocates nothing. On the device the tests find (lavapipe in CI).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <string>

#include "counted_allocations.hpp"  // counts the draws' allocations on every thread
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu {
namespace {

using namespace spinegpu::gpu;
using namespace spinegpu::test;

// The paths that draw every feature (the tile rasterizer's needs are met by lavapipe and the GPUs we test on).
const RenderPath k_paths[] = {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_tiles};

// Eight frames of the crowd drawn one after another without waiting (two in flight), each after a step of every
// pose, end in the image that the last poses give when drawn alone; the validation layer, synchronisation
// validation included, reports nothing.
TEST(Renderer, frames_in_flight_draw_what_each_frame_alone_draws) {
    SPINEGPU_REQUIRE_EXAMPLES();
    // (The Khronos layer of Debian 12, 1.3.239, reads VK_LAYER_ENABLES; removing the barrier after the tile buffers'
    // clear makes this test fail with SYNC-HAZARD-READ-AFTER-WRITE.)
    SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, "VK_LAYER_ENABLES",
                                         "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT");
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const Camera2D camera{0.18f, k_width / 2.0f, k_height / 2.0f};
    for (RenderPath path : k_paths) {
        for (int frame = 0; frame < 8; ++frame) {
            for (auto& player : crowd->players) player->step(1.0 / 60);
            Result<FrameStats> drawn = renderer->draw(crowd->characters, camera, k_width, k_height, k_background, path);
            ASSERT_TRUE(drawn.ok()) << drawn.error().message();
        }
        Result<Image> overlapped = renderer->read_back();
        ASSERT_TRUE(overlapped.ok()) << overlapped.error().message();
        Result<FrameStats> alone = renderer->draw(crowd->characters, camera, k_width, k_height, k_background, path);
        ASSERT_TRUE(alone.ok()) << alone.error().message();
        Result<Image> image = renderer->read_back();
        ASSERT_TRUE(image.ok()) << image.error().message();
        EXPECT_GT(pixels_off_background(*image), 1000u) << "path " << static_cast<int>(path);
        EXPECT_TRUE(overlapped->rgba == image->rgba) << "path " << static_cast<int>(path);
    }
    expect_no_validation_messages(*renderer);
}

// The renderer numbers its frames and tells the stats of the frame it last waited for: none before any wait; with two
// frames in flight, the third draw knows the first frame's, GPU time included (where the queue has timestamps);
// finish, and a new target size (which waits for every frame), leave the newest frame's.
TEST(Renderer, the_last_finished_frame_is_known_without_waiting_for_the_newest) {
    SPINEGPU_REQUIRE_RENDERER(renderer);
    ASSERT_EQ(renderer->frames_in_flight(), 2u);
    EXPECT_FALSE(renderer->last_finished().has_value());
    auto draw = [&](std::uint32_t size) {
        Result<FrameStats> frame = renderer->draw({}, Camera2D{}, size, size, k_background, RenderPath::gpu);
        EXPECT_TRUE(frame.ok()) << frame.error().message();
        return frame.ok() ? frame->frame : 0;
    };
    EXPECT_EQ(draw(32), 1u);
    EXPECT_EQ(draw(32), 2u);
    EXPECT_FALSE(renderer->last_finished().has_value());
    EXPECT_EQ(draw(32), 3u);
    ASSERT_TRUE(renderer->last_finished().has_value());
    EXPECT_EQ(renderer->last_finished()->frame, 1u);
    Result<FrameStats> last = renderer->finish();
    ASSERT_TRUE(last.ok()) << last.error().message();
    EXPECT_EQ(last->frame, 3u);
    EXPECT_EQ(renderer->last_finished()->frame, 3u);
    if (last->gpu_ms >= 0) {  // (the queue has timestamps)
        EXPECT_GE(renderer->last_finished()->gpu_ms, 0.0);
    }
    // Two more frames, the newest in the other slot, then a new size: the new frame's draw waits for both first.
    EXPECT_EQ(draw(32), 4u);
    EXPECT_EQ(draw(32), 5u);
    EXPECT_EQ(draw(48), 6u);
    ASSERT_TRUE(renderer->last_finished().has_value());
    EXPECT_EQ(renderer->last_finished()->frame, 5u);
    EXPECT_EQ(draw(48), 7u);
    EXPECT_EQ(renderer->last_finished()->frame, 5u);  // (slot of frame 5 waited already: nothing new)
}

// With one frame in flight, a frame refused after the renderer waited for its slot (the crowd's output vertices pass
// the storage range a diagnostic switch sets, where two characters' fit) leaves finish and last_finished telling
// the frame drawn before it, GPU time included; the renderer draws on.
TEST(Renderer, a_frame_refused_after_its_slot_was_waited_for_leaves_the_last_frames_stats) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const Camera2D camera{0.12f, 80, 110};
    std::uint64_t crowd_outputs = 0;
    {
        SPINEGPU_REQUIRE_RENDERER(sizer);
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*sizer);
        ASSERT_TRUE(crowd);
        Result<FrameStats> frame =
            sizer->draw(crowd->characters, camera, k_width, k_height, k_background, RenderPath::gpu);
        ASSERT_TRUE(frame.ok()) << frame.error().message();
        crowd_outputs = std::max(std::uint64_t{frame->vertices} * sizeof(GpuOutVertex),
                                 std::uint64_t{frame->triangles} * 12);
    }
    RendererDesc desc;
    desc.validation = true;
    desc.frames_in_flight = 1;
    setenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE", std::to_string(crowd_outputs - 1).c_str(), 1);
    std::string reason;
    std::unique_ptr<Renderer> renderer = create_renderer(desc, reason);
    unsetenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE");
    ASSERT_TRUE(renderer) << reason;
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    ASSERT_TRUE(crowd);
    const std::span<const CharacterDraw> all(crowd->characters), two = all.first(2);
    ASSERT_TRUE(renderer->draw(two, camera, k_width, k_height, k_background, RenderPath::gpu).ok());
    Result<FrameStats> drawn = renderer->finish();
    ASSERT_TRUE(drawn.ok()) << drawn.error().message();
    ASSERT_EQ(drawn->frame, 1u);
    ASSERT_EQ(drawn->characters, 2u);
    Result<FrameStats> refused = renderer->draw(all, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_FALSE(refused.ok()) << "the crowd's outputs fit the lowered range";
    EXPECT_NE(refused.error().message().find("output"), std::string::npos) << refused.error().message();
    Result<FrameStats> after = renderer->finish();
    ASSERT_TRUE(after.ok()) << after.error().message();
    EXPECT_EQ(after->frame, 1u);
    EXPECT_EQ(after->characters, 2u);
    EXPECT_EQ(after->vertices, drawn->vertices);
    EXPECT_EQ(after->gpu_ms, drawn->gpu_ms);
    ASSERT_TRUE(renderer->last_finished().has_value());
    EXPECT_EQ(renderer->last_finished()->frame, 1u);
    Result<FrameStats> next = renderer->draw(two, camera, k_width, k_height, k_background, RenderPath::gpu);
    ASSERT_TRUE(next.ok()) << next.error().message();
    EXPECT_EQ(next->frame, 2u);
    expect_no_validation_messages(*renderer);
}

// Once its buffers have grown to the crowd, drawing the same crowd frame after frame allocates nothing on the heap,
// on any path, whether the renderer packs on the caller's thread or on a worker pool. (No validation layer: it
// allocates per call.)
TEST(Renderer, a_steady_crowd_allocates_nothing_per_frame) {
    SPINEGPU_REQUIRE_EXAMPLES();
    g_allocations = 0;
    g_counting = true;
    std::vector<int>* volatile probe = new std::vector<int>(3);  // volatile: not elided
    delete probe;
    g_counting = false;
    ASSERT_EQ(g_allocations.load(), 2) << "the replaced operator new counts allocations";
    WorkerPool pool(2);
    for (WorkerPool* workers : {static_cast<WorkerPool*>(nullptr), &pool}) {
        // Without validation, whatever SPINEGPU_VALIDATION says; the skip as create_renderer's.
        const char* validation = std::getenv("SPINEGPU_VALIDATION");
        const std::string kept = validation ? validation : "";
        unsetenv("SPINEGPU_VALIDATION");
        Result<std::unique_ptr<Renderer>> created = Renderer::create({});
        if (validation) setenv("SPINEGPU_VALIDATION", kept.c_str(), 1);
        if (!created) {
            const Error& e = created.error();
            if (e.file == "vulkan" && (e.where == "instance" || e.where == "devices")) GTEST_SKIP() << e.message();
            FAIL() << e.message();
        }
        Renderer& renderer = **created;
        renderer.set_worker_pool(workers);
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(renderer);
        ASSERT_TRUE(crowd);
        const Camera2D camera{0.18f, k_width / 2.0f, k_height / 2.0f};
        for (RenderPath path : k_paths) {
            for (int frame = 0; frame < 4; ++frame)
                ASSERT_TRUE(renderer.draw(crowd->characters, camera, k_width, k_height, k_background, path).ok());
            ASSERT_TRUE(renderer.finish().ok());
            g_allocations = 0;
            g_counting = true;
            bool drawn = true;
            for (int frame = 0; frame < 12 && drawn; ++frame)
                drawn = renderer.draw(crowd->characters, camera, k_width, k_height, k_background, path).ok();
            Result<FrameStats> done = renderer.finish();
            g_counting = false;
            ASSERT_TRUE(drawn) << "path " << static_cast<int>(path);
            ASSERT_TRUE(done.ok()) << done.error().message();
            EXPECT_EQ(g_allocations.load(), 0) << "path " << static_cast<int>(path)
                                               << (workers ? ", worker pool" : ", caller's thread");
        }
    }
}

// A crowd that grows and shrinks (2, 40, 2, 40 characters, six frames each, two in flight) rewrites its descriptor
// sets only after its buffers were reallocated: in the first frames of each size, and not once it is steady (the
// tile path's mask pool follows what the frame before last asked for, so it settles two frames later than the
// rest). Every size's last frame draws what a fresh renderer draws for the same characters, and the validation
// layer reports nothing.
TEST(Renderer, descriptor_sets_change_only_when_a_crowd_grows_or_shrinks) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::string reason;
    std::unique_ptr<Renderer> fresh = create_renderer(reason);
    ASSERT_TRUE(fresh) << reason;
    std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*renderer);
    std::optional<SpineboyCrowd> fresh_crowd = load_spineboy_crowd(*fresh);
    ASSERT_TRUE(crowd && fresh_crowd);
    const Camera2D camera{0.18f, k_width / 2.0f, k_height / 2.0f};
    const std::span<const CharacterDraw> all(crowd->characters);
    for (RenderPath path : k_paths) {
        const std::string where = "path " + std::to_string(static_cast<int>(path));
        // What a renderer that never drew another crowd draws for 2 and for 40.
        std::vector<std::uint8_t> expected[2];
        for (int k = 0; k < 2; ++k) {
            const std::span<const CharacterDraw> some(fresh_crowd->characters.data(), k == 0 ? 2 : all.size());
            ASSERT_TRUE(fresh->draw(some, camera, k_width, k_height, k_background, path).ok()) << where;
            Result<Image> image = fresh->read_back();
            ASSERT_TRUE(image.ok()) << image.error().message();
            expected[k] = image->rgba;
        }
        for (int round = 0; round < 4; ++round) {
            const bool large = round % 2 == 1;
            const std::span<const CharacterDraw> some = all.first(large ? all.size() : 2);
            std::uint32_t writes[6] = {};
            for (int frame = 0; frame < 6; ++frame) {
                Result<FrameStats> drawn = renderer->draw(some, camera, k_width, k_height, k_background, path);
                ASSERT_TRUE(drawn.ok()) << drawn.error().message();
                writes[frame] = drawn->descriptor_writes;
            }
            const std::string at = where + ", round " + std::to_string(round);
            // The first round's first frames write every binding; later rounds only the reallocated buffers'.
            EXPECT_GT(writes[0] + writes[1], 0u) << at << ": the new size reallocated nothing";
            EXPECT_EQ(writes[4], 0u) << at;
            EXPECT_EQ(writes[5], 0u) << at;
            if (path != RenderPath::gpu_tiles) {
                EXPECT_EQ(writes[2] + writes[3], 0u) << at;
            }
            Result<Image> image = renderer->read_back();
            ASSERT_TRUE(image.ok()) << image.error().message();
            EXPECT_GT(pixels_off_background(*image), 100u) << at;
            EXPECT_TRUE(image->rgba == expected[large ? 1 : 0]) << at;
        }
    }
    expect_no_validation_messages(*renderer);
    expect_no_validation_messages(*fresh);
}

}  // namespace
}  // namespace spinegpu
