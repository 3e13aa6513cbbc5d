// The raster paths' render passes and graphics pipelines, for the renderer's own RGBA8 target, for the application's
// images of each colour format taken (Renderer::draw_onto, record_onto) and for the application's own subpasses
// (Renderer::record_for_pass); in linear light for sRGB formats.
#include <algorithm>
#include <array>
#include <cassert>
#include <vector>

#include "renderer_impl.hpp"
#include "shaders.hpp"

namespace spinegpu::gpu {

bool is_srgb_format(VkFormat format) {
    switch (format) {
        case VK_FORMAT_R8_SRGB: case VK_FORMAT_R8G8_SRGB: case VK_FORMAT_R8G8B8_SRGB: case VK_FORMAT_B8G8R8_SRGB:
        case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_SRGB: case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
            return true;
        default: return false;
    }
}

Result<void> Renderer::Impl::make_render_pass(VkFormat format, bool load, VkRenderPass& out) {
    VkAttachmentDescription color{};
    color.format = format;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    // The own target: cleared, left ready for readback. The application's image: loaded and stored in
    // COLOR_ATTACHMENT_OPTIMAL, the draw's barriers taking it from and back to the application's layout.
    color.loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.initialLayout = load ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
    color.finalLayout = load ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color_ref;
    std::array<VkSubpassDependency, 2> deps{};
    // In: after every earlier command on the queue (earlier frames, readback, presenting, the application's use of
    // the target: FrameImage), whose writes are made available first.
    deps[0] = {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0};
    deps[1] = {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0};
    VkRenderPassCreateInfo pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    pass_info.attachmentCount = 1;
    pass_info.pAttachments = &color;
    pass_info.subpassCount = 1;
    pass_info.pSubpasses = &subpass;
    pass_info.dependencyCount = static_cast<std::uint32_t>(deps.size());
    pass_info.pDependencies = deps.data();
    VkRenderPass made = VK_NULL_HANDLE;
    if (VkResult r = vkCreateRenderPass(context->device, &pass_info, nullptr, &made); r != VK_SUCCESS)
        return vk_error("vkCreateRenderPass", r);
    out = made;
    return {};
}

Result<void> Renderer::Impl::make_draw_pipelines(VkRenderPass pass, VkPipeline& draw, VkPipeline& collapse,
                                                 std::uint32_t subpass, VkSampleCountFlagBits samples,
                                                 const void* rendering, bool linear_light) {
    VkDevice d = context->device;
    Result<VkShaderModule> vert = make_module(d, draw_vert_spirv());
    if (!vert) return vert.error();
    Result<VkShaderModule> frag = make_module(d, draw_frag_spirv());
    if (!frag) {
        vkDestroyShaderModule(d, *vert, nullptr);
        return frag.error();
    }
    std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
    // Diagnostics (read by create_pipelines): the fragment shader without its texture fetch (draw.frag); and, on both
    // stages (the vertex shaders decode the slot colours), the shading in linear light (linear_light.glsl).
    const std::array<VkBool32, 2> constants{diagnose_flat ? VK_TRUE : VK_FALSE, linear_light ? VK_TRUE : VK_FALSE};
    const std::array<VkSpecializationMapEntry, 2> entries{{{0, 0, sizeof(VkBool32)},
                                                           {3, sizeof(VkBool32), sizeof(VkBool32)}}};
    const VkSpecializationInfo flat_info{static_cast<std::uint32_t>(entries.size()), entries.data(),
                                         sizeof(constants), constants.data()};
    const VkSpecializationInfo vertex_info{1, &entries[1], sizeof(constants), constants.data()};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, *vert,
                 "main", &vertex_info};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
                 *frag, "main", &flat_info};
    VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = samples;
    // Neither tested nor written: a depth/stencil attachment of the application's subpass is left as it is.
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    // dst = src0 + dst * src1, for colour and alpha (draw.frag sets src1 per blend mode).
    VkPipelineColorBlendAttachmentState blend{};
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstColorBlendFactor = VK_BLEND_FACTOR_SRC1_COLOR;
    blend.colorBlendOp = VK_BLEND_OP_ADD;
    blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_SRC1_ALPHA;
    blend.alphaBlendOp = VK_BLEND_OP_ADD;
    // Diagnostics (read by create_pipelines): every slot blended as plain premultiplied normal (ONE, 1 - src alpha),
    // to tell the cost of dual-source blending when profiling. Wrong pixels for other blend modes.
    if (diagnose_plain_blend) {
        blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    }
    blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                           VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend_state{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend_state.attachmentCount = 1;
    blend_state.pAttachments = &blend;
    std::array<VkDynamicState, 2> dynamic_states{VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states.size());
    dynamic.pDynamicStates = dynamic_states.data();
    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = rendering;
    info.stageCount = static_cast<std::uint32_t>(stages.size());
    info.pStages = stages.data();
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend_state;
    info.pDynamicState = &dynamic;
    info.layout = draw_layout;
    info.renderPass = pass;
    info.subpass = subpass;
    VkResult draw_result = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &draw);
    vkDestroyShaderModule(d, *vert, nullptr);
    Result<VkShaderModule> collapse_module = make_module(d, collapse_vert_spirv());
    if (draw_result == VK_SUCCESS && collapse_module) {
        stages[0].module = *collapse_module;
        draw_result = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &collapse);
    }
    if (collapse_module) vkDestroyShaderModule(d, *collapse_module, nullptr);
    vkDestroyShaderModule(d, *frag, nullptr);
    if (!collapse_module) return collapse_module.error();
    if (draw_result != VK_SUCCESS) return vk_error("vkCreateGraphicsPipelines", draw_result);
    return {};
}

