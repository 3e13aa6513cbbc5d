// Renderer setup: pipelines, descriptor sets, frames in flight and the offscreen target. The static upload of
// skeleton types is in renderer_upload.cpp, the per-frame work in renderer.cpp.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "renderer_impl.hpp"
#include "shaders.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {

Result<VkShaderModule> make_module(VkDevice device, std::span<const std::uint32_t> code) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = code.size_bytes();
    info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = vkCreateShaderModule(device, &info, nullptr, &module); r != VK_SUCCESS)
        return vk_error("vkCreateShaderModule", r);
    return module;
}

std::optional<std::uint64_t> diagnostic_number(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == 0) return std::nullopt;
    char* end = nullptr;
    const unsigned long long number = std::strtoull(value, &end, 10);
    if (*end != 0) return std::nullopt;
    return number;
}

bool tile_rasterizer_supported(const VkContext& context) {
    return context.shader_int64 && context.shader_float64 && context.compute_subgroup_vote &&
           context.properties.limits.maxComputeSharedMemorySize >= k_tile_shared_memory_bytes;
}

Renderer::Impl::~Impl() {
    if (!context) return;
    VkDevice d = context->device;
    // On the application's device, the queue alone (Vulkan lets its other queues be in use on other threads), and
    // only when something was submitted to it (a failed create submitted nothing).
    // (Frames recorded into the application's command buffers, record_onto, are in the queue once submitted; one
    // not submitted by now never may be.)
    if (!context->borrowed)
        vkDeviceWaitIdle(d);
    else if (submitted)
        vkQueueWaitIdle(context->queue);
    presenter.reset();  // (its swapchain before the device, its command buffers before the pool)
    for (FrameSlot& f : frames) {
        for (GpuBuffer* b : {&f.packed_characters, &f.characters, &f.place_blocks, &f.draw_command, &f.bones, &f.words,
                             &f.cpu_vertices, &f.cpu_indices, &f.gpu_vertices, &f.gpu_indices, &f.tile_bits,
                             &f.counters, &f.triangles, &f.triangle_boxes, &f.character_tiles, &f.tile_masks})
            destroy_buffer(*context, *b);
        if (f.fence != VK_NULL_HANDLE) vkDestroyFence(d, f.fence, nullptr);
        if (f.host_framebuffer != VK_NULL_HANDLE) vkDestroyFramebuffer(d, f.host_framebuffer, nullptr);
        if (f.onto_copy_view != VK_NULL_HANDLE) vkDestroyImageView(d, f.onto_copy_view, nullptr);
        if (f.onto_copy != VK_NULL_HANDLE) vkDestroyImage(d, f.onto_copy, nullptr);
        if (f.onto_copy_memory != VK_NULL_HANDLE) vkFreeMemory(d, f.onto_copy_memory, nullptr);
    }
    for (GpuBuffer* b : {&influences, &bind_vertices, &static_indices, &attachments, &type_table, &slot_setups,
                         &setup_lists, &vertex_owners, &collapse_indices, &page_filters, &readback})
        destroy_buffer(*context, *b);
    if (framebuffer) vkDestroyFramebuffer(d, framebuffer, nullptr);
    if (target_view) vkDestroyImageView(d, target_view, nullptr);
    if (target) vkDestroyImage(d, target, nullptr);
    if (target_memory) vkFreeMemory(d, target_memory, nullptr);
    if (pages_view) vkDestroyImageView(d, pages_view, nullptr);
    if (pages_srgb_view) vkDestroyImageView(d, pages_srgb_view, nullptr);
    if (pages) vkDestroyImage(d, pages, nullptr);
    if (pages_memory) vkFreeMemory(d, pages_memory, nullptr);
    if (sampler) vkDestroySampler(d, sampler, nullptr);
    if (nearest_sampler) vkDestroySampler(d, nearest_sampler, nullptr);
    if (queries) vkDestroyQueryPool(d, queries, nullptr);
    if (statistics) vkDestroyQueryPool(d, statistics, nullptr);
    if (command_pool) vkDestroyCommandPool(d, command_pool, nullptr);
    if (timeline) vkDestroySemaphore(d, timeline, nullptr);
    if (descriptor_pool) vkDestroyDescriptorPool(d, descriptor_pool, nullptr);
    if (skin_pipeline) vkDestroyPipeline(d, skin_pipeline, nullptr);
    if (small_skin_pipeline) vkDestroyPipeline(d, small_skin_pipeline, nullptr);
    if (draw_pipeline) vkDestroyPipeline(d, draw_pipeline, nullptr);
    if (collapse_pipeline) vkDestroyPipeline(d, collapse_pipeline, nullptr);
    for (const DrawPasses& p : format_passes)
        for (VkPipeline pipeline : {p.draw, p.collapse})
            if (pipeline) vkDestroyPipeline(d, pipeline, nullptr);
    for (const PassPipelines& p : pass_pipelines)
        for (VkPipeline pipeline : {p.draw, p.collapse})
            if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(d, pipeline, nullptr);
    destroy_retired_pipelines(true);
    if (raster_pipeline) vkDestroyPipeline(d, raster_pipeline, nullptr);
    if (raster_onto_pipeline) vkDestroyPipeline(d, raster_onto_pipeline, nullptr);
    if (raster_onto_bgra_pipeline) vkDestroyPipeline(d, raster_onto_bgra_pipeline, nullptr);
    if (raster_linear_pipeline) vkDestroyPipeline(d, raster_linear_pipeline, nullptr);
    if (raster_linear_bgra_pipeline) vkDestroyPipeline(d, raster_linear_bgra_pipeline, nullptr);
    if (triangle_pipeline) vkDestroyPipeline(d, triangle_pipeline, nullptr);
    if (places_sum_pipeline) vkDestroyPipeline(d, places_sum_pipeline, nullptr);
    if (places_pipeline) vkDestroyPipeline(d, places_pipeline, nullptr);
    if (compute_layout) vkDestroyPipelineLayout(d, compute_layout, nullptr);
    if (draw_layout) vkDestroyPipelineLayout(d, draw_layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(d, set_layout, nullptr);
    if (render_pass) vkDestroyRenderPass(d, render_pass, nullptr);
    if (load_render_pass) vkDestroyRenderPass(d, load_render_pass, nullptr);
    for (const DrawPasses& p : format_passes)
        if (p.load) vkDestroyRenderPass(d, p.load, nullptr);
}

Result<void> Renderer::Impl::create_pipelines() {
    VkDevice d = context->device;
    std::array<VkDescriptorSetLayoutBinding, b_count> bindings{};
    for (std::uint32_t i = 0; i < b_count; ++i) {
        bindings[i].binding = i;
        bindings[i].descriptorCount = 1;
        const bool sampled = i == b_pages || i == b_pages_nearest || i == b_pages_srgb || i == b_pages_srgb_nearest;
        bindings[i].descriptorType = sampled          ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                     : i == b_target ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        // The tile rasterizer's and the places pass's bindings are compute only, the pages' filters and the sRGB
        // views compute and fragment only, and the setup lists compute and vertex only: the draw's stages stay within
        // common per-stage limits.
        const bool fragment = i == b_page_filters || i == b_pages_srgb || i == b_pages_srgb_nearest;
        const bool compute_only = i >= b_tile_bits && i != b_pages && i != b_pages_nearest && !fragment &&
                                  i != b_setup_lists;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT |
                                 (compute_only          ? 0
                                  : fragment            ? VK_SHADER_STAGE_FRAGMENT_BIT
                                  : i == b_setup_lists  ? VK_SHADER_STAGE_VERTEX_BIT
                                                        : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);
    }
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = b_count;
    set_info.pBindings = bindings.data();
    if (VkResult r = vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout); r != VK_SUCCESS)
        return vk_error("vkCreateDescriptorSetLayout", r);

    // The skinning pass pushes 8 bytes ({character_count, row_width}), the places passes 4 ({character_count});
    // binning and tile raster a GpuTilePush.
    VkPushConstantRange compute_push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(GpuTilePush)};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &compute_push;
    if (VkResult r = vkCreatePipelineLayout(d, &layout_info, nullptr, &compute_layout); r != VK_SUCCESS)
        return vk_error("vkCreatePipelineLayout", r);
    VkPushConstantRange draw_push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 20};
    layout_info.pPushConstantRanges = &draw_push;
    if (VkResult r = vkCreatePipelineLayout(d, &layout_info, nullptr, &draw_layout); r != VK_SUCCESS)
        return vk_error("vkCreatePipelineLayout", r);

    if (Result<void> r = make_compute_pipeline(places_comp_spirv(), places_sum_pipeline); !r) return r;
    if (Result<void> r = make_compute_pipeline(places_comp_spirv(), places_pipeline, 1); !r) return r;
    // The skinning pass for types of up to skin_capacity slots, as many as the device's shared memory holds (Vulkan
    // guarantees 16 KB: 661 slots), and one for types of up to k_small_slot_capacity, within every device's.
    skin_capacity = skin_slot_capacity(context->properties.limits.maxComputeSharedMemorySize);
    if (Result<void> r = make_compute_pipeline(skin_comp_spirv(), skin_pipeline, skin_capacity); !r) return r;
    if (Result<void> r = make_compute_pipeline(skin_comp_spirv(), small_skin_pipeline, k_small_slot_capacity); !r)
        return r;
    if (tile_rasterizer_supported(*context)) {
        // The UV plane over the vertices the device's raster pipeline interpolates over (triangles.comp). On a CPU
        // implementation, both passes check that the driver let their loops run to the end (k_loop_canary).
        const std::uint32_t uv_plane_placed = context->software ? 1u : 0u;
        const std::uint32_t loop_canary = context->software ? 1u : 0u;
        if (Result<void> r =
                make_compute_pipeline(triangles_comp_spirv(), triangle_pipeline, uv_plane_placed, loop_canary);
            !r)
            return r;
        // Diagnostics: SPINEGPU_DIAGNOSE_TILES=1..3 builds the tile rasterizer with parts left out, 4 with its
        // coverage checked (raster.comp; its pipeline is made with the pages, make_raster_pipeline).
        const char* diagnose = std::getenv("SPINEGPU_DIAGNOSE_TILES");
        if (diagnose != nullptr && diagnose[0] >= '1' && diagnose[0] <= '4' && !diagnose[1])
            raster_diagnose = static_cast<std::uint32_t>(diagnose[0] - '0');
        // SPINEGPU_DIAGNOSE_MASK_POOL=N: at most N words of tile masks per frame (0: none), to test the fallback.
        if (std::optional<std::uint64_t> words = diagnostic_number("SPINEGPU_DIAGNOSE_MASK_POOL");
            words && *words <= 0xFFFFFFFFull)
            mask_pool_cap = static_cast<std::uint32_t>(*words);
    }

    // The own target's render pass (cleared), the application's RGBA8 images' (loaded: draw_onto, record_onto), which
    // is compatible with it, and the graphics pipelines that draw in both.
    // Diagnostics, for every format's pipelines: SPINEGPU_DIAGNOSE_FLAT=1 builds the fragment shader without its
    // texture fetch, SPINEGPU_DIAGNOSE_PLAIN_BLEND=1 blends every slot as plain premultiplied normal.
    for (auto [name, flag] : {std::pair{"SPINEGPU_DIAGNOSE_FLAT", &diagnose_flat},
                              std::pair{"SPINEGPU_DIAGNOSE_PLAIN_BLEND", &diagnose_plain_blend}}) {
        const char* value = std::getenv(name);
        *flag = value != nullptr && std::strcmp(value, "1") == 0;
    }
    if (Result<void> r = make_render_pass(VK_FORMAT_R8G8B8A8_UNORM, false, render_pass); !r) return r;
    if (Result<void> r = make_render_pass(VK_FORMAT_R8G8B8A8_UNORM, true, load_render_pass); !r) return r;
    return make_draw_pipelines(render_pass, draw_pipeline, collapse_pipeline);
}

