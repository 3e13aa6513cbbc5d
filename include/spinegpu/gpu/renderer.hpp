// The Vulkan renderer. Skeleton types are uploaded once in bind form; each frame
// only poses cross the bus (frame_packer.hpp); a compute pass skins the visible attachments of every character in
// its current draw order and one indexed draw, in one pipeline (dual-source blending covers the four Spine blend
// modes), draws them all, in the order given; or a tile rasterizer in compute does that draw (RenderPath::gpu_tiles).
// The CPU path draws the same frame from world vertices computed by the runtime on the CPU (cpu_path.hpp).
// It draws into its own offscreen target, read back on request, shown in a window when it was made with one
// (RendererDesc::window, Renderer::present), or, on the application's own Vulkan device (RendererDesc::host), handed
// to it (Renderer::frame_image); on that device it also draws onto the application's own images (Renderer::draw_onto).
//
// Works on hardware drivers and on Mesa's lavapipe: no descriptor indexing (all atlas pages of all types share one
// 2D array texture), storage buffers under 128 MiB per binding for moderate crowds.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/core/result.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/gpu/static_skeleton.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

struct VkCommandBuffer_T;  // what a VkCommandBuffer points at (vulkan.h)

namespace spinegpu::gpu {

// A window to show frames in (Renderer::present): what its window system needs of the Vulkan instance, and how the
// window's surface is made. The windowing library stays outside spinegpu (`spinegpu view` uses GLFW).
struct WindowSurface {
    std::vector<std::string> instance_extensions;  // as glfwGetRequiredInstanceExtensions lists them
    // Makes the window's surface for `instance` (a VkInstance), writing the VkSurfaceKHR to `*surface` (a
    // VkSurfaceKHR*); returns 0 (VK_SUCCESS) or the failure's VkResult. Called once, before a device is chosen;
    // the renderer destroys the surface.
    std::int32_t (*create)(void* context, void* instance, void* surface) = nullptr;
    void* context = nullptr;
    bool vsync = true;  // present at the display's rate (FIFO); false: as fast as frames come (mailbox or immediate)
};

struct HostDevice;  // the application's own Vulkan device (host_device.hpp)
struct FrameImage;  // the image a frame was drawn into, for that application (host_device.hpp)
struct HostImage;   // an image of that application's, to draw onto (host_device.hpp)
struct RecordedFrame;  // a frame recorded into that application's command buffer (host_device.hpp)
struct HostPass;       // a subpass of that application's render pass, to draw in (host_device.hpp)

// Zero means default everywhere.
struct RendererDesc {
    std::string device;                 // keep devices whose name contains this, any case ("": SPINEGPU_DEVICE)
    bool validation = false;            // VK_LAYER_KHRONOS_validation (also SPINEGPU_VALIDATION=1)
    std::uint32_t frames_in_flight = 0; // default 2
    // A window to present to, or none (headless). With one, only devices that can present to it are kept. Must
    // stay valid during create().
    const WindowSurface* window = nullptr;
    // The application's own Vulkan device to draw with (host_device.hpp), or none (the renderer makes its own). With
    // one, `device`, `validation` and `window` must be left unset: the device is chosen, validated and shown by the
    // application, which draws onto its own images (Renderer::draw_onto) or reads each frame through
    // Renderer::frame_image. Must stay valid during create().
    const HostDevice* host = nullptr;
};

enum class RenderPath : std::uint8_t {
    gpu,  // skinning pass on the GPU from packed bones
    cpu,  // world vertices from the runtime, computed on the CPU and uploaded
    // The seed's way, for comparison: skinning in the vertex shader over every attachment of the type, hidden ones
    // collapsed. Only for types without draw-order timelines; it does not clip.
    gpu_vertex,
    // The skinning pass, then the draw done in compute by a tile rasterizer (characters binned into 16x16-pixel
    // tiles, each tile's triangles covered, shaded and blended in draw order by one workgroup). Same pixels as the
    // gpu path; for GPUs whose compute far outweighs their raster pipeline (data-centre GPUs such as the H200).
    // Needs 64-bit integers and floats in shaders (shaderInt64, shaderFloat64).
    gpu_tiles,
};

// World (x, y) to pixels: px = ox + scale * x, py = oy - scale * y (as `render --camera`). The scale must be above 0
// and all three finite: a frame with another camera is refused.
struct Camera2D {
    float scale = 1, ox = 0, oy = 0;
};

// One character to draw: its pose, its skeleton type (from add_skeleton_type) and a tint that multiplies the
// skeleton colour.
struct CharacterDraw {
    const SkeletonPose* pose = nullptr;
    std::uint32_t type = 0;
    Color tint;
};

// Work that draw() runs on its worker pool for each range [begin, end) of its characters just before that range is
// culled and packed: to bring those poses up to date in the same pass (the runtime's update_characters, say), so
// that each pose is packed right after it is written, by the thread that wrote it, while it is in that core's cache.
// It runs after draw() has waited for the frame slot, on every character (the culled ones too: culling looks at the
// pose it leaves), and once on all of them on the calling thread when the renderer has no pool. It must touch only
// the range's characters (ranges run on different threads at once), keep each one's skeleton type, not throw, and
// not call the renderer or run batches on its pool. When draw() fails, the job may have run on some or all ranges.
struct PoseJob {
    void (*run)(void* context, std::size_t begin, std::size_t end) = nullptr;  // null: none
    void* context = nullptr;
    // Used only with a job: empty, or a permutation of the draw list's indices (checked: draw() fails otherwise). The
    // packing pass then visits the characters in this order, and the job's ranges [begin, end) are positions in it,
    // so that the job can update characters in an order that suits the runtime (a Crowd's update order, when the
    // draw list is in crowd order). What is drawn, and in which order, does not change.
    std::span<const std::uint32_t> order;
};

// What one frame cost. Times in milliseconds; gpu_ms is from timestamp queries of the frame's own command buffer
// (known once the frame has finished: see Renderer::finish), negative when unknown.
struct FrameStats {
    std::uint64_t frame = 0;   // the frame's number: 1 for the renderer's first frame submitted or recorded, and so on
    double pack_ms = 0;        // packing poses (GPU path) or computing and writing world vertices (CPU path), and
                               // the PoseJob when draw() was given one
    double record_ms = 0;      // recording and submitting the command buffer (record_onto: recording it)
    double gpu_ms = -1;
    double skin_ms = -1;       // the part of gpu_ms before the draw: the places and skinning passes (gpu and
                               // gpu_tiles), the places passes (gpu_vertex), ~0 on the CPU path
    std::uint64_t bytes_uploaded = 0;  // bytes written to mapped memory for this frame
    std::uint32_t characters = 0;      // drawn (in view)
    std::uint32_t culled = 0;          // outside the view: neither packed nor drawn
    std::uint32_t vertices = 0, triangles = 0;
    // Fragment shader invocations, or on the tile path the covered pixels shaded (known with gpu_ms; 0 where not
    // counted).
    std::uint64_t fragments = 0;
    // Tile path: characters in view drawn without triangle masks because the mask pool had no room for them (it
    // grows to what the frame asked for, within one storage buffer, so the next frame has room unless that limit
    // holds it back); each offers every triangle to every tile it meets, which is slower, not wrong. Known once the
    // frame is waited for (finish()); the stats draw() returns hold 0.
    std::uint32_t unmasked = 0;
    // Descriptor bindings written for this frame: only where a buffer they point at was reallocated (grown, or
    // shrunk below a quarter used) or the target was remade, so 0 once a crowd is steady; and for the gpu_tiles path
    // onto the application's images (draw_onto, record_onto), the target's binding whenever the image differs from
    // the one the frame slot last drew onto (each frame onto the next of a swapchain's images, say).
    std::uint32_t descriptor_writes = 0;
};

// The vertices and triangles one frame draws (Renderer::read_back_geometry): the characters in view in draw-list
// order, each in its draw order; indices count from the frame's first vertex, three per triangle.
struct DrawnGeometry {
    std::vector<GpuOutVertex> vertices;
    std::vector<std::uint32_t> indices;
};

class Renderer {
public:
    // Creates the device (see RendererDesc), or takes the application's (RendererDesc::host), and the pipelines.
    // Fails with the reasons when no device fits. The Vulkan drivers and layers that a renderer's own instance loads
    // stay loaded for the process's life (NVIDIA's driver cannot be loaded again some thirty times: it runs out of
    // static TLS), so renderers may be created and destroyed freely.
    static Result<std::unique_ptr<Renderer>> create(const RendererDesc& desc);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // The device in use, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" or "NVIDIA H200".
    const std::string& device_name() const;
    // Whether the device is a CPU implementation (lavapipe).
    bool software_device() const;
    // How many frames may be in flight at once: frame slots, each with its own per-frame buffers, used in turn.
    std::uint32_t frames_in_flight() const;
    // Warnings and errors the validation layer reported so far (0 when validation is off), and the first one.
    std::uint64_t validation_messages() const;
    std::string first_validation_message() const;

