// Frames recorded into the application's own command buffers (Renderer::record_onto, RecordedFrame) on its device.
// The application here is the test (host_image_support.hpp): in one command buffer it fills its image with two
// backgrounds, has the renderer record the frame onto it, and copies the image out, then submits that command buffer
// signalling the frame's value. Every pixel must be what a renderer on its own device draws over that half's
// background, and synchronization validation, which checks the commands within one command buffer against each
// other, must find no hazard between the application's commands and the renderer's.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app_render_pass.hpp"
#include "host_image_support.hpp"
#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// On every path, onto an image left in each of four layouts in turn, with the application's fill before the frame
// and its copy out after it in the same command buffer: the copy equals, pixel for pixel, what a renderer on its own
// device draws over each half's background. Each frame's value is the next of one timeline semaphore, and its GPU
// time is known once waited for. The validation layer (synchronization validation included) reports nothing on
// either device, nor anything left on the application's.
TEST(RendererRecordOnto, records_into_the_application_command_buffer_what_a_renderer_draws_over_its_background) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        AppCommands commands(host.lent, 1);
        std::uint64_t generation = 0, value = 0;
        VkSemaphore semaphore = VK_NULL_HANDLE;
        std::unique_ptr<AppImage> image;  // (one per path)
        for (const OntoCase& c : onto_cases()) {
            const std::span<const CharacterDraw> characters = scenes.characters(c.scene);
            const Camera2D& camera = scenes.camera(c.scene);
            if (c.scene == 0) image = std::make_unique<AppImage>(host.lent, k_width, k_height, ++generation, c.path);
            const std::vector<std::uint8_t> expected =
                drawn_over_two_backgrounds(own, characters, camera, k_width, k_height, c.path);
            ASSERT_FALSE(expected.empty()) << c.where;
            VkCommandBuffer cb = commands.begin(0);
            image->record_fill(cb, two_backgrounds(k_width, k_height), c.layout);
            Result<RecordedFrame> recorded = lent.record_onto(cb, image->target(c.layout), characters, camera, c.path);
            ASSERT_TRUE(recorded.ok()) << c.where << ": " << recorded.error().message();
            image->record_copy_out(cb, c.layout);
            commands.submit(0, *recorded);
            EXPECT_EQ(recorded->value, ++value) << c.where;
            if (semaphore == VK_NULL_HANDLE) semaphore = recorded->semaphore;
            EXPECT_EQ(recorded->semaphore, semaphore) << c.where;
            EXPECT_EQ(recorded->stats.characters, characters.size()) << c.where;
            commands.wait(0);
            expect_drawn_as(image->copied_out(), expected, own, camera, c);
            Result<FrameStats> done = lent.finish();
            ASSERT_TRUE(done.ok()) << c.where << ": " << done.error().message();
            EXPECT_EQ(done->frame, recorded->stats.frame) << c.where;
            EXPECT_GE(done->gpu_ms, 0.0) << c.where;
        }
    });
}

