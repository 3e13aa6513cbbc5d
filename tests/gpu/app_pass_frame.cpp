// The application's frame around its render pass in the tests (app_pass_frame.hpp).
#include "app_pass_frame.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace spinegpu::test {

using namespace spinegpu::gpu;

VkRect2D box_in(VkRect2D area) {
    return {{area.offset.x + 50, area.offset.y + 60}, {40, 30}};
}

void paint(std::vector<std::uint8_t>& pixels, std::uint32_t width, VkRect2D rect, Color c) {
    const std::uint8_t bytes[4] = {static_cast<std::uint8_t>(c.r * 255 + 0.5f),
                                   static_cast<std::uint8_t>(c.g * 255 + 0.5f),
                                   static_cast<std::uint8_t>(c.b * 255 + 0.5f), 255};
    for (std::uint32_t y = 0; y < rect.extent.height; ++y)
        for (std::uint32_t x = 0; x < rect.extent.width; ++x)
            std::memcpy(&pixels[((rect.offset.y + y) * std::size_t{width} + rect.offset.x + x) * 4], bytes, 4);
}

std::uint32_t pixels_differing_in(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                                  VkRect2D rect) {
    std::uint32_t n = 0;
    for (std::uint32_t y = 0; y < rect.extent.height; ++y)
        for (std::uint32_t x = 0; x < rect.extent.width; ++x) {
            const std::size_t i = ((rect.offset.y + y) * std::size_t{k_width} + rect.offset.x + x) * 4;
            n += std::memcmp(&a[i], &b[i], 4) != 0 ? 1 : 0;
        }
    return n;
}

std::vector<std::uint8_t> drawn_in_area(Renderer& own, std::span<const CharacterDraw> characters,
                                        const Camera2D& camera, VkOffset2D offset, RenderPath path) {
    return drawn_over_two_backgrounds(own, characters, camera, k_width, k_height, path, offset);
}

std::vector<std::uint8_t> composed(const std::vector<std::uint8_t>& area_pixels, VkRect2D area) {
    std::vector<std::uint8_t> out(std::size_t{k_image_width} * k_image_height * 4);
    paint(out, k_image_width, {{0, 0}, {k_image_width, k_image_height}}, k_outside);
    for (std::uint32_t y = 0; y < k_height; ++y)
        std::memcpy(&out[((area.offset.y + y) * std::size_t{k_image_width} + area.offset.x) * 4],
                    &area_pixels[y * std::size_t{k_width} * 4], k_width * 4);
    paint(out, k_image_width, box_in(area), k_box);
    return out;
}

std::string pass_case_words(RenderPath path, int scene, VkFormat format, bool depth, bool dynamic, VkOffset2D offset,
                            bool second_subpass) {
    return "path " + std::to_string(static_cast<int>(path)) + ", scene " + std::to_string(scene) + ", format " +
           std::to_string(format) + (depth ? ", depth" : "") + (dynamic ? ", dynamic rendering" : "") + ", area at (" +
           std::to_string(offset.x) + ", " + std::to_string(offset.y) + ")" + (second_subpass ? ", subpass 1" : "");
}

bool record_pass_frame(Renderer& lent, VkCommandBuffer cb, const AppRenderPass& pass, AppImage& image, VkRect2D area,
                       std::span<const CharacterDraw> characters, const Camera2D& camera, RenderPath path,
                       RecordedFrame& recorded, std::span<const VkCommandBuffer> secondaries) {
    if (secondaries.size() != 0 && secondaries.size() != 1 && secondaries.size() != 3) {
        ADD_FAILURE() << "record_pass_frame takes 0, 1 or 3 secondary command buffers, not " << secondaries.size();
        return false;
    }
    Result<RecordedFrame> prepared = lent.record_for_pass(cb, pass.host_pass(area), characters, camera, path);
    EXPECT_TRUE(prepared.ok()) << prepared.error().message();
    if (!prepared) return false;
    recorded = *prepared;
    const auto backgrounds = [&](VkCommandBuffer into) {
        const std::uint32_t half = k_width / 2;
        pass.clear(into, {area.offset, {half, k_height}}, k_left);
        pass.clear(into,
                   {{area.offset.x + static_cast<std::int32_t>(half), area.offset.y}, {k_width - half, k_height}},
                   k_right);
    };
    Result<void> drawn{};
    if (secondaries.empty()) {
        pass.begin(cb, k_outside);
        backgrounds(cb);
        drawn = lent.record_in_pass(cb);
        pass.clear(cb, box_in(area), k_box);
    } else {
        const bool apart = secondaries.size() == 3;
        if (apart) {
            pass.begin_secondary(secondaries[1]);
            drawn = lent.record_in_secondary(secondaries[1]);
            vkEndCommandBuffer(secondaries[1]);
        }
        pass.begin_secondary(secondaries[0]);
        backgrounds(secondaries[0]);
        if (!apart) drawn = lent.record_in_secondary(secondaries[0]);
        VkCommandBuffer last = secondaries[0];
        if (apart) {
            vkEndCommandBuffer(secondaries[0]);
            last = secondaries[2];
            pass.begin_secondary(last);
        }
        pass.clear(last, box_in(area), k_box);
        vkEndCommandBuffer(last);
        pass.begin(cb, k_outside, true);
        vkCmdExecuteCommands(cb, static_cast<std::uint32_t>(secondaries.size()), secondaries.data());
    }
    EXPECT_TRUE(drawn.ok()) << drawn.error().message();
    pass.end(cb);
    image.record_copy_out(cb, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    return drawn.ok();
}

}  // namespace spinegpu::test