    // Adds a skeleton type and returns its index. `data`, `atlas` and `binding` must outlive the renderer, in place;
    // `pages` holds the atlas's page images in atlas order (their pixels are released after upload). All types must
    // be added before the first frame is drawn, or finalize() called. `name` names the type in errors.
    Result<std::uint32_t> add_skeleton_type(const SkeletonData& data, const Atlas& atlas, const AtlasBinding& binding,
                                            std::vector<Image> pages, const std::string& name);
    // A type's bind form (valid after the first frame; before it, after finalize()). Precondition: `type` is an
    // index add_skeleton_type returned.
    const StaticSkeleton& skeleton_type(std::uint32_t type) const;
    // How many types were added, and the skeleton data a type was added with (precondition: type < the count).
    std::uint32_t skeleton_type_count() const;
    const SkeletonData& skeleton_type_data(std::uint32_t type) const;
    // Builds and uploads the static data of every type added so far. Called by the first draw when not before. A
    // failure is final: this renderer then refuses every draw and new type with that error (make another one).
    Result<void> finalize();

    // Draws `characters` (in this order: back to front) into the offscreen target, sized width x height and
    // cleared to `background` (straight alpha), through `path`. Characters outside the view are neither packed nor
    // drawn; the culling box of each is kept per place in `characters` while its pose's world transforms stay or a
    // crowd update moves them (CullingMemo), so a character left unposed outside the view, standing or moved, is
    // culled without reading its bones. Waits only for the frame that last used this frame-in-flight slot (at a new
    // size, for every frame), and fails, drawing nothing, when that earlier frame went wrong on the device or, recorded
    // by record_onto, did not signal within 30 s (see finish). A new size the device refuses or cannot make (out of
    // memory) fails too, leaving the old target and its last frame (the new target is made while the old one still
    // holds its memory). `poses`, when given, runs first on each range of
    // characters, in the packing pass (see PoseJob).
    Result<FrameStats> draw(std::span<const CharacterDraw> characters, const Camera2D& camera, std::uint32_t width,
                            std::uint32_t height, Color background, RenderPath path, PoseJob poses = {});

