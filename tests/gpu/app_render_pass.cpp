// The application's own render pass in the tests (app_render_pass.hpp).
#include "app_render_pass.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "host_vulkan_support.hpp"

namespace spinegpu::test {

namespace {

// The format of the pass's depth attachment.
constexpr VkFormat k_depth_format = VK_FORMAT_D32_SFLOAT;

}  // namespace

AppRenderPass::AppRenderPass(const gpu::HostDevice& host, const gpu::HostImage& target, bool depth,
                             VkSampleCountFlagBits samples, bool dynamic, bool second_subpass)
    : host_(host), target_(target), depth_(depth), samples_(samples), dynamic_(dynamic),
      subpass_(second_subpass ? 1 : 0) {
    EXPECT_TRUE(!second_subpass || (!dynamic && samples == VK_SAMPLE_COUNT_1_BIT));
    const bool resolves = samples != VK_SAMPLE_COUNT_1_BIT;
    if (resolves)
        make_image(target.format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
                   VK_IMAGE_ASPECT_COLOR_BIT, multisampled_, multisampled_memory_, multisampled_view_);
    if (depth)
        make_image(k_depth_format, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                   depth_image_, depth_memory_, depth_view_);
    if (dynamic) {
        begin_rendering_ = reinterpret_cast<PFN_vkCmdBeginRenderingKHR>(
            vkGetDeviceProcAddr(host.device, "vkCmdBeginRenderingKHR"));
        end_rendering_ =
            reinterpret_cast<PFN_vkCmdEndRenderingKHR>(vkGetDeviceProcAddr(host.device, "vkCmdEndRenderingKHR"));
        EXPECT_TRUE(begin_rendering_ != nullptr && end_rendering_ != nullptr);
        return;
    }
    // Attachments: the colour one (the target, or the multisampled image resolved into it), then depth, then the
    // resolve target.
    std::vector<VkAttachmentDescription> attachments;
    VkAttachmentDescription color{};
    color.format = target.format;
    color.samples = samples;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = resolves ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachments.push_back(color);
    const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth_ref{VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkAttachmentReference resolve_ref{VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    if (depth) {
        VkAttachmentDescription d = color;
        d.format = k_depth_format;
        d.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        d.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        depth_ref.attachment = static_cast<std::uint32_t>(attachments.size());
        attachments.push_back(d);
    }
    if (resolves) {
        VkAttachmentDescription r = color;
        r.samples = VK_SAMPLE_COUNT_1_BIT;
        r.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        r.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        resolve_ref.attachment = static_cast<std::uint32_t>(attachments.size());
        attachments.push_back(r);
    }
    VkSubpassDescription subpasses[2] = {};
    VkSubpassDescription& subpass = subpasses[0];
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color_ref;
    subpass.pResolveAttachments = resolves ? &resolve_ref : nullptr;
    subpass.pDepthStencilAttachment = depth ? &depth_ref : nullptr;
    subpasses[1] = subpass;
    // In: after every earlier command on the queue, their writes available. Out: written, visible to every later
    // command (the copy out).
    const VkPipelineStageFlags attachment_stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                   VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    const VkAccessFlags attachment_access =
        VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
        VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    // (With two subpasses: the second after the first's attachment writes, and out from the second.)
    const VkSubpassDependency dependencies[3] = {
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, attachment_stages, VK_ACCESS_MEMORY_WRITE_BIT,
         attachment_access, 0},
        {subpass_, VK_SUBPASS_EXTERNAL, attachment_stages, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
         VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0},
        {0, 1, attachment_stages, attachment_stages,
         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, attachment_access,
         VK_DEPENDENCY_BY_REGION_BIT}};
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = static_cast<std::uint32_t>(attachments.size());
    info.pAttachments = attachments.data();
    info.subpassCount = subpass_ + 1;
    info.pSubpasses = subpasses;
    info.dependencyCount = subpass_ + 2;
    info.pDependencies = dependencies;
    EXPECT_EQ(vkCreateRenderPass(host.device, &info, nullptr, &pass_), VK_SUCCESS);

    std::vector<VkImageView> views{resolves ? multisampled_view_ : target.view};
    if (depth) views.push_back(depth_view_);
    if (resolves) views.push_back(target.view);
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = pass_;
    fb.attachmentCount = static_cast<std::uint32_t>(views.size());
    fb.pAttachments = views.data();
    fb.width = target.width;
    fb.height = target.height;
    fb.layers = 1;
    EXPECT_EQ(vkCreateFramebuffer(host.device, &fb, nullptr, &framebuffer_), VK_SUCCESS);
}

void AppRenderPass::make_image(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage& image,
                               VkDeviceMemory& memory, VkImageView& view) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {target_.width, target_.height, 1};
    info.mipLevels = info.arrayLayers = 1;
    info.samples = samples_;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    EXPECT_EQ(vkCreateImage(host_.device, &info, nullptr, &image), VK_SUCCESS);
    VkMemoryRequirements needs;
    vkGetImageMemoryRequirements(host_.device, image, &needs);
    VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocation.allocationSize = needs.size;
    allocation.memoryTypeIndex =
        find_memory_type(host_.physical, needs.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    EXPECT_EQ(vkAllocateMemory(host_.device, &allocation, nullptr, &memory), VK_SUCCESS);
    vkBindImageMemory(host_.device, image, memory, 0);
    VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view_info.image = image;
    view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = format;
    view_info.subresourceRange = {aspect, 0, 1, 0, 1};
    EXPECT_EQ(vkCreateImageView(host_.device, &view_info, nullptr, &view), VK_SUCCESS);
}

AppRenderPass::~AppRenderPass() {
    VkDevice d = host_.device;
    if (framebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(d, framebuffer_, nullptr);
    if (pass_ != VK_NULL_HANDLE) vkDestroyRenderPass(d, pass_, nullptr);
    for (VkImageView v : {depth_view_, multisampled_view_}) vkDestroyImageView(d, v, nullptr);
    for (VkImage i : {depth_image_, multisampled_}) vkDestroyImage(d, i, nullptr);
    for (VkDeviceMemory m : {depth_memory_, multisampled_memory_}) vkFreeMemory(d, m, nullptr);
}

gpu::HostPass AppRenderPass::host_pass(VkRect2D area, std::uint64_t generation) const {
    gpu::HostPass pass{pass_, subpass_, target_.format, samples_, area, generation};
    if (dynamic_ && depth_) pass.depth_format = k_depth_format;
    return pass;
}

void AppRenderPass::enter(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout layout) const {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = aspect == VK_IMAGE_ASPECT_COLOR_BIT
                          ? VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
                          : VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = layout;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                             VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &b);
}

namespace {

VkClearValue premultiplied(Color c) {
    VkClearValue value{};
    value.color.float32[0] = c.r * c.a;
    value.color.float32[1] = c.g * c.a;
    value.color.float32[2] = c.b * c.a;
    value.color.float32[3] = c.a;
    return value;
}

}  // namespace

void AppRenderPass::begin(VkCommandBuffer cb, Color straight, bool secondaries) const {
    VkClearValue clears[3] = {premultiplied(straight), {}, {}};
    clears[1].depthStencil = {1.0f, 0};
    if (dynamic_) {
        const bool resolves = samples_ != VK_SAMPLE_COUNT_1_BIT;
        enter(cb, target_.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        if (resolves) enter(cb, multisampled_, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        if (depth_)
            enter(cb, depth_image_, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
        VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        color.imageView = resolves ? multisampled_view_ : target_.view;
        color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        color.resolveMode = resolves ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_NONE;
        color.resolveImageView = resolves ? target_.view : VK_NULL_HANDLE;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = resolves ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
        color.clearValue = clears[0];
        VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        depth.imageView = depth_view_;
        depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        depth.clearValue = clears[1];
        VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
        info.renderArea = {{0, 0}, {target_.width, target_.height}};
        info.layerCount = 1;
        info.colorAttachmentCount = 1;
        info.pColorAttachments = &color;
        info.pDepthAttachment = depth_ ? &depth : nullptr;
        if (secondaries) info.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT;
        begin_rendering_(cb, &info);
        return;
    }
    VkRenderPassBeginInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    info.renderPass = pass_;
    info.framebuffer = framebuffer_;
    info.renderArea = {{0, 0}, {target_.width, target_.height}};
    info.clearValueCount = depth_ ? 2 : 1;
    info.pClearValues = clears;
    const VkSubpassContents contents =
        secondaries ? VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS : VK_SUBPASS_CONTENTS_INLINE;
    vkCmdBeginRenderPass(cb, &info, subpass_ == 0 ? contents : VK_SUBPASS_CONTENTS_INLINE);
    if (subpass_ == 1) vkCmdNextSubpass(cb, contents);
}

void AppRenderPass::begin_secondary(VkCommandBuffer secondary) const {
    const VkFormat color = target_.format;
    VkCommandBufferInheritanceRenderingInfo rendering{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &color;
    rendering.depthAttachmentFormat = depth_ ? k_depth_format : VK_FORMAT_UNDEFINED;
    rendering.rasterizationSamples = samples_;
    VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    inheritance.pNext = dynamic_ ? &rendering : nullptr;
    inheritance.renderPass = dynamic_ ? VK_NULL_HANDLE : pass_;
    inheritance.subpass = subpass_;
    inheritance.framebuffer = dynamic_ ? VK_NULL_HANDLE : framebuffer_;
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT | VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
    info.pInheritanceInfo = &inheritance;
    EXPECT_EQ(vkBeginCommandBuffer(secondary, &info), VK_SUCCESS);
}

void AppRenderPass::end(VkCommandBuffer cb) const {
    if (!dynamic_) {
        vkCmdEndRenderPass(cb);  // (its outgoing dependency makes the writes visible)
        return;
    }
    end_rendering_(cb);
    VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    written.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &written, 0, nullptr, 0, nullptr);
}

void AppRenderPass::clear(VkCommandBuffer cb, VkRect2D rect, Color straight) const {
    const VkClearAttachment attachment{VK_IMAGE_ASPECT_COLOR_BIT, 0, premultiplied(straight)};
    const VkClearRect where{rect, 0, 1};
    vkCmdClearAttachments(cb, 1, &attachment, 1, &where);
}

}  // namespace spinegpu::test
