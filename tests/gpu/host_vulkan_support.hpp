// The application of the tests of renderers on the application's own Vulkan device (RendererDesc::host,
// host_device.hpp): its instance, with the validation layer (synchronization validation included) where installed,
// and the device it lends.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {

// The application's Vulkan: its instance, the device it lends, and the validation layer's messages on them.
struct HostVulkan {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    gpu::HostDevice lent;
    std::atomic<std::uint64_t> messages{0};
    std::string first_message;

    // Destroys the device: the validation layer then reports any object made on it and not destroyed.
    void destroy_device() {
        if (lent.device != VK_NULL_HANDLE) vkDestroyDevice(lent.device, nullptr);
        lent.device = VK_NULL_HANDLE;
    }
    ~HostVulkan() {
        destroy_device();
        if (messenger != VK_NULL_HANDLE) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, messenger, nullptr);
        }
        if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
    }
};

// Whether VK_LAYER_KHRONOS_validation is installed.
bool has_validation_layer();

// The application's instance and a device on the physical device named `device_name`, with those of dual-source
// blending, 64-bit integers and floats and pipeline statistics that it has and `wanted` asks for, timeline semaphores
// when `timeline`, and dynamic rendering (VK_KHR_dynamic_rendering) when `dynamic_rendering` and the device has it.
// Null, after recording a failure, when that cannot be made.
std::unique_ptr<HostVulkan> make_host(const std::string& device_name, const VkPhysicalDeviceFeatures& wanted,
                                      bool timeline = true, bool dynamic_rendering = true);

// Every feature make_host may enable.
VkPhysicalDeviceFeatures all_features();

// A renderer on `host`'s device; null after recording the failure.
std::unique_ptr<gpu::Renderer> renderer_on(const HostVulkan& host);

// Expects that the validation layer reported nothing on the application's instance and device.
void expect_no_host_messages(const HostVulkan& host);

// The index of a memory type of `physical` among `allowed` (bits) with `properties`, or ~0u.
std::uint32_t find_memory_type(VkPhysicalDevice physical, std::uint32_t allowed, VkMemoryPropertyFlags properties);

}  // namespace spinegpu::test
