// The renderer's state, shared by renderer_setup.cpp, renderer_draw_pipelines.cpp and renderer_upload.cpp (device
// objects, static upload) and renderer.cpp, renderer_frame.cpp and renderer_record.cpp (frames).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gpu_buffer.hpp"
#include "presenter.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "vk_context.hpp"

namespace spinegpu::gpu {

// Descriptor bindings (shaders/bindings.glsl, skin.comp, draw.vert, draw.frag, triangles.comp, raster.comp,
// places.comp).
enum Binding : std::uint32_t {
    b_influences, b_bind_vertices, b_static_indices, b_attachments, b_types, b_slot_setups,
    b_characters, b_bones, b_words, b_out_vertices, b_out_indices, b_pages, b_vertex_owners,
    b_tile_bits, b_counters, b_target, b_triangles, b_triangle_boxes, b_character_tiles, b_tile_masks,
    b_packed_characters, b_place_blocks, b_draw_command, b_pages_nearest, b_page_filters, b_setup_lists,
    b_pages_srgb, b_pages_srgb_nearest, b_count
};

// Whether `format` is one of the 8-bit sRGB colour formats: a target of such a format is drawn in linear light
// (shading.glsl's k_linear_light), each blend decoding its pixel and encoding the result (the device's blending on
// the raster paths, raster.comp's on the tile path).
bool is_srgb_format(VkFormat format);

// Timestamps per frame slot: the frame's start, the end of its skinning passes, its end.
inline constexpr std::uint32_t k_queries_per_frame = 3;

// Where a frame is drawn (Impl::draw_frame): the renderer's own target, `width` x `height`, cleared to `background`;
// or the application's image `host` (Renderer::draw_onto), of its size, over what it holds, recorded into the
// application's command buffer `into` when given (Renderer::record_onto) rather than submitted; or, with `pass`, in
// the application's render pass, `width` x `height` its area's size: recorded into `into` up to the draw, which
// Renderer::record_in_pass or record_in_secondary records (Renderer::record_for_pass).
struct FrameTarget {
    const HostImage* host = nullptr;
    std::uint32_t width = 0, height = 0;
    Color background;
    VkCommandBuffer into = VK_NULL_HANDLE;  // the application's command buffer to record into (record_onto), or none
    const HostPass* pass = nullptr;
};

// What a frame's recording needs of its packing (Impl::record_frame): the draw list's length, the characters in view,
// their output indices, the places passes' blocks, and on the tile path the bytes of tile bits and the push constants.
struct FrameCounts {
    std::uint32_t characters = 0, visible = 0, index_total = 0;
    std::uint64_t place_blocks = 0, tile_bytes = 0;
    GpuTilePush tile_push{};
};

// The SPIR-V `code` as a shader module of `device`.
Result<VkShaderModule> make_module(VkDevice device, std::span<const std::uint32_t> code);

// What the raster paths draw with onto the application's images of one colour format: a loading render pass and the
// graphics pipelines made for it (the gpu and cpu paths' draw, the gpu_vertex path's collapse), in linear light for an
// sRGB format.
struct DrawPasses {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkRenderPass load = VK_NULL_HANDLE;
    VkPipeline draw = VK_NULL_HANDLE, collapse = VK_NULL_HANDLE;
};

// The draw and collapse pipelines made for a subpass of the application's render pass (HostPass: its render pass,
// subpass, format, samples, generation, and depth and stencil formats; its area is not part of the pipelines).
struct PassPipelines {
    HostPass pass;
    VkPipeline draw = VK_NULL_HANDLE, collapse = VK_NULL_HANDLE;
    std::uint64_t last_used = 0;  // Impl::pass_uses when a frame last took them
};

// How many subpasses' pipelines the renderer keeps (Impl::pass_pipelines): past that, the least recently drawn in
// are retired.
inline constexpr std::size_t k_kept_pass_pipelines = 8;

// Pipelines no longer kept, destroyed once the renderer's timeline semaphore reaches `after_value`: every frame
// recorded before they retired (the only frames that may use them) has then run.
struct RetiredPipelines {
    std::uint64_t after_value = 0;
    VkPipeline draw = VK_NULL_HANDLE, collapse = VK_NULL_HANDLE;
};

// The frame that Renderer::record_for_pass recorded up to its draw, which Renderer::record_in_pass records into
// `commands` (or record_in_secondary into a secondary command buffer executed there): its slot, path, camera, area,
// index count (gpu and cpu paths), pipelines and descriptor set.
struct AwaitingDraw {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    std::uint32_t slot = 0;
    RenderPath path = RenderPath::gpu;
    Camera2D camera;
    VkRect2D area{};
    std::uint32_t index_total = 0;
    VkPipeline draw = VK_NULL_HANDLE, collapse = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
};

// A run of characters in view of one skeleton type, in draw order: the vertex-shader path's instanced draw of `count`
// instances from instance `first`.
struct TypeRun {
    std::uint32_t type = 0, first = 0, count = 0;
};

// Whether two HostImages are the same image: handles, format, size and generation.
bool same_image(const HostImage& a, const HostImage& b);

// Shared memory the tile rasterizer's passes may use per workgroup (triangles.comp and raster.comp stay within it).
inline constexpr std::uint32_t k_tile_shared_memory_bytes = 32768;

// Shared memory the skinning pass (skin.comp) uses per workgroup when specialized for `slots` slots: six words per
// slot, two totals, and two scan words per invocation.
constexpr std::uint32_t skin_shared_memory_bytes(std::uint32_t slots) {
    return (6 * slots + 2 + 2 * k_skin_workgroup) * 4;
}

// The most slots the skinning pass holds within `shared_bytes` of shared memory per workgroup (at most k_max_slots):
// 1024 from 25,096 bytes, 661 from Vulkan's guaranteed 16,384.
constexpr std::uint32_t skin_slot_capacity(std::uint32_t shared_bytes) {
    const std::uint32_t fixed = skin_shared_memory_bytes(0);
    const std::uint32_t slots = shared_bytes > fixed ? (shared_bytes - fixed) / 24 : 0;
    return slots < k_max_slots ? slots : k_max_slots;
}
static_assert(skin_slot_capacity(16384) >= k_small_slot_capacity, "the small skinning pass fits every device");

// The number environment variable `name` holds (a diagnostic switch), or none when it is unset, empty or not a
// decimal number.
std::optional<std::uint64_t> diagnostic_number(const char* name);

// How long a wait for a frame recorded into the application's command buffer lasts before it fails, in nanoseconds:
// 30 s (RecordedFrame), or the SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS milliseconds (for the tests), read at each wait.
std::uint64_t signal_timeout_ns();

// When a wait that began now for recorded frames gives up, and the timeout it was given.
struct SignalDeadline {
    std::chrono::steady_clock::time_point at;
    std::uint64_t total_ns = 0;
};
SignalDeadline signal_deadline();

// The word of a slot's `counters` that a recorded frame's commands set to its frame number (FrameStats::frame, its
// low 32 bits) first thing, and that the host clears before recording: whether the application's submission ran.
inline constexpr std::uint32_t k_ran_word = 16;

// The words of a slot's `counters` that the tile path clears and counts in (FrameSlot::counters).
inline constexpr std::uint32_t k_tile_counter_words = 5;
static_assert(k_ran_word >= k_tile_counter_words, "the ran mark lies past the tile path's counters");

// Whether the device can run the tile rasterizer (RenderPath::gpu_tiles): 64-bit integers and floats and subgroup
// votes in compute shaders, and k_tile_shared_memory_bytes of shared memory per workgroup.
bool tile_rasterizer_supported(const VkContext& context);

struct SkeletonTypeEntry {
    const SkeletonData* data = nullptr;
    const Atlas* atlas = nullptr;
    const AtlasBinding* binding = nullptr;
    std::vector<Image> pages;
    std::string name;
    StaticSkeleton bind;
    std::uint32_t max_words = 0;   // per character
    // The vertex-shader path's index range (every attachment of every skin, setup order) and its vertex count.
    std::uint32_t collapse_first = 0, collapse_count = 0, collapse_vertices = 0;
};

// Everything one frame in flight owns.
struct FrameSlot {
    GpuBuffer packed_characters, bones, words;  // packed poses (host visible, mapped): a header per character of
                                                // the draw list, at its index (gpu_layout.h, GpuCharacter)
    GpuBuffer characters;                 // the visible characters' headers with their output places, written by
                                          // the places passes (device local)
    GpuBuffer place_blocks;               // the places passes' totals per block of characters (device local)
    GpuBuffer draw_command;               // the GPU path's draw (GpuDrawCommand), written by the places pass
    GpuBuffer cpu_vertices, cpu_indices;  // CPU path output (host visible, mapped)
    GpuBuffer gpu_vertices, gpu_indices;  // skinning pass output (device local)
    GpuBuffer tile_bits;                  // RenderPath::gpu_tiles: per tile, a bit per visible character
    // Host visible, 4,096 bytes. RenderPath::gpu_tiles (the first k_tile_counter_words): [0] pixels shaded, [1] tile
    // mask words allocated, [2] words asked for / k_tile_mask_demand_unit, [3] characters in view without masks, [4] a
    // loop guard tripped (llvmpipe). Frames recorded by record_onto: [k_ran_word], the mark that the frame ran.
    GpuBuffer counters;
    GpuBuffer triangles, triangle_boxes;  // RenderPath::gpu_tiles: every triangle set up, and its pixel box
    GpuBuffer character_tiles, tile_masks;  // RenderPath::gpu_tiles: per character where its triangle masks are;
                                            // the pool they are allocated from
    VkDescriptorSet set_gpu = VK_NULL_HANDLE, set_cpu = VK_NULL_HANDLE;
    VkDescriptorSet set_onto = VK_NULL_HANDLE;  // on the application's device: the tile path onto its image
    std::array<std::uint64_t, b_count> bound_gpu{}, bound_cpu{}, bound_onto{};  // buffer generations the sets point at
    // The framebuffer of the application's image this slot last drew onto through the raster pipeline
    // (Renderer::draw_onto), and that image; the image set_onto's target binding last took.
    VkFramebuffer host_framebuffer = VK_NULL_HANDLE;
    DrawPasses host_passes;  // what draws into host_framebuffer (its image's format)
    HostImage framebuffer_image{}, bound_image{};
    // The tile path's copy of the application's sRGB image (Renderer::draw_onto, record_onto): RGBA8 UNORM holding its
    // bytes as they are, read and written by the raster pass in linear light, copied in and back out each frame; made
    // anew for an image of another size.
    VkImage onto_copy = VK_NULL_HANDLE;
    VkDeviceMemory onto_copy_memory = VK_NULL_HANDLE;
    VkImageView onto_copy_view = VK_NULL_HANDLE;
    std::uint32_t onto_copy_width = 0, onto_copy_height = 0;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    bool pending = false;  // submitted (or recorded for the application to submit) and not yet waited for
    bool timed = false;    // its queries were written
    // Prepared by record_for_pass, its draw not (yet) recorded by record_in_pass or record_in_secondary: its last
    // timestamp and its fragment query were never written.
    bool undrawn = false;
    // Its draw recorded by record_in_secondary into a secondary command buffer of the application's, which the
    // renderer cannot tell was executed: its last stamp and fragment query are read only when available.
    bool drawn_in_secondary = false;
    bool tiles = false;    // drawn by the tile rasterizer: fragments come from `counters`, not the query
    // The path of the frame last recorded in this slot; none while a draw is under way in it, or after one failed
    // (read_back_geometry then has nothing to read).
    std::optional<RenderPath> drawn_path;
    // Recorded by record_onto: the timeline value its submission signals (0: waited for by `fence`), and the
    // application's command buffer it was recorded into.
    std::uint64_t signal = 0;
    VkCommandBuffer recorded_into = VK_NULL_HANDLE;
    FrameStats stats;
};

struct Renderer::Impl {
    std::unique_ptr<VkContext> context;
    std::uint32_t frames_in_flight = 2;

