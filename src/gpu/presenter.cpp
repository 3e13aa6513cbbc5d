// Showing frames in a window: see presenter.hpp.
#include "presenter.hpp"

#include <algorithm>

#include "gpu_buffer.hpp"

namespace spinegpu::gpu {
namespace {

// How well a window image format takes the target's sRGB-encoded colour (blended as Spine blends): 2 for 8-bit
// UNORM, which takes its bytes as they are; 1 for 10-bit UNORM, which the blit widens; 0 for the rest (an sRGB format
// would encode the colour a second time). Only in the usual colour space.
int fitness(const VkSurfaceFormatKHR& f) {
    if (f.colorSpace != VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return 0;
    switch (f.format) {
        case VK_FORMAT_B8G8R8A8_UNORM:
        case VK_FORMAT_R8G8B8A8_UNORM:
        case VK_FORMAT_A8B8G8R8_UNORM_PACK32: return 2;
        case VK_FORMAT_A2R10G10B10_UNORM_PACK32:
        case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return 1;
        default: return 0;
    }
}

// How long an acquire may wait for a window image before the frame is given up (not shown), so that a window system
// that holds its images back (a hidden window, with some) cannot hold the caller for ever.
constexpr std::uint64_t k_acquire_timeout_ns = 250'000'000;

VkPresentModeKHR choose_present_mode(VkPhysicalDevice physical, VkSurfaceKHR surface, bool vsync) {
    if (vsync) return VK_PRESENT_MODE_FIFO_KHR;  // (every device offers it)
    std::uint32_t count = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nullptr);
    std::vector<VkPresentModeKHR> modes(count);
    vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, modes.data());
    for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
        if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) return wanted;
    return VK_PRESENT_MODE_FIFO_KHR;
}

}  // namespace

Result<std::unique_ptr<Presenter>> Presenter::create(VkContext& context, VkCommandPool pool, bool vsync) {
    std::unique_ptr<Presenter> p(new Presenter(context, pool, vsync));
    VkDevice d = context.device;
    for (Slot& s : p->slots_) {
        VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if (VkResult r = vkCreateSemaphore(d, &semaphore, nullptr, &s.acquired); r != VK_SUCCESS)
            return vk_error("vkCreateSemaphore", r);
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        if (VkResult r = vkCreateFence(d, &fence, nullptr, &s.done); r != VK_SUCCESS)
            return vk_error("vkCreateFence", r);
        Result<VkCommandBuffer> commands = allocate_command_buffer(d, pool);
        if (!commands) return commands.error();
        s.commands = *commands;
    }
    // The copy scales with a blit: the target must be a blit source, and a window format a blit destination.
    VkFormatProperties target{};
    vkGetPhysicalDeviceFormatProperties(context.physical, VK_FORMAT_R8G8B8A8_UNORM, &target);
    if ((target.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT) == 0)
        return make_error("vulkan", "window", context.device_name + " cannot blit from R8G8B8A8_UNORM images");
    return p;
}

Presenter::~Presenter() {
    VkDevice d = c_.device;
    vkDeviceWaitIdle(d);
    destroy_swapchain();
    for (Slot& s : slots_) {
        if (s.acquired) vkDestroySemaphore(d, s.acquired, nullptr);
        if (s.done) vkDestroyFence(d, s.done, nullptr);
        if (s.commands) vkFreeCommandBuffers(d, pool_, 1, &s.commands);
    }
}

void Presenter::destroy_swapchain() {
    for (VkSemaphore s : copied_) vkDestroySemaphore(c_.device, s, nullptr);
    copied_.clear();
    images_.clear();
    if (swapchain_) vkDestroySwapchainKHR(c_.device, swapchain_, nullptr);
    swapchain_ = VK_NULL_HANDLE;
}

Result<void> Presenter::wait() {
    for (Slot& s : slots_)
        if (VkResult r = vkWaitForFences(c_.device, 1, &s.done, VK_TRUE, UINT64_MAX); r != VK_SUCCESS)
            return vk_error("vkWaitForFences", r);
    return {};
}