// A frame slot is reused only once the application's submission of its last frame has signalled. Each frame has its
// own camera and its own image (with its own buffers to fill it from and copy it into), so that a slot reused before
// its frame ran would show in that frame's pixels.
// - The first frame recorded, dropped, is covered by the second's signal: its slot, never used before, is passed over
//   by the third frame without GPU figures (nothing is finished yet), and the third frame's are known.
// - Six frames recorded and submitted in a row, none waited for by the application, then one that draw_onto submits.
// - Two frames dropped with none after them: the frame that needs the first one's slot fails after the timeout, at
//   once when recorded into that frame's own command buffer, and goes on once the application signals the second
//   one's value from the host. The renderer's destruction does not wait for a frame never submitted.
TEST(RendererRecordOnto, frame_slots_wait_for_the_signals_of_the_application_submissions) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        ASSERT_EQ(lent->frames_in_flight(), 2u);
        Scenes scenes;
        ASSERT_TRUE(load_scenes(*own, *lent, scenes));
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const RenderPath path = RenderPath::gpu_tiles;
        constexpr std::uint32_t k_frames = 6;
        std::vector<Camera2D> cameras;
        std::vector<std::vector<std::uint8_t>> expected;
        std::vector<std::unique_ptr<AppImage>> images;
        for (std::uint32_t k = 0; k < k_frames; ++k) {
            const float shift = static_cast<float>(k) * 5;
            cameras.push_back(Camera2D{0.12f + 0.02f * static_cast<float>(k), k_width / 2.0f + shift,
                                       k_height / 2.0f - shift});
            expected.push_back(drawn_over_two_backgrounds(*own, crowd, cameras[k], k_width, k_height, path));
            ASSERT_FALSE(expected[k].empty());
            images.push_back(std::make_unique<AppImage>(host->lent, k_width, k_height, k + 1, path));
        }
        for (std::uint32_t k = 1; k < k_frames; ++k) ASSERT_GT(pixels_differing(expected[k], expected[0]), 100u) << k;
        AppCommands commands(host->lent, k_frames);
        // Records into command buffer `k` (begun anew unless `again`): image k's fill, the frame onto it, its copy out.
        const auto record = [&](std::uint32_t k, bool again = false) {
            VkCommandBuffer cb = again ? commands.buffer(k) : commands.begin(k);
            images[k]->record_fill(cb, two_backgrounds(k_width, k_height), VK_IMAGE_LAYOUT_GENERAL);
            Result<RecordedFrame> recorded = lent->record_onto(cb, images[k]->target(VK_IMAGE_LAYOUT_GENERAL), crowd,
                                                               cameras[k], path);
            if (recorded) images[k]->record_copy_out(cb, VK_IMAGE_LAYOUT_GENERAL);
            return recorded;
        };

        Result<RecordedFrame> dropped = record(0), second = record(1);
        ASSERT_TRUE(dropped.ok() && second.ok());
        commands.submit(1, *second);
        // (Once the second frame has signalled: Debian 12's validation layer, 1.3.239, would follow a wait for the
        // first value, which no submission signals, with a timeout of its own, although a greater value came.)
        commands.wait(1);
        Result<RecordedFrame> third = record(2);  // (in the dropped frame's slot: nothing of it is finished)
        ASSERT_TRUE(third.ok()) << third.error().message();
        EXPECT_FALSE(lent->last_finished().has_value());
        commands.submit(2, *third);
        Result<FrameStats> done = lent->finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        ASSERT_TRUE(lent->last_finished().has_value());
        EXPECT_EQ(lent->last_finished()->frame, third->stats.frame);
        EXPECT_GE(lent->last_finished()->gpu_ms, 0.0);
        EXPECT_EQ(pixels_differing(images[1]->copied_out(), expected[1]), 0u);
        commands.wait(2);
        EXPECT_EQ(pixels_differing(images[2]->copied_out(), expected[2]), 0u);

        for (std::uint32_t k = 0; k < k_frames; ++k) {
            Result<RecordedFrame> frame = record(k);
            ASSERT_TRUE(frame.ok()) << k << ": " << frame.error().message();
            EXPECT_EQ(frame->value, k + 4);
            commands.submit(k, *frame);
        }
        for (std::uint32_t k = 0; k < k_frames; ++k) {
            commands.wait(k);
            EXPECT_EQ(pixels_differing(images[k]->copied_out(), expected[k]), 0u) << k;
        }
        images[2]->fill(two_backgrounds(k_width, k_height), VK_IMAGE_LAYOUT_GENERAL);
        ASSERT_TRUE(lent->draw_onto(images[2]->target(VK_IMAGE_LAYOUT_GENERAL), crowd, cameras[2], path).ok());
        EXPECT_EQ(pixels_differing(images[2]->straight_pixels(VK_IMAGE_LAYOUT_GENERAL), expected[2]), 0u);
        done = lent->finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_GE(done->gpu_ms, 0.0);

        // Values 10 and 11 dropped.
        Result<RecordedFrame> first_dropped = record(0), second_dropped = record(1);
        ASSERT_TRUE(first_dropped.ok() && second_dropped.ok());
        EXPECT_EQ(second_dropped->value, 11u);
        setenv("SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS", "300", 1);  // (read at each wait)
        const auto start = std::chrono::steady_clock::now();
        Result<RecordedFrame> stuck = record(2);
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        Result<RecordedFrame> same_buffer = record(0, /*again=*/true);
        unsetenv("SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS");
        ASSERT_FALSE(stuck.ok());
        const std::string held =
            "frame " + std::to_string(first_dropped->stats.frame) + " (RecordedFrame::value 10)";
        EXPECT_NE(stuck.error().message().find("record_onto: " + held + ", recorded into the application's "
                                               "command buffer (record_onto or record_for_pass), has not signalled "
                                               "within 300 ms"),
                  std::string::npos)
            << stuck.error().message();
        EXPECT_GE(waited, 0.25);
        ASSERT_FALSE(same_buffer.ok());
        EXPECT_NE(same_buffer.error().message().find(held + ", recorded into this same command buffer"),
                  std::string::npos)
            << same_buffer.error().message();
        VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        signal.semaphore = second_dropped->semaphore;
        signal.value = second_dropped->value;
        ASSERT_EQ(vkSignalSemaphore(host->lent.device, &signal), VK_SUCCESS);
        // Neither dropped frame ran: nothing of theirs is read back as their geometry.
        Result<DrawnGeometry> never = lent->read_back_geometry();
        ASSERT_FALSE(never.ok()) << "the geometry of a frame that never ran: " << never->vertices.size() << " vertices";
        EXPECT_NE(never.error().message().find("never ran"), std::string::npos) << never.error().message();
        Result<RecordedFrame> after = record(2);
        ASSERT_TRUE(after.ok()) << after.error().message();
        EXPECT_EQ(after->value, 12u);
        commands.submit(2, *after);
        done = lent->finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        Result<DrawnGeometry> ran = lent->read_back_geometry();
        ASSERT_TRUE(ran.ok()) << ran.error().message();
        EXPECT_EQ(ran->vertices.size(), done->vertices);
        EXPECT_GT(done->vertices, 0u);
        commands.wait(2);
        EXPECT_EQ(pixels_differing(images[2]->copied_out(), expected[2]), 0u);

        ASSERT_TRUE(record(3).ok());  // (never submitted)
        const auto destroying = std::chrono::steady_clock::now();
        lent.reset();
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - destroying).count(), 10.0);
    }
    expect_no_validation_messages(*own);
    host->destroy_device();
    expect_no_host_messages(*host);
}

