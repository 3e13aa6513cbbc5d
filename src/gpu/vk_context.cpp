// Vulkan instance, device selection and device: see vk_context.hpp.
#include "vk_context.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::gpu {
namespace {

const char* const k_validation_layer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    auto* context = static_cast<VkContext*>(user);
    if (context->validation_messages.fetch_add(1) == 0) context->first_validation_message = data->pMessage;
    std::fprintf(stderr, "vulkan validation: %s\n", data->pMessage);
    return VK_FALSE;
}

const char* result_name(VkResult r) {
    switch (r) {
        case VK_SUCCESS: return "VK_SUCCESS";
        case VK_NOT_READY: return "VK_NOT_READY";
        case VK_TIMEOUT: return "VK_TIMEOUT";
        case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
        case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
        case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
        case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
        case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
        case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
        case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
        default: return "VkResult";
    }
}

// Whether `name` contains `part`, letters compared without case ("nvidia" finds "NVIDIA H200").
bool name_contains(std::string_view name, std::string_view part) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(name.begin(), name.end(), part.begin(), part.end(),
                       [&](char a, char b) { return lower(a) == lower(b); }) != name.end();
}

bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

bool has_layer(const char* name) {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool has_device_extension(VkPhysicalDevice physical, const char* name) {
    std::uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// Why `physical` cannot serve the renderer ("" if it can), and its queue family: one with graphics and compute,
// which also presents to `surface` when there is one.
std::string check_device(VkPhysicalDevice physical, VkSurfaceKHR surface, std::uint32_t& family) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    if (props.apiVersion < VK_API_VERSION_1_2) return "Vulkan 1.2 is required";
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(physical, &features);
    if (!features.dualSrcBlend) return "no dual-source blending (dualSrcBlend)";
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
    if (surface != VK_NULL_HANDLE && !has_device_extension(physical, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
        return "no VK_KHR_swapchain, so it cannot show frames in a window";
    for (std::uint32_t i = 0; i < count; ++i) {
        const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((families[i].queueFlags & need) != need) continue;
        VkBool32 presents = VK_TRUE;
        if (surface != VK_NULL_HANDLE &&
            vkGetPhysicalDeviceSurfaceSupportKHR(physical, i, surface, &presents) != VK_SUCCESS)
            presents = VK_FALSE;
        if (presents == VK_TRUE) {
            family = i;
            return "";
        }
    }
    return surface != VK_NULL_HANDLE ? "no queue family with graphics and compute that presents to the window"
                                     : "no queue family with graphics and compute";
}

int device_rank(const VkPhysicalDeviceProperties& p) {
    switch (p.deviceType) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
        default: return 3;
    }
}

// The paths of the shared libraries loaded in this process now.
std::vector<std::string> loaded_libraries() {
    std::vector<std::string> paths;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0')
                static_cast<std::vector<std::string>*>(out)->emplace_back(info->dlpi_name);
            return 0;
        },
        &paths);
    return paths;
}

// Keeps every library loaded now that `before` lacks (the drivers and layers vkCreateInstance opened) loaded for the
// process's life. NVIDIA's Linux driver takes static TLS each time it is loaded and never gets it back: in session
// 27's GPU test suite on an H100, the 32nd instance created and destroyed in one process found no driver
// (libnvidia-tls: "cannot allocate memory in static TLS block"). Kept loaded, it is loaded once.
void keep_loaded_since(const std::vector<std::string>& before) {
    for (const std::string& path : loaded_libraries())
        if (std::find(before.begin(), before.end(), path) == before.end())
            dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);  // the handle is never closed, by design
}