    // Pipelines.
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout compute_layout = VK_NULL_HANDLE, draw_layout = VK_NULL_HANDLE;
    VkPipeline skin_pipeline = VK_NULL_HANDLE, draw_pipeline = VK_NULL_HANDLE;
    VkPipeline small_skin_pipeline = VK_NULL_HANDLE;  // the skinning pass for types of <= k_small_slot_capacity slots
    // The output places passes (places.comp): block totals, then the places.
    VkPipeline places_sum_pipeline = VK_NULL_HANDLE, places_pipeline = VK_NULL_HANDLE;
    VkPipeline collapse_pipeline = VK_NULL_HANDLE;  // RenderPath::gpu_vertex
    // RenderPath::gpu_tiles, when tile_rasterizer_supported.
    VkPipeline triangle_pipeline = VK_NULL_HANDLE, raster_pipeline = VK_NULL_HANDLE;
    // The raster pass that starts each pixel from the application's image (draw_onto): on its device only; and the
    // same for its BGRA8 images, where they can be read and written without a format (VkContext::bgra_tiles_missing).
    VkPipeline raster_onto_pipeline = VK_NULL_HANDLE, raster_onto_bgra_pipeline = VK_NULL_HANDLE;
    // The same in linear light, over the copy of an sRGB image (FrameSlot::onto_copy), in RGBA and BGRA order: made by
    // the first frame onto such an image, for the pages' kind raster_plain_pages records (make_raster_pipeline).
    VkPipeline raster_linear_pipeline = VK_NULL_HANDLE, raster_linear_bgra_pipeline = VK_NULL_HANDLE;
    bool raster_plain_pages = false;
    std::uint32_t raster_diagnose = 0;  // raster.comp's k_diagnose (SPINEGPU_DIAGNOSE_TILES, read at creation)
    VkRenderPass render_pass = VK_NULL_HANDLE;       // the own target: cleared, left for readback
    VkRenderPass load_render_pass = VK_NULL_HANDLE;  // the application's image (draw_onto): loaded, kept in place
    // For the application's images of the other formats taken (B8G8R8A8_UNORM and the two sRGB ones): each made by the
    // first frame onto such an image.
    std::vector<DrawPasses> format_passes;
    // For the application's subpasses (record_for_pass): the k_kept_pass_pipelines most recently drawn in, and those
    // retired while frames that may use them are pending.
    std::vector<PassPipelines> pass_pipelines;
    std::vector<RetiredPipelines> retired_pipelines;
    std::uint64_t pass_uses = 0;
    bool diagnose_flat = false, diagnose_plain_blend = false;  // the graphics pipelines' diagnostics (create_pipelines)
    VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
    VkCommandPool command_pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkQueryPool statistics = VK_NULL_HANDLE;  // fragment shader invocations, one query per frame slot
    // The page array's two samplers (made with it): the shaders choose one and the level of detail from each page's
    // filters (shading.glsl, page_texel).
    VkSampler sampler = VK_NULL_HANDLE;          // linear within a level
    VkSampler nearest_sampler = VK_NULL_HANDLE;  // nearest within a level

