#include "bench_host.hpp"

#include <vector>

namespace spinegpu::tools {
namespace {

Error host_error(const char* call, VkResult result) {
    return make_error("bench --onto", call, "failed with VkResult " + std::to_string(static_cast<int>(result)));
}

// The memory type for an image that may live in the types set in `allowed`: the first device-local one, else the
// first of any kind; memoryTypeCount when none is allowed.
std::uint32_t image_memory_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t allowed) {
    for (VkMemoryPropertyFlags wanted : {VkMemoryPropertyFlags{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT}, 0u})
        for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
            if ((allowed >> i & 1) != 0 && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    return memory.memoryTypeCount;
}

}  // namespace

Result<std::unique_ptr<BenchHost>> BenchHost::create(const std::string& device_name, VkFormat format,
                                                     std::uint32_t width, std::uint32_t height,
                                                     const VkClearColorValue& background) {
    std::unique_ptr<BenchHost> host(new BenchHost());
    if (Result<void> r = host->make_device(device_name); !r) return r.error();
    if (Result<void> r = host->make_image(format, width, height, background); !r) return r.error();
    return host;
}

BenchHost::~BenchHost() {
    if (lent_.device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(lent_.device);
        if (image_.view != VK_NULL_HANDLE) vkDestroyImageView(lent_.device, image_.view, nullptr);
        if (image_.image != VK_NULL_HANDLE) vkDestroyImage(lent_.device, image_.image, nullptr);
        if (memory_ != VK_NULL_HANDLE) vkFreeMemory(lent_.device, memory_, nullptr);
        vkDestroyDevice(lent_.device, nullptr);
    }
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

Result<void> BenchHost::make_device(const std::string& device_name) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "spinegpu bench --onto";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (VkResult r = vkCreateInstance(&info, nullptr, &instance_); r != VK_SUCCESS) {
        instance_ = VK_NULL_HANDLE;
        return host_error("vkCreateInstance", r);
    }
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice physical : devices) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical, &properties);
        if (device_name == properties.deviceName && properties.apiVersion >= VK_API_VERSION_1_2 &&
            lent_.physical == VK_NULL_HANDLE)
            lent_.physical = physical;
    }
    if (lent_.physical == VK_NULL_HANDLE)
        return make_error("bench --onto", "device",
                          "no Vulkan device of Vulkan 1.2 or later named \"" + device_name + "\"");
    vkGetPhysicalDeviceQueueFamilyProperties(lent_.physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(lent_.physical, &count, families.data());
    const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    while (lent_.queue_family < count && (families[lent_.queue_family].queueFlags & needed) != needed)
        ++lent_.queue_family;
    if (lent_.queue_family == count)
        return make_error("bench --onto", device_name, "no queue family with graphics and compute");
    // Every feature the renderer can use, where the device has it (HostDevice's list).
    VkPhysicalDeviceFeatures available{};
    vkGetPhysicalDeviceFeatures(lent_.physical, &available);
    VkPhysicalDeviceFeatures& enabled = lent_.features;
    enabled.dualSrcBlend = available.dualSrcBlend;
    enabled.shaderInt64 = available.shaderInt64;
    enabled.shaderFloat64 = available.shaderFloat64;
    enabled.pipelineStatisticsQuery = available.pipelineStatisticsQuery;
    enabled.fullDrawIndexUint32 = available.fullDrawIndexUint32;
    enabled.shaderStorageImageReadWithoutFormat = available.shaderStorageImageReadWithoutFormat;
    enabled.shaderStorageImageWriteWithoutFormat = available.shaderStorageImageWriteWithoutFormat;
    const float priority = 1;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = lent_.queue_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan12Features vulkan12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    vulkan12.timelineSemaphore = VK_TRUE;  // (every Vulkan 1.2 device has them)
    VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device.pNext = &vulkan12;
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    device.pEnabledFeatures = &enabled;
    if (VkResult r = vkCreateDevice(lent_.physical, &device, nullptr, &lent_.device); r != VK_SUCCESS) {
        lent_.device = VK_NULL_HANDLE;
        return host_error("vkCreateDevice", r);
    }
    vkGetDeviceQueue(lent_.device, lent_.queue_family, 0, &lent_.queue);
    lent_.instance = instance_;
    lent_.api_version = app.apiVersion;
    lent_.timeline_semaphore = true;
    return {};
}

Result<void> BenchHost::make_image(VkFormat format, std::uint32_t width, std::uint32_t height,
                                   const VkClearColorValue& background) {
    VkDevice d = lent_.device;
    const bool srgb = format == VK_FORMAT_R8G8B8A8_SRGB;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width, height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    // Every path's use: colour attachment (gpu, cpu, gpu-vertex), storage (gpu-tiles onto UNORM) or transfer (gpu-tiles
    // onto sRGB, through the renderer's copy; and the clear).
    info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | (srgb ? 0 : VK_IMAGE_USAGE_STORAGE_BIT);
    if (VkResult r = vkCreateImage(d, &info, nullptr, &image_.image); r != VK_SUCCESS) {
        image_.image = VK_NULL_HANDLE;
        return host_error("vkCreateImage", r);
    }
    VkMemoryRequirements needs;
    vkGetImageMemoryRequirements(d, image_.image, &needs);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(lent_.physical, &memory);
    const std::uint32_t type = image_memory_type(memory, needs.memoryTypeBits);
    if (type == memory.memoryTypeCount)
        return make_error("bench --onto", "vkAllocateMemory", "no memory type for the image");
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = needs.size;
    allocate.memoryTypeIndex = type;
    if (VkResult r = vkAllocateMemory(d, &allocate, nullptr, &memory_); r != VK_SUCCESS) {
        memory_ = VK_NULL_HANDLE;
        return host_error("vkAllocateMemory", r);
    }
    if (VkResult r = vkBindImageMemory(d, image_.image, memory_, 0); r != VK_SUCCESS)
        return host_error("vkBindImageMemory", r);
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image_.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (VkResult r = vkCreateImageView(d, &view, nullptr, &image_.view); r != VK_SUCCESS) {
        image_.view = VK_NULL_HANDLE;
        return host_error("vkCreateImageView", r);
    }
    image_.format = format;
    image_.width = width;
    image_.height = height;
    image_.layout = VK_IMAGE_LAYOUT_GENERAL;
    image_.generation = 1;

    // The clear, into GENERAL layout, waited for.
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = lent_.queue_family;
    VkCommandPool pool = VK_NULL_HANDLE;
    if (VkResult r = vkCreateCommandPool(d, &pool_info, nullptr, &pool); r != VK_SUCCESS)
        return host_error("vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo buffer_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    buffer_info.commandPool = pool;
    buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    buffer_info.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkResult r = vkAllocateCommandBuffers(d, &buffer_info, &cb);
    if (r == VK_SUCCESS) {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        r = vkBeginCommandBuffer(cb, &begin);
    }
    if (r == VK_SUCCESS) {
        VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.image = image_.image;
        barrier.subresourceRange = view.subresourceRange;
        barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
        barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &barrier);
        vkCmdClearColorImage(cb, image_.image, VK_IMAGE_LAYOUT_GENERAL, &background, 1, &view.subresourceRange);
        r = vkEndCommandBuffer(cb);
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cb;
        r = vkQueueSubmit(lent_.queue, 1, &submit, VK_NULL_HANDLE);
        if (r == VK_SUCCESS) r = vkQueueWaitIdle(lent_.queue);
    }
    vkDestroyCommandPool(d, pool, nullptr);
    if (r != VK_SUCCESS) return host_error("the image's clear", r);
    return {};
}

}  // namespace spinegpu::tools