// What cannot be recorded is refused, naming why: a renderer with its own device, a null command buffer, a device
// made without timeline semaphores, and the frame's own faults, named as record_onto's. Frames without characters
// leave the image as it was, the first of them dropped.
TEST(RendererRecordOnto, what_cannot_be_recorded_is_refused_naming_why) {
    SPINEGPU_REQUIRE_RENDERER(own);
    for (const bool timeline : {true, false}) {
        std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features(), timeline);
        ASSERT_TRUE(host);
        {
            std::unique_ptr<Renderer> lent = renderer_on(*host);
            ASSERT_TRUE(lent);
            AppImage image(host->lent, 16, 16, 1, RenderPath::gpu);
            image.fill(two_backgrounds(16, 16), VK_IMAGE_LAYOUT_GENERAL);
            const HostImage target = image.target(VK_IMAGE_LAYOUT_GENERAL);
            AppCommands commands(host->lent, 3);
            VkCommandBuffer cb = commands.begin(0);
            const auto refusal = [&](Renderer& renderer, VkCommandBuffer into, std::span<const CharacterDraw> drawn) {
                Result<RecordedFrame> r = renderer.record_onto(into, target, drawn, Camera2D{}, RenderPath::gpu);
                return r ? std::string("recorded") : r.error().message();
            };
            EXPECT_NE(refusal(*own, cb, {}).find("RendererDesc::host"), std::string::npos) << refusal(*own, cb, {});
            EXPECT_NE(refusal(*lent, VK_NULL_HANDLE, {}).find("record_onto: the command buffer is VK_NULL_HANDLE"),
                      std::string::npos);
            if (!timeline) {
                EXPECT_NE(refusal(*lent, cb, {}).find("HostDevice::timeline_semaphore"), std::string::npos)
                    << refusal(*lent, cb, {});
                vkEndCommandBuffer(cb);  // (never submitted)
            } else {
                const CharacterDraw posed_by_nobody{nullptr, 0, Color{}};
                EXPECT_NE(refusal(*lent, cb, {&posed_by_nobody, 1}).find("record_onto: a character's pose is missing"),
                          std::string::npos)
                    << refusal(*lent, cb, {&posed_by_nobody, 1});
                // The raster path's first frame dropped, covered by the second: the third, in its slot, reads none of
                // its queries (never reset, they would be waited for without end), and nothing is finished yet.
                Result<RecordedFrame> dropped = lent->record_onto(cb, target, {}, Camera2D{}, RenderPath::gpu);
                ASSERT_TRUE(dropped.ok()) << dropped.error().message();
                Result<RecordedFrame> second =
                    lent->record_onto(commands.begin(1), target, {}, Camera2D{}, RenderPath::gpu);
                ASSERT_TRUE(second.ok()) << second.error().message();
                commands.submit(1, *second);
                commands.wait(1);  // (before the wait for the dropped value: see frame_slots_wait_for_...)
                Result<RecordedFrame> empty =
                    lent->record_onto(commands.begin(2), target, {}, Camera2D{}, RenderPath::gpu);
                ASSERT_TRUE(empty.ok()) << empty.error().message();  // (no characters: the image as it was)
                EXPECT_FALSE(lent->last_finished().has_value());
                commands.submit(2, *empty);
                EXPECT_TRUE(lent->finish().ok());
                EXPECT_TRUE(lent->last_finished().has_value());
                commands.wait(2);
                EXPECT_EQ(pixels_differing(image.straight_pixels(VK_IMAGE_LAYOUT_GENERAL),
                                           drawn_over_two_backgrounds(*own, {}, Camera2D{}, 16, 16, RenderPath::gpu)),
                          0u);
                EXPECT_FALSE(lent->read_back().ok());  // (nothing in the renderer's own target)
            }
        }
        host->destroy_device();
        expect_no_host_messages(*host);
    }
}

