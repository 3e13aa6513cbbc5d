// The Vulkan instance, the chosen physical device, the logical device and its one queue (graphics + compute),
// made in small steps as vk-bootstrap does them: instance (validation layer and messenger when asked), device
// selection (a hardware GPU preferred, lavapipe otherwise; SPINEGPU_DEVICE or RendererDesc::device picks by name),
// device with the features the renderer needs (dual-source blending); or the application's own, lent and checked
// (HostDevice). Every refusal says why.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "spinegpu/core/result.hpp"

namespace spinegpu::gpu {

struct WindowSurface;  // (renderer.hpp)
struct HostDevice;     // (host_device.hpp)

struct VkContext {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkSurfaceKHR surface = VK_NULL_HANDLE;       // the window's, when made with one (its queue family presents)
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t queue_family = 0;
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory{};
    std::string device_name;
    bool software = false;                       // a CPU implementation (lavapipe)
    float timestamp_period_ns = 0;               // 0: no timestamps on this queue
    std::uint64_t timestamp_mask = 0;            // the bits of a timestamp that are valid on this queue
    bool pipeline_statistics = false;            // fragment shader invocations can be counted
    bool shader_int64 = false;                   // 64-bit integers in shaders (the tile rasterizer needs them)
    bool shader_float64 = false;                 // 64-bit floats in shaders (the tile rasterizer needs them)
    bool compute_subgroup_vote = false;          // subgroupAny in compute shaders (the tile rasterizer needs it)
    // The largest vertex index an indexed draw may use: 2^32 - 2 with fullDrawIndexUint32 enabled, else 2^24 - 1
    // (what Vulkan guarantees without the feature; less if the device's maxDrawIndexedIndexValue says so).
    std::uint32_t max_draw_index = 0xFFFFFF;
    bool borrowed = false;                       // the application's (HostDevice): destroyed by it, not here
    bool timeline_semaphore = false;             // the application's device has timeline semaphores enabled
    bool dynamic_rendering = false;              // the application's device has dynamic rendering enabled
    // Why the tile path cannot draw onto the application's B8G8R8A8_UNORM images on its device (as storage images
    // read and written without a format), for a refusal; empty when it can.
    std::string bgra_tiles_missing = "a device of the renderer's own";
    std::atomic<std::uint64_t> validation_messages{0};  // warnings and errors from the validation layer
    std::string first_validation_message;

    VkContext() = default;
    VkContext(const VkContext&) = delete;
    VkContext& operator=(const VkContext&) = delete;
    ~VkContext();
};

// Creates the context. `device_filter` (or, when empty, the SPINEGPU_DEVICE environment variable) keeps only
// devices whose name contains it, ignoring case. `validation` (or SPINEGPU_VALIDATION=1) enables
// VK_LAYER_KHRONOS_validation and counts its warnings and errors. With a `window`, the instance gets its extensions,
// its surface is made, and only devices with VK_KHR_swapchain and a queue family that presents to it are kept. Fails
// with the reasons each device was rejected, or when no Vulkan exists.
Result<std::unique_ptr<VkContext>> create_vk_context(const std::string& device_filter, bool validation,
                                                     const WindowSurface* window = nullptr);

// A context over the application's device (RendererDesc::host), checked as host_device.hpp says; it destroys
// nothing. Fails naming what the device or queue lacks.
Result<std::unique_ptr<VkContext>> create_vk_context(const HostDevice& host);

// The first memory type index with `bits` allowed, all of `flags` set and none of `excluded`, or -1.
std::int32_t find_memory_type(const VkContext& context, std::uint32_t bits, VkMemoryPropertyFlags flags,
                              VkMemoryPropertyFlags excluded = 0);

// A primary command buffer from `pool`.
Result<VkCommandBuffer> allocate_command_buffer(VkDevice device, VkCommandPool pool);

// An Error for a failed Vulkan call, naming the call and the VkResult.
Error vk_error(const char* call, VkResult result);

}  // namespace spinegpu::gpu