    // Static data of all types.
    std::vector<SkeletonTypeEntry> types;
    bool finalized = false;
    // Why upload_static failed, once it has: it leaves the static data part-made, so it is not tried again.
    std::optional<Error> static_error;
    std::uint32_t max_slots = 0;  // the most slots of any type (after finalize)
    // The most slots the skinning pass (skin_pipeline) holds on this device (skin_slot_capacity): types with more
    // draw only through the gpu_vertex and cpu paths.
    std::uint32_t skin_capacity = k_max_slots;
    // Each character's fixed places in the frame's bone and word buffers are its index times these: the most
    // drawn bones and words of any type (after finalize), so that ranges of characters pack independently.
    std::uint32_t bone_stride = 0, word_stride = 0;
    GpuBuffer influences, bind_vertices, static_indices, attachments, type_table, slot_setups;
    GpuBuffer setup_lists;   // every type's setup draw lists (StaticSkeleton::setup_lists)
    GpuBuffer page_filters;  // per page array layer, its k_page_* filter word
    GpuBuffer vertex_owners, collapse_indices;  // RenderPath::gpu_vertex: each bind vertex's attachment; triangles
    VkImage pages = VK_NULL_HANDLE;
    VkDeviceMemory pages_memory = VK_NULL_HANDLE;
    VkImageView pages_view = VK_NULL_HANDLE;
    VkImageView pages_srgb_view = VK_NULL_HANDLE;  // the same texels decoded from sRGB (for linear-light draws)