Result<DrawPasses> Renderer::Impl::draw_passes(VkFormat format) {
    if (format == VK_FORMAT_R8G8B8A8_UNORM)
        return DrawPasses{format, load_render_pass, draw_pipeline, collapse_pipeline};
    // (The other formats taken: check_onto.)
    assert(format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_R8G8B8A8_SRGB ||
           format == VK_FORMAT_B8G8R8A8_SRGB);
    for (const DrawPasses& p : format_passes)
        if (p.format == format) return p;
    // All three, or none kept: a failure leaves the next frame onto such an image to try again.
    DrawPasses made{format};
    Result<void> r = make_render_pass(format, true, made.load);
    if (r) r = make_draw_pipelines(made.load, made.draw, made.collapse, 0, VK_SAMPLE_COUNT_1_BIT, nullptr,
                                   is_srgb_format(format));
    if (!r) {
        VkDevice d = context->device;
        for (VkPipeline p : {made.draw, made.collapse})
            if (p != VK_NULL_HANDLE) vkDestroyPipeline(d, p, nullptr);
        if (made.load != VK_NULL_HANDLE) vkDestroyRenderPass(d, made.load, nullptr);
        return r.error();
    }
    format_passes.push_back(made);
    return made;
}

Result<PassPipelines> Renderer::Impl::pipelines_for(const HostPass& pass) {
    // (Dynamic rendering has no render pass object, whose remaking the generation tells.)
    const bool dynamic = pass.render_pass == VK_NULL_HANDLE;
    for (PassPipelines& p : pass_pipelines)
        if (p.pass.render_pass == pass.render_pass && p.pass.subpass == pass.subpass && p.pass.format == pass.format &&
            p.pass.samples == pass.samples && (dynamic || p.pass.generation == pass.generation) &&
            p.pass.depth_format == pass.depth_format && p.pass.stencil_format == pass.stencil_format) {
            p.last_used = ++pass_uses;
            return p;
        }
    PassPipelines made{pass};
    made.last_used = ++pass_uses;
    // (Without a render pass: dynamic rendering, the attachments' formats given instead.)
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &pass.format;
    rendering.depthAttachmentFormat = pass.depth_format;
    rendering.stencilAttachmentFormat = pass.stencil_format;
    if (Result<void> r = make_draw_pipelines(pass.render_pass, made.draw, made.collapse, pass.subpass, pass.samples,
                                             dynamic ? &rendering : nullptr, is_srgb_format(pass.format));
        !r) {
        for (VkPipeline p : {made.draw, made.collapse})
            if (p != VK_NULL_HANDLE) vkDestroyPipeline(context->device, p, nullptr);
        return r.error();
    }
    if (pass_pipelines.size() == k_kept_pass_pipelines) {
        // The least recently used retire: frames recorded so far may use them (record_for_pass's frames alone do).
        auto oldest = std::min_element(pass_pipelines.begin(), pass_pipelines.end(),
                                       [](const PassPipelines& a, const PassPipelines& b) {
                                           return a.last_used < b.last_used;
                                       });
        retired_pipelines.push_back({timeline_value, oldest->draw, oldest->collapse});
        pass_pipelines.erase(oldest);
    }
    pass_pipelines.push_back(made);
    return made;
}

void Renderer::Impl::destroy_retired_pipelines(bool all) {
    std::uint64_t reached = 0;
    if (!all && vkGetSemaphoreCounterValue(context->device, timeline, &reached) != VK_SUCCESS) return;
    std::erase_if(retired_pipelines, [&](const RetiredPipelines& r) {
        if (!all && r.after_value > reached) return false;
        for (VkPipeline p : {r.draw, r.collapse}) vkDestroyPipeline(context->device, p, nullptr);
        return true;
    });
}

}  // namespace spinegpu::gpu
