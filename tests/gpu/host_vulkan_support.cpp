#include "host_vulkan_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace spinegpu::test {

using namespace spinegpu::gpu;

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL count_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    auto* host = static_cast<HostVulkan*>(user);
    if (host->messages.fetch_add(1) == 0) host->first_message = data->pMessage;
    return VK_FALSE;
}

}  // namespace

bool has_validation_layer() {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    return std::any_of(layers.begin(), layers.end(), [](const VkLayerProperties& l) {
        return std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
}

std::unique_ptr<HostVulkan> make_host(const std::string& device_name, const VkPhysicalDeviceFeatures& wanted,
                                      bool timeline, bool dynamic_rendering) {
    auto host = std::make_unique<HostVulkan>();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "spinegpu host device test";
    app.apiVersion = VK_API_VERSION_1_2;
    const char* const layer = "VK_LAYER_KHRONOS_validation";
    const char* const debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    const VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT validation_features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    validation_features.enabledValidationFeatureCount = 1;
    validation_features.pEnabledValidationFeatures = &sync;
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.pNext = &validation_features;
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    messenger.pfnUserCallback = count_message;
    messenger.pUserData = host.get();
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    const bool validated = has_validation_layer();
    if (validated) {
        info.pNext = &messenger;
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &layer;
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &debug_utils;
    }
    if (VkResult r = vkCreateInstance(&info, nullptr, &host->instance); r != VK_SUCCESS) {
        ADD_FAILURE() << "the application's vkCreateInstance: " << r;
        return nullptr;
    }
    if (validated) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(host->instance, "vkCreateDebugUtilsMessengerEXT"));
        messenger.pNext = nullptr;
        if (create(host->instance, &messenger, nullptr, &host->messenger) != VK_SUCCESS) {
            ADD_FAILURE() << "vkCreateDebugUtilsMessengerEXT";
            return nullptr;
        }
    }
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(host->instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(host->instance, &count, devices.data());
    for (VkPhysicalDevice physical : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        if (device_name == props.deviceName) host->lent.physical = physical;
    }
    if (host->lent.physical == VK_NULL_HANDLE) {
        ADD_FAILURE() << "the application finds no device named " << device_name;
        return nullptr;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(host->lent.physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(host->lent.physical, &count, families.data());
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    while (host->lent.queue_family < count && (families[host->lent.queue_family].queueFlags & need) != need)
        ++host->lent.queue_family;
    VkPhysicalDeviceFeatures available{};
    vkGetPhysicalDeviceFeatures(host->lent.physical, &available);
    VkPhysicalDeviceFeatures& enabled = host->lent.features;
    enabled.dualSrcBlend = available.dualSrcBlend & wanted.dualSrcBlend;
    enabled.shaderInt64 = available.shaderInt64 & wanted.shaderInt64;
    enabled.shaderFloat64 = available.shaderFloat64 & wanted.shaderFloat64;
    enabled.pipelineStatisticsQuery = available.pipelineStatisticsQuery & wanted.pipelineStatisticsQuery;
    enabled.shaderStorageImageReadWithoutFormat =
        available.shaderStorageImageReadWithoutFormat & wanted.shaderStorageImageReadWithoutFormat;
    enabled.shaderStorageImageWriteWithoutFormat =
        available.shaderStorageImageWriteWithoutFormat & wanted.shaderStorageImageWriteWithoutFormat;
    const float priority = 1;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = host->lent.queue_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan12Features vulkan12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    vulkan12.timelineSemaphore = VK_TRUE;  // (required of every Vulkan 1.2 device)
    VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    if (timeline) device.pNext = &vulkan12;
    // Dynamic rendering through its extension (the instance asks for Vulkan 1.2), where the device has it.
    std::uint32_t extension_count = 0;
    vkEnumerateDeviceExtensionProperties(host->lent.physical, nullptr, &extension_count, nullptr);
    std::vector<VkExtensionProperties> extensions(extension_count);
    vkEnumerateDeviceExtensionProperties(host->lent.physical, nullptr, &extension_count, extensions.data());
    bool has_dynamic_rendering = false;
    for (const VkExtensionProperties& e : extensions)
        has_dynamic_rendering = has_dynamic_rendering ||
                                std::string(e.extensionName) == VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
    VkPhysicalDeviceDynamicRenderingFeatures rendering{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    rendering.dynamicRendering = VK_TRUE;
    const char* rendering_extension = VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
    if (dynamic_rendering && has_dynamic_rendering) {
        rendering.pNext = const_cast<void*>(device.pNext);
        device.pNext = &rendering;
        device.enabledExtensionCount = 1;
        device.ppEnabledExtensionNames = &rendering_extension;
    }
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    device.pEnabledFeatures = &enabled;
    if (VkResult r = vkCreateDevice(host->lent.physical, &device, nullptr, &host->lent.device); r != VK_SUCCESS) {
        ADD_FAILURE() << "the application's vkCreateDevice: " << r;
        return nullptr;
    }
    vkGetDeviceQueue(host->lent.device, host->lent.queue_family, 0, &host->lent.queue);
    host->lent.instance = host->instance;
    host->lent.api_version = app.apiVersion;
    host->lent.timeline_semaphore = timeline;
    host->lent.dynamic_rendering = dynamic_rendering && has_dynamic_rendering;
    return host;
}

VkPhysicalDeviceFeatures all_features() {
    VkPhysicalDeviceFeatures f{};
    f.dualSrcBlend = f.shaderInt64 = f.shaderFloat64 = f.pipelineStatisticsQuery = VK_TRUE;
    f.shaderStorageImageReadWithoutFormat = f.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    return f;
}


std::unique_ptr<Renderer> renderer_on(const HostVulkan& host) {
    RendererDesc desc;
    desc.host = &host.lent;
    Result<std::unique_ptr<Renderer>> made = Renderer::create(desc);
    EXPECT_TRUE(made.ok()) << made.error().message();
    return made ? std::move(*made) : nullptr;
}

void expect_no_host_messages(const HostVulkan& host) {
    EXPECT_EQ(host.messages.load(), 0u) << host.first_message;
}

std::uint32_t find_memory_type(VkPhysicalDevice physical, std::uint32_t allowed, VkMemoryPropertyFlags properties) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & properties) == properties) return i;
    return ~0u;
}

}  // namespace spinegpu::test
