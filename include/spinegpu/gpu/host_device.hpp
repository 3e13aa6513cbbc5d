// Drawing with the application's own Vulkan device (RendererDesc::host) and handing each frame to it
// (Renderer::frame_image): for an engine that has its device already and composites the characters into its own
// frames. Apart from renderer.hpp so that only code which embeds the renderer sees the Vulkan headers.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace spinegpu::gpu {

// A Vulkan device that the application made and keeps: the renderer draws with it instead of making its own, and
// destroys none of it (the application destroys it after every renderer made with it).
//
// Requirements, checked where Vulkan lets them be (a refusal names what is missing):
// - `instance` made with apiVersion 1.2 or later, `physical` a device of Vulkan 1.2 or later;
// - `device` made from `physical` with `features` (what its VkDeviceCreateInfo enabled, copied here, since Vulkan
//   cannot be asked): dualSrcBlend is required; shaderInt64 and shaderFloat64 allow RenderPath::gpu_tiles (where
//   the device also has subgroup votes in compute and 32 KiB of shared memory), pipelineStatisticsQuery the fragment
//   counts (FrameStats::fragments);
// - `queue` from `device`, of `queue_family`, which has graphics and compute.
// The renderer submits to `queue` from the calling thread in create, add_skeleton_type, finalize, draw and
// read_back, and waits for it to be idle in create, finalize, read_back and its destructor (which also wait for what
// the application submitted to it): Vulkan lets one thread at a time use a queue, so the application must not use
// `queue` on another thread during those calls. The validation layer, when wanted, is the application's (enabled on
// its instance; Renderer::validation_messages counts nothing then).
struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t queue_family = 0;
    VkPhysicalDeviceFeatures features{};
};

// The image the last frame was drawn into (Renderer::frame_image), for the application to read in its own command
// buffers, submitted to the renderer's queue after draw() returned:
// - the image holds premultiplied RGBA8 (VK_FORMAT_R8G8B8A8_UNORM; colours encoded as the atlas pages' are), the
//   frame drawn over its background; it can be copied or blitted from (TRANSFER_SRC), sampled (SAMPLED) and
//   stored to (STORAGE);
// - after draw() it is in `layout`, its writes made available to `stage` (the transfer stage): a barrier with that
//   source stage, and the layout transition the use needs, makes them visible to the application's commands;
// - the application may leave it in any layout: the next draw() discards its contents, after every command
//   submitted to the queue before that draw() (so reads in flight finish first), and transitions it itself; only
//   read_back() or present() of the same frame need it back in `layout` first;
// - the handles stay valid until a draw() at another size or the renderer's destruction (a draw() at another size
//   makes a new image).
struct FrameImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    std::uint32_t width = 0, height = 0;
    VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
};

}  // namespace spinegpu::gpu