    // Target.
    VkImage target = VK_NULL_HANDLE;
    VkDeviceMemory target_memory = VK_NULL_HANDLE;
    VkImageView target_view = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    std::uint32_t width = 0, height = 0;
    std::uint64_t target_generation = 0;  // bumped when the target is recreated (descriptor sets compare it)
    GpuBuffer readback;
    std::unique_ptr<Presenter> presenter;  // with a window (RendererDesc::window)
    bool target_drawn = false;  // a frame was drawn into `target` since it was made (read_back, frame_image, present)

    std::vector<FrameSlot> frames;
    std::uint32_t frame_index = 0;   // next slot to use
    std::int32_t last_frame = -1;    // slot of the last frame drawn (into `target` or onto the application's image)
    std::optional<FrameStats> last_finished;  // the frame most recently waited for, with its GPU time
    std::uint64_t frames_submitted = 0;       // FrameStats::frame of the last frame submitted (or recorded)
    bool submitted = false;                   // anything was submitted to the queue (an upload, a frame, readback)
    // The timeline semaphore that the application's submissions of record_onto's frames signal (made by the first),
    // and the last value given out.
    VkSemaphore timeline = VK_NULL_HANDLE;
    std::uint64_t timeline_value = 0;
    // RenderPath::gpu_tiles: the tile mask words the last frame waited for asked for; the pool is sized from it (a
    // frame that asks for more than its pool holds draws correctly, only slower). And the diagnostic cap on the
    // pool (SPINEGPU_DIAGNOSE_MASK_POOL), if any.
    std::uint64_t tile_mask_words_asked = 0;
    std::optional<std::uint32_t> mask_pool_cap;
    // The most bytes one storage buffer descriptor covers: the device's maxStorageBufferRange, or fewer under
    // SPINEGPU_DIAGNOSE_STORAGE_RANGE=N (bytes), so that tests reach the frames and skeleton types that pass it.
    std::uint64_t storage_range = 0;
    WorkerPool* pool = nullptr;      // threads for packing and the CPU path, or none (the caller's thread)
    // Per-frame scratch, grown and never shrunk, so that the steady state allocates nothing.
    std::vector<PackedCounts> counts;           // per character (cpu, gpu_vertex); vertices == k_culled: culled
    std::vector<CullingMemo> culling;           // per position in the draw list: the box of one outside the view
    std::vector<std::uint32_t> vertex_offsets, index_offsets;  // CPU path: where each character's output goes
    std::vector<std::uint8_t> order_seen;       // per character: checking that a pose job's order is a permutation
    std::vector<TypeRun> type_runs;             // gpu_vertex: the frame's runs of one type (record_frame)
    // The frame record_for_pass prepared, until record_in_pass or record_in_secondary records its draw, or the next
    // call of draw, draw_onto, record_onto or record_for_pass (refused or not) or a wait for its slot drops it.
    std::optional<AwaitingDraw> awaiting_draw;
    static constexpr std::uint32_t k_culled = 0xFFFFFFFFu;

