// Frames drawn inside the application's own render pass (Renderer::record_for_pass and record_in_pass, HostPass), on
// its device. The application here is the test (app_render_pass.hpp): in one command buffer it has the renderer
// record the frame's work before the pass, begins its pass over its image (cleared to a third colour), clears two
// halves of the characters' area to the two backgrounds (its own draws before the characters), has the renderer
// draw, clears a box over them (its own draw after), ends the pass and copies the image out. Inside the area every
// pixel but the box's must be what a renderer on its own device draws over that half's background; outside it,
// nothing drawn.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app_pass_frame.hpp"
#include "app_render_pass.hpp"
#include "host_image_support.hpp"
#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// One frame in the application's pass: its path, scene (Scenes), the image's format, whether the subpass has a depth
// attachment, whether the pass is begun with vkCmdBeginRendering (dynamic rendering) rather than a render pass, where
// the area lies, how far the scene's camera is moved left (to put characters across the area's edge), and words
// naming it.
struct PassCase {
    RenderPath path;
    int scene;
    VkFormat format;
    bool depth, dynamic;
    VkOffset2D offset;
    float left = 0;
    bool second_subpass = false;  // (of a render pass: AppRenderPass)
    std::string where;
};

std::vector<PassCase> pass_cases() {
    constexpr VkFormat rgba = VK_FORMAT_R8G8B8A8_UNORM, bgra = VK_FORMAT_B8G8R8A8_UNORM;
    constexpr float across = k_width / 2.0f;  // (the crowd's middle on the area's left edge)
    std::vector<PassCase> out = {{RenderPath::gpu, 0, rgba, false, false, {0, 0}},
                                 {RenderPath::cpu, 0, bgra, true, true, {13, 7}},
                                 {RenderPath::gpu_vertex, 0, rgba, true, false, {24, 16}},
                                 {RenderPath::gpu, 1, bgra, true, true, {0, 0}},
                                 {RenderPath::cpu, 1, rgba, false, false, {24, 0}},
                                 {RenderPath::gpu_vertex, 0, bgra, false, true, {0, 16}},
                                 {RenderPath::gpu, 0, rgba, true, true, {24, 8}, across},
                                 {RenderPath::cpu, 0, rgba, false, true, {0, 0}},
                                 {RenderPath::gpu, 2, rgba, true, false, {24, 16}},
                                 {RenderPath::cpu, 2, bgra, false, true, {13, 0}},
                                 {RenderPath::gpu, 2, rgba, false, true, {0, 0}},
                                 {RenderPath::gpu, 2, rgba, true, false, {13, 7}, 0, true},
                                 {RenderPath::cpu, 0, bgra, false, false, {0, 0}, 0, true},
                                 {RenderPath::gpu_vertex, 0, rgba, true, false, {24, 16}, 0, true}};
    for (PassCase& c : out)
        c.where = pass_case_words(c.path, c.scene, c.format, c.depth, c.dynamic, c.offset, c.second_subpass) +
                  (c.left != 0 ? ", characters across the area's edge" : "");
    return out;
}

