// draw_on_your_device: an application that has its own Vulkan device (as a game engine does) lends it to the
// renderer, which draws one character, posed after STEPS frames of 1/60 s of ANIMATION as `spinegpu render` poses
// it, into a 512x512 frame with the camera SCALE,OX,OY (as `render --camera`); the application then copies the frame
// out of the renderer's image in its own command buffer, on its own queue, and writes it to OUT.png (straight alpha,
// transparent background). The README quotes the lines between the README markers;
// tests/cli/library_samples_match_the_tool.sh checks that OUT.png equals `spinegpu render`'s image of that frame.
//
// usage: draw_on_your_device SKELETON ATLAS ANIMATION STEPS SCALE,OX,OY OUT.png
#include <vulkan/vulkan.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// README: begin headers
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/animation_state.hpp"

using namespace spinegpu;
// README: end

namespace {

constexpr std::uint32_t k_size = 512;

int fail(const Error& error) {
    std::fprintf(stderr, "%s\n", error.message().c_str());
    return 1;
}

int fail(const char* what, VkResult result) {
    std::fprintf(stderr, "draw_on_your_device: %s failed (VkResult %d)\n", what, static_cast<int>(result));
    return 1;
}

// The application's Vulkan: an instance, a device that has what the renderer needs, chosen as `spinegpu render`
// chooses its own (a discrete GPU first, then integrated, virtual, other, and a CPU device such as lavapipe last;
// SPINEGPU_DEVICE keeps only devices whose name contains it), and one queue with graphics and compute. Destroyed by
// the application, after the renderer.
struct AppVulkan {
    VkInstance instance = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    ~AppVulkan() {
        if (device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
        if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
    }
};

// Makes the application's instance and device, filling `lent` with what the renderer is lent; "" or why not.
std::string make_device(AppVulkan& app, gpu::HostDevice& lent) {
    VkApplicationInfo info{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    info.pApplicationName = "draw_on_your_device";
    info.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo instance{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance.pApplicationInfo = &info;
    if (vkCreateInstance(&instance, nullptr, &app.instance) != VK_SUCCESS) return "no Vulkan driver found";
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(app.instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(app.instance, &count, devices.data());
    const char* wanted = std::getenv("SPINEGPU_DEVICE");
    const auto contains = [](std::string name, std::string part) {
        for (std::string* text : {&name, &part})
            for (char& c : *text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return name.find(part) != std::string::npos;
    };
    const auto rank = [](VkPhysicalDeviceType type) {
        switch (type) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
            case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
            default: return 3;
        }
    };
    int best = 5;
    for (VkPhysicalDevice physical : devices) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(physical, &properties);
        VkPhysicalDeviceFeatures features;
        vkGetPhysicalDeviceFeatures(physical, &features);
        std::uint32_t families = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
        std::vector<VkQueueFamilyProperties> family(families);
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, family.data());
        std::uint32_t f = 0;
        const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        while (f < families && (family[f].queueFlags & need) != need) ++f;
        if (properties.apiVersion < VK_API_VERSION_1_2 || !features.dualSrcBlend || f == families) continue;
        if (wanted != nullptr && *wanted != '\0' && !contains(properties.deviceName, wanted)) continue;
        if (rank(properties.deviceType) >= best) continue;
        best = rank(properties.deviceType);
        lent.physical = physical;
        lent.queue_family = f;
        // What the renderer uses if the device has it; dual-source blending it needs (host_device.hpp).
        lent.features = {};
        lent.features.dualSrcBlend = VK_TRUE;
        lent.features.shaderInt64 = features.shaderInt64;
        lent.features.shaderFloat64 = features.shaderFloat64;
    }
    if (lent.physical == VK_NULL_HANDLE) return "no Vulkan 1.2 device with dual-source blending";
    const float priority = 1;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = lent.queue_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    device.pEnabledFeatures = &lent.features;
    if (vkCreateDevice(lent.physical, &device, nullptr, &app.device) != VK_SUCCESS) return "vkCreateDevice failed";
    vkGetDeviceQueue(app.device, lent.queue_family, 0, &lent.queue);
    lent.instance = app.instance;
    lent.api_version = info.apiVersion;
    lent.device = app.device;
    return "";
}

// A host-visible buffer of `size` bytes on the application's device, for the frame's pixels.
struct ReadbackBuffer {
    VkDevice device = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    ~ReadbackBuffer() {
        if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
        if (memory != VK_NULL_HANDLE) vkFreeMemory(device, memory, nullptr);
    }
    VkResult create(const gpu::HostDevice& lent, VkDeviceSize size) {
        device = lent.device;
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = size;
        info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        if (VkResult r = vkCreateBuffer(device, &info, nullptr, &buffer); r != VK_SUCCESS) return r;
        VkMemoryRequirements needs;
        vkGetBufferMemoryRequirements(device, buffer, &needs);
        VkPhysicalDeviceMemoryProperties types;
        vkGetPhysicalDeviceMemoryProperties(lent.physical, &types);
        const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.allocationSize = needs.size;
        allocate.memoryTypeIndex = types.memoryTypeCount;
        for (std::uint32_t i = 0; i < types.memoryTypeCount && allocate.memoryTypeIndex == types.memoryTypeCount; ++i)
            if ((needs.memoryTypeBits & (1u << i)) && (types.memoryTypes[i].propertyFlags & wanted) == wanted)
                allocate.memoryTypeIndex = i;
        if (allocate.memoryTypeIndex == types.memoryTypeCount) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        if (VkResult r = vkAllocateMemory(device, &allocate, nullptr, &memory); r != VK_SUCCESS) return r;
        return vkBindBufferMemory(device, buffer, memory, 0);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: draw_on_your_device SKELETON ATLAS ANIMATION STEPS SCALE,OX,OY OUT.png\n");
        return 2;
    }
    char* end = nullptr;
    const long steps = std::strtol(argv[4], &end, 10);
    if (*argv[4] == '\0' || *end != '\0' || steps < 0 || steps > 1000000) {
        std::fprintf(stderr, "draw_on_your_device: STEPS is a whole number from 0 to 1000000, not \"%s\"\n", argv[4]);
        return 2;
    }
    gpu::Camera2D camera;
    char tail = 0;
    if (std::sscanf(argv[5], "%f,%f,%f%c", &camera.scale, &camera.ox, &camera.oy, &tail) != 3) {
        std::fprintf(stderr, "draw_on_your_device: the camera is SCALE,OX,OY, not \"%s\"\n", argv[5]);
        return 2;
    }
    Result<SkeletonData> skeleton = load_skeleton_file(argv[1]);
    if (!skeleton) return fail(skeleton.error());
    Result<Atlas> atlas = load_atlas_file(argv[2]);
    if (!atlas) return fail(atlas.error());
    Result<AtlasBinding> binding = bind_atlas(*skeleton, *atlas);
    if (!binding) return fail(binding.error());
    std::vector<Image> pages;
    for (std::size_t i = 0; i < atlas->pages.size(); ++i) {
        Result<Image> page = load_image_file(atlas_page_path(*atlas, static_cast<Index>(i)));
        if (!page) return fail(page.error());
        pages.push_back(std::move(*page));
    }
    const Index animation = skeleton->animation_names.find(argv[3]);
    if (animation == k_none) { std::fprintf(stderr, "no animation %s\n", argv[3]); return 1; }
    SkeletonPose pose = create_pose(*skeleton);
    AnimationState state(*skeleton);
    state.set_animation(0, animation, /*loop=*/true);
    for (long frame = 0; frame < steps; ++frame) {
        state.update(1.0 / 60);
        state.apply(pose);
        update_time(pose, 1.0 / 60);
        update_world_transform(pose, Physics::update);
    }

    AppVulkan app;
    gpu::HostDevice lent;
    if (std::string why = make_device(app, lent); !why.empty()) {
        std::fprintf(stderr, "draw_on_your_device: %s\n", why.c_str());
        return 1;
    }
    // README: begin lend
    // The application's own device, queue and the features it was made with (dualSrcBlend at least; shaderInt64
    // and shaderFloat64 for the tile path): the renderer draws with them and destroys none of them.
    gpu::RendererDesc desc;
    desc.host = &lent;   // gpu::HostDevice: instance, api_version, physical, device, queue, queue_family, features
    Result<std::unique_ptr<gpu::Renderer>> renderer = gpu::Renderer::create(desc);
    if (!renderer) return fail(renderer.error());
    Result<std::uint32_t> type = (*renderer)->add_skeleton_type(*skeleton, *atlas, *binding, std::move(pages), "hero");
    if (!type) return fail(type.error());
    const gpu::CharacterDraw character{&pose, *type, Color{}};
    Result<gpu::FrameStats> drawn = (*renderer)->draw({&character, 1}, camera, k_size, k_size, Color{0, 0, 0, 0},
                                                      gpu::RenderPath::gpu);   // submitted to lent.queue
    if (!drawn) return fail(drawn.error());

    // The frame, for the application's command buffers on the same queue: premultiplied RGBA8 in frame->image,
    // in frame->layout, its writes available to frame->stage. Here it is copied to a buffer; an engine samples it.
    Result<gpu::FrameImage> frame = (*renderer)->frame_image();
    if (!frame) return fail(frame.error());
    // README: end
    ReadbackBuffer pixels;
    if (VkResult r = pixels.create(lent, VkDeviceSize{k_size} * k_size * 4); r != VK_SUCCESS)
        return fail("the readback buffer", r);
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = lent.queue_family;
    VkCommandPool pool = VK_NULL_HANDLE;
    if (VkResult r = vkCreateCommandPool(app.device, &pool_info, nullptr, &pool); r != VK_SUCCESS)
        return fail("vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateCommandBuffers(app.device, &allocate, &commands); r != VK_SUCCESS) {
        vkDestroyCommandPool(app.device, pool, nullptr);
        return fail("vkAllocateCommandBuffers", r);
    }
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(commands, &begin);
    // README: begin copy
    VkImageMemoryBarrier ready{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    ready.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    ready.oldLayout = ready.newLayout = frame->layout;   // TRANSFER_SRC_OPTIMAL, as a copy wants it
    ready.srcQueueFamilyIndex = ready.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ready.image = frame->image;
    ready.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, frame->stage, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ready);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {frame->width, frame->height, 1};
    vkCmdCopyImageToBuffer(commands, frame->image, frame->layout, pixels.buffer, 1, &region);
    // README: end
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    vkEndCommandBuffer(commands);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    VkResult submitted = vkQueueSubmit(lent.queue, 1, &submit, VK_NULL_HANDLE);
    if (submitted == VK_SUCCESS) submitted = vkQueueWaitIdle(lent.queue);
    vkDestroyCommandPool(app.device, pool, nullptr);
    if (submitted != VK_SUCCESS) return fail("the copy's submission", submitted);

    // Premultiplied to straight alpha, as Renderer::read_back gives it.
    Image image{k_size, k_size, std::vector<std::uint8_t>(std::size_t{k_size} * k_size * 4)};
    void* mapped = nullptr;
    if (VkResult r = vkMapMemory(app.device, pixels.memory, 0, VK_WHOLE_SIZE, 0, &mapped); r != VK_SUCCESS)
        return fail("vkMapMemory", r);
    std::memcpy(image.rgba.data(), mapped, image.rgba.size());
    vkUnmapMemory(app.device, pixels.memory);
    unpremultiply_rgba8(image.rgba);
    if (Result<void> written = write_png_file(argv[6], image); !written) return fail(written.error());
    std::printf("drawn on the application's %s device: %s\n", (*renderer)->device_name().c_str(), argv[6]);
    renderer->reset();   // the renderer first, then the application's device (~AppVulkan)
    return 0;
}