// A frame refused after the renderer waited for its slot (here: its outputs pass the storage range, lowered by
// SPINEGPU_DIAGNOSE_STORAGE_RANGE) records nothing and takes no value: record_onto and record_for_pass both refuse the
// crowd into the application's command buffer, record_in_pass then finds no frame to draw, and a smaller frame
// recorded next into the same buffer takes value 1 and the slot, is drawn whole, and is finished at once (a value
// taken by a refused frame would never be signalled, and the next wait for its slot would fail after 30 s).
TEST(RendererRecordOnto, a_frame_refused_after_waiting_for_its_slot_records_nothing_and_takes_no_value) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        Scenes scenes;
        std::uint64_t outputs = 0;  // (the crowd's outputs through the gpu path, in bytes, the larger of two arrays)
        {
            std::string no_device;  // (own was made: so can this one be)
            std::unique_ptr<Renderer> sizer = create_renderer(no_device);
            ASSERT_TRUE(sizer) << no_device;
            std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*sizer);
            ASSERT_TRUE(crowd);
            Result<FrameStats> sized =
                sizer->draw(crowd->characters, scenes.crowd_camera, k_width, k_height, k_left, RenderPath::gpu);
            ASSERT_TRUE(sized.ok()) << sized.error().message();
            outputs = std::max<std::uint64_t>(std::uint64_t{sized->vertices} * sizeof(GpuOutVertex),
                                              std::uint64_t{sized->triangles} * 12);
        }
        setenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE", std::to_string(outputs - 1).c_str(), 1);
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        unsetenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE");
        ASSERT_TRUE(lent);
        ASSERT_TRUE(load_scenes(*own, *lent, scenes));
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters, two = crowd.subspan(0, 2);
        ASSERT_TRUE(lent->finalize().ok());
        AppImage image(host->lent, k_width, k_height, 1, RenderPath::gpu);
        AppRenderPass pass(host->lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
        const HostImage target = image.target(VK_IMAGE_LAYOUT_GENERAL);
        AppCommands commands(host->lent, 1);
        VkCommandBuffer cb = commands.begin(0);
        image.record_fill(cb, two_backgrounds(k_width, k_height), VK_IMAGE_LAYOUT_GENERAL);
        const Camera2D& camera = scenes.crowd_camera;
        Result<RecordedFrame> refused = lent->record_onto(cb, target, crowd, camera, RenderPath::gpu);
        ASSERT_FALSE(refused.ok());
        EXPECT_NE(refused.error().message().find("more than one storage buffer"), std::string::npos)
            << refused.error().message();
        refused = lent->record_for_pass(cb, pass.host_pass({{0, 0}, {k_width, k_height}}), crowd, camera,
                                        RenderPath::gpu);
        ASSERT_FALSE(refused.ok());
        EXPECT_NE(refused.error().message().find("record_for_pass"), std::string::npos) << refused.error().message();
        EXPECT_FALSE(lent->record_in_pass(cb).ok());
        Result<RecordedFrame> drawn = lent->record_onto(cb, target, two, camera, RenderPath::gpu);
        ASSERT_TRUE(drawn.ok()) << drawn.error().message();
        EXPECT_EQ(drawn->value, 1u);
        EXPECT_EQ(drawn->stats.frame, 1u);
        image.record_copy_out(cb, VK_IMAGE_LAYOUT_GENERAL);
        commands.submit(0, *drawn);
        const auto start = std::chrono::steady_clock::now();
        Result<FrameStats> done = lent->finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
        const std::vector<std::uint8_t> expected =
            drawn_over_two_backgrounds(*own, two, camera, k_width, k_height, RenderPath::gpu);
        commands.wait(0);
        const std::vector<std::uint8_t> seen = image.copied_out();
        EXPECT_EQ(pixels_differing(seen, expected), 0u) << "two of the crowd, after the refused frames";
        EXPECT_GT(pixels_differing(seen, drawn_over_two_backgrounds(*own, {}, camera, k_width, k_height,
                                                                    RenderPath::gpu)),
                  100u);
    }
    expect_no_validation_messages(*own);
    host->destroy_device();
    expect_no_host_messages(*host);
}

}  // namespace
}  // namespace spinegpu::test