Result<void> Renderer::Impl::make_compute_pipeline(std::span<const std::uint32_t> code, VkPipeline& out,
                                                   std::uint32_t constant, std::uint32_t second,
                                                   std::uint32_t third, std::uint32_t fourth, std::uint32_t fifth) {
    VkDevice d = context->device;
    Result<VkShaderModule> module = make_module(d, code);
    if (!module) return module.error();
    // Entries only for the constants set, so that a 0 leaves the shader's default.
    const std::uint32_t values[5] = {constant, second, third, fourth, fifth};
    VkSpecializationMapEntry entries[5];
    std::uint32_t count = 0;
    for (std::uint32_t id = 0; id < 5; ++id)
        if (values[id] != 0) entries[count++] = {id, id * 4, sizeof(std::uint32_t)};
    const VkSpecializationInfo specialization{count, entries, sizeof(values), values};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                  *module, "main", count != 0 ? &specialization : nullptr};
    info.layout = compute_layout;
    VkResult r = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &info, nullptr, &out);
    vkDestroyShaderModule(d, *module, nullptr);
    if (r != VK_SUCCESS) return vk_error("vkCreateComputePipelines", r);
    return {};
}

Result<void> Renderer::Impl::make_raster_pipeline(bool plain_pages) {
    if (!tile_rasterizer_supported(*context)) return {};
    raster_plain_pages = plain_pages;
    const std::uint32_t loop_canary = context->software ? 1u : 0u;
    if (Result<void> r = make_compute_pipeline(raster_comp_spirv(), raster_pipeline, raster_diagnose, loop_canary,
                                               plain_pages ? 1u : 0u);
        !r || !context->borrowed)
        return r;
    if (Result<void> r = make_compute_pipeline(raster_onto_comp_spirv(), raster_onto_pipeline, raster_diagnose,
                                               loop_canary, plain_pages ? 1u : 0u);
        !r || !context->bgra_tiles_missing.empty())
        return r;
    return make_compute_pipeline(raster_onto_unformatted_comp_spirv(), raster_onto_bgra_pipeline, raster_diagnose,
                                 loop_canary, plain_pages ? 1u : 0u);
}

