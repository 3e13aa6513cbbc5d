// draw_on_your_device: an application that has its own Vulkan device (as a game engine does) lends it to the
// renderer, which draws one character, posed after STEPS frames of 1/60 s of ANIMATION as `spinegpu render` poses
// it, onto the application's own 512x512 image with the camera SCALE,OX,OY (as `render --camera`). The renderer
// records the character into the application's command buffer (Renderer::record_onto), between the application's
// clear to transparent (where an engine would have drawn its scene) and its copy of the image out; or, with `in-pass`,
// inside the application's own render pass over that image (Renderer::record_for_pass before the pass, record_in_pass
// in it); or, with `in-secondary`, in that pass from a secondary command buffer (record_in_secondary). The
// application submits that command buffer to its own queue and writes the copy to OUT.png (straight alpha). The
// README quotes the lines between the README markers; tests/cli/library_samples_match_the_tool.sh checks that OUT.png
// equals `spinegpu render`'s image of that frame, all three ways.
//
// usage: draw_on_your_device SKELETON ATLAS ANIMATION STEPS SCALE,OX,OY OUT.png [in-pass | in-secondary]
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
    VkPhysicalDeviceVulkan12Features vulkan12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    vulkan12.timelineSemaphore = VK_TRUE;  // (every Vulkan 1.2 device has them; record_onto's frames signal one)
    VkDeviceCreateInfo device{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device.pNext = &vulkan12;
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    device.pEnabledFeatures = &lent.features;
    if (vkCreateDevice(lent.physical, &device, nullptr, &app.device) != VK_SUCCESS) return "vkCreateDevice failed";
    vkGetDeviceQueue(app.device, lent.queue_family, 0, &lent.queue);
    lent.instance = app.instance;
    lent.api_version = info.apiVersion;
    lent.device = app.device;
    lent.timeline_semaphore = true;
    return "";
}

