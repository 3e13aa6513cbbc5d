// Buffers: see gpu_buffer.hpp.
#include "gpu_buffer.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>

namespace spinegpu::gpu {

namespace {

// SPINEGPU_DIAGNOSE_HOST_MEMORY (a measurement switch; see create_buffer): "cached" or "system", else unset.
enum class HostMemory { device_local, cached, system };

HostMemory host_memory_choice() {
    static const HostMemory choice = [] {
        const char* v = std::getenv("SPINEGPU_DIAGNOSE_HOST_MEMORY");
        if (v != nullptr && std::strcmp(v, "cached") == 0) return HostMemory::cached;
        if (v != nullptr && std::strcmp(v, "system") == 0) return HostMemory::system;
        return HostMemory::device_local;
    }();
    return choice;
}

}  // namespace

Result<void> create_buffer(VkContext& context, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible,
                           GpuBuffer& out, bool readback) {
    size = std::max<VkDeviceSize>(size, 256);
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    GpuBuffer b;
    b.size = size;
    b.usage = usage;
    b.host_visible = host_visible;
    b.generation = out.generation + 1;
    if (VkResult r = vkCreateBuffer(context.device, &info, nullptr, &b.buffer); r != VK_SUCCESS)
        return vk_error("vkCreateBuffer", r);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(context.device, b.buffer, &req);
    std::int32_t type = -1;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (!host_visible) {
        type = find_memory_type(context, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    } else if (readback) {
        type = find_memory_type(context, req.memoryTypeBits, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    } else if (host_memory_choice() != HostMemory::device_local) {
        // A measurement must not quietly run in another kind of memory than it asked for.
        const VkMemoryPropertyFlags cached =
            host_memory_choice() == HostMemory::cached ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0;
        type = find_memory_type(context, req.memoryTypeBits, host | cached, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (type < 0) {
            vkDestroyBuffer(context.device, b.buffer, nullptr);
            return make_error("vulkan", "SPINEGPU_DIAGNOSE_HOST_MEMORY",
                              "the device has no such memory type for this buffer");
        }
    } else {
        type = find_memory_type(context, req.memoryTypeBits, host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    }
    if (type < 0) type = find_memory_type(context, req.memoryTypeBits, host_visible ? host : 0);
    if (type < 0) {
        vkDestroyBuffer(context.device, b.buffer, nullptr);
        return make_error("vulkan", "vkAllocateMemory", "no memory type for a buffer");
    }
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
    if (VkResult r = vkAllocateMemory(context.device, &alloc, nullptr, &b.memory); r != VK_SUCCESS) {
        vkDestroyBuffer(context.device, b.buffer, nullptr);
        return vk_error("vkAllocateMemory", r);
    }
    if (VkResult r = vkBindBufferMemory(context.device, b.buffer, b.memory, 0); r != VK_SUCCESS) {
        vkDestroyBuffer(context.device, b.buffer, nullptr);
        vkFreeMemory(context.device, b.memory, nullptr);
        return vk_error("vkBindBufferMemory", r);
    }
    if (host_visible) {
        if (VkResult r = vkMapMemory(context.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped); r != VK_SUCCESS) {
            vkDestroyBuffer(context.device, b.buffer, nullptr);
            vkFreeMemory(context.device, b.memory, nullptr);
            return vk_error("vkMapMemory", r);
        }
    }
    destroy_buffer(context, out);
    out = b;
    return {};
}

void destroy_buffer(VkContext& context, GpuBuffer& buffer) {
    if (buffer.buffer != VK_NULL_HANDLE) vkDestroyBuffer(context.device, buffer.buffer, nullptr);
    if (buffer.memory != VK_NULL_HANDLE) vkFreeMemory(context.device, buffer.memory, nullptr);
    const std::uint64_t generation = buffer.generation;
    buffer = GpuBuffer{};
    buffer.generation = generation;
}

Result<bool> fit_buffer(VkContext& context, GpuBuffer& buffer, VkDeviceSize needed) {
    needed = std::max<VkDeviceSize>(needed, 256);
    const bool too_small = buffer.buffer == VK_NULL_HANDLE || buffer.size < needed;
    const bool too_large = buffer.size > 4096 && needed < buffer.size / 4;
    if (!too_small && !too_large) return false;
    const VkDeviceSize size = std::bit_ceil(needed);
    Result<void> made = create_buffer(context, size, buffer.usage, buffer.host_visible, buffer);
    if (!made) return made.error();
    return true;
}

Result<void> create_image(VkContext& c, const VkImageCreateInfo& info, VkImage& image, VkDeviceMemory& memory) {
    VkDevice d = c.device;
    image = VK_NULL_HANDLE;
    memory = VK_NULL_HANDLE;
    if (VkResult r = vkCreateImage(d, &info, nullptr, &image); r != VK_SUCCESS) {
        image = VK_NULL_HANDLE;
        return vk_error("vkCreateImage", r);
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d, image, &req);
    std::int32_t type = find_memory_type(c, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0) type = find_memory_type(c, req.memoryTypeBits, 0);
    VkResult r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    const char* call = "vkAllocateMemory (no memory type for an image)";
    if (type >= 0) {
        VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = static_cast<std::uint32_t>(type);
        call = "vkAllocateMemory";
        r = vkAllocateMemory(d, &alloc, nullptr, &memory);
        if (r != VK_SUCCESS) memory = VK_NULL_HANDLE;
        if (r == VK_SUCCESS) {
            call = "vkBindImageMemory";
            r = vkBindImageMemory(d, image, memory, 0);
        }
    }
    if (r == VK_SUCCESS) return {};
    if (memory != VK_NULL_HANDLE) vkFreeMemory(d, memory, nullptr);
    vkDestroyImage(d, image, nullptr);
    image = VK_NULL_HANDLE;
    memory = VK_NULL_HANDLE;
    return vk_error(call, r);
}

Result<void> create_rgba8_image(VkContext& c, std::uint32_t width, std::uint32_t height, VkImageUsageFlags usage,
                                VkImage& image, VkDeviceMemory& memory, VkImageView& view) {
    view = VK_NULL_HANDLE;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R8G8B8A8_UNORM;
    info.extent = {width, height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    if (Result<void> made = create_image(c, info, image, memory); !made) return made;
    VkImageViewCreateInfo v{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    v.image = image;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = info.format;
    v.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (VkResult r = vkCreateImageView(c.device, &v, nullptr, &view); r != VK_SUCCESS) {
        vkDestroyImage(c.device, image, nullptr);
        vkFreeMemory(c.device, memory, nullptr);
        image = VK_NULL_HANDLE;
        memory = VK_NULL_HANDLE;
        view = VK_NULL_HANDLE;
        return vk_error("vkCreateImageView", r);
    }
    return {};
}

void image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                   VkAccessFlags dst_access) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcAccessMask = src_access;
    barrier.dstAccessMask = dst_access;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

}  // namespace spinegpu::gpu