Result<VkPipeline> Renderer::Impl::linear_raster_pipeline(VkFormat format) {
    const bool bgra = format == VK_FORMAT_B8G8R8A8_SRGB;
    VkPipeline& pipeline = bgra ? raster_linear_bgra_pipeline : raster_linear_pipeline;
    if (pipeline != VK_NULL_HANDLE) return pipeline;
    // (Constant 3: shading.glsl's k_linear_light; 4: raster.comp's k_swap_red_blue.)
    if (Result<void> r = make_compute_pipeline(raster_onto_comp_spirv(), pipeline, raster_diagnose,
                                               context->software ? 1u : 0u, raster_plain_pages ? 1u : 0u, 1u,
                                               bgra ? 1u : 0u);
        !r)
        return r.error();
    return pipeline;
}

Result<void> Renderer::Impl::create_frames() {
    VkDevice d = context->device;
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = context->queue_family;
    if (VkResult r = vkCreateCommandPool(d, &pool_info, nullptr, &command_pool); r != VK_SUCCESS)
        return vk_error("vkCreateCommandPool", r);
    // Per slot set_gpu and set_cpu, and on the application's device set_onto.
    const std::uint32_t sets_per_slot = context->borrowed ? 3 : 2;
    const std::uint32_t set_count = sets_per_slot * frames_in_flight;
    std::array<VkDescriptorPoolSize, 3> sizes{{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, set_count * b_count},
                                               {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4 * set_count},
                                               {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, set_count}}};
    VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dp.maxSets = set_count;
    dp.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
    dp.pPoolSizes = sizes.data();
    if (VkResult r = vkCreateDescriptorPool(d, &dp, nullptr, &descriptor_pool); r != VK_SUCCESS)
        return vk_error("vkCreateDescriptorPool", r);
    if (context->timestamp_period_ns > 0) {
        VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        q.queryType = VK_QUERY_TYPE_TIMESTAMP;
        q.queryCount = k_queries_per_frame * frames_in_flight;
        if (VkResult r = vkCreateQueryPool(d, &q, nullptr, &queries); r != VK_SUCCESS)
            return vk_error("vkCreateQueryPool", r);
    }
    if (context->pipeline_statistics) {
        VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        q.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
        q.queryCount = frames_in_flight;
        q.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
        if (VkResult r = vkCreateQueryPool(d, &q, nullptr, &statistics); r != VK_SUCCESS)
            return vk_error("vkCreateQueryPool", r);
    }
    frames.resize(frames_in_flight);
    for (FrameSlot& f : frames) {
        Result<VkCommandBuffer> commands = allocate_command_buffer(d, command_pool);
        if (!commands) return commands.error();
        f.commands = *commands;
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if (VkResult r = vkCreateFence(d, &fence, nullptr, &f.fence); r != VK_SUCCESS)
            return vk_error("vkCreateFence", r);
        std::array<VkDescriptorSetLayout, 3> layouts{set_layout, set_layout, set_layout};
        std::array<VkDescriptorSet, 3> sets{};
        VkDescriptorSetAllocateInfo ds{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ds.descriptorPool = descriptor_pool;
        ds.descriptorSetCount = sets_per_slot;
        ds.pSetLayouts = layouts.data();
        if (VkResult r = vkAllocateDescriptorSets(d, &ds, sets.data()); r != VK_SUCCESS)
            return vk_error("vkAllocateDescriptorSets", r);
        f.set_gpu = sets[0];
        f.set_cpu = sets[1];
        f.set_onto = sets[2];
        const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        for (GpuBuffer* b : {&f.packed_characters, &f.bones, &f.words}) {
            b->usage = storage;
            b->host_visible = true;
        }
        f.characters.usage = storage;
        f.place_blocks.usage = storage;
        f.draw_command.usage = storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
        f.cpu_vertices.usage = storage;
        f.cpu_vertices.host_visible = true;
        f.cpu_indices.usage = storage | VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
        f.cpu_indices.host_visible = true;
        // (Copied from by read_back_geometry.)
        f.gpu_vertices.usage = storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        f.gpu_indices.usage = storage | VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        f.tile_bits.usage = storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        f.counters.usage = storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        f.counters.host_visible = true;
        f.triangles.usage = storage;
        f.triangle_boxes.usage = storage;
        f.character_tiles.usage = storage;
        f.tile_masks.usage = storage;
        for (GpuBuffer* b : {&f.packed_characters, &f.characters, &f.place_blocks, &f.draw_command, &f.bones, &f.words,
                             &f.cpu_vertices, &f.cpu_indices, &f.gpu_vertices, &f.gpu_indices, &f.tile_bits,
                             &f.counters, &f.triangles, &f.triangle_boxes, &f.character_tiles, &f.tile_masks})
            if (Result<bool> made = fit_buffer(*context, *b, 4096); !made) return made.error();
    }
    return {};
}

