// Drawing a frame: the checks, then packing poses (GPU paths) or world vertices (CPU path) into the frame slot's
// mapped buffers, for the renderer's own target or the application's image (HostImage); renderer_record.cpp records
// and submits it. Setup is in renderer_setup.cpp; the frame's public calls and readback in renderer.cpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/cpu_path.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"

namespace spinegpu::gpu {

namespace {

constexpr std::uint32_t k_culled = Renderer::Impl::k_culled;

double milliseconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The clear colour as the target holds it: premultiplied RGBA8.
std::uint32_t premultiplied_rgba8(Color c) { return pack_rgba8({c.r * c.a, c.g * c.a, c.b * c.a, c.a}); }

// Whether the path reads each character's counts (Impl::counts) after the first pass: the CPU path for its places,
// gpu_vertex for its runs of types. The GPU paths compute their places on the GPU.
bool keeps_counts(RenderPath path) { return path == RenderPath::cpu || path == RenderPath::gpu_vertex; }

}  // namespace

Result<FrameStats> Renderer::Impl::draw_frame(const FrameTarget& to, std::span<const CharacterDraw> characters,
                                              const Camera2D& camera, RenderPath path, const PoseJob& poses) {
    Impl& m = *this;
    const std::uint32_t width = to.width, height = to.height;
    const char* const call = to.pass != nullptr          ? "record_for_pass"  // (named in errors)
                             : to.into != VK_NULL_HANDLE ? "record_onto"
                             : to.host != nullptr        ? "draw_onto"
                                                         : "draw";
    if (!m.finalized)
        if (Result<void> r = m.upload_static(); !r) return r.error();
    const bool packs = path != RenderPath::cpu;  // the GPU paths pack poses; the CPU path uploads vertices
    if (path == RenderPath::gpu_tiles && m.raster_pipeline == VK_NULL_HANDLE)
        return make_error(m.context->device_name, call,
                          "the tile rasterizer needs 64-bit integers and floats (shaderInt64, shaderFloat64), subgroup "
                          "votes and 32 KiB of shared memory in compute shaders, which this device lacks; use the gpu "
                          "path");
    if (!(camera.scale > 0) || !std::isfinite(camera.scale) || !std::isfinite(camera.ox) || !std::isfinite(camera.oy))
        return make_error("renderer", call,
                          "Camera2D is (scale " + std::to_string(camera.scale) + ", ox " + std::to_string(camera.ox) +
                              ", oy " + std::to_string(camera.oy) +
                              "): the scale must be above 0 and all three finite (pixels per world unit, and the "
                              "pixel of the world's origin)");
    for (const CharacterDraw& c : characters)
        if (c.pose == nullptr || c.type >= m.types.size() || c.pose->data != m.types[c.type].data)
            return make_error("renderer", call, "a character's pose is missing or not of its skeleton type");
    // A type of more slots than the skinning pass holds on this device draws only through the other paths.
    if ((path == RenderPath::gpu || path == RenderPath::gpu_tiles) && m.max_slots > m.skin_capacity)
        for (const CharacterDraw& c : characters)
            if (const SkeletonTypeEntry& t = m.types[c.type]; t.data->slots.size() > m.skin_capacity)
                return make_error(t.name, call,
                                  std::to_string(t.data->slots.size()) + " slots, more than the " +
                                      std::to_string(m.skin_capacity) +
                                      " this device's skinning pass holds (its compute shaders have " +
                                      std::to_string(m.context->properties.limits.maxComputeSharedMemorySize) +
                                      " bytes of shared memory); use the gpu_vertex or cpu path");
    if (path == RenderPath::gpu_vertex)
        for (const CharacterDraw& d : characters)
            if (m.types[d.type].bind.features.draw_order)
                return make_error(m.types[d.type].name, call, "the vertex-shader path cannot follow draw-order "
                                                                "timelines; use the gpu path");
    if (poses.run != nullptr && !poses.order.empty()) {
        const std::size_t count = characters.size();
        if (poses.order.size() != count)
            return make_error("renderer", call,
                              "PoseJob::order has " + std::to_string(poses.order.size()) +
                                  " entries for a draw list of " + std::to_string(count) + ": not a permutation of it");
        m.order_seen.assign(count, 0);
        for (std::size_t k = 0; k < count; ++k) {
            const std::uint32_t i = poses.order[k];
            if (i >= count || m.order_seen[i] != 0)
                return make_error("renderer", call,
                                  "PoseJob::order[" + std::to_string(k) + "] is " + std::to_string(i) +
                                      (i >= count ? ", past the draw list" : ", which comes twice") +
                                      ": not a permutation of the draw list");
            m.order_seen[i] = 1;
        }
    }
    if (to.host == nullptr && to.pass == nullptr)
        if (Result<void> r = m.fit_target(width, height); !r) return r.error();
    FrameSlot& f = m.frames[m.frame_index];
    if (Result<void> r = m.wait_slot(f, call, std::nullopt, to.into); !r) return r.error();
    f.drawn_path.reset();
    const bool tiles = path == RenderPath::gpu_tiles;
    if (to.host != nullptr && !tiles)
        if (Result<void> r = m.fit_host_framebuffer(f, *to.host); !r) return r.error();
    // (The tile path draws an sRGB image in the slot's copy of it: HostImage, record_tiles.)
    if (to.host != nullptr && tiles && is_srgb_format(to.host->format)) {
        if (Result<VkPipeline> r = m.linear_raster_pipeline(to.host->format); !r) return r.error();
        if (Result<void> r = m.fit_onto_copy(f, *to.host); !r) return r.error();
    }
    VkContext& c = *m.context;
    FrameStats stats;  // the slot's once the frame is submitted (record_frame)

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
            return make_error("renderer", call,
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
        return make_error("renderer", call, "too many vertices for one frame");
    // The gpu and cpu paths draw every vertex of the frame with one indexed draw, whose indices the device bounds.
    if ((path == RenderPath::gpu || path == RenderPath::cpu) &&
        context.vertices.load() > std::uint64_t{m.context->max_draw_index} + 1)
        return make_error("renderer", call,
                          std::to_string(context.vertices.load()) + " vertices in view, past the " +
                              std::to_string(std::uint64_t{m.context->max_draw_index} + 1) +
                              " one indexed draw reaches on this device (without fullDrawIndexUint32); the "
                              "gpu_tiles path has no such limit");
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
            return make_error("renderer", call,
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
        tile_bytes = std::uint64_t{tile_push.tiles_x} * tile_push.tiles_y * tile_push.words_per_tile * 4;
        if (tile_bytes > m.storage_range)
            return make_error("renderer", call, std::to_string(visible) + " characters in view need " +
                                                      std::to_string(tile_bytes >> 20) +
                                                      " MiB of tile bits at this target size, more than the "
                                                      "device's largest storage buffer; use the gpu path");
        const std::uint64_t triangle_bytes = std::uint64_t{index_total / 3} * sizeof(GpuTriangle);
        if (triangle_bytes > m.storage_range)
            return make_error("renderer", call, std::to_string(index_total / 3) + " triangles in view need " +
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
    stats.characters = visible;
    stats.culled = static_cast<std::uint32_t>(n) - visible;
    stats.bytes_uploaded = bytes_uploaded;
    stats.vertices = vertex_total;
    stats.triangles = index_total / 3;
    stats.pack_ms = milliseconds_since(pack_start);

    // Record and submit.
    const auto record_start = std::chrono::steady_clock::now();
    const FrameCounts counts{static_cast<std::uint32_t>(n), visible, index_total, place_blocks, tile_bytes, tile_push};
    // (The application's subpass: its pipelines made, or found, once nothing can refuse the frame, and before anything
    // is recorded.)
    if (to.pass != nullptr)
        if (Result<PassPipelines> r = m.pipelines_for(*to.pass); !r) return r.error();
    const Result<void> recorded = m.record_frame(f, to, characters, camera, path, counts, stats);
    if (!recorded) return recorded.error();
    f.stats.record_ms = milliseconds_since(record_start);
    return f.stats;
}

}  // namespace spinegpu::gpu
