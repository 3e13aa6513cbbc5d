// spinegpu bench --onto: a Vulkan device of the bench's own, made as an application makes the one it lends the
// renderer (RendererDesc::host, host_device.hpp), and an image of the application's on it that every frame is drawn
// onto (Renderer::draw_onto), so that drawing onto an application's image, sRGB ones in linear light included, is
// timed as drawing into the renderer's own target is.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>

#include "spinegpu/core/result.hpp"
#include "spinegpu/gpu/host_device.hpp"

namespace spinegpu::tools {

class BenchHost {
public:
    // Makes an instance (Vulkan 1.2), a device on the first physical device of Vulkan 1.2 or later named
    // `device_name` exactly (the one the renderer chose on its own; of identical cards, the first), with every feature
    // of HostDevice's list it has, timeline semaphores and one queue of a family with graphics and compute; then a
    // `width` x `height` image of `format` (RGBA8 UNORM or sRGB) with the use every path needs onto it, cleared once
    // to `background` (premultiplied; as vkCmdClearColorImage takes it: in linear light for an sRGB image, which stores
    // it encoded) and left in GENERAL layout. A clear error when any of it fails.
    static Result<std::unique_ptr<BenchHost>> create(const std::string& device_name, VkFormat format,
                                                     std::uint32_t width, std::uint32_t height,
                                                     const VkClearColorValue& background);
    BenchHost(const BenchHost&) = delete;
    BenchHost& operator=(const BenchHost&) = delete;
    // Destroys the image and the device: after every renderer made with it.
    ~BenchHost();

    const gpu::HostDevice& device() const { return lent_; }
    // The image, in GENERAL layout, as draw_onto takes it.
    const gpu::HostImage& image() const { return image_; }

private:
    BenchHost() = default;
    Result<void> make_device(const std::string& device_name);
    Result<void> make_image(VkFormat format, std::uint32_t width, std::uint32_t height,
                            const VkClearColorValue& background);

    VkInstance instance_ = VK_NULL_HANDLE;
    gpu::HostDevice lent_;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    gpu::HostImage image_;
};

}  // namespace spinegpu::tools