// On the gpu, cpu and gpu_vertex paths, the three scenes (the clipped tank at offsets too, where clipping must follow
// the area), RGBA8 and BGRA8 images, subpasses with and without a depth attachment, render passes (drawn in their first
// subpass or their second: the pipelines are made for it, which validation checks) and dynamic rendering, areas at the
// image's corner and at offsets in it: the image copied out is the pass's clear outside the area, the box over it, and
// elsewhere in it, pixel for pixel, what a renderer on its own device draws over each half's background (on lavapipe a
// BGRA8 image's premultiplied channels may be 1/255 off, as its blending of that format rounds: see the BGRA8 test in
// renderer_host_image_test.cpp); at an offset, what it draws in a frame reaching to the area's far corner, the camera
// moved by the offset (drawn_in_area). The frame's values run on from one semaphore; its GPU time and fragments are
// known once finished. The validation layer, synchronization validation included, reports nothing on either device, nor
// anything left on the application's.
TEST(RendererRecordInPass, draws_in_the_application_pass_between_its_draws_what_a_renderer_draws_over_its_background) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        AppCommands commands(host.lent, 1);
        std::uint64_t generation = 0, value = 0;
        for (const PassCase& c : pass_cases()) {
            if (c.dynamic && !host.lent.dynamic_rendering) {
                std::printf("(%s: skipped, the device has no dynamic rendering)\n", c.where.c_str());
                continue;
            }
            const std::span<const CharacterDraw> characters = scenes.characters(c.scene);
            Camera2D camera = scenes.camera(c.scene);
            camera.ox -= c.left;
            const VkRect2D area{c.offset, {k_width, k_height}};
            const std::vector<std::uint8_t> drawn = drawn_in_area(own, characters, camera, c.offset, c.path);
            const std::vector<std::uint8_t> none = drawn_in_area(own, {}, camera, c.offset, c.path);
            ASSERT_FALSE(drawn.empty() || none.empty()) << c.where;
            const std::vector<std::uint8_t> expected = composed(drawn, area);
            // (Enough drawn to tell, under the box too: the box must hide characters, not background.)
            EXPECT_GT(pixels_differing(expected, composed(none, area)), 1000u) << c.where;
            EXPECT_GT(pixels_differing_in(drawn, none, box_in({{0, 0}, {k_width, k_height}})), 100u) << c.where;

            AppImage image(host.lent, k_image_width, k_image_height, ++generation, c.path, c.format);
            AppRenderPass pass(host.lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), c.depth,
                               VK_SAMPLE_COUNT_1_BIT, c.dynamic, c.second_subpass);
            RecordedFrame recorded;
            ASSERT_TRUE(record_pass_frame(lent, commands.begin(0), pass, image, area, characters, camera, c.path,
                                          recorded))
                << c.where;
            commands.submit(0, recorded);
            EXPECT_EQ(recorded.value, ++value) << c.where;
            EXPECT_EQ(recorded.stats.characters, characters.size()) << c.where;
            commands.wait(0);
            const std::vector<std::uint8_t> seen = image.copied_out();
            if (own.software_device() && c.format == VK_FORMAT_B8G8R8A8_UNORM) {
                EXPECT_EQ(pixels_off_by_more_than(seen, expected, 1), 0u) << c.where;
            } else {
                EXPECT_EQ(pixels_differing(seen, expected), 0u) << c.where;
            }
            Result<FrameStats> done = lent.finish();
            ASSERT_TRUE(done.ok()) << c.where << ": " << done.error().message();
            EXPECT_EQ(done->frame, recorded.stats.frame) << c.where;
            EXPECT_GE(done->gpu_ms, 0.0) << c.where;
            if (host.lent.features.pipelineStatisticsQuery) {
                EXPECT_GT(done->fragments, 0u) << c.where;
            }
        }
    });
}