// Fills in what the renderer needs to know of the chosen device and queue family (context->physical, queue_family
// and properties set).
void describe_device(VkContext& context) {
    context.device_name = context.properties.deviceName;
    context.software = context.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    vkGetPhysicalDeviceMemoryProperties(context.physical, &context.memory);
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(context.physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(context.physical, &family_count, families.data());
    if (const std::uint32_t bits = families[context.queue_family].timestampValidBits; bits != 0) {
        context.timestamp_period_ns = context.properties.limits.timestampPeriod;
        context.timestamp_mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    }
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties2.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(context.physical, &properties2);
    context.compute_subgroup_vote = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
                                    (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_VOTE_BIT) != 0;
}

// Why the tile path cannot draw onto B8G8R8A8_UNORM images of the application's `host` device (`available`: its
// physical device's features), or empty when it can: storage images read and written without a format, the device
// made with both features (which the shader's capabilities want below Vulkan 1.3), and the format's optimal tiling
// doing both, which only Vulkan 1.3's format features (or VK_KHR_format_feature_flags2's) can say: the features alone
// cover a list of formats that BGRA8 is not on.
std::string bgra_tiles_missing(const VkContext& context, const HostDevice& host,
                               const VkPhysicalDeviceFeatures& available) {
    if (!available.shaderStorageImageReadWithoutFormat || !available.shaderStorageImageWriteWithoutFormat)
        return context.device_name + " cannot read and write storage images without a format "
                                     "(shaderStorageImageReadWithoutFormat, shaderStorageImageWriteWithoutFormat)";
    if (!host.features.shaderStorageImageReadWithoutFormat || !host.features.shaderStorageImageWriteWithoutFormat)
        return "the device was not made with storage images read and written without a format "
               "(HostDevice::features.shaderStorageImageReadWithoutFormat and shaderStorageImageWriteWithoutFormat: "
               "enable them in vkCreateDevice)";
    std::uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(host.physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(host.physical, nullptr, &count, extensions.data());
    bool flags2 = std::min(host.api_version, context.properties.apiVersion) >= VK_API_VERSION_1_3;
    for (const VkExtensionProperties& e : extensions)
        flags2 = flags2 || std::strcmp(e.extensionName, VK_KHR_FORMAT_FEATURE_FLAGS_2_EXTENSION_NAME) == 0;
    if (!flags2)
        return context.device_name + " cannot say whether it reads and writes B8G8R8A8_UNORM storage images without "
                                     "a format (that takes Vulkan 1.3, or VK_KHR_format_feature_flags2)";
    VkFormatProperties3 features3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 features{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2};
    features.pNext = &features3;
    vkGetPhysicalDeviceFormatProperties2(host.physical, VK_FORMAT_B8G8R8A8_UNORM, &features);
    const VkFormatFeatureFlags2 wanted = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT |
                                         VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                                         VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
    if ((features3.optimalTilingFeatures & wanted) != wanted)
        return context.device_name + " does not read and write B8G8R8A8_UNORM storage images (optimal tiling) "
                                     "without a format";
    return {};
}

// Records which optional features the device has enabled.
void take_features(VkContext& context, const VkPhysicalDeviceFeatures& enabled) {
    context.pipeline_statistics = enabled.pipelineStatisticsQuery == VK_TRUE;
    context.shader_int64 = enabled.shaderInt64 == VK_TRUE;
    context.shader_float64 = enabled.shaderFloat64 == VK_TRUE;
    const std::uint32_t limit = context.properties.limits.maxDrawIndexedIndexValue;
    context.max_draw_index =
        enabled.fullDrawIndexUint32 == VK_TRUE ? 0xFFFFFFFEu : std::min<std::uint32_t>(limit, 0xFFFFFF);
}

}  // namespace

Error vk_error(const char* call, VkResult result) {
    Error e = make_error("vulkan", call, std::string(result_name(result)) + " (" + std::to_string(result) + ")");
    e.vk_result = result;
    return e;
}

VkContext::~VkContext() {
    if (borrowed) return;  // the application's
    if (device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
    if (surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance, surface, nullptr);
    if (messenger != VK_NULL_HANDLE) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy != nullptr) destroy(instance, messenger, nullptr);
    }
    if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}

Result<VkCommandBuffer> allocate_command_buffer(VkDevice device, VkCommandPool pool) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateCommandBuffers(device, &info, &commands); r != VK_SUCCESS)
        return vk_error("vkAllocateCommandBuffers", r);
    return commands;
}

std::int32_t find_memory_type(const VkContext& context, std::uint32_t bits, VkMemoryPropertyFlags flags,
                              VkMemoryPropertyFlags excluded) {
    for (std::uint32_t i = 0; i < context.memory.memoryTypeCount; ++i) {
        const VkMemoryPropertyFlags has = context.memory.memoryTypes[i].propertyFlags;
        if ((bits & (1u << i)) && (has & flags) == flags && (has & excluded) == 0) return static_cast<std::int32_t>(i);
    }
    return -1;
}

