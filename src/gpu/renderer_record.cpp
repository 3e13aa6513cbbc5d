// Recording and submitting a frame's command buffer (places and skinning passes, then the draw through the raster
// pipeline or the tile rasterizer, with timestamps), into the renderer's own target or onto the application's image
// (HostImage), and the slot's descriptor sets. renderer_frame.cpp packs the frame first.
#include <algorithm>
#include <cstddef>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {

// The places pass writes the indirect draw's command as Vulkan reads it.
static_assert(sizeof(GpuDrawCommand) == sizeof(VkDrawIndexedIndirectCommand) &&
              offsetof(GpuDrawCommand, vertex_offset) == offsetof(VkDrawIndexedIndirectCommand, vertexOffset) &&
              offsetof(GpuDrawCommand, first_instance) == offsetof(VkDrawIndexedIndirectCommand, firstInstance));

bool same_image(const HostImage& a, const HostImage& b) {
    return a.image == b.image && a.view == b.view && a.format == b.format && a.width == b.width &&
           a.height == b.height && a.generation == b.generation;
}

namespace {

constexpr std::uint32_t k_culled = Renderer::Impl::k_culled;

// Records the characters' draw calls inside a render pass: `draw` (or for gpu_vertex `collapse`) bound with the
// frame's descriptor set and camera, the scissor on `area`, then one indexed draw of the skinned or CPU-built
// triangles, or per run of one type (Impl::type_runs) the vertex-shader path's instanced draws. The camera's pixels
// count from the area's corner; the shaders take them from the framebuffer's (the viewport from its corner, to the
// area's far corner, and the camera moved by the area's offset), as clipping compares them with gl_FragCoord.
void record_draw_calls(Renderer::Impl& m, const FrameSlot& f, VkCommandBuffer cb, VkDescriptorSet set,
                       VkPipeline draw, VkPipeline collapse, const Camera2D& camera, VkRect2D area, RenderPath path,
                       std::uint32_t index_total) {
    if (index_total == 0) return;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, path == RenderPath::gpu_vertex ? collapse : draw);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, m.draw_layout, 0, 1, &set, 0, nullptr);
    const auto x = static_cast<float>(area.offset.x), y = static_cast<float>(area.offset.y);
    const float width = x + static_cast<float>(area.extent.width), height = y + static_cast<float>(area.extent.height);
    VkViewport viewport{0, 0, width, height, 0, 1};
    vkCmdSetViewport(cb, 0, 1, &viewport);
    vkCmdSetScissor(cb, 0, 1, &area);
    const float push[5] = {camera.scale, camera.ox + x, camera.oy + y, width, height};
    vkCmdPushConstants(cb, m.draw_layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
                       push);
    if (path == RenderPath::gpu_vertex) {
        // One instanced draw per run of characters of one type, in order (instances draw one after another).
        vkCmdBindIndexBuffer(cb, m.collapse_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
        for (const TypeRun& run : m.type_runs) {
            const SkeletonTypeEntry& t = m.types[run.type];
            if (t.collapse_count > 0) vkCmdDrawIndexed(cb, t.collapse_count, run.count, t.collapse_first, 0, run.first);
        }
    } else if (path == RenderPath::gpu) {
        // One indirect draw, its index count written by the places pass.
        vkCmdBindIndexBuffer(cb, f.gpu_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexedIndirect(cb, f.draw_command.buffer, 0, 1, sizeof(GpuDrawCommand));
    } else {
        vkCmdBindIndexBuffer(cb, f.cpu_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(cb, index_total, 1, 0, 0, 0);
    }
}

// The runs of characters in view of one skeleton type, in draw order, into Impl::type_runs (the gpu_vertex path).
void find_type_runs(Renderer::Impl& m, std::span<const CharacterDraw> characters) {
    m.type_runs.clear();
    std::uint32_t drawn = 0;
    for (std::size_t i = 0; i < characters.size(); ++i) {
        if (m.counts[i].vertices == k_culled) continue;
        if (m.type_runs.empty() || m.type_runs.back().type != characters[i].type)
            m.type_runs.push_back(TypeRun{characters[i].type, drawn, 0});
        ++m.type_runs.back().count;
        ++drawn;
    }
}

// Records the draw through the raster pipeline in a render pass of the renderer's: the own target cleared to the
// background, or the application's image loaded, taken from its layout and given back to it.
void record_draw(Renderer::Impl& m, FrameSlot& f, VkCommandBuffer cb, VkDescriptorSet set, const Camera2D& camera,
                 const FrameTarget& to, RenderPath path, std::uint32_t index_total) {
    VkClearValue clear{};
    clear.color.float32[0] = to.background.r * to.background.a;
    clear.color.float32[1] = to.background.g * to.background.a;
    clear.color.float32[2] = to.background.b * to.background.a;
    clear.color.float32[3] = to.background.a;
    VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    pass.renderPass = to.host != nullptr ? f.host_passes.load : m.render_pass;
    pass.framebuffer = to.host != nullptr ? f.host_framebuffer : m.framebuffer;
    pass.renderArea = {{0, 0}, {to.width, to.height}};
    pass.clearValueCount = to.host != nullptr ? 0 : 1;
    pass.pClearValues = &clear;
    // The application's image after every earlier command on the queue, their writes made available (the own target:
    // the render pass's incoming dependency).
    if (to.host != nullptr)
        image_barrier(cb, to.host->image, to.host->layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    if (m.statistics != VK_NULL_HANDLE) vkCmdBeginQuery(cb, m.statistics, m.frame_index, 0);
    vkCmdBeginRenderPass(cb, &pass, VK_SUBPASS_CONTENTS_INLINE);
    // (The application's image: the pipelines made for its format's render pass.)
    const VkPipeline draw = to.host != nullptr ? f.host_passes.draw : m.draw_pipeline;
    const VkPipeline collapse = to.host != nullptr ? f.host_passes.collapse : m.collapse_pipeline;
    record_draw_calls(m, f, cb, set, draw, collapse, camera, pass.renderArea, path, index_total);
    vkCmdEndRenderPass(cb);
    if (m.statistics != VK_NULL_HANDLE) vkCmdEndQuery(cb, m.statistics, m.frame_index);
    // Back to the application's layout, written and visible to every later command on the queue.
    if (to.host != nullptr)
        image_barrier(cb, to.host->image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, to.host->layout,
                      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
}

// Records the tile rasterizer: the triangle setup (which also sets each visible character's bit in the tiles its
// triangles touch), then one workgroup per tile, writing every pixel of the target: the own target, from the
// background, left ready for readback as after the render pass; or the application's image (`host`), from its
// pixels, given back in its layout (an sRGB one through the slot `f`'s copy of it).
void record_tiles(Renderer::Impl& m, FrameSlot& f, VkCommandBuffer cb, VkDescriptorSet set, const GpuTilePush& push,
                  const HostImage* host) {
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m.compute_layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cb, m.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    if (push.character_count > 0) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m.triangle_pipeline);
        vkCmdDispatch(cb, push.row_width, (push.character_count + push.row_width - 1) / push.row_width, 1);
        VkMemoryBarrier binned{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        binned.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        binned.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                             &binned, 0, nullptr, 0, nullptr);
    }
    // Every earlier command on the queue finishes with the image first, its writes made available: earlier frames,
    // readback, presenting, the application's use of it (FrameImage, HostImage). The own target's old contents are
    // not needed (every pixel is written); the application's are read. An sRGB image of the application's is copied
    // into the slot's RGBA8 copy of it (the same bytes), drawn there in linear light and copied back.
    const bool copied = host != nullptr && is_srgb_format(host->format);
    const VkImage image = copied ? f.onto_copy : host != nullptr ? host->image : m.target;
    const VkAccessFlags reads = host != nullptr ? VK_ACCESS_SHADER_READ_BIT : 0;
    VkImageCopy whole{};
    if (copied) {
        whole.srcSubresource = whole.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        whole.extent = {host->width, host->height, 1};
        image_barrier(cb, host->image, host->layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
        image_barrier(cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdCopyImage(cb, host->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
        image_barrier(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    } else {
        image_barrier(cb, image, host != nullptr ? host->layout : VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, reads | VK_ACCESS_SHADER_WRITE_BIT);
    }
    const VkPipeline raster = host == nullptr ? m.raster_pipeline
                              : copied ? (host->format == VK_FORMAT_B8G8R8A8_SRGB ? m.raster_linear_bgra_pipeline
                                                                                 : m.raster_linear_pipeline)
                              : host->format == VK_FORMAT_B8G8R8A8_UNORM ? m.raster_onto_bgra_pipeline
                                                                         : m.raster_onto_pipeline;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, raster);
    vkCmdDispatch(cb, push.tiles_x, push.tiles_y, 1);
    if (copied) {
        // (The host image's barrier from the copy in's read to the copy back's write orders the two.)
        image_barrier(cb, image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
        image_barrier(cb, host->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdCopyImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, host->image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
        image_barrier(cb, host->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, host->layout,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
    } else if (host != nullptr) {
        image_barrier(cb, image, VK_IMAGE_LAYOUT_GENERAL, host->layout, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
    } else {
        image_barrier(cb, image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
    }
    VkMemoryBarrier counted{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    counted.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    counted.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &counted, 0,
                         nullptr, 0, nullptr);
}

}  // namespace

std::uint32_t Renderer::Impl::update_sets(FrameSlot& f, const HostImage* onto) {
    std::uint32_t written = 0;
    // Rewrites a set only when a buffer it points at was reallocated (generation changed). set_onto (the gpu path's
    // buffers) only for a frame onto the application's image.
    for (int which = 0; which < 3; ++which) {
        if (which == 2 && onto == nullptr) break;
        const bool cpu = which == 1;
        VkDescriptorSet set = which == 0 ? f.set_gpu : cpu ? f.set_cpu : f.set_onto;
        std::array<std::uint64_t, b_count>& bound = which == 0 ? f.bound_gpu : cpu ? f.bound_cpu : f.bound_onto;
        const std::array<const GpuBuffer*, b_count> buffers{
            &influences, &bind_vertices, &static_indices, &attachments, &type_table, &slot_setups,
            &f.characters, &f.bones, &f.words,
            cpu ? &f.cpu_vertices : &f.gpu_vertices, cpu ? &f.cpu_indices : &f.gpu_indices, nullptr,
            &vertex_owners, &f.tile_bits, &f.counters, nullptr, &f.triangles, &f.triangle_boxes,
            &f.character_tiles, &f.tile_masks, &f.packed_characters, &f.place_blocks, &f.draw_command, nullptr,
            &page_filters, &setup_lists, nullptr, nullptr};
        std::array<VkDescriptorBufferInfo, b_count> infos{};
        std::array<VkWriteDescriptorSet, b_count> writes{};
        std::uint32_t count = 0;
        for (std::uint32_t i = 0; i < b_count; ++i) {
            if (buffers[i] == nullptr) continue;  // (the images, below)
            // Generations start at 1 once a buffer exists; the static ones never change after finalize.
            const std::uint64_t tag = buffers[i]->generation * 2 + 1;
            if (bound[i] == tag) continue;
            bound[i] = tag;
            // (Buffers grow to powers of two, which may pass the largest range a descriptor may cover; the
            // draw checks that what it uses fits that range.)
            infos[i] = {buffers[i]->buffer, 0, std::min<VkDeviceSize>(buffers[i]->size, storage_range)};
            VkWriteDescriptorSet& w = writes[count++];
            w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = i;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w.pBufferInfo = &infos[i];
        }
        // The target binding (the tile path's): in set_gpu and set_cpu the own target, tagged with its generation
        // (odd); in set_onto the application's image (or the slot's copy of an sRGB one), tagged 2 while the slot's
        // bound_image is that image. Only
        // set_onto ever holds an application's view, and only frames onto that image bind it: the application may
        // destroy the image once its frame is done, and a driver may read every descriptor of a set it binds
        // (lavapipe does).
        if (which == 2 && !same_image(f.bound_image, *onto)) {
            bound[b_target] = 0;
            f.bound_image = *onto;
        }
        // (An sRGB image is drawn on the tile path through the slot's copy of it.)
        const VkImageView onto_view =
            which != 2 ? VK_NULL_HANDLE : is_srgb_format(onto->format) ? f.onto_copy_view : onto->view;
        const VkImageView target_now = which == 2 ? onto_view : target_view;
        const VkDescriptorImageInfo images[5] = {
            {sampler, pages_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {nearest_sampler, pages_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {sampler, pages_srgb_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {nearest_sampler, pages_srgb_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {VK_NULL_HANDLE, target_now, VK_IMAGE_LAYOUT_GENERAL}};
        const std::uint64_t image_tags[5] = {1, 1, 1, 1, which == 2 ? 2 : target_generation * 2 + 1};
        const Binding image_bindings[5] = {b_pages, b_pages_nearest, b_pages_srgb, b_pages_srgb_nearest, b_target};
        for (int k = 0; k < 5; ++k) {
            if (bound[image_bindings[k]] == image_tags[k] || images[k].imageView == VK_NULL_HANDLE) continue;
            bound[image_bindings[k]] = image_tags[k];
            VkWriteDescriptorSet& w = writes[count++];
            w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = image_bindings[k];
            w.descriptorCount = 1;
            w.descriptorType = k < 4 ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
            w.pImageInfo = &images[k];
        }
        if (count > 0) vkUpdateDescriptorSets(context->device, count, writes.data(), 0, nullptr);
        written += count;
    }
    return written;
}

Result<void> Renderer::Impl::record_frame(FrameSlot& f, const FrameTarget& to,
                                         std::span<const CharacterDraw> characters, const Camera2D& camera,
                                         RenderPath path, const FrameCounts& counts, FrameStats stats) {
    Impl& m = *this;
    const bool tiles = path == RenderPath::gpu_tiles, packs = path != RenderPath::cpu;
    const std::uint32_t visible = counts.visible, index_total = counts.index_total;
    // The tile path's target binding: the application's image (a storage image only for that path), or the own target.
    stats.descriptor_writes = m.update_sets(f, tiles ? to.host : nullptr);
    // The slot's own command buffer, submitted here; or the application's (record_onto), already recording.
    const bool own = to.into == VK_NULL_HANDLE;
    VkCommandBuffer cb = own ? f.commands : to.into;
    if (own) {
        vkResetCommandBuffer(cb, 0);
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cb, &begin);
    } else {
        // The mark that the application's submission ran (wait_slot reads it once the value has come). (Compute
        // shaders in the barrier's second scope: the tile path binds the whole buffer, whose other words they write.)
        static_cast<std::uint32_t*>(f.counters.mapped)[k_ran_word] = 0;
        vkCmdFillBuffer(cb, f.counters.buffer, k_ran_word * 4, 4, static_cast<std::uint32_t>(m.frames_submitted + 1));
        VkMemoryBarrier marked{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        marked.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        marked.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &marked, 0,
                             nullptr, 0, nullptr);
    }
    const std::uint32_t query = m.frame_index * k_queries_per_frame;
    f.timed = m.queries != VK_NULL_HANDLE;
    f.undrawn = f.drawn_in_secondary = false;
    if (f.timed) {
        vkCmdResetQueryPool(cb, m.queries, query, k_queries_per_frame);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m.queries, query);
    }
    if (m.statistics != VK_NULL_HANDLE) vkCmdResetQueryPool(cb, m.statistics, m.frame_index, 1);
    VkDescriptorSet set = !packs ? f.set_cpu : tiles && to.host != nullptr ? f.set_onto : f.set_gpu;
    f.tiles = tiles;
    if (tiles) {
        vkCmdFillBuffer(cb, f.counters.buffer, 0, k_tile_counter_words * 4, 0);
        if (counts.tile_bytes > 0) vkCmdFillBuffer(cb, f.tile_bits.buffer, 0, counts.tile_bytes, 0);
        VkMemoryBarrier cleared{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        cleared.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        cleared.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &cleared,
                             0, nullptr, 0, nullptr);
    }
    if (packs && visible > 0) {
        // The places passes (block totals, then places): the visible characters' headers, with their output places,
        // for the passes after them.
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m.compute_layout, 0, 1, &set, 0, nullptr);
        const std::uint32_t count = counts.characters;
        vkCmdPushConstants(cb, m.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
        VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        written.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
        for (VkPipeline pipeline : {m.places_sum_pipeline, m.places_pipeline}) {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdDispatch(cb, static_cast<std::uint32_t>(counts.place_blocks), 1, 1);
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                                     VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                                 0, 1, &written, 0, nullptr, 0, nullptr);
        }
    }
    if ((path == RenderPath::gpu || tiles) && visible > 0) {
        // (The places passes bound the set with the same layout; it stays bound across the pipeline change.)
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                          m.max_slots <= k_small_slot_capacity ? m.small_skin_pipeline : m.skin_pipeline);
        const std::uint32_t count = visible;
        const std::uint32_t row = std::min<std::uint32_t>(count, 65535);
        const std::uint32_t push[2] = {count, row};
        vkCmdPushConstants(cb, m.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
        vkCmdDispatch(cb, row, (count + row - 1) / row, 1);
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDEX_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                                 VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             0, 1, &barrier, 0, nullptr, 0, nullptr);
    }
    if (f.timed) vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, m.queries, query + 1);
    if (path == RenderPath::gpu_vertex) find_type_runs(m, characters);
    if (tiles) {
        record_tiles(m, f, cb, set, counts.tile_push, to.host);
    } else if (to.pass != nullptr) {
        // The draw waits for record_in_pass (or record_in_secondary), inside the application's render pass; so does
        // the frame's last timestamp, which decides whether its GPU time is known.
        Result<PassPipelines> pipelines = m.pipelines_for(*to.pass);  // (made by draw_frame already: found)
        m.awaiting_draw = AwaitingDraw{cb, m.frame_index, path, camera, to.pass->area, index_total,
                                       pipelines->draw, pipelines->collapse, set};
        f.undrawn = true;
    } else {
        record_draw(m, f, cb, set, camera, to, path, index_total);
    }
    if (f.timed && !f.undrawn) vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m.queries, query + 2);
    m.submitted = true;  // (or will be, by the application)
    if (own) {
        vkEndCommandBuffer(cb);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cb;
        if (VkResult r = vkQueueSubmit(m.context->queue, 1, &submit, f.fence); r != VK_SUCCESS)
            return vk_error("vkQueueSubmit", r);
    } else {
        f.signal = ++m.timeline_value;
        f.recorded_into = cb;
    }
    f.pending = true;
    stats.frame = ++m.frames_submitted;
    f.stats = stats;
    f.drawn_path = path;
    m.last_frame = static_cast<std::int32_t>(m.frame_index);
    if (to.host == nullptr && to.pass == nullptr) m.target_drawn = true;
    m.frame_index = (m.frame_index + 1) % m.frames_in_flight;
    return {};
}

namespace {

// Records the draw of the frame awaiting it (AwaitingDraw) into `commands`: the application's command buffer that
// record_for_pass recorded into, or (`secondary`) a secondary command buffer it executes there. `call` names the
// caller in errors.
Result<void> record_awaiting_draw(Renderer::Impl& m, VkCommandBuffer commands, bool secondary, const char* call) {
    if (commands == VK_NULL_HANDLE) return make_error("renderer", call, "the command buffer is VK_NULL_HANDLE");
    if (!m.awaiting_draw)
        return make_error("renderer", call,
                          "no frame awaits its draw: record_for_pass prepares one, and a later frame, a wait for it "
                          "or its draw already recorded leaves none");
    if (!secondary && m.awaiting_draw->commands != commands)
        return make_error("renderer", call,
                          "the frame awaiting its draw was prepared in another command buffer: record its draw into "
                          "the one record_for_pass recorded it into (or into a secondary command buffer executed "
                          "there, with record_in_secondary)");
    if (secondary && m.awaiting_draw->commands == commands)
        return make_error("renderer", call,
                          "that is the command buffer record_for_pass recorded into, not a secondary one: "
                          "record_in_pass records the draw inline there");
    const AwaitingDraw a = *m.awaiting_draw;
    m.awaiting_draw.reset();
    FrameSlot& f = m.frames[a.slot];
    if (m.statistics != VK_NULL_HANDLE) vkCmdBeginQuery(commands, m.statistics, a.slot, 0);
    record_draw_calls(m, f, commands, a.set, a.draw, a.collapse, a.camera, a.area, a.path, a.index_total);
    if (m.statistics != VK_NULL_HANDLE) vkCmdEndQuery(commands, m.statistics, a.slot);
    const std::uint32_t last_stamp = a.slot * k_queries_per_frame + 2;
    if (f.timed) vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m.queries, last_stamp);
    f.undrawn = false;
    f.drawn_in_secondary = secondary;
    return {};
}

}  // namespace

Result<void> Renderer::record_in_pass(VkCommandBuffer commands) {
    return record_awaiting_draw(*impl_, commands, false, "record_in_pass");
}

Result<void> Renderer::record_in_secondary(VkCommandBuffer secondary) {
    return record_awaiting_draw(*impl_, secondary, true, "record_in_secondary");
}

}  // namespace spinegpu::gpu