// record_in_pass draws only the frame that record_for_pass prepared in the same command buffer, once: not before one
// is prepared, not into another buffer, not twice, and not after a later frame, a later call refused or a wait for it
// dropped it. A dropped draw leaves the application's pass as it drew it, and the frame still signals its value (its
// skinning's GPU time known, not the frame's); the frame drawn after it is drawn whole. A wait for it that fails does
// not drop it.
TEST(RendererRecordInPass, draws_only_the_frame_prepared_in_its_command_buffer_once) {
    on_lent_device([](Renderer& /*own*/, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const Camera2D& camera = scenes.crowd_camera;
        const RenderPath path = RenderPath::gpu;
        const VkRect2D area{{8, 8}, {k_width, k_height}};
        AppImage dropped_image(host.lent, k_image_width, k_image_height, 1, path);
        AppImage drawn_image(host.lent, k_image_width, k_image_height, 2, path);
        AppRenderPass dropped_pass(host.lent, dropped_image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
        AppRenderPass drawn_pass(host.lent, drawn_image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
        AppCommands commands(host.lent, 2);
        const auto refusal = [&](VkCommandBuffer cb) {
            Result<void> r = lent.record_in_pass(cb);
            return r ? std::string("recorded") : r.error().message();
        };
        VkCommandBuffer first = commands.begin(0), second = commands.begin(1);
        EXPECT_NE(refusal(first).find("record_in_pass: no frame awaits its draw"), std::string::npos)
            << refusal(first);
        EXPECT_NE(refusal(VK_NULL_HANDLE).find("VK_NULL_HANDLE"), std::string::npos);
        // The first frame, prepared in `first`, dropped by the second, prepared in `second`.
        Result<RecordedFrame> dropped = lent.record_for_pass(first, dropped_pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(dropped.ok()) << dropped.error().message();
        EXPECT_NE(refusal(second).find("prepared in another command buffer"), std::string::npos) << refusal(second);
        Result<RecordedFrame> drawn = lent.record_for_pass(second, drawn_pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(drawn.ok()) << drawn.error().message();
        dropped_pass.begin(first, k_outside);
        EXPECT_NE(refusal(first).find("prepared in another command buffer"), std::string::npos) << refusal(first);
        dropped_pass.end(first);
        dropped_image.record_copy_out(first, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        drawn_pass.begin(second, k_outside);
        EXPECT_EQ(refusal(second), "recorded");
        EXPECT_NE(refusal(second).find("no frame awaits its draw"), std::string::npos) << refusal(second);
        drawn_pass.end(second);
        drawn_image.record_copy_out(second, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        commands.submit(0, *dropped);
        commands.submit(1, *drawn);
        Result<FrameStats> done = lent.finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_EQ(done->frame, drawn->stats.frame);
        EXPECT_GE(done->gpu_ms, 0.0);
        commands.wait(0);
        commands.wait(1);
        std::vector<std::uint8_t> clear(std::size_t{k_image_width} * k_image_height * 4);
        paint(clear, k_image_width, {{0, 0}, {k_image_width, k_image_height}}, k_outside);
        EXPECT_EQ(pixels_differing(dropped_image.copied_out(), clear), 0u);
        EXPECT_GT(pixels_differing(drawn_image.copied_out(), clear), 1000u);
        // A frame whose draw was dropped by a wait for it: finish, with its command buffer submitted unfinished.
        VkCommandBuffer third = commands.begin(0);
        Result<RecordedFrame> waited = lent.record_for_pass(third, drawn_pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(waited.ok()) << waited.error().message();
        commands.submit(0, *waited);
        done = lent.finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_LT(done->gpu_ms, 0.0);  // (its draw and last timestamp never recorded: unknown)
        EXPECT_GE(done->skin_ms, 0.0);  // (its skinning's stamps were written)
        EXPECT_EQ(done->fragments, 0u);
        EXPECT_NE(refusal(commands.begin(1)).find("no frame awaits its draw"), std::string::npos);
        vkEndCommandBuffer(commands.buffer(1));
        // A wait for the frame that fails (finish, before the frame's submission, gives up after the diagnostic
        // timeout) keeps its draw: recorded after, then submitted, it is drawn.
        VkCommandBuffer fourth = commands.begin(0);
        Result<RecordedFrame> kept = lent.record_for_pass(fourth, drawn_pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(kept.ok()) << kept.error().message();
        setenv("SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS", "300", 1);
        EXPECT_FALSE(lent.finish().ok());
        unsetenv("SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS");
        drawn_pass.begin(fourth, k_outside);
        EXPECT_EQ(refusal(fourth), "recorded");
        drawn_pass.end(fourth);
        drawn_image.record_copy_out(fourth, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        commands.submit(0, *kept);
        done = lent.finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_GE(done->gpu_ms, 0.0);
        commands.wait(0);
        EXPECT_GT(pixels_differing(drawn_image.copied_out(), clear), 1000u);
        // A later call that is refused (record_for_pass without a command buffer) drops the prepared frame as well;
        // submitted without its draw, it still signals its value.
        VkCommandBuffer fifth = commands.begin(0);
        Result<RecordedFrame> before = lent.record_for_pass(fifth, drawn_pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(before.ok()) << before.error().message();
        EXPECT_FALSE(lent.record_for_pass(VK_NULL_HANDLE, drawn_pass.host_pass(area), crowd, camera, path).ok());
        drawn_pass.begin(fifth, k_outside);
        EXPECT_NE(refusal(fifth).find("no frame awaits its draw"), std::string::npos) << refusal(fifth);
        drawn_pass.end(fifth);
        commands.submit(0, *before);
        done = lent.finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_EQ(done->frame, before->stats.frame);
        commands.wait(0);
    });
}

// What cannot be drawn in the application's pass is refused, naming why: a renderer with its own device, the tile
// path, no render pass on a device without dynamic rendering, another subpass than 0 with dynamic rendering,
// attachment formats given with a render pass, and with dynamic rendering depth and stencil formats that differ or
// lack their component, a colour format the device does not blend into, a sample count that is not one
// the device takes, an empty area or one at a negative offset, a null command buffer, and a device made without
// timeline semaphores. The refusals record nothing into the command buffer.
TEST(RendererRecordInPass, what_cannot_be_drawn_in_the_pass_is_refused_naming_why) {
    SPINEGPU_REQUIRE_RENDERER(own);
    for (const bool timeline : {true, false}) {
        // (The device without timeline semaphores has no dynamic rendering either.)
        std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features(), timeline, timeline);
        ASSERT_TRUE(host);
        {
            std::unique_ptr<Renderer> lent = renderer_on(*host);
            ASSERT_TRUE(lent);
            AppImage image(host->lent, 16, 16, 1, RenderPath::gpu);
            AppRenderPass pass(host->lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
            AppCommands commands(host->lent, 1);
            VkCommandBuffer cb = commands.begin(0);
            const HostPass fine = pass.host_pass({{0, 0}, {16, 16}});
            const auto refusal = [&](Renderer& renderer, VkCommandBuffer into, const HostPass& p, RenderPath path) {
                Result<RecordedFrame> r = renderer.record_for_pass(into, p, {}, Camera2D{}, path);
                return r ? std::string("recorded") : r.error().message();
            };
            const auto expect_refused = [&](const HostPass& p, RenderPath path, const std::string& why) {
                const std::string message = refusal(*lent, cb, p, path);
                EXPECT_NE(message.find("record_for_pass: "), std::string::npos) << message;
                EXPECT_NE(message.find(why), std::string::npos) << message;
            };
            EXPECT_NE(refusal(*own, cb, fine, RenderPath::gpu).find("RendererDesc::host"), std::string::npos);
            expect_refused(fine, RenderPath::gpu_tiles, "no render pass can hold");
            HostPass p = fine;
            p.render_pass = VK_NULL_HANDLE;  // (dynamic rendering)
            if (!host->lent.dynamic_rendering) {
                expect_refused(p, RenderPath::gpu, "made without dynamic rendering (HostDevice::dynamic_rendering)");
            }
            p.subpass = 1;
            expect_refused(p, RenderPath::gpu, host->lent.dynamic_rendering ? "HostPass::subpass is 1"
                                                                             : "HostDevice::dynamic_rendering");
            p = fine;
            p.depth_format = VK_FORMAT_D32_SFLOAT;
            expect_refused(p, RenderPath::gpu, "HostPass::depth_format and stencil_format are for dynamic rendering");
            if (host->lent.dynamic_rendering) {
                p.render_pass = VK_NULL_HANDLE;
                p.stencil_format = VK_FORMAT_S8_UINT;
                expect_refused(p, RenderPath::gpu, "one image holds both attachments");
                p.depth_format = p.stencil_format;
                expect_refused(p, RenderPath::gpu, "HostPass::depth_format is 127, a format without a depth");
                p.depth_format = p.stencil_format = VK_FORMAT_R8G8B8A8_UNORM;
                expect_refused(p, RenderPath::gpu, "a format without a depth component");
                p.depth_format = VK_FORMAT_UNDEFINED;
                expect_refused(p, RenderPath::gpu, "HostPass::stencil_format is 37, a format without a stencil");
            }
            p = fine;
            p.format = VK_FORMAT_R32G32B32A32_UINT;
            expect_refused(p, RenderPath::cpu, "does not blend into");
            p = fine;
            p.samples = static_cast<VkSampleCountFlagBits>(3);
            expect_refused(p, RenderPath::gpu, "HostPass::samples is 3");
            p = fine;
            p.area = {{0, 0}, {0, 16}};
            expect_refused(p, RenderPath::gpu, "HostPass::area is 0x16");
            p.area = {{-1, 0}, {16, 16}};
            expect_refused(p, RenderPath::gpu_vertex, "negative offset");
            EXPECT_NE(refusal(*lent, VK_NULL_HANDLE, fine, RenderPath::gpu).find("VK_NULL_HANDLE"), std::string::npos);
            if (!timeline) {
                expect_refused(fine, RenderPath::gpu, "HostDevice::timeline_semaphore");
                vkEndCommandBuffer(cb);  // (never submitted)
            } else {
                // The refusals recorded nothing: the command buffer, with a frame of no characters after them, is
                // valid to submit (validation reports nothing), and the frame takes the first value.
                Result<RecordedFrame> empty = lent->record_for_pass(cb, fine, {}, Camera2D{}, RenderPath::gpu);
                ASSERT_TRUE(empty.ok()) << empty.error().message();
                EXPECT_EQ(empty->value, 1u);
                commands.submit(0, *empty);
                EXPECT_TRUE(lent->finish().ok());
            }
        }
        host->destroy_device();
        expect_no_host_messages(*host);
    }
}

// Whether pixel (x, y) of a straight RGBA8 image `width` x `height` lies within one pixel of an edge: a pair of
// neighbouring pixels (8-neighbours) in that 3x3 block whose premultiplied values differ by more than 2.
bool near_an_edge(const std::vector<std::uint8_t>& pixels, std::uint32_t width, std::uint32_t height, std::uint32_t x,
                  std::uint32_t y) {
    const auto at = [&](std::int64_t px, std::int64_t py, int k) {
        const std::size_t i = (static_cast<std::size_t>(py) * width + static_cast<std::size_t>(px)) * 4;
        return k == 3 ? int{pixels[i + 3]} : (int{pixels[i + k]} * int{pixels[i + 3]} + 127) / 255;
    };
    const auto inside = [&](std::int64_t px, std::int64_t py) {
        return px >= 0 && py >= 0 && px < std::int64_t{width} && py < std::int64_t{height};
    };
    for (std::int64_t cy = std::int64_t{y} - 1; cy <= std::int64_t{y} + 1; ++cy)
        for (std::int64_t cx = std::int64_t{x} - 1; cx <= std::int64_t{x} + 1; ++cx) {
            if (!inside(cx, cy)) continue;
            for (std::int64_t ny = cy - 1; ny <= cy + 1; ++ny)
                for (std::int64_t nx = cx - 1; nx <= cx + 1; ++nx) {
                    if (!inside(nx, ny)) continue;
                    for (int k = 0; k < 4; ++k)
                        if (std::abs(at(cx, cy, k) - at(nx, ny, k)) > 2) return true;
                }
        }
    return false;
}

// In a subpass of 4 samples per pixel (of a render pass, and with dynamic rendering at an offset), resolved into the
// application's image, the characters are drawn multisampled: the pipelines are made for the pass's sample count
// (validation would report a mismatch). The fragment shader runs once per pixel, at its centre, so a pixel that all
// its samples see inside the same triangles is what the single-sampled frame holds; only pixels at edges, where
// samples see different triangles, may differ. So: every pixel more than 2/255 off the single-sampled frame lies
// within one pixel of an edge of that frame, and some do (the edges are smoothed).
TEST(RendererRecordInPass, draws_multisampled_in_a_multisampled_pass) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        AppCommands commands(host.lent, 1);
        std::uint64_t generation = 0;
        const RenderPath paths[] = {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex};
        for (int k = 0; k < 6; ++k) {  // (each path in a render pass, then with dynamic rendering)
            const RenderPath path = paths[k % 3];
            const bool dynamic = k >= 3;
            const VkRect2D area{dynamic ? VkOffset2D{13, 7} : VkOffset2D{0, 0}, {k_width, k_height}};
            if (dynamic && !host.lent.dynamic_rendering) continue;  // (the device has no dynamic rendering)
            const std::string where = "path " + std::to_string(static_cast<int>(path)) +
                                      (dynamic ? ", dynamic rendering" : ", render pass");
            const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
            const std::vector<std::uint8_t> single =
                composed(drawn_in_area(own, crowd, scenes.crowd_camera, area.offset, path), area);
            AppImage image(host.lent, k_image_width, k_image_height, ++generation, path);
            AppRenderPass pass(host.lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), true,
                               VK_SAMPLE_COUNT_4_BIT, dynamic);
            RecordedFrame recorded;
            ASSERT_TRUE(record_pass_frame(lent, commands.begin(0), pass, image, area, crowd, scenes.crowd_camera,
                                          path, recorded))
                << where;
            commands.submit(0, recorded);
            commands.wait(0);
            const std::vector<std::uint8_t> seen = image.copied_out();
            std::uint32_t off = 0, off_inside = 0;
            for (std::uint32_t y = 0; y < k_image_height; ++y)
                for (std::uint32_t x = 0; x < k_image_width; ++x) {
                    const std::size_t i = (std::size_t{y} * k_image_width + x) * 4;
                    const std::vector<std::uint8_t> a(seen.begin() + i, seen.begin() + i + 4),
                        b(single.begin() + i, single.begin() + i + 4);
                    if (pixels_off_by_more_than(a, b, 2) == 0) continue;
                    ++off;
                    if (!near_an_edge(single, k_image_width, k_image_height, x, y)) ++off_inside;
                }
            EXPECT_EQ(off_inside, 0u) << where << ": pixels off the single-sampled frame away from its edges";
            EXPECT_GT(off, 100u) << where << ": no edge smoothed";
            ASSERT_TRUE(lent.finish().ok()) << where;
        }
    });
}

// The pipelines of the subpasses last drawn in are kept, the least recently used past eight retired, and destroyed
// only once the frames recorded before they retired have run, whichever slot's wait comes first. With ten frames in
// flight (each frame its own slot, so that none waits for the held queue: lavapipe would not return from reading a
// slot's queries while it is held): frame 0, in generation 1 (a new subpass to the renderer), is dropped and its value
// signalled from the host; frame 1, in generation 1 too, is submitted held back by a semaphore of the application's;
// frames 2 to 8 in generations 2 to 8 queue behind it; frame 9, in a ninth generation, retires generation 1's
// pipelines while frame 1 is pending; frame 10 reuses frame 0's slot, whose wait finds frame 0's value come but not
// frame 9's, and must keep them (validation reports a pipeline destroyed while a command buffer that uses it is
// pending). Then the application lets the queue run; the last frame is drawn as a renderer on its own device draws it.
TEST(RendererRecordInPass, keeps_the_pipelines_of_the_subpasses_last_drawn_in_and_retires_the_rest_once_done) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    VkSemaphore held = VK_NULL_HANDLE;  // (the application's: frame 1's submission waits for it)
    VkSemaphoreTypeCreateInfo timeline{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    timeline.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    semaphore.pNext = &timeline;
    ASSERT_EQ(vkCreateSemaphore(host->lent.device, &semaphore, nullptr, &held), VK_SUCCESS);
    {
        RendererDesc desc;
        desc.host = &host->lent;
        desc.frames_in_flight = 10;
        Result<std::unique_ptr<Renderer>> made = Renderer::create(desc);
        ASSERT_TRUE(made.ok()) << made.error().message();
        Renderer& lent = **made;
        Scenes scenes;
        ASSERT_TRUE(load_scenes(*own, lent, scenes));
        ASSERT_TRUE(lent.finalize().ok());  // (its upload waits for the queue, which must not be held then)
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const VkRect2D area{{0, 0}, {k_width, k_height}};
        const std::vector<std::uint8_t> expected =
            composed(drawn_in_area(*own, crowd, scenes.crowd_camera, area.offset, RenderPath::gpu), area);
        AppCommands commands(host->lent, 10);
        AppImage image(host->lent, k_image_width, k_image_height, 1, RenderPath::gpu);
        AppRenderPass pass(host->lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
        // Lets the queue run however the test ends (before the renderer, the image and the command buffers, whose
        // destruction waits for it).
        struct Release {
            VkDevice device;
            VkSemaphore semaphore;
            ~Release() {
                VkSemaphoreSignalInfo go{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
                go.semaphore = semaphore;
                go.value = 1;
                std::uint64_t now = 0;
                if (vkGetSemaphoreCounterValue(device, semaphore, &now) == VK_SUCCESS && now < 1)
                    vkSignalSemaphore(device, &go);
            }
        } release{host->lent.device, held};
        const auto record = [&](std::uint32_t k, std::uint64_t generation) -> std::optional<RecordedFrame> {
            VkCommandBuffer cb = commands.begin(k);
            Result<RecordedFrame> prepared = lent.record_for_pass(cb, pass.host_pass(area, generation), crowd,
                                                                  scenes.crowd_camera, RenderPath::gpu);
            EXPECT_TRUE(prepared.ok()) << prepared.error().message();
            if (!prepared) return std::nullopt;
            pass.begin(cb, k_outside);
            pass.clear(cb, {area.offset, {k_width / 2, k_height}}, k_left);
            pass.clear(cb, {{k_width / 2, 0}, {k_width - k_width / 2, k_height}}, k_right);
            EXPECT_TRUE(lent.record_in_pass(cb).ok());
            pass.clear(cb, box_in(area), k_box);
            pass.end(cb);
            image.record_copy_out(cb, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            return *prepared;
        };
        std::optional<RecordedFrame> dropped = record(0, 1);
        ASSERT_TRUE(dropped);
        VkSemaphoreSignalInfo covered{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        covered.semaphore = dropped->semaphore;
        covered.value = dropped->value;
        ASSERT_EQ(vkSignalSemaphore(host->lent.device, &covered), VK_SUCCESS);
        for (std::uint32_t k = 1; k < 10; ++k) {
            std::optional<RecordedFrame> frame = record(k, k == 1 ? 1 : k);
            ASSERT_TRUE(frame);
            commands.submit(k, *frame, k == 1 ? held : VK_NULL_HANDLE, 1);
        }
        std::optional<RecordedFrame> last = record(0, 2);
        ASSERT_TRUE(last);
        commands.submit(0, *last);
        VkSemaphoreSignalInfo go{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        go.semaphore = held;
        go.value = 1;
        ASSERT_EQ(vkSignalSemaphore(host->lent.device, &go), VK_SUCCESS);
        ASSERT_TRUE(lent.finish().ok());
        commands.wait(0);
        EXPECT_EQ(pixels_differing(image.copied_out(), expected), 0u) << "the last frame";
    }
    vkDestroySemaphore(host->lent.device, held, nullptr);
    expect_no_validation_messages(*own);
    host->destroy_device();
    expect_no_host_messages(*host);
}

}  // namespace
}  // namespace spinegpu::test