    // Draws `characters` as draw() does, onto the application's image `target` (include host_device.hpp: HostImage
    // says what it must be and how the frame's commands order against the application's), over what it holds, at
    // its size: nothing is cleared. For a renderer on the application's device (RendererDesc::host): fails on one
    // with its own device, and for a target that breaks HostImage's checked requirements, naming the field. The
    // renderer's own target is left as it was: read_back and frame_image still give the last draw() frame.
    Result<FrameStats> draw_onto(const HostImage& target, std::span<const CharacterDraw> characters,
                                 const Camera2D& camera, RenderPath path, PoseJob poses = {});

    // Records what draw_onto would submit into the application's `commands` (a primary command buffer of
    // HostDevice::queue_family, recording, outside any render pass and any pipeline-statistics query), for the
    // application to submit with its own work (include host_device.hpp: RecordedFrame says what its submission must
    // signal). The recorded commands order against the application's as draw_onto's do against earlier and later
    // submissions, its earlier and later commands in `commands` included: they wait for every command before them,
    // and leave the image's writes visible to every command after them. They leave the command buffer's bound
    // pipelines, descriptor sets, push constants, viewport, scissor and index buffer changed: bind yours again after.
    // Waits, as draw does, for the frame that last used this frame slot (a recorded one: up to 30 s for its
    // submission's signal), and the first frame, when finalize was not called, uploads the skeleton types and waits
    // for the queue to go idle. Fails as draw_onto does, for a null `commands`, on a device made without timeline
    // semaphores (HostDevice::timeline_semaphore), and when the slot's frame was recorded into `commands` itself and
    // not yet signalled (more frames into one buffer than frames in flight, or a dropped frame's buffer reset and
    // recorded again before its value was signalled); a failure records nothing into `commands`.
    Result<RecordedFrame> record_onto(VkCommandBuffer_T* commands, const HostImage& target,
                                      std::span<const CharacterDraw> characters, const Camera2D& camera,
                                      RenderPath path, PoseJob poses = {});

