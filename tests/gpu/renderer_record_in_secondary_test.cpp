// Frames drawn inside the application's own render pass from a secondary command buffer (Renderer::record_for_pass,
// then record_in_secondary), for a pass whose contents are secondary command buffers, as an engine that records its
// passes on several threads has them. The application here is the test (app_pass_frame.hpp): the frame's work before
// the pass in its primary command buffer; in the pass, its backgrounds, the characters and its box over them, all in
// one secondary command buffer or each in its own (the characters' recorded first); then the copy out.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
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

// One frame drawn from secondary command buffers: its path, scene (Scenes), the image's format, whether the pass has
// a depth attachment, whether it is begun with vkCmdBeginRendering, its sample count, where the area lies, whether
// the pass's draws each have their own secondary command buffer (else one holds them all), and words naming it.
struct SecondaryCase {
    RenderPath path;
    int scene;
    VkFormat format;
    bool depth, dynamic;
    VkSampleCountFlagBits samples;
    VkOffset2D offset;
    bool apart;
    bool second_subpass = false;  // (of a render pass: AppRenderPass)
    std::string where;
};

std::vector<SecondaryCase> secondary_cases() {
    constexpr VkFormat rgba = VK_FORMAT_R8G8B8A8_UNORM, bgra = VK_FORMAT_B8G8R8A8_UNORM;
    constexpr VkSampleCountFlagBits one = VK_SAMPLE_COUNT_1_BIT, four = VK_SAMPLE_COUNT_4_BIT;
    std::vector<SecondaryCase> out = {{RenderPath::gpu, 0, rgba, false, false, one, {0, 0}, false},
                                      {RenderPath::cpu, 1, bgra, true, true, one, {13, 7}, true},
                                      {RenderPath::gpu_vertex, 0, rgba, true, false, one, {24, 16}, true},
                                      {RenderPath::gpu, 2, rgba, false, true, one, {24, 8}, false},
                                      {RenderPath::cpu, 2, rgba, true, false, one, {0, 16}, false},
                                      {RenderPath::gpu_vertex, 0, bgra, false, true, one, {0, 0}, true},
                                      {RenderPath::gpu, 0, rgba, true, true, four, {13, 7}, true},
                                      {RenderPath::cpu, 1, rgba, false, false, four, {0, 0}, false},
                                      {RenderPath::gpu, 1, rgba, true, false, one, {13, 7}, true, true},
                                      {RenderPath::gpu_vertex, 0, bgra, false, false, one, {0, 0}, false, true}};
    for (SecondaryCase& c : out)
        c.where = pass_case_words(c.path, c.scene, c.format, c.depth, c.dynamic, c.offset, c.second_subpass) + ", " +
                  std::to_string(c.samples) + " sample(s)" +
                  (c.apart ? ", each draw in its own secondary" : ", one secondary");
    return out;
}

// On the gpu, cpu and gpu_vertex paths, the three scenes, RGBA8 and BGRA8 images, with and without depth, render passes
// (the characters in their first subpass or their second, which the secondary inherits) and dynamic rendering, areas at
// the corner and at offsets, the characters' draw in the secondary command buffer that holds the application's other
// draws of the pass or in one of its own, recorded before theirs: the image copied out is, pixel for pixel, what the
// same frame drawn inline (record_in_pass) gives, which for one sample per pixel is what a renderer on its own device
// draws there (as the inline tests check; on lavapipe a BGRA8 image's channels may be 1/255 off that); with four
// samples, the inline frame itself. The secondary's own query and timestamp count the draw: its GPU time and fragments
// are known once finished. Validation reports nothing.
TEST(RendererRecordInSecondary, draws_from_a_secondary_command_buffer_what_it_draws_inline) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        AppCommands commands(host.lent, 1, 3);
        const VkCommandBuffer secondaries[3] = {commands.secondary(0), commands.secondary(1), commands.secondary(2)};
        std::uint64_t generation = 0;
        for (const SecondaryCase& c : secondary_cases()) {
            if (c.dynamic && !host.lent.dynamic_rendering) {
                std::printf("(%s: skipped, the device has no dynamic rendering)\n", c.where.c_str());
                continue;
            }
            const std::span<const CharacterDraw> characters = scenes.characters(c.scene);
            const Camera2D camera = scenes.camera(c.scene);
            const VkRect2D area{c.offset, {k_width, k_height}};
            AppImage image(host.lent, k_image_width, k_image_height, ++generation, c.path, c.format);
            AppRenderPass pass(host.lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), c.depth, c.samples,
                               c.dynamic, c.second_subpass);
            RecordedFrame recorded;
            ASSERT_TRUE(record_pass_frame(lent, commands.begin(0), pass, image, area, characters, camera, c.path,
                                          recorded))
                << c.where;
            commands.submit(0, recorded);
            commands.wait(0);
            const std::vector<std::uint8_t> inline_drawn = image.copied_out();
            ASSERT_TRUE(record_pass_frame(lent, commands.begin(0), pass, image, area, characters, camera, c.path,
                                          recorded, std::span(secondaries, c.apart ? 3 : 1)))
                << c.where;
            commands.submit(0, recorded);
            commands.wait(0);
            const std::vector<std::uint8_t> seen = image.copied_out();
            EXPECT_EQ(pixels_differing(seen, inline_drawn), 0u) << c.where;
            if (c.samples == VK_SAMPLE_COUNT_1_BIT) {
                const std::vector<std::uint8_t> expected =
                    composed(drawn_in_area(own, characters, camera, c.offset, c.path), area);
                if (own.software_device() && c.format == VK_FORMAT_B8G8R8A8_UNORM) {
                    EXPECT_EQ(pixels_off_by_more_than(seen, expected, 1), 0u) << c.where;
                } else {
                    EXPECT_EQ(pixels_differing(seen, expected), 0u) << c.where;
                }
            }
            // (Enough drawn to tell: the characters are there.)
            const std::vector<std::uint8_t> none = composed(drawn_in_area(own, {}, camera, c.offset, c.path), area);
            EXPECT_GT(pixels_differing(seen, none), 1000u) << c.where;
            Result<FrameStats> done = lent.finish();
            ASSERT_TRUE(done.ok()) << c.where << ": " << done.error().message();
            EXPECT_EQ(done->frame, recorded.stats.frame) << c.where;
            EXPECT_GE(done->gpu_ms, done->skin_ms) << c.where;  // (the last stamp read, after the skinning's)
            EXPECT_GE(done->skin_ms, 0.0) << c.where;
            if (host.lent.features.pipelineStatisticsQuery) {
                EXPECT_GT(done->fragments, 0u) << c.where;
            }
        }
    });
}