Result<std::unique_ptr<VkContext>> create_vk_context(const std::string& device_filter, bool validation,
                                                     const WindowSurface* window) {
    auto context = std::make_unique<VkContext>();
    validation = validation || env_flag("SPINEGPU_VALIDATION");
    std::string filter = device_filter;
    const char* filter_from = "";  // where the filter came from, for errors
    if (filter.empty()) {
        if (const char* env = std::getenv("SPINEGPU_DEVICE")) {
            filter = env;
            filter_from = " (SPINEGPU_DEVICE)";
        }
    }

    std::uint32_t api = 0;
    if (vkEnumerateInstanceVersion(&api) != VK_SUCCESS || api < VK_API_VERSION_1_2)
        return make_error("vulkan", "instance", "no Vulkan 1.2 loader (install libvulkan1 and a driver, e.g. "
                                                "mesa-vulkan-drivers)");
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "spinegpu";
    app.apiVersion = VK_API_VERSION_1_2;
    std::vector<const char*> layers, extensions;
    if (validation) {
        if (!has_layer(k_validation_layer))
            return make_error("vulkan", "instance", "validation was asked for but VK_LAYER_KHRONOS_validation is "
                                                    "not installed (vulkan-validationlayers)");
        layers.push_back(k_validation_layer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    if (window != nullptr)
        for (const std::string& e : window->instance_extensions) extensions.push_back(e.c_str());
    VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app;
    instance_info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    instance_info.ppEnabledLayerNames = layers.data();
    instance_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    instance_info.ppEnabledExtensionNames = extensions.data();
    VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = on_validation_message;
    messenger_info.pUserData = context.get();
    if (validation) instance_info.pNext = &messenger_info;
    const std::vector<std::string> libraries_before = loaded_libraries();
    if (VkResult r = vkCreateInstance(&instance_info, nullptr, &context->instance); r != VK_SUCCESS) {
        if (r == VK_ERROR_INCOMPATIBLE_DRIVER)  // what the loader says when it finds no driver at all
            return make_error("vulkan", "instance", "no Vulkan driver found (vkCreateInstance: "
                                                    "VK_ERROR_INCOMPATIBLE_DRIVER; install a driver: "
                                                    "mesa-vulkan-drivers gives the lavapipe software device)");
        return vk_error("vkCreateInstance", r);
    }
    keep_loaded_since(libraries_before);
    if (validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(context->instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create == nullptr) return make_error("vulkan", "instance", "no vkCreateDebugUtilsMessengerEXT");
        if (VkResult r = create(context->instance, &messenger_info, nullptr, &context->messenger); r != VK_SUCCESS)
            return vk_error("vkCreateDebugUtilsMessengerEXT", r);
    }
    if (window != nullptr) {
        if (window->create == nullptr) return make_error("vulkan", "window", "no way to make the window's surface");
        if (auto r = static_cast<VkResult>(window->create(window->context, context->instance, &context->surface));
            r != VK_SUCCESS) {
            context->surface = VK_NULL_HANDLE;
            return vk_error("creating the window's surface", r);
        }
    }

    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(context->instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(context->instance, &count, devices.data());
    if (count == 0)
        return make_error("vulkan", "devices", "no Vulkan device found (install a driver: mesa-vulkan-drivers gives "
                                               "the lavapipe software device)");
    std::string reasons;
    int best_rank = 1 << 30;
    for (VkPhysicalDevice physical : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        std::string why;
        std::uint32_t family = 0;
        if (!filter.empty() && !name_contains(props.deviceName, filter))
            why = "name does not contain \"" + filter + "\"" + filter_from;
        else
            why = check_device(physical, context->surface, family);
        if (!why.empty()) {
            reasons += std::string("; ") + props.deviceName + ": " + why;
            continue;
        }
        if (device_rank(props) < best_rank) {
            best_rank = device_rank(props);
            context->physical = physical;
            context->queue_family = family;
            context->properties = props;
        }
    }
    if (context->physical == VK_NULL_HANDLE)
        return make_error("vulkan", "devices", "no usable Vulkan device" + reasons);
    describe_device(*context);

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = context->queue_family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkPhysicalDeviceFeatures available{};
    vkGetPhysicalDeviceFeatures(context->physical, &available);
    VkPhysicalDeviceFeatures features{};
    features.dualSrcBlend = VK_TRUE;
    features.pipelineStatisticsQuery = available.pipelineStatisticsQuery;
    features.shaderInt64 = available.shaderInt64;
    features.shaderFloat64 = available.shaderFloat64;
    features.fullDrawIndexUint32 = available.fullDrawIndexUint32;  // (a crowd passes 2^24 vertices)
    take_features(*context, features);
    VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    device_info.pEnabledFeatures = &features;
    const char* const swapchain_extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (context->surface != VK_NULL_HANDLE) {
        device_info.enabledExtensionCount = 1;
        device_info.ppEnabledExtensionNames = &swapchain_extension;
    }
    if (VkResult r = vkCreateDevice(context->physical, &device_info, nullptr, &context->device); r != VK_SUCCESS)
        return vk_error("vkCreateDevice", r);
    vkGetDeviceQueue(context->device, context->queue_family, 0, &context->queue);
    return context;
}

Result<std::unique_ptr<VkContext>> create_vk_context(const HostDevice& host) {
    const auto refuse = [](const std::string& why) { return make_error("vulkan", "host device", why); };
    const auto version = [](std::uint32_t v) {
        return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
    };
    for (const auto& [handle, name] : {std::pair{static_cast<const void*>(host.instance), "instance"},
                                       std::pair{static_cast<const void*>(host.physical), "physical"},
                                       std::pair{static_cast<const void*>(host.device), "device"},
                                       std::pair{static_cast<const void*>(host.queue), "queue"}})
        if (handle == nullptr) return refuse(std::string("HostDevice::") + name + " is VK_NULL_HANDLE");
    if (host.api_version < VK_API_VERSION_1_2)
        return refuse("HostDevice::api_version is " +
                      (host.api_version == 0 ? std::string("not set (0, which Vulkan reads as 1.0)")
                                             : version(host.api_version)) +
                      ": the instance must be made with Vulkan 1.2 or later (VkApplicationInfo::apiVersion)");
    auto context = std::make_unique<VkContext>();
    context->borrowed = true;
    context->instance = host.instance;
    context->physical = host.physical;
    context->device = host.device;
    context->queue = host.queue;
    context->queue_family = host.queue_family;
    vkGetPhysicalDeviceProperties(host.physical, &context->properties);
    const std::string name = context->properties.deviceName;
    if (context->properties.apiVersion < VK_API_VERSION_1_2)
        return refuse(name + " has Vulkan " + version(context->properties.apiVersion) + "; 1.2 is required");
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical, &family_count, families.data());
    const std::string family = "queue family " + std::to_string(host.queue_family);
    if (host.queue_family >= family_count)
        return refuse(family + " does not exist (" + name + " has " + std::to_string(family_count) + ")");
    const VkQueueFlags flags = families[host.queue_family].queueFlags;
    if ((flags & VK_QUEUE_GRAPHICS_BIT) == 0 || (flags & VK_QUEUE_COMPUTE_BIT) == 0)
        return refuse(family + " of " + name + " has no " +
                      ((flags & VK_QUEUE_GRAPHICS_BIT) == 0 ? "graphics" : "compute") +
                      ", and the renderer's queue needs graphics and compute");
    // Enabled features are what the device was made with; a feature the physical device lacks cannot have been.
    VkPhysicalDeviceFeatures available{};
    vkGetPhysicalDeviceFeatures(host.physical, &available);
    if (!available.dualSrcBlend)
        return refuse(name + " has no dual-source blending (dualSrcBlend), which the renderer needs");
    if (!host.features.dualSrcBlend)
        return refuse("the device was not made with dual-source blending (HostDevice::features.dualSrcBlend), which "
                      "the renderer needs: enable it in vkCreateDevice");
    VkPhysicalDeviceFeatures features{};
    features.dualSrcBlend = VK_TRUE;
    features.pipelineStatisticsQuery = host.features.pipelineStatisticsQuery & available.pipelineStatisticsQuery;
    features.shaderInt64 = host.features.shaderInt64 & available.shaderInt64;
    features.shaderFloat64 = host.features.shaderFloat64 & available.shaderFloat64;
    features.fullDrawIndexUint32 = host.features.fullDrawIndexUint32 & available.fullDrawIndexUint32;
    take_features(*context, features);
    context->timeline_semaphore = host.timeline_semaphore;
    context->dynamic_rendering = host.dynamic_rendering;
    describe_device(*context);
    context->bgra_tiles_missing = bgra_tiles_missing(*context, host, available);
    return context;
}

}  // namespace spinegpu::gpu