    ~Impl();
    Result<void> create_pipelines();
    // A render pass of one colour attachment of `format`: cleared and left for readback (the own target), or when
    // `load` loaded and kept in COLOR_ATTACHMENT_OPTIMAL (the application's images); all of one format compatible.
    Result<void> make_render_pass(VkFormat format, bool load, VkRenderPass& out);
    // The draw and collapse graphics pipelines, made for subpass `subpass` of render pass `pass`, whose colour
    // attachment has `samples`; or with no render pass, for dynamic rendering with the attachments `rendering`
    // names (a VkPipelineRenderingCreateInfo); shading in linear light when `linear_light` (an sRGB attachment)
    // (renderer_draw_pipelines.cpp).
    Result<void> make_draw_pipelines(VkRenderPass pass, VkPipeline& draw, VkPipeline& collapse,
                                     std::uint32_t subpass = 0, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT,
                                     const void* rendering = nullptr, bool linear_light = false);
    // The pipelines for the application's subpass `pass` (record_for_pass), made on first use (all or none) and kept
    // among the k_kept_pass_pipelines most recently used; a new one retires the least recently used past that.
    Result<PassPipelines> pipelines_for(const HostPass& pass);
    // Destroys the retired pipelines whose frames have all run (their value reached), or all of them when `all` (the
    // renderer being destroyed).
    void destroy_retired_pipelines(bool all);
    // The render pass and pipelines for the application's images of `format` (RGBA8 or BGRA8, UNORM or sRGB), made on
    // first use.
    Result<DrawPasses> draw_passes(VkFormat format);
    // Creates a compute pipeline with the compute layout from SPIR-V `code`, with specialization constants 0 to 4 set
    // to `constant`, `second`, `third`, `fourth` and `fifth`, each only when it is not 0 (0: the shader's default).
    Result<void> make_compute_pipeline(std::span<const std::uint32_t> code, VkPipeline& out,
                                       std::uint32_t constant = 0, std::uint32_t second = 0,
                                       std::uint32_t third = 0, std::uint32_t fourth = 0, std::uint32_t fifth = 0);
    // The tile rasterizer's raster pass in linear light for the copy of an sRGB image of `format` (R8G8B8A8_SRGB or
    // B8G8R8A8_SRGB), made on first use.
    Result<VkPipeline> linear_raster_pipeline(VkFormat format);
    // Creates the tile rasterizer's raster pass (raster.comp, and on the application's device raster_onto.comp, with
    // raster_onto_unformatted.comp where its BGRA8 images can be read and written without a format) once the pages
    // are known (upload_static): built for pages whose filters do not depend on scale when `plain_pages` (no page has
    // k_material_scaled_bit).
    Result<void> make_raster_pipeline(bool plain_pages);
    Result<void> create_frames();
    // Builds and uploads every type's static data (once; a failure is final, see static_error).
    Result<void> upload_static();
    // The work of upload_static, which keeps its failure.
    Result<void> upload_static_once();
    // Checks that the page array (`layers` layers of w x h, `levels` mipmap levels) fits this device, naming the
    // types' pages when not.
    Result<void> check_page_array(std::uint32_t w, std::uint32_t h, std::uint32_t layers,
                                  std::uint32_t levels) const;
    // Makes the own target w x h (with its framebuffer and readback buffer) unless it is already; on any failure the
    // old target, its last frame and the descriptors pointing at it stay as they were.
    Result<void> fit_target(std::uint32_t w, std::uint32_t h);
    // Checks, packs, records and submits one frame into `to` (Renderer::draw and draw_onto), or records it into the
    // application's command buffer (record_onto).
    Result<FrameStats> draw_frame(const FrameTarget& to, std::span<const CharacterDraw> characters,
                                  const Camera2D& camera, RenderPath path, const PoseJob& poses);
    // Records the packed frame of slot `f` into its command buffer and submits it, or into the application's
    // (FrameTarget::into), giving the slot the next timeline value (draw_frame's second half). `stats`, the frame's
    // figures so far, become the slot's only then: a frame refused on the way leaves the slot's last stats as they
    // were.
    Result<void> record_frame(FrameSlot& f, const FrameTarget& to, std::span<const CharacterDraw> characters,
                              const Camera2D& camera, RenderPath path, const FrameCounts& counts, FrameStats stats);
    // Waits for the slot's last frame, if any: its fence, or for a frame recorded into the application's command
    // buffer (record_onto) its timeline value, until `deadline` (none: signal_deadline(), taken only then); then reads
    // its GPU figures into its stats and last_finished (none for a recorded frame that never ran). Fails, naming
    // `call`, when the value does not come by then, or at once when that frame was recorded into `into` itself,
    // leaving the slot pending.
    Result<void> wait_slot(FrameSlot& slot, const char* call, std::optional<SignalDeadline> deadline,
                           VkCommandBuffer into = VK_NULL_HANDLE);
    // Waits for every slot, oldest frame first (so that last_finished is the newest), all within one deadline; the
    // first error, after all, naming `call`.
    Result<void> wait_all(const char* call);
    // Points the slot's descriptor sets at the buffers (and own target) reallocated since they were last written, and,
    // for a tile frame onto the application's image `onto`, set_onto at that image; returns the number of bindings
    // written.
    std::uint32_t update_sets(FrameSlot& slot, const HostImage* onto);
    // The slot's framebuffer of the application's image `host`, made anew when the slot's was made for another.
    Result<void> fit_host_framebuffer(FrameSlot& slot, const HostImage& host);
    // The slot's copy of the application's sRGB image `host` for the tile path (FrameSlot::onto_copy), made anew when
    // the slot's is of another size.
    Result<void> fit_onto_copy(FrameSlot& slot, const HostImage& host);
    Result<void> submit_once(const std::function<void(VkCommandBuffer)>& record);
};

}  // namespace spinegpu::gpu