// The index of a memory type of `physical` among `allowed` (bits) that has `wanted`, or VK_MAX_MEMORY_TYPES.
std::uint32_t memory_type(VkPhysicalDevice physical, std::uint32_t allowed, VkMemoryPropertyFlags wanted) {
    VkPhysicalDeviceMemoryProperties types;
    vkGetPhysicalDeviceMemoryProperties(physical, &types);
    for (std::uint32_t i = 0; i < types.memoryTypeCount; ++i)
        if ((allowed & (1u << i)) && (types.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    return VK_MAX_MEMORY_TYPES;
}

// The application's image that the character is drawn onto (RGBA8, size x size, and its view), a host-visible
// buffer to copy it into, and for the in-pass frame the application's render pass over it and its framebuffer.
// Destroyed by the application once nothing uses them.
struct AppImage {
    VkDevice device = VK_NULL_HANDLE;
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory image_memory = VK_NULL_HANDLE, buffer_memory = VK_NULL_HANDLE;
    VkRenderPass render_pass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    ~AppImage() {
        if (framebuffer != VK_NULL_HANDLE) vkDestroyFramebuffer(device, framebuffer, nullptr);
        if (render_pass != VK_NULL_HANDLE) vkDestroyRenderPass(device, render_pass, nullptr);
        if (view != VK_NULL_HANDLE) vkDestroyImageView(device, view, nullptr);
        if (image != VK_NULL_HANDLE) vkDestroyImage(device, image, nullptr);
        if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
        for (VkDeviceMemory memory : {image_memory, buffer_memory})
            if (memory != VK_NULL_HANDLE) vkFreeMemory(device, memory, nullptr);
    }
    VkResult allocate(const gpu::HostDevice& lent, const VkMemoryRequirements& needs, VkMemoryPropertyFlags wanted,
                      VkDeviceMemory& memory) {
        VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        info.allocationSize = needs.size;
        info.memoryTypeIndex = memory_type(lent.physical, needs.memoryTypeBits, wanted);
        if (info.memoryTypeIndex == VK_MAX_MEMORY_TYPES) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        return vkAllocateMemory(device, &info, nullptr, &memory);
    }
    VkResult create(const gpu::HostDevice& lent, std::uint32_t size) {
        device = lent.device;
        VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        info.imageType = VK_IMAGE_TYPE_2D;
        info.format = VK_FORMAT_R8G8B8A8_UNORM;
        info.extent = {size, size, 1};
        info.mipLevels = info.arrayLayers = 1;
        info.samples = VK_SAMPLE_COUNT_1_BIT;
        info.tiling = VK_IMAGE_TILING_OPTIMAL;
        // (Colour attachment for the gpu and cpu paths, storage for gpu-tiles: HostImage.)
        info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        if (VkResult r = vkCreateImage(device, &info, nullptr, &image); r != VK_SUCCESS) return r;
        VkMemoryRequirements needs;
        vkGetImageMemoryRequirements(device, image, &needs);
        if (VkResult r = allocate(lent, needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, image_memory); r != VK_SUCCESS)
            return r;
        if (VkResult r = vkBindImageMemory(device, image, image_memory, 0); r != VK_SUCCESS) return r;
        VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view_info.image = image;
        view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view_info.format = VK_FORMAT_R8G8B8A8_UNORM;
        view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        if (VkResult r = vkCreateImageView(device, &view_info, nullptr, &view); r != VK_SUCCESS) return r;
        VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        buffer_info.size = VkDeviceSize{size} * size * 4;
        buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        if (VkResult r = vkCreateBuffer(device, &buffer_info, nullptr, &buffer); r != VK_SUCCESS) return r;
        vkGetBufferMemoryRequirements(device, buffer, &needs);
        const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        if (VkResult r = allocate(lent, needs, host, buffer_memory); r != VK_SUCCESS) return r;
        return vkBindBufferMemory(device, buffer, buffer_memory, 0);
    }
    // The render pass of the in-pass frame: one subpass over the image, loading what the clear left (in
    // TRANSFER_DST_OPTIMAL) after the clear, and leaving it ready for the copy out (TRANSFER_SRC_OPTIMAL); and its
    // framebuffer.
    VkResult create_pass(std::uint32_t size) {
        VkAttachmentDescription color{};
        color.format = VK_FORMAT_R8G8B8A8_UNORM;
        color.samples = VK_SAMPLE_COUNT_1_BIT;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        color.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription subpass{};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        subpass.colorAttachmentCount = 1;
        subpass.pColorAttachments = &color_ref;
        const VkSubpassDependency dependencies[2] = {
            {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
             VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
             0},
            {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0}};
        VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
        pass_info.attachmentCount = 1;
        pass_info.pAttachments = &color;
        pass_info.subpassCount = 1;
        pass_info.pSubpasses = &subpass;
        pass_info.dependencyCount = 2;
        pass_info.pDependencies = dependencies;
        if (VkResult r = vkCreateRenderPass(device, &pass_info, nullptr, &render_pass); r != VK_SUCCESS) return r;
        VkFramebufferCreateInfo framebuffer_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        framebuffer_info.renderPass = render_pass;
        framebuffer_info.attachmentCount = 1;
        framebuffer_info.pAttachments = &view;
        framebuffer_info.width = framebuffer_info.height = size;
        framebuffer_info.layers = 1;
        return vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer);
    }
};

}  // namespace