Result<void> Renderer::Impl::submit_once(const std::function<void(VkCommandBuffer)>& record) {
    VkDevice d = context->device;
    Result<VkCommandBuffer> allocated = allocate_command_buffer(d, command_pool);
    if (!allocated) return allocated.error();
    VkCommandBuffer commands = *allocated;
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(commands, &begin);
    record(commands);
    vkEndCommandBuffer(commands);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    submitted = true;
    const VkResult r = vkQueueSubmit(context->queue, 1, &submit, VK_NULL_HANDLE);
    const VkResult waited = r == VK_SUCCESS ? vkQueueWaitIdle(context->queue) : VK_SUCCESS;
    vkFreeCommandBuffers(d, command_pool, 1, &commands);
    if (r != VK_SUCCESS) return vk_error("vkQueueSubmit", r);
    if (waited != VK_SUCCESS) return vk_error("vkQueueWaitIdle", waited);
    return {};
}

Result<void> Renderer::Impl::fit_onto_copy(FrameSlot& f, const HostImage& host) {
    if (f.onto_copy != VK_NULL_HANDLE && f.onto_copy_width == host.width && f.onto_copy_height == host.height)
        return {};
    // (The slot's last frame has been waited for: its copy is no longer in use.) set_onto's target binding is written
    // anew by the next frame that draws, whatever image it is onto: it may hold the view destroyed here.
    VkDevice d = context->device;
    f.bound_image = {};
    f.bound_onto[b_target] = 0;
    if (f.onto_copy_view != VK_NULL_HANDLE) vkDestroyImageView(d, f.onto_copy_view, nullptr);
    if (f.onto_copy != VK_NULL_HANDLE) vkDestroyImage(d, f.onto_copy, nullptr);
    if (f.onto_copy_memory != VK_NULL_HANDLE) vkFreeMemory(d, f.onto_copy_memory, nullptr);
    f.onto_copy_view = VK_NULL_HANDLE;
    f.onto_copy = VK_NULL_HANDLE;
    f.onto_copy_memory = VK_NULL_HANDLE;
    f.onto_copy_width = f.onto_copy_height = 0;
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (Result<void> made = create_rgba8_image(*context, host.width, host.height, usage, f.onto_copy,
                                               f.onto_copy_memory, f.onto_copy_view);
        !made)
        return made;
    f.onto_copy_width = host.width;
    f.onto_copy_height = host.height;
    return {};
}