// record_in_secondary draws only a frame that record_for_pass prepared, once, and not into the command buffer
// record_for_pass recorded into (record_in_pass's; nor does record_in_pass take another). A secondary command buffer
// holding the frame's draw that the application never executes leaves its pass as it drew it: the frame still
// signals its value, and the wait for it does not hang on the draw's query and timestamp, which never ran (its
// skinning's GPU time known, not the frame's, no fragments); the next frame, executed, has both, and so does the frame
// drawn inline after it in the first frame's slot. (lavapipe returns from a wait for a query never written, so only a
// hardware driver would show a wait that hangs; skin_ms unknown shows the reads failing here.)
TEST(RendererRecordInSecondary, draws_only_a_prepared_frame_once_and_a_secondary_never_executed_leaves_it_unknown) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const Camera2D& camera = scenes.crowd_camera;
        const RenderPath path = RenderPath::gpu;
        const VkRect2D area{{8, 8}, {k_width, k_height}};
        AppImage image(host.lent, k_image_width, k_image_height, 1, path);
        AppRenderPass pass(host.lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false);
        AppCommands commands(host.lent, 1, 1);
        VkCommandBuffer secondary = commands.secondary(0);
        const auto refusal = [&](Result<void> r) { return r ? std::string("recorded") : r.error().message(); };
        VkCommandBuffer cb = commands.begin(0);
        pass.begin_secondary(secondary);
        EXPECT_NE(refusal(lent.record_in_secondary(secondary)).find("record_in_secondary: no frame awaits its draw"),
                  std::string::npos);
        EXPECT_NE(refusal(lent.record_in_secondary(VK_NULL_HANDLE)).find("VK_NULL_HANDLE"), std::string::npos);
        Result<RecordedFrame> unexecuted = lent.record_for_pass(cb, pass.host_pass(area), crowd, camera, path);
        ASSERT_TRUE(unexecuted.ok()) << unexecuted.error().message();
        EXPECT_NE(refusal(lent.record_in_secondary(cb)).find("that is the command buffer record_for_pass recorded "
                                                             "into, not a secondary one"),
                  std::string::npos)
            << refusal(lent.record_in_secondary(cb));
        EXPECT_NE(refusal(lent.record_in_pass(secondary)).find("prepared in another command buffer"),
                  std::string::npos);
        EXPECT_EQ(refusal(lent.record_in_secondary(secondary)), "recorded");
        EXPECT_NE(refusal(lent.record_in_secondary(secondary)).find("no frame awaits its draw"), std::string::npos);
        vkEndCommandBuffer(secondary);
        // The pass, its contents secondary command buffers, executes none: the characters' draw never runs.
        pass.begin(cb, k_outside, true);
        pass.end(cb);
        image.record_copy_out(cb, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        commands.submit(0, *unexecuted);
        Result<FrameStats> done = lent.finish();
        ASSERT_TRUE(done.ok()) << done.error().message();
        EXPECT_EQ(done->frame, unexecuted->stats.frame);
        EXPECT_LT(done->gpu_ms, 0.0);
        EXPECT_GE(done->skin_ms, 0.0);
        EXPECT_EQ(done->fragments, 0u);
        commands.wait(0);
        std::vector<std::uint8_t> clear(std::size_t{k_image_width} * k_image_height * 4);
        paint(clear, k_image_width, {{0, 0}, {k_image_width, k_image_height}}, k_outside);
        EXPECT_EQ(pixels_differing(image.copied_out(), clear), 0u);
        // The next frame, its secondary executed, then one inline in the slot whose secondary never ran: each drawn,
        // its GPU time and fragments known.
        const std::vector<std::uint8_t> expected = composed(drawn_in_area(own, crowd, camera, area.offset, path), area);
        const VkCommandBuffer* const one = &secondary;
        for (const std::span<const VkCommandBuffer> secondaries : {std::span(one, 1), std::span(one, 0)}) {
            const char* const how = secondaries.empty() ? "inline" : "in the secondary";
            RecordedFrame drawn;
            ASSERT_TRUE(record_pass_frame(lent, commands.begin(0), pass, image, area, crowd, camera, path, drawn,
                                          secondaries))
                << how;
            commands.submit(0, drawn);
            done = lent.finish();
            ASSERT_TRUE(done.ok()) << how << ": " << done.error().message();
            EXPECT_EQ(done->frame, drawn.stats.frame) << how;
            EXPECT_GE(done->gpu_ms, done->skin_ms) << how;
            EXPECT_GE(done->skin_ms, 0.0) << how;
            if (host.lent.features.pipelineStatisticsQuery) {
                EXPECT_GT(done->fragments, 0u) << how;
            }
            commands.wait(0);
            EXPECT_EQ(pixels_differing(image.copied_out(), expected), 0u) << how;
        }
    });
}

}  // namespace
}  // namespace spinegpu::test