Result<bool> Presenter::remake(VkExtent2D window) {
    // Nothing queued may still use the old swapchain's images or semaphores; presents already queued may.
    if (VkResult r = vkDeviceWaitIdle(c_.device); r != VK_SUCCESS) return vk_error("vkDeviceWaitIdle", r);
    VkSurfaceCapabilitiesKHR caps;
    if (VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(c_.physical, c_.surface, &caps); r != VK_SUCCESS)
        return vk_error("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", r);
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == 0xFFFFFFFFu)  // the window takes the swapchain's size
        extent = {std::clamp(window.width, caps.minImageExtent.width, caps.maxImageExtent.width),
                  std::clamp(window.height, caps.minImageExtent.height, caps.maxImageExtent.height)};
    asked_for_ = window;
    if (extent.width == 0 || extent.height == 0) {  // minimized: tried again at the next present
        stale_ = true;
        return false;
    }
    if ((caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) == 0)
        return make_error("vulkan", "window", "the window's images cannot be copied to (no TRANSFER_DST usage)");

    std::uint32_t count = 0;
    if (VkResult r = vkGetPhysicalDeviceSurfaceFormatsKHR(c_.physical, c_.surface, &count, nullptr); r != VK_SUCCESS)
        return vk_error("vkGetPhysicalDeviceSurfaceFormatsKHR", r);
    std::vector<VkSurfaceFormatKHR> formats(count);
    if (VkResult r = vkGetPhysicalDeviceSurfaceFormatsKHR(c_.physical, c_.surface, &count, formats.data());
        r != VK_SUCCESS && r != VK_INCOMPLETE)
        return vk_error("vkGetPhysicalDeviceSurfaceFormatsKHR", r);
    formats.resize(count);
    // The fittest format the device can blit to.
    const VkSurfaceFormatKHR* format = nullptr;
    for (const VkSurfaceFormatKHR& f : formats) {
        VkFormatProperties props{};
        vkGetPhysicalDeviceFormatProperties(c_.physical, f.format, &props);
        if (fitness(f) > 0 && (props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT) != 0 &&
            (format == nullptr || fitness(f) > fitness(*format)))
            format = &f;
    }
    if (format == nullptr)
        return make_error("vulkan", "window", "the window offers no 8- or 10-bit UNORM format (non-linear sRGB colour "
                                              "space) that " + c_.device_name + " can blit to");

    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = c_.surface;
    info.minImageCount = caps.maxImageCount == 0 ? caps.minImageCount + 1
                                                 : std::min(caps.minImageCount + 1, caps.maxImageCount);
    info.imageFormat = format->format;
    info.imageColorSpace = format->colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;  // (every surface supports one of the four)
    for (VkCompositeAlphaFlagBitsKHR a : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
                                          VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR,
                                          VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
        if (caps.supportedCompositeAlpha & a) {
            info.compositeAlpha = a;
            break;
        }
    info.presentMode = choose_present_mode(c_.physical, c_.surface, vsync_);
    info.clipped = VK_TRUE;
    info.oldSwapchain = swapchain_;
    VkSwapchainKHR made = VK_NULL_HANDLE;
    const VkResult r = vkCreateSwapchainKHR(c_.device, &info, nullptr, &made);
    destroy_swapchain();  // (retired either way)
    if (r != VK_SUCCESS) return vk_error("vkCreateSwapchainKHR", r);
    swapchain_ = made;
    format_ = format->format;
    extent_ = extent;
    stale_ = false;
    if (VkResult got = vkGetSwapchainImagesKHR(c_.device, swapchain_, &count, nullptr); got != VK_SUCCESS)
        return vk_error("vkGetSwapchainImagesKHR", got);
    images_.resize(count);
    if (VkResult got = vkGetSwapchainImagesKHR(c_.device, swapchain_, &count, images_.data()); got != VK_SUCCESS)
        return vk_error("vkGetSwapchainImagesKHR", got);
    copied_.assign(count, VK_NULL_HANDLE);
    for (VkSemaphore& s : copied_) {
        VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if (VkResult made_semaphore = vkCreateSemaphore(c_.device, &semaphore, nullptr, &s);
            made_semaphore != VK_SUCCESS)
            return vk_error("vkCreateSemaphore", made_semaphore);
    }
    return true;
}

