// Drawing a frame: packing poses (GPU paths) or world vertices (CPU path) into the frame slot's mapped buffers, then
// the command buffer (places and skinning passes, the draw or the tile rasterizer, timestamps), into the renderer's
// own target or onto the application's image (HostImage). Setup is in renderer_setup.cpp; the frame's public calls
// and readback in renderer.cpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/cpu_path.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"

namespace spinegpu::gpu {

// The places pass writes the indirect draw's command as Vulkan reads it.
static_assert(sizeof(GpuDrawCommand) == sizeof(VkDrawIndexedIndirectCommand) &&
              offsetof(GpuDrawCommand, vertex_offset) == offsetof(VkDrawIndexedIndirectCommand, vertexOffset) &&
              offsetof(GpuDrawCommand, first_instance) == offsetof(VkDrawIndexedIndirectCommand, firstInstance));

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

namespace {

constexpr std::uint32_t k_culled = Renderer::Impl::k_culled;

double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Records the draw through the raster pipeline: the render pass (the own target cleared to the background, or the
// application's image loaded, taken from its layout and given back to it), then one indexed draw of the skinned or
// CPU-built triangles, or per run of one type the vertex-shader path's instanced draws.
void record_draw(Renderer::Impl& m, FrameSlot& f, VkCommandBuffer cb, VkDescriptorSet set,
                 std::span<const CharacterDraw> characters, const Camera2D& camera, const FrameTarget& to,
                 RenderPath path, std::uint32_t index_total) {
    VkClearValue clear{};
    clear.color.float32[0] = to.background.r * to.background.a;
    clear.color.float32[1] = to.background.g * to.background.a;
    clear.color.float32[2] = to.background.b * to.background.a;
    clear.color.float32[3] = to.background.a;
    VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    pass.renderPass = to.host != nullptr ? m.load_render_pass : m.render_pass;
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
    if (index_total > 0) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
                          path == RenderPath::gpu_vertex ? m.collapse_pipeline : m.draw_pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, m.draw_layout, 0, 1, &set, 0, nullptr);
        VkViewport viewport{0, 0, static_cast<float>(to.width), static_cast<float>(to.height), 0, 1};
        VkRect2D scissor{{0, 0}, {to.width, to.height}};
        vkCmdSetViewport(cb, 0, 1, &viewport);
        vkCmdSetScissor(cb, 0, 1, &scissor);
        const float push[5] = {camera.scale, camera.ox, camera.oy, static_cast<float>(to.width),
                               static_cast<float>(to.height)};
        vkCmdPushConstants(cb, m.draw_layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(push), push);
        if (path == RenderPath::gpu_vertex) {
            // One instanced draw per run of characters of one type, in order (instances draw one after another).
            vkCmdBindIndexBuffer(cb, m.collapse_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
            std::uint32_t drawn = 0, run_start = 0, run_type = 0;
            auto flush = [&](std::uint32_t end) {
                if (end == run_start) return;
                const SkeletonTypeEntry& t = m.types[run_type];
                if (t.collapse_count > 0)
                    vkCmdDrawIndexed(cb, t.collapse_count, end - run_start, t.collapse_first, 0, run_start);
            };
            for (std::size_t i = 0; i < characters.size(); ++i) {
                if (m.counts[i].vertices == k_culled) continue;
                if (drawn > run_start && characters[i].type != run_type) {
                    flush(drawn);
                    run_start = drawn;
                }
                run_type = characters[i].type;
                ++drawn;
            }
            flush(drawn);
        } else if (path == RenderPath::gpu) {
            // One indirect draw, its index count written by the places pass.
            vkCmdBindIndexBuffer(cb, f.gpu_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
            vkCmdDrawIndexedIndirect(cb, f.draw_command.buffer, 0, 1, sizeof(GpuDrawCommand));
        } else {
            vkCmdBindIndexBuffer(cb, f.cpu_indices.buffer, 0, VK_INDEX_TYPE_UINT32);
            vkCmdDrawIndexed(cb, index_total, 1, 0, 0, 0);
        }
    }
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
// pixels, given back in its layout.
void record_tiles(Renderer::Impl& m, VkCommandBuffer cb, VkDescriptorSet set, const GpuTilePush& push,
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
    // not needed (every pixel is written); the application's are read.
    const VkImage image = host != nullptr ? host->image : m.target;
    const VkAccessFlags reads = host != nullptr ? VK_ACCESS_SHADER_READ_BIT : 0;
    image_barrier(cb, image, host != nullptr ? host->layout : VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                  VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  reads | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, m.raster_pipeline);
    vkCmdDispatch(cb, push.tiles_x, push.tiles_y, 1);
    if (host != nullptr)
        image_barrier(cb, image, VK_IMAGE_LAYOUT_GENERAL, host->layout, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                      VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
    else
        image_barrier(cb, image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
    VkMemoryBarrier counted{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    counted.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    counted.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &counted, 0,
                         nullptr, 0, nullptr);
}

// The clear colour as the target holds it: premultiplied RGBA8.
std::uint32_t premultiplied_rgba8(Color c) { return pack_rgba8({c.r * c.a, c.g * c.a, c.b * c.a, c.a}); }

// Whether the path reads each character's counts (Impl::counts) after the first pass: the CPU path for its places,
// gpu_vertex for its runs of types. The GPU paths compute their places on the GPU.
bool keeps_counts(RenderPath path) { return path == RenderPath::cpu || path == RenderPath::gpu_vertex; }

}  // namespace

std::uint32_t Renderer::Impl::update_sets(FrameSlot& f, VkImageView target_view, std::uint64_t target_tag) {
    std::uint32_t written = 0;
    // Rewrites a set only when a buffer it points at was reallocated (generation changed).
    for (int path = 0; path < 2; ++path) {
        VkDescriptorSet set = path == 0 ? f.set_gpu : f.set_cpu;
        std::array<std::uint64_t, b_count>& bound = path == 0 ? f.bound_gpu : f.bound_cpu;
        const std::array<const GpuBuffer*, b_count> buffers{
            &influences, &bind_vertices, &static_indices, &attachments, &type_table, &slot_setups,
            &f.characters, &f.bones, &f.words,
            path == 0 ? &f.gpu_vertices : &f.cpu_vertices, path == 0 ? &f.gpu_indices : &f.cpu_indices, nullptr,
            &vertex_owners, &f.tile_bits, &f.counters, nullptr, &f.triangles, &f.triangle_boxes,
            &f.character_tiles, &f.tile_masks, &f.packed_characters, &f.place_blocks, &f.draw_command, nullptr,
            &page_filters, &setup_lists};
        std::array<VkDescriptorBufferInfo, b_count> infos{};
        std::array<VkWriteDescriptorSet, b_count> writes{};
        std::uint32_t count = 0;
        for (std::uint32_t i = 0; i < b_count; ++i) {
            if (i == b_pages || i == b_pages_nearest || i == b_target) continue;
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
        const VkDescriptorImageInfo images[3] = {
            {sampler, pages_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {nearest_sampler, pages_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {VK_NULL_HANDLE, target_view, VK_IMAGE_LAYOUT_GENERAL}};
        const std::uint64_t image_tags[3] = {1, 1, target_tag};
        const Binding image_bindings[3] = {b_pages, b_pages_nearest, b_target};
        for (int k = 0; k < 3; ++k) {
            if (bound[image_bindings[k]] == image_tags[k] || images[k].imageView == VK_NULL_HANDLE) continue;
            bound[image_bindings[k]] = image_tags[k];
            VkWriteDescriptorSet& w = writes[count++];
            w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = image_bindings[k];
            w.descriptorCount = 1;
            w.descriptorType = k < 2 ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
            w.pImageInfo = &images[k];
        }
        if (count > 0) vkUpdateDescriptorSets(context->device, count, writes.data(), 0, nullptr);
        written += count;
    }
    return written;
}


Result<FrameStats> Renderer::Impl::draw_frame(const FrameTarget& to, std::span<const CharacterDraw> characters,
                                              const Camera2D& camera, RenderPath path, const PoseJob& poses) {
    Impl& m = *this;
    const std::uint32_t width = to.width, height = to.height;
    if (!m.finalized)
        if (Result<void> r = m.upload_static(); !r) return r.error();
    const bool packs = path != RenderPath::cpu;  // the GPU paths pack poses; the CPU path uploads vertices
    if (path == RenderPath::gpu_tiles && m.raster_pipeline == VK_NULL_HANDLE)
        return make_error(m.context->device_name, "draw",
                          "the tile rasterizer needs 64-bit integers and floats (shaderInt64, shaderFloat64), subgroup "
                          "votes and 32 KB of shared memory in compute shaders, which this device lacks; use the gpu "
                          "path");
    if (path == RenderPath::gpu_vertex)
        for (const CharacterDraw& d : characters)
            if (m.types[d.type].bind.features.draw_order)
                return make_error(m.types[d.type].name, "draw", "the vertex-shader path cannot follow draw-order "
                                                                "timelines; use the gpu path");
    for (const CharacterDraw& c : characters)
        if (c.pose == nullptr || c.type >= m.types.size() || c.pose->data != m.types[c.type].data)
            return make_error("renderer", "draw", "a character's pose is missing or not of its skeleton type");
    if (poses.run != nullptr && !poses.order.empty()) {
        const std::size_t count = characters.size();
        if (poses.order.size() != count)
            return make_error("renderer", "draw",
                              "PoseJob::order has " + std::to_string(poses.order.size()) +
                                  " entries for a draw list of " + std::to_string(count) + ": not a permutation of it");
        m.order_seen.assign(count, 0);
        for (std::size_t k = 0; k < count; ++k) {
            const std::uint32_t i = poses.order[k];
            if (i >= count || m.order_seen[i] != 0)
                return make_error("renderer", "draw",
                                  "PoseJob::order[" + std::to_string(k) + "] is " + std::to_string(i) +
                                      (i >= count ? ", past the draw list" : ", which comes twice") +
                                      ": not a permutation of the draw list");
            m.order_seen[i] = 1;
        }
    }
    if (to.host == nullptr)
        if (Result<void> r = m.fit_target(width, height); !r) return r.error();
    FrameSlot& f = m.frames[m.frame_index];
    if (Result<void> r = m.wait_slot(f); !r) return r.error();
    const bool tiles = path == RenderPath::gpu_tiles;
    if (to.host != nullptr) {
        m.take_host_target(*to.host);
        if (!tiles)
            if (Result<void> r = m.fit_host_framebuffer(f); !r) return r.error();
    }
    VkContext& c = *m.context;
    f.stats = FrameStats{};

    // Pack (GPU path) or build world vertices (CPU path) straight into mapped memory, on the worker pool if any.
    const auto pack_start = std::chrono::steady_clock::now();
    const std::size_t n = characters.size();
    if (keeps_counts(path) && m.counts.size() < n) m.counts.resize(n);
    if (m.culling.size() < n) m.culling.resize(n);
    if (path == RenderPath::cpu && m.vertex_offsets.size() < n) {
        m.vertex_offsets.resize(n);
        m.index_offsets.resize(n);
    }
    // Fixed places for every character's header, bones and words (its index times the strides; culled characters
    // leave all but their header's type unwritten), so that ranges of characters pack independently.
    const std::uint64_t bone_total = std::uint64_t{n} * m.bone_stride, word_total = std::uint64_t{n} * m.word_stride;
    const std::uint64_t place_blocks = (std::uint64_t{n} + k_places_workgroup - 1) / k_places_workgroup;
    if (packs) {
        // Every packed array within what one storage buffer descriptor covers, and the places within one dispatch.
        const std::uint64_t range = m.storage_range;
        if (bone_total * k_bone_bytes > range || word_total * 4 > range || n * sizeof(GpuCharacter) > range ||
            place_blocks > c.properties.limits.maxComputeWorkGroupCount[0])
            return make_error("renderer", "draw",
                              "too many characters for one frame: " + std::to_string(n) +
                                  " need more than one storage buffer or dispatch of this device holds");
        for (auto [buffer, bytes] : {std::pair{&f.packed_characters, n * sizeof(GpuCharacter)},
                                     std::pair{&f.place_blocks, place_blocks * 16},
                                     std::pair{&f.bones, bone_total * k_bone_bytes},
                                     std::pair{&f.words, word_total * 4}})
            if (Result<bool> r = fit_buffer(c, *buffer, bytes); !r) return r.error();
    }
    const WorldRect view = view_rect(camera, width, height);

    // Pass 1, per character: cull; GPU paths: pack at its fixed places, its header holding its output counts;
    // CPU path: count its output. Each range adds what it counted to the frame's totals once.
    struct PassContext {
        Impl* m;
        FrameSlot* f;
        std::span<const CharacterDraw> characters;
        WorldRect view;
        RenderPath path;
        PoseJob poses;
        // The frame's totals over the visible characters: how many, their output vertices and indices (64-bit:
        // the draw refuses a frame past 32 bits); and the bytes packed for the GPU, culled characters' marks included.
        std::atomic<std::uint64_t> visible{0}, vertices{0}, indices{0}, bytes{0};
    } context{&m, &f, characters, view, path, poses};
    auto first_pass = [](void* raw, std::size_t begin, std::size_t end) {
        auto& x = *static_cast<PassContext*>(raw);
        Impl& im = *x.m;
        if (x.poses.run != nullptr) x.poses.run(x.poses.context, begin, end);
        const std::uint32_t* order = x.poses.run != nullptr && !x.poses.order.empty() ? x.poses.order.data() : nullptr;
        auto character_at = [order](std::size_t k) { return order != nullptr ? order[k] : k; };
        auto* packed = static_cast<GpuCharacter*>(x.f->packed_characters.mapped);
        auto* bones = static_cast<float*>(x.f->bones.mapped);
        auto* words = static_cast<std::uint32_t*>(x.f->words.mapped);
        std::uint64_t visible = 0, vertices = 0, indices = 0, bytes = 0;
        const bool keep_counts = keeps_counts(x.path);
        for (std::size_t k = begin; k < end; ++k) {
            const std::size_t i = character_at(k);
            if (k + 1 < end) {  // the poses of the next characters load while this one is packed
                // (but for one whose box is kept outside the view: culling it reads only the kept box)
                const std::size_t next = character_at(k + 1);
                const CharacterDraw& following = x.characters[next];
                const bool kept = memo_applies(im.culling[next], im.types[following.type].bind, *following.pose);
                prefetch_for_packing(kept ? nullptr : following.pose,
                                     k + 2 < end ? x.characters[character_at(k + 2)].pose : nullptr);
            }
            const CharacterDraw& d = x.characters[i];
            const SkeletonTypeEntry& t = im.types[d.type];
            PackedCounts counts;
            if (!character_in_view(t.bind, *d.pose, x.view, im.culling[i])) {
                if (keep_counts) im.counts[i] = PackedCounts{0, k_culled, 0};
                if (x.path != RenderPath::cpu) {
                    packed[i].type = k_culled_character;
                    bytes += sizeof(GpuCharacter::type);
                }
                continue;
            }
            if (x.path != RenderPath::cpu) {
                GpuCharacter header;
                counts = pack_character_at(t.bind, d.type, *d.pose, d.tint, header, bones,
                                           static_cast<std::uint32_t>(i * im.bone_stride), words,
                                           static_cast<std::uint32_t>(i * im.word_stride));
                if (x.path == RenderPath::gpu_vertex) {
                    // Every vertex and triangle of the type goes through the vertex shader.
                    counts.vertices = t.collapse_vertices;
                    counts.indices = t.collapse_count;
                }
                header.out_vertex_first = counts.vertices;
                header.out_index_first = counts.indices;
                packed[i] = header;
                bytes += sizeof(GpuCharacter) + t.bind.drawn_bones.size() * k_bone_bytes +
                         std::uint64_t{counts.words} * 4;
            } else {
                const CpuPathCounts cpu = count_cpu_vertices(t.bind, *d.pose);
                counts = PackedCounts{0, cpu.vertices, cpu.indices};
            }
            if (keep_counts) im.counts[i] = counts;
            ++visible;
            vertices += counts.vertices;
            indices += counts.indices;
        }
        x.visible.fetch_add(visible, std::memory_order_relaxed);
        x.vertices.fetch_add(vertices, std::memory_order_relaxed);
        x.indices.fetch_add(indices, std::memory_order_relaxed);
        x.bytes.fetch_add(bytes, std::memory_order_relaxed);
    };
    constexpr std::size_t k_grain = 64;
    // With a pose job, smaller ranges: a range's poses, just written, should still be in the core's cache when packed.
    constexpr std::size_t k_pose_job_grain = 16;
    if (m.pool != nullptr) m.pool->run(n, poses.run ? k_pose_job_grain : k_grain, RangeJob{first_pass, &context});
    else first_pass(&context, 0, n);

    // The totals. The GPU paths' output places are the places pass's (places.comp); the CPU path's, prefix sums
    // over the visible characters in draw order.
    if (context.vertices.load() > 0xFFFFFFFFull || context.indices.load() > 0xFFFFFFFFull)
        return make_error("renderer", "draw", "too many vertices for one frame");
    const auto visible = static_cast<std::uint32_t>(context.visible.load());
    const auto vertex_total = static_cast<std::uint32_t>(context.vertices.load());
    const auto index_total = static_cast<std::uint32_t>(context.indices.load());
    std::uint64_t bytes_uploaded = context.bytes.load();
    if (path == RenderPath::cpu) {
        std::uint32_t vertex_at = 0, index_at = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const PackedCounts& counts = m.counts[i];
            if (counts.vertices == k_culled) continue;
            m.vertex_offsets[i] = vertex_at;
            m.index_offsets[i] = index_at;
            vertex_at += counts.vertices;
            index_at += counts.indices;
        }
    }
    if (packs) {
        if (Result<bool> r = fit_buffer(c, f.characters, std::uint64_t{visible} * sizeof(GpuCharacter)); !r)
            return r.error();
    }
    const std::uint64_t out_vertex_bytes = std::uint64_t{vertex_total} * sizeof(GpuOutVertex);
    const std::uint64_t out_index_bytes = std::uint64_t{index_total} * 4;
    // Every path but gpu_vertex reads the output vertices through one storage buffer; gpu and gpu_tiles write the
    // output indices through one.
    if (path != RenderPath::gpu_vertex) {
        const bool vertices_pass = out_vertex_bytes > m.storage_range;
        if (vertices_pass || (packs && out_index_bytes > m.storage_range))
            return make_error("renderer", "draw",
                              std::to_string(visible) + " characters in view need " +
                                  (vertices_pass ? std::to_string(vertex_total) + " output vertices (" +
                                                       std::to_string(out_vertex_bytes)
                                                 : std::to_string(index_total) + " output indices (" +
                                                       std::to_string(out_index_bytes)) +
                                  " bytes), more than one storage buffer of this device holds (" +
                                  std::to_string(m.storage_range) + "); draw fewer per frame");
    }
    GpuTilePush tile_push{};
    std::uint64_t tile_bytes = 0;
    if (tiles) {
        tile_push = {camera.scale, camera.ox, camera.oy, width, height, (width + k_tile_size - 1) / k_tile_size,
                     (height + k_tile_size - 1) / k_tile_size, (visible + 31) / 32, visible, index_total,
                     premultiplied_rgba8(to.background), std::min<std::uint32_t>(std::max(visible, 1u), 65535)};
        tile_push.keep_target = to.host != nullptr ? 1u : 0u;
        tile_bytes = std::uint64_t{tile_push.tiles_x} * tile_push.tiles_y * tile_push.words_per_tile * 4;
        if (tile_bytes > m.storage_range)
            return make_error("renderer", "draw", std::to_string(visible) + " characters in view need " +
                                                      std::to_string(tile_bytes >> 20) +
                                                      " MiB of tile bits at this target size, more than the "
                                                      "device's largest storage buffer; use the gpu path");
        const std::uint64_t triangle_bytes = std::uint64_t{index_total / 3} * sizeof(GpuTriangle);
        if (triangle_bytes > m.storage_range)
            return make_error("renderer", "draw", std::to_string(index_total / 3) + " triangles in view need " +
                                                      std::to_string(triangle_bytes >> 20) +
                                                      " MiB of set-up triangles, more than the device's largest "
                                                      "storage buffer; use the gpu path");
        if (Result<bool> r = fit_buffer(c, f.tile_bits, tile_bytes); !r) return r.error();
        if (Result<bool> r = fit_buffer(c, f.triangles, triangle_bytes); !r) return r.error();
        if (Result<bool> r = fit_buffer(c, f.triangle_boxes, std::uint64_t{index_total / 3} * 8); !r) return r.error();
        if (Result<bool> r = fit_buffer(c, f.character_tiles, std::uint64_t{visible} * sizeof(GpuCharacterTiles)); !r)
            return r.error();
        // The mask pool: what the last frame asked for, with room to grow, and at least a guess of 16 tiles per
        // character; at most what one storage buffer holds (SPINEGPU_DIAGNOSE_MASK_POOL=N: at most N words, to test
        // the characters that find it full: they go without masks, drawn right but slower). When it cannot be
        // allocated, the pool already there serves.
        const std::uint64_t guess = (std::uint64_t{index_total / 3} / 32 + visible) * 16;
        std::uint64_t mask_words = std::min<std::uint64_t>(std::max(guess, m.tile_mask_words_asked * 5 / 4),
                                                           m.storage_range / 4);
        if (m.mask_pool_cap) mask_words = std::min<std::uint64_t>(mask_words, *m.mask_pool_cap);
        if (Result<bool> r = fit_buffer(c, f.tile_masks, mask_words * 4); !r)
            mask_words = std::min<std::uint64_t>(mask_words, f.tile_masks.size / 4);
        tile_push.mask_words = static_cast<std::uint32_t>(mask_words);
    }
    if (path == RenderPath::gpu || tiles) {
        for (auto [buffer, bytes] :
             {std::pair{&f.gpu_vertices, out_vertex_bytes}, std::pair{&f.gpu_indices, out_index_bytes}})
            if (Result<bool> r = fit_buffer(c, *buffer, bytes); !r) return r.error();
    } else if (path == RenderPath::cpu) {
        for (auto [buffer, bytes] :
             {std::pair{&f.cpu_vertices, out_vertex_bytes}, std::pair{&f.cpu_indices, out_index_bytes}})
            if (Result<bool> r = fit_buffer(c, *buffer, bytes); !r) return r.error();
        // Pass 2 (CPU path): world vertices and triangles of each visible character at its places.
        auto second_pass = [](void* raw, std::size_t begin, std::size_t end) {
            auto& x = *static_cast<PassContext*>(raw);
            Impl& im = *x.m;
            thread_local std::vector<float> scratch;
            auto* out_vertices = static_cast<GpuOutVertex*>(x.f->cpu_vertices.mapped);
            auto* out_indices = static_cast<std::uint32_t*>(x.f->cpu_indices.mapped);
            for (std::size_t i = begin; i < end; ++i) {
                const PackedCounts& counts = im.counts[i];
                if (counts.vertices == k_culled || counts.vertices == 0) continue;
                const CharacterDraw& d = x.characters[i];
                const SkeletonTypeEntry& t = im.types[d.type];
                if (scratch.size() < t.bind.max_vertex_floats) scratch.resize(t.bind.max_vertex_floats);
                const std::uint32_t first = im.vertex_offsets[i];
                build_cpu_vertices(t.bind, *t.binding, *d.pose, d.tint, first, out_vertices + first,
                                   out_indices + im.index_offsets[i], scratch);
            }
        };
        if (m.pool != nullptr) m.pool->run(n, k_grain, RangeJob{second_pass, &context});
        else second_pass(&context, 0, n);
        bytes_uploaded = out_vertex_bytes + out_index_bytes;
    }
    f.stats.characters = visible;
    f.stats.culled = static_cast<std::uint32_t>(n) - visible;
    f.stats.bytes_uploaded = bytes_uploaded;
    f.stats.vertices = vertex_total;
    f.stats.triangles = index_total / 3;
    f.stats.pack_ms = milliseconds_since(pack_start);

    // Record and submit.
    const auto record_start = std::chrono::steady_clock::now();
    // The tile path's target binding: the application's image (a storage image only for that path), or the own target.
    const bool onto_tiles = to.host != nullptr && tiles;
    f.stats.descriptor_writes = m.update_sets(f, onto_tiles ? to.host->view : m.target_view,
                                              onto_tiles ? m.host_serial * 2 : m.target_generation * 2 + 1);
    VkCommandBuffer cb = f.commands;
    vkResetCommandBuffer(cb, 0);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &begin);
    const std::uint32_t query = m.frame_index * k_queries_per_frame;
    f.timed = m.queries != VK_NULL_HANDLE;
    if (f.timed) {
        vkCmdResetQueryPool(cb, m.queries, query, k_queries_per_frame);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m.queries, query);
    }
    if (m.statistics != VK_NULL_HANDLE) vkCmdResetQueryPool(cb, m.statistics, m.frame_index, 1);
    VkDescriptorSet set = packs ? f.set_gpu : f.set_cpu;
    f.tiles = tiles;
    if (tiles) {
        vkCmdFillBuffer(cb, f.counters.buffer, 0, 20, 0);
        if (tile_bytes > 0) vkCmdFillBuffer(cb, f.tile_bits.buffer, 0, tile_bytes, 0);
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
        const auto count = static_cast<std::uint32_t>(n);
        vkCmdPushConstants(cb, m.compute_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
        VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        written.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
        for (VkPipeline pipeline : {m.places_sum_pipeline, m.places_pipeline}) {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdDispatch(cb, static_cast<std::uint32_t>(place_blocks), 1, 1);
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
    if (tiles) {
        record_tiles(m, cb, set, tile_push, to.host);
    } else {
        record_draw(m, f, cb, set, characters, camera, to, path, index_total);
    }
    if (f.timed) vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m.queries, query + 2);
    vkEndCommandBuffer(cb);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    m.submitted = true;
    if (VkResult r = vkQueueSubmit(c.queue, 1, &submit, f.fence); r != VK_SUCCESS)
        return vk_error("vkQueueSubmit", r);
    f.pending = true;
    f.stats.frame = ++m.frames_submitted;
    f.stats.record_ms = milliseconds_since(record_start);
    m.last_frame = static_cast<std::int32_t>(m.frame_index);
    m.last_onto = to.host != nullptr;
    m.frame_index = (m.frame_index + 1) % m.frames_in_flight;
    return f.stats;
}

}  // namespace spinegpu::gpu