    // Records into the application's `commands` (as record_onto takes it: outside any render pass) the work of a frame
    // that must come before its draw, which record_in_pass (or record_in_secondary) then records inside the
    // application's render pass (include host_device.hpp: HostPass says what the pass must be; RecordedFrame what the
    // submission signals): the places and skinning passes of the gpu and gpu_vertex paths (the cpu path's vertices are
    // written here, in mapped memory). Only the raster paths: the gpu-tiles path draws in compute, which no render pass
    // can hold. It leaves the command buffer's bound compute pipeline, descriptor sets and push constants changed.
    // Commands the application records between the two may not use the renderer's buffers (they cannot name them); the
    // frame's own barriers order its skinning against its draw, and nothing else: no wait for the application's earlier
    // commands, since the frame touches none of its images before the draw, which its render pass orders. The
    // characters are culled against HostPass::area. The stats' record_ms counts this call's recording; gpu_ms, from the
    // frame's first command to the end of its draw, counts the application's commands between (unknown, and the
    // fragments too, when the draw was not recorded, or recorded into a secondary command buffer never executed;
    // skin_ms is known). Waits and fails as record_onto does (and for a `pass` that breaks HostPass's checked
    // requirements, naming the field). The first frame in a render pass, subpass, format or sample count (with its
    // generation; with dynamic rendering, its depth and stencil formats) not among the eight last drawn in makes the
    // characters' two pipelines for it; the least recently drawn in past eight are destroyed at the first wait for a
    // recorded frame's slot once the frames recorded before then have signalled, or with the renderer. A failure
    // records nothing into `commands`.
    Result<RecordedFrame> record_for_pass(VkCommandBuffer_T* commands, const HostPass& pass,
                                          std::span<const CharacterDraw> characters, const Camera2D& camera,
                                          RenderPath path, PoseJob poses = {});
    // Records the draw of the frame that the last record_for_pass prepared into `commands`, the same command buffer
    // (neither reset nor begun again since: the renderer cannot tell), now inside the application's render pass
    // instance at HostPass::subpass (begun with VK_SUBPASS_CONTENTS_INLINE, or by vkCmdBeginRendering without
    // VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT; outside any pipeline-statistics query; a query of the
    // application's that is active, an occlusion query say, counts the characters' draw). It leaves the command
    // buffer's graphics state changed: the bound pipeline (and with it whatever dynamic state the application's
    // pipeline had set, the blend constants or stencil reference say), descriptor sets, push constants, viewport,
    // scissor and index buffer: bind and set yours again after. Fails, recording nothing, when no frame awaits its
    // draw in `commands`: none was prepared, its draw was recorded already, or the frame was dropped by a later call
    // of draw, draw_onto, record_onto or record_for_pass (whether it draws or is refused) or by a wait for it (its
    // slot's reuse, or finish, read_back or a draw at a new size, which wait for its submission, up to 30 s, and fail
    // when it has not come). A frame whose draw is never recorded still signals its value. (A pass whose contents are
    // secondary command buffers: record_in_secondary.)
    Result<void> record_in_pass(VkCommandBuffer_T* commands);
    // Records the draw of the frame that the last record_for_pass prepared into `secondary`, a secondary command buffer
    // of the application's, for a render pass instance whose contents are secondary command buffers
    // (VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS, or vkCmdBeginRendering with
    // VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT), which an engine may record on several threads (the
    // renderer's own calls, this one included, are made one at a time). Taken on trust, since Vulkan does not let the
    // renderer see them: `secondary` is recording, begun with VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT and the
    // inheritance of HostPass's render pass and subpass (with dynamic rendering,
    // VkCommandBufferInheritanceRenderingInfo with its format, depth and stencil formats and sample count), not
    // inheriting viewport and scissor (VK_NV_inherited_viewport_scissor); the application executes it
    // (vkCmdExecuteCommands) at most once (twice would begin the frame's query again), inside that pass instance in the
    // command buffer record_for_pass recorded into, before that buffer's one submission, where no pipeline-statistics
    // query of the primary's is active (a query of the application's active across it needs the inheritedQueries
    // feature, and counts the draw when the secondary was begun to inherit it). It may hold the application's own
    // commands before and after the draw; it leaves the state record_in_pass leaves, and sets all it uses. Fails,
    // recording nothing, when no frame awaits its draw (as record_in_pass does), and when `secondary` is the command
    // buffer record_for_pass recorded into. The frame's gpu_ms and fragments are known after the wait for it only when
    // the secondary was executed: the renderer reads them without waiting, the frame's value having come (a secondary
    // never executed leaves them unknown, and the frame still signals its value).
    Result<void> record_in_secondary(VkCommandBuffer_T* secondary);

