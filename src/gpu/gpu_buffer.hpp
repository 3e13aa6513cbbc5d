// Buffers and images and their memory. Host-visible buffers are mapped once, persistently. Per-frame buffers grow
// to the next power of two that fits and shrink when less than a quarter is used (DESIGN.md, "Buffers"), so the
// steady state neither allocates nor changes descriptor sets.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "spinegpu/core/result.hpp"
#include "vk_context.hpp"

namespace spinegpu::gpu {

struct GpuBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;             // host-visible buffers only
    VkDeviceSize size = 0;
    VkBufferUsageFlags usage = 0;
    bool host_visible = false;
    std::uint64_t generation = 0;       // bumped on every reallocation (descriptor sets compare it)
};

// Creates `out` with `size` bytes (at least 256). Host-visible buffers prefer device-local memory the host can
// write (resizable BAR), else host memory; `readback` buffers prefer host-cached memory. The measurement switch
// SPINEGPU_DIAGNOSE_HOST_MEMORY=cached (or =system) puts every host-visible buffer but readback ones (the per-frame
// and the staging buffers) in host-cached (or any) memory that is not device-local, and fails when there is none.
Result<void> create_buffer(VkContext& context, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
                           GpuBuffer& out, bool readback = false);

// Frees the buffer (the caller makes sure the GPU no longer uses it).
void destroy_buffer(VkContext& context, GpuBuffer& buffer);

// Makes `buffer` hold at least `needed` bytes: reallocates to the next power of two when it is too small, or when
// less than a quarter of it is needed (contents are not kept). Returns whether it reallocated.
Result<bool> fit_buffer(VkContext& context, GpuBuffer& buffer, VkDeviceSize needed);

// Creates `image` from `info` with device-local memory (any memory where there is none) bound to it. On failure
// nothing is left created and both handles are null.
Result<void> create_image(VkContext& context, const VkImageCreateInfo& info, VkImage& image, VkDeviceMemory& memory);

// Creates a `width` x `height` R8G8B8A8_UNORM 2D image of one level and layer with `usage`, optimal tiling, its memory
// (as create_image) and a view of it. On failure nothing is left created and all three handles are null.
Result<void> create_rgba8_image(VkContext& context, std::uint32_t width, std::uint32_t height, VkImageUsageFlags usage,
                                VkImage& image, VkDeviceMemory& memory, VkImageView& view);

// Records a barrier on colour image `image` (its level 0 and layer 0), from layout `from` to `to`: after `src_stage`'s
// `src_access`, before `dst_stage`'s `dst_access`.
void image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                   VkAccessFlags dst_access);

}  // namespace spinegpu::gpu