bool Presenter::extent_changed() const {
    VkSurfaceCapabilitiesKHR caps;
    if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(c_.physical, c_.surface, &caps) != VK_SUCCESS) return true;
    return caps.currentExtent.width != 0xFFFFFFFFu &&
           (caps.currentExtent.width != extent_.width || caps.currentExtent.height != extent_.height);
}

void Presenter::record_copy(VkCommandBuffer cb, VkImage target, VkExtent2D size, std::uint32_t image) const {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &begin);
    // The target was left for transfer reads by the frame queued before (its last barrier); the window's image
    // comes from the acquire, waited for at the transfer stage.
    image_barrier(cb, images_[image], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {static_cast<std::int32_t>(size.width), static_cast<std::int32_t>(size.height), 1};
    blit.dstSubresource = blit.srcSubresource;
    blit.dstOffsets[1] = {static_cast<std::int32_t>(extent_.width), static_cast<std::int32_t>(extent_.height), 1};
    const bool same_size = size.width == extent_.width && size.height == extent_.height;
    vkCmdBlitImage(cb, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images_[image],
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, same_size ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
    image_barrier(cb, images_[image], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                  0);
    vkEndCommandBuffer(cb);
}

Result<bool> Presenter::present(VkImage target, VkExtent2D size, VkExtent2D window) {
    if (window.width == 0 || window.height == 0) return false;
    if (swapchain_ == VK_NULL_HANDLE || stale_ || window.width != asked_for_.width ||
        window.height != asked_for_.height) {
        Result<bool> made = remake(window);
        if (!made || !*made) return made;
    }
    Slot& slot = slots_[next_slot_];
    if (VkResult r = vkWaitForFences(c_.device, 1, &slot.done, VK_TRUE, UINT64_MAX); r != VK_SUCCESS)
        return vk_error("vkWaitForFences", r);
    std::uint32_t image = 0;
    VkResult acquired = vkAcquireNextImageKHR(c_.device, swapchain_, k_acquire_timeout_ns, slot.acquired,
                                              VK_NULL_HANDLE, &image);
    // (Without an image, the semaphore is left unsignalled and the slot's fence as it was.)
    if (acquired == VK_TIMEOUT || acquired == VK_NOT_READY) return false;
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
        stale_ = true;
        return false;
    }
    if (acquired == VK_SUBOPTIMAL_KHR) {
        stale_ = stale_ || extent_changed();  // shown this time; remade for the next if the window's size moved
    } else if (acquired != VK_SUCCESS) {
        return vk_error("vkAcquireNextImageKHR", acquired);
    }
    vkResetFences(c_.device, 1, &slot.done);
    vkResetCommandBuffer(slot.commands, 0);
    record_copy(slot.commands, target, size, image);
    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &slot.acquired;
    submit.pWaitDstStageMask = &wait_stage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &slot.commands;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &copied_[image];
    if (VkResult r = vkQueueSubmit(c_.queue, 1, &submit, slot.done); r != VK_SUCCESS)
        return vk_error("vkQueueSubmit", r);
    next_slot_ = (next_slot_ + 1) % slots_.size();
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &copied_[image];
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &image;
    const VkResult presented = vkQueuePresentKHR(c_.queue, &info);
    if (presented == VK_ERROR_OUT_OF_DATE_KHR) {
        stale_ = true;
        return false;
    }
    if (presented == VK_SUBOPTIMAL_KHR) {
        stale_ = stale_ || extent_changed();
    } else if (presented != VK_SUCCESS) {
        return vk_error("vkQueuePresentKHR", presented);
    }
    return true;
}

}  // namespace spinegpu::gpu