    // Threads for packing poses and building the CPU path's vertices (characters are split into ranges), or null for
    // the calling thread alone. The pool must outlive its use here; the renderer runs one batch at a time on it.
    void set_worker_pool(WorkerPool* pool);

    // Waits for every submitted frame (and every frame recorded by record_onto or record_for_pass, up to 30 s in all
    // for their submissions' signals); the stats of the last frame drawn then include its gpu_ms. Fails when a frame
    // it waited for went wrong on the device (the tile path past llvmpipe's loop guard) or a recorded frame's signal
    // did not come, after waiting for all.
    Result<FrameStats> finish();

    // The stats of the frame most recently waited for (by a draw that reuses its slot, finish or read_back), its
    // gpu_ms included: with two frames in flight, draw N knows frame N - 2's, without waiting for more. None before.
    // (A frame recorded by record_onto and dropped unsubmitted never ran, and is not reported.)
    std::optional<FrameStats> last_finished() const;

    // Waits for every frame and returns the renderer's own target, holding the last frame draw() drew into it, as
    // straight-alpha RGBA8 (un-premultiplied); fails as finish does, and when draw() has drawn none since the target
    // was last resized (draw_onto's and record_onto's frames are in the application's images).
    Result<Image> read_back();

    // What the last frame's draw reads, for checking one path against another: on the gpu and gpu_tiles paths what
    // the skinning pass wrote (read back from the device), on the cpu path what the CPU path wrote. Waits for every
    // frame, as finish does. Fails before the first frame, after a gpu_vertex frame (it skins in the vertex shader and
    // writes no vertices), and when a draw that failed since reused the frame's slot (one frame in flight), which may
    // have remade its buffers.
    Result<DrawnGeometry> read_back_geometry();

    // Shows the last frame drawn in the window (RendererDesc::window), scaled to fill its `width` x `height` pixels
    // (its framebuffer size; draw at that size to show the frame 1:1). Does not wait for the frame: the copy into the
    // window's next image is queued after it; except that the first call, and a call after the window's size changed or
    // its swapchain went stale, makes the swapchain anew, first waiting for the device to be idle (every frame).
    // Returns false, showing nothing, when the window has no area (minimized), its swapchain no longer matches it
    // (remade on the next call), or the window system gave no image within a quarter of a second. Fails without a
    // window, or when no frame has been drawn since the target was last resized.
    Result<bool> present(std::uint32_t width, std::uint32_t height);

    // The image the last draw() frame was drawn into, for the application's own command buffers (include
    // host_device.hpp; how to use it is said there). Fails for a renderer that made its own device (only one made on
    // the application's, RendererDesc::host, shares its image), and when draw() has drawn no frame since the target
    // was last resized.
    Result<FrameImage> frame_image() const;

    struct Impl;

private:
    explicit Renderer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace spinegpu::gpu