int main(int argc, char** argv) {
    const bool in_secondary = argc == 8 && std::strcmp(argv[7], "in-secondary") == 0;
    const bool in_pass = in_secondary || (argc == 8 && std::strcmp(argv[7], "in-pass") == 0);
    if (argc != 7 && !in_pass) {
        std::fprintf(stderr, "usage: draw_on_your_device SKELETON ATLAS ANIMATION STEPS SCALE,OX,OY OUT.png "
                             "[in-pass | in-secondary]\n");
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
    AppImage canvas;
    if (VkResult r = canvas.create(lent, k_size); r != VK_SUCCESS) return fail("the application's image", r);
    if (in_pass)
        if (VkResult r = canvas.create_pass(k_size); r != VK_SUCCESS) return fail("the application's render pass", r);
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = lent.queue_family;
    VkCommandPool pool = VK_NULL_HANDLE;
    if (VkResult r = vkCreateCommandPool(app.device, &pool_info, nullptr, &pool); r != VK_SUCCESS)
        return fail("vkCreateCommandPool", r);
    struct PoolGuard {  // (before the device, ~AppVulkan, and once the queue is done with the pool's commands)
        VkDevice device;
        VkQueue queue;
        VkCommandPool pool;
        ~PoolGuard() {
            vkQueueWaitIdle(queue);
            vkDestroyCommandPool(device, pool, nullptr);
        }
    } pool_guard{app.device, lent.queue, pool};
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE, secondary = VK_NULL_HANDLE;
    if (VkResult r = vkAllocateCommandBuffers(app.device, &allocate, &commands); r != VK_SUCCESS)
        return fail("vkAllocateCommandBuffers", r);
    allocate.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    if (VkResult r = vkAllocateCommandBuffers(app.device, &allocate, &secondary); r != VK_SUCCESS)
        return fail("vkAllocateCommandBuffers", r);

    // README: begin lend
    // The application's own device, queue and the features it was made with (dualSrcBlend at least; shaderInt64
    // and shaderFloat64 for the tile path; timeline semaphores for record_onto): the renderer draws with them and
    // destroys none of them.
    gpu::RendererDesc desc;
    desc.host = &lent;   // gpu::HostDevice: instance, api_version, physical, device, queue, queue_family, features
    Result<std::unique_ptr<gpu::Renderer>> renderer = gpu::Renderer::create(desc);
    if (!renderer) return fail(renderer.error());
    Result<std::uint32_t> type = (*renderer)->add_skeleton_type(*skeleton, *atlas, *binding, std::move(pages), "hero");
    if (!type) return fail(type.error());
    // README: end

    // The application's frame, in one command buffer: its own drawing before the character, here a clear to
    // transparent (as `render` clears), left in TRANSFER_DST_OPTIMAL; the character (onto the image, or in the
    // application's render pass over it); a copy of the image out.
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(commands, &begin);
    VkImageMemoryBarrier to_clear{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    to_clear.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_clear.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    to_clear.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_clear.srcQueueFamilyIndex = to_clear.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_clear.image = canvas.image;
    to_clear.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &to_clear);
    const VkClearColorValue transparent{};
    vkCmdClearColorImage(commands, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &transparent, 1,
                         &to_clear.subresourceRange);

    // README: begin character
    const gpu::CharacterDraw character{&pose, *type, Color{}};
    gpu::RecordedFrame frame;  // (what the submission signals)
    // README: end
    if (!in_pass) {
        // README: begin record
        // The application's image, premultiplied RGBA8, in the layout its own commands leave it in: the character is
        // blended onto what it holds, each slot with its blend mode. Its commands go into the application's command
        // buffer, after the clear (they wait for every command before them).
        const gpu::HostImage target{canvas.image, canvas.view, VK_FORMAT_R8G8B8A8_UNORM, k_size, k_size,
                                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, /*generation=*/1};
        Result<gpu::RecordedFrame> recorded = (*renderer)->record_onto(commands, target, {&character, 1}, camera,
                                                                       gpu::RenderPath::gpu);
        if (!recorded) return fail(recorded.error());
        frame = *recorded;

        // Back in target.layout, the frame's writes visible to later commands: a barrier only for the layout a copy
        // wants (source access 0 would do; validation layers before 1.3.268 want MEMORY_WRITE here).
        VkImageMemoryBarrier ready{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        ready.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        ready.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        ready.oldLayout = target.layout;
        ready.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        ready.srcQueueFamilyIndex = ready.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ready.image = target.image;
        ready.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &ready);
        // README: end
    } else {
        // README: begin pass
        // Or the character drawn inside the application's own render pass, between its draws there: the frame's
        // compute work recorded before the pass, its draw in it (this pass loads the cleared image and leaves it
        // ready for the copy).
        const gpu::HostPass pass{canvas.render_pass, /*subpass=*/0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
                                 {{0, 0}, {k_size, k_size}}, /*generation=*/1};
        Result<gpu::RecordedFrame> recorded = (*renderer)->record_for_pass(commands, pass, {&character, 1}, camera,
                                                                           gpu::RenderPath::gpu);
        if (!recorded) return fail(recorded.error());
        frame = *recorded;
        VkRenderPassBeginInfo begin_pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        begin_pass.renderPass = canvas.render_pass;
        begin_pass.framebuffer = canvas.framebuffer;
        begin_pass.renderArea = pass.area;
        // README: end
        if (!in_secondary) {
            // README: begin inline
            vkCmdBeginRenderPass(commands, &begin_pass, VK_SUBPASS_CONTENTS_INLINE);
            // (the application's own draws before the character)
            if (Result<void> drawn = (*renderer)->record_in_pass(commands); !drawn) return fail(drawn.error());
            // (its draws after it, with its pipeline, descriptor sets, push constants, viewport, scissor and index
            // buffer bound again)
            vkCmdEndRenderPass(commands);
            // README: end
        } else {
            // README: begin secondary
            // Or, in a pass whose contents are secondary command buffers (recorded on several threads, say), the
            // draw recorded into one of them, after record_for_pass as above, then executed in the pass.
            VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
            inheritance.renderPass = canvas.render_pass;
            inheritance.subpass = 0;
            inheritance.framebuffer = canvas.framebuffer;
            VkCommandBufferBeginInfo continues{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            continues.flags =
                VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT | VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
            continues.pInheritanceInfo = &inheritance;
            vkBeginCommandBuffer(secondary, &continues);
            // (the application's own draws before the character, and after it)
            if (Result<void> drawn = (*renderer)->record_in_secondary(secondary); !drawn) return fail(drawn.error());
            vkEndCommandBuffer(secondary);
            vkCmdBeginRenderPass(commands, &begin_pass, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
            vkCmdExecuteCommands(commands, 1, &secondary);
            vkCmdEndRenderPass(commands);
            // README: end
        }
    }
    // README: begin copy
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {k_size, k_size, 1};
    vkCmdCopyImageToBuffer(commands, canvas.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, canvas.buffer, 1, &region);
    // README: end
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    vkEndCommandBuffer(commands);
    // README: begin submit
    // The submission signals the frame's value on the renderer's timeline semaphore: the renderer reuses the
    // frame's buffers only once it has.
    VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    values.signalSemaphoreValueCount = 1;
    values.pSignalSemaphoreValues = &frame.value;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.pNext = &values;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &frame.semaphore;
    VkResult submitted = vkQueueSubmit(lent.queue, 1, &submit, VK_NULL_HANDLE);
    // README: end
    if (submitted == VK_SUCCESS) submitted = vkQueueWaitIdle(lent.queue);
    if (submitted != VK_SUCCESS) return fail("the frame's submission", submitted);

    // Premultiplied to straight alpha, as Renderer::read_back gives it.
    Image image{k_size, k_size, std::vector<std::uint8_t>(std::size_t{k_size} * k_size * 4)};
    void* mapped = nullptr;
    if (VkResult r = vkMapMemory(app.device, canvas.buffer_memory, 0, VK_WHOLE_SIZE, 0, &mapped); r != VK_SUCCESS)
        return fail("vkMapMemory", r);
    std::memcpy(image.rgba.data(), mapped, image.rgba.size());
    vkUnmapMemory(app.device, canvas.buffer_memory);
    unpremultiply_rgba8(image.rgba);
    if (Result<void> written = write_png_file(argv[6], image); !written) return fail(written.error());
    std::printf("drawn on the application's %s device: %s\n", (*renderer)->device_name().c_str(), argv[6]);
    renderer->reset();   // the renderer first, then the application's image and device (~AppImage, ~AppVulkan)
    return 0;
}
