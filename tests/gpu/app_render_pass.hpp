// The application's own render pass in the tests of drawing in it (Renderer::record_for_pass and record_in_pass,
// HostPass): over one of its images (AppImage), with a depth attachment and multisampling when asked, and the
// application's own draws there (clears of rectangles, the one drawing command a pass needs no pipeline for).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "spinegpu/core/color.hpp"
#include "spinegpu/gpu/host_device.hpp"

namespace spinegpu::test {

// A render pass of one subpass over the application's image `target` (HostImage: its image, view, format and size):
// its colour attachment cleared at the start, left in COLOR_ATTACHMENT_OPTIMAL, after every earlier command on the
// queue and visible to every later one; with a D32_SFLOAT depth attachment of its own when `depth` (cleared, never
// stored); with `samples` > 1 a multisampled colour image of its own, resolved into `target` at the end. When
// `dynamic`, the same attachments in a render pass instance begun with vkCmdBeginRenderingKHR (dynamic rendering:
// the device needs HostDevice::dynamic_rendering), the barriers around it the application's own. With
// `second_subpass` (a render pass of one sample), the pass has two subpasses alike, the first left empty: everything
// after begin is drawn in the second (subpass 1).
class AppRenderPass {
public:
    AppRenderPass(const gpu::HostDevice& host, const gpu::HostImage& target, bool depth,
                  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT, bool dynamic = false,
                  bool second_subpass = false);
    AppRenderPass(const AppRenderPass&) = delete;
    AppRenderPass& operator=(const AppRenderPass&) = delete;
    // Destroys the render pass, framebuffer and its own images (their submissions done: the test waits first).
    ~AppRenderPass();

    // The pass as record_for_pass takes it: the characters drawn in `area`.
    gpu::HostPass host_pass(VkRect2D area, std::uint64_t generation = 1) const;
    // Begins the pass in `cb`, its colour attachment cleared to `straight` (premultiplied there) and depth to 1, and
    // moves on to its second subpass when it has one; with `secondaries`, the contents of the subpass it is left in
    // are secondary command buffers (begin_secondary).
    void begin(VkCommandBuffer cb, Color straight, bool secondaries = false) const;
    // Begins `secondary` (its pool resets it) for the pass: render pass continuation, inheriting its render pass and
    // subpass, or with dynamic rendering its attachments' formats and sample count.
    void begin_secondary(VkCommandBuffer secondary) const;
    // Clears `rect` of the colour attachment to `straight` (premultiplied there): one of the application's draws.
    void clear(VkCommandBuffer cb, VkRect2D rect, Color straight) const;
    void end(VkCommandBuffer cb) const;
    VkRenderPass render_pass() const { return pass_; }

private:
    // Records a barrier taking `image` (of `aspect`) from UNDEFINED to `layout`, after every earlier command, for the
    // attachment accesses of the pass.
    void enter(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout layout) const;
    // An image of the pass's own, `format` and `usage`, `samples` per pixel, with its view of `aspect`.
    void make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage& image,
                    VkDeviceMemory& memory, VkImageView& view);

    const gpu::HostDevice& host_;
    gpu::HostImage target_;
    bool depth_;
    VkSampleCountFlagBits samples_;
    bool dynamic_;
    std::uint32_t subpass_;  // where the characters are drawn: the last subpass
    PFN_vkCmdBeginRenderingKHR begin_rendering_ = nullptr;  // (dynamic)
    PFN_vkCmdEndRenderingKHR end_rendering_ = nullptr;
    VkRenderPass pass_ = VK_NULL_HANDLE;
    VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
    VkImage depth_image_ = VK_NULL_HANDLE, multisampled_ = VK_NULL_HANDLE;
    VkDeviceMemory depth_memory_ = VK_NULL_HANDLE, multisampled_memory_ = VK_NULL_HANDLE;
    VkImageView depth_view_ = VK_NULL_HANDLE, multisampled_view_ = VK_NULL_HANDLE;
};

}  // namespace spinegpu::test
