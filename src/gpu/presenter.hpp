// Showing the renderer's frames in a window: a swapchain over the window's surface (VkContext::surface) and, per
// present, a copy of the offscreen target into the window's next image, queued after the frame that drew it.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "vk_context.hpp"

namespace spinegpu::gpu {

class Presenter {
public:
    // For `context`'s surface, recording into command buffers of `pool` (resettable ones, of the context's queue
    // family). The swapchain is made by the first present.
    static Result<std::unique_ptr<Presenter>> create(VkContext& context, VkCommandPool pool, bool vsync);
    ~Presenter();
    Presenter(const Presenter&) = delete;
    Presenter& operator=(const Presenter&) = delete;

    // Copies `target` (R8G8B8A8_UNORM, `size` pixels, in TRANSFER_SRC_OPTIMAL layout once the work queued before
    // is done, as a frame leaves it) into the window's next image, scaled to fill it, and presents that image. The
    // swapchain is (re)made to `window` pixels first when it is stale or that size changed. False, showing nothing,
    // when the window has no area, the swapchain went out of date (remade on the next call), or no window image came
    // free within a quarter of a second.
    Result<bool> present(VkImage target, VkExtent2D size, VkExtent2D window);
    // Waits until no present queued reads the target (before the target is destroyed).
    Result<void> wait();

private:
    struct Slot {
        VkSemaphore acquired = VK_NULL_HANDLE;  // the window's image is free to write
        VkFence done = VK_NULL_HANDLE;          // the copy has run (made signalled)
        VkCommandBuffer commands = VK_NULL_HANDLE;
    };

    Presenter(VkContext& context, VkCommandPool pool, bool vsync) : c_(context), pool_(pool), vsync_(vsync) {}
    // Makes the swapchain for a window of `window` pixels (the old one retired); false when it has no area.
    Result<bool> remake(VkExtent2D window);
    void destroy_swapchain();
    // Whether the window's size is no longer the swapchain's (a suboptimal swapchain of the right size is kept,
    // rather than remade every frame).
    bool extent_changed() const;
    void record_copy(VkCommandBuffer cb, VkImage target, VkExtent2D size, std::uint32_t image) const;

    VkContext& c_;
    VkCommandPool pool_;
    bool vsync_;
    std::array<Slot, 2> slots_{};
    std::uint32_t next_slot_ = 0;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};     // the swapchain images' size
    VkExtent2D asked_for_{};  // the window size it was made for
    bool stale_ = false;      // out of date or suboptimal: remade on the next present
    std::vector<VkImage> images_;
    std::vector<VkSemaphore> copied_;  // per window image: its copy is done, so it may be presented
};

}  // namespace spinegpu::gpu