Result<void> Renderer::Impl::fit_host_framebuffer(FrameSlot& f, const HostImage& host) {
    if (f.host_framebuffer != VK_NULL_HANDLE && same_image(f.framebuffer_image, host)) return {};
    // (The slot's last frame has been waited for: its framebuffer is no longer in use.)
    if (f.host_framebuffer != VK_NULL_HANDLE) vkDestroyFramebuffer(context->device, f.host_framebuffer, nullptr);
    f.host_framebuffer = VK_NULL_HANDLE;
    Result<DrawPasses> passes = draw_passes(host.format);
    if (!passes) return passes.error();
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = passes->load;
    fb.attachmentCount = 1;
    fb.pAttachments = &host.view;
    fb.width = host.width;
    fb.height = host.height;
    fb.layers = 1;
    if (VkResult r = vkCreateFramebuffer(context->device, &fb, nullptr, &f.host_framebuffer); r != VK_SUCCESS)
        return vk_error("vkCreateFramebuffer", r);
    f.framebuffer_image = host;
    f.host_passes = *passes;
    return {};
}

Result<void> Renderer::Impl::fit_target(std::uint32_t w, std::uint32_t h) {
    if (w == width && h == height && target != VK_NULL_HANDLE) return {};
    VkContext& c = *context;
    VkDevice d = c.device;
    // (Checked before anything is made or destroyed: a refused size leaves the last frame to read back.)
    if (w == 0 || h == 0 || w > c.properties.limits.maxFramebufferWidth ||
        h > c.properties.limits.maxFramebufferHeight)
        return make_error("renderer", "target", "size " + std::to_string(w) + "x" + std::to_string(h) +
                                                    " is empty or larger than the device allows");
    // The new target is made whole before the old one goes, so that a failure anywhere (the device out of memory)
    // leaves the old target, its frame and every descriptor that points at it as they were.
    VkImage image_made = VK_NULL_HANDLE;
    VkDeviceMemory memory_made = VK_NULL_HANDLE;
    VkImageView view_made = VK_NULL_HANDLE;
    VkFramebuffer framebuffer_made = VK_NULL_HANDLE;
    GpuBuffer readback_made;
    readback_made.generation = readback.generation;
    const auto undo = [&](Error error) -> Result<void> {
        if (framebuffer_made) vkDestroyFramebuffer(d, framebuffer_made, nullptr);
        if (view_made) vkDestroyImageView(d, view_made, nullptr);
        if (image_made) vkDestroyImage(d, image_made, nullptr);
        if (memory_made) vkFreeMemory(d, memory_made, nullptr);
        destroy_buffer(c, readback_made);
        return error;
    };
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_STORAGE_BIT |
                                    VK_IMAGE_USAGE_SAMPLED_BIT;  // (sampled: by the application, FrameImage)
    if (Result<void> made = create_rgba8_image(c, w, h, usage, image_made, memory_made, view_made); !made)
        return made;
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = render_pass;
    fb.attachmentCount = 1;
    fb.pAttachments = &view_made;
    fb.width = w;
    fb.height = h;
    fb.layers = 1;
    if (VkResult r = vkCreateFramebuffer(d, &fb, nullptr, &framebuffer_made); r != VK_SUCCESS) {
        framebuffer_made = VK_NULL_HANDLE;
        return undo(vk_error("vkCreateFramebuffer", r));
    }
    // SPINEGPU_DIAGNOSE_TARGET_PIXELS=N (for the tests): the readback buffer of a target of more than N pixels fails
    // as the device's memory running out would, after the image, view and framebuffer were made (which go again).
    if (std::optional<std::uint64_t> limit = diagnostic_number("SPINEGPU_DIAGNOSE_TARGET_PIXELS");
        limit && std::uint64_t{w} * h > *limit)
        return undo(vk_error("vkAllocateMemory (SPINEGPU_DIAGNOSE_TARGET_PIXELS)", VK_ERROR_OUT_OF_DEVICE_MEMORY));
    if (Result<void> r = create_buffer(c, VkDeviceSize{w} * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true,
                                       readback_made, true);
        !r)
        return undo(r.error());
    // Everything that may still use the old target finishes before it goes.
    if (Result<void> r = wait_all("draw"); !r) return undo(r.error());
    if (presenter)
        if (Result<void> r = presenter->wait(); !r) return undo(r.error());
    // On the application's device, its commands using the old image (FrameImage) finish before it goes.
    if (context->borrowed && target != VK_NULL_HANDLE)
        if (VkResult r = vkQueueWaitIdle(context->queue); r != VK_SUCCESS)
            return undo(vk_error("vkQueueWaitIdle", r));
    if (framebuffer) vkDestroyFramebuffer(d, framebuffer, nullptr);
    if (target_view) vkDestroyImageView(d, target_view, nullptr);
    if (target) vkDestroyImage(d, target, nullptr);
    if (target_memory) vkFreeMemory(d, target_memory, nullptr);
    destroy_buffer(c, readback);
    target = image_made;
    target_memory = memory_made;
    target_view = view_made;
    framebuffer = framebuffer_made;
    readback = readback_made;
    ++target_generation;
    target_drawn = false;  // the frame drawn into the old target went with it
    width = w;
    height = h;
    return {};
}

}  // namespace spinegpu::gpu
