// Drawing with the application's own Vulkan device (RendererDesc::host): onto the application's own image, over what it
// holds, in a submission of the renderer's (Renderer::draw_onto) or recorded into the application's own command buffer
// (Renderer::record_onto, RecordedFrame); inside the application's own render pass (Renderer::record_for_pass and
// record_in_pass, HostPass); or into the renderer's target, handed to the application to use (Renderer::frame_image).
// For an engine that has its device already. Apart from renderer.hpp so that only code which embeds the renderer sees
// the Vulkan headers.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::gpu {

// A Vulkan device that the application made and keeps: the renderer draws with it instead of making its own, and
// destroys none of it (the application destroys it after every renderer made with it).
//
// Requirements, checked where Vulkan lets them be (a refusal names what is missing):
// - `instance` made with `api_version` (its VkApplicationInfo::apiVersion) 1.2 or later, `physical` a device of
//   Vulkan 1.2 or later;
// - `device` made from `physical` with `features` (what its VkDeviceCreateInfo::pEnabledFeatures, or the
//   VkPhysicalDeviceFeatures2::features in its pNext chain, enabled: copied here, since Vulkan cannot be asked):
//   dualSrcBlend is required; shaderInt64 and shaderFloat64 allow RenderPath::gpu_tiles (where the device also has
//   subgroup votes in compute and 32 KiB of shared memory), shaderStorageImageReadWithoutFormat and
//   shaderStorageImageWriteWithoutFormat together that path onto BGRA8 images (HostImage says what more),
//   pipelineStatisticsQuery the fragment counts (FrameStats::fragments), fullDrawIndexUint32 frames of more than
//   2^24 vertices in view on the gpu and cpu paths (where the device's maxDrawIndexedIndexValue is no larger);
// - `queue` from `device`, of `queue_family`, which has graphics and compute;
// - `timeline_semaphore`: whether the device was made with timeline semaphores (VkPhysicalDeviceVulkan12Features::
//   timelineSemaphore, or VkPhysicalDeviceTimelineSemaphoreFeatures; taken on trust, as `features`), which
//   Renderer::record_onto and record_for_pass need;
// - `dynamic_rendering`: whether the device was made with dynamic rendering (VkPhysicalDeviceVulkan13Features::
//   dynamicRendering, or VkPhysicalDeviceDynamicRenderingFeatures with VK_KHR_dynamic_rendering; taken on trust),
//   which drawing in a render pass instance begun with vkCmdBeginRendering needs (HostPass without a render pass).
//
// The renderer submits to `queue`, from the calling thread, in draw, draw_onto, finalize and read_back (and
// record_onto and record_for_pass, only for the upload of the first frame when finalize was not called). These wait
// until the queue is idle, which includes what the application submitted to it before: finalize (or the first draw,
// draw_onto, record_onto or record_for_pass, when finalize was not called), read_back, a draw at a new target size
// (not the first) and the destructor (once anything was submitted); so those submissions must not wait on a semaphore
// that the same thread signals only later. Vulkan lets one thread at a time use a queue: the application keeps its
// other threads off `queue` during those calls. The validation layer, when wanted, is the application's (enabled on
// its instance); RendererDesc::device and ::validation, SPINEGPU_DEVICE and SPINEGPU_VALIDATION do not apply, and
// Renderer::validation_messages counts nothing.
struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE;
    std::uint32_t api_version = 0;  // the instance's VkApplicationInfo::apiVersion, e.g. VK_API_VERSION_1_3
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t queue_family = 0;
    VkPhysicalDeviceFeatures features{};
    bool timeline_semaphore = false;
    bool dynamic_rendering = false;
};

// The image the last draw() frame was drawn into (Renderer::frame_image), for the application to use in its own command
// buffers, submitted to the renderer's queue after draw() returned:
// - the image holds premultiplied RGBA8 (VK_FORMAT_R8G8B8A8_UNORM; colours encoded as the atlas pages' are), the
//   frame drawn over its background; it can be copied or blitted from (TRANSFER_SRC), sampled (SAMPLED) and used as
//   a storage image (STORAGE);
// - after draw() it is in `layout`, its writes made available and visible to transfer reads: begin the barrier
//   that takes it to your use with srcStageMask = `stage` and srcAccessMask = 0 (the dependency chains through the
//   renderer's own), with the layout transition your use needs;
// - you may leave it in any layout, and even write it: the next draw() waits for every command submitted to the
//   queue before it, makes their writes available, and discards the image's contents; only read_back() of the same
//   frame needs it back in `layout` first. That wait also holds the next frame's first write of the image behind
//   the application's unrelated work submitted before it, and FrameStats::gpu_ms counts it;
// - the handles stay valid until a draw() at another size or the renderer's destruction: a draw() at another size
//   waits until the queue is idle, destroys the image and makes a new one, with a new `generation` (rewrite any
//   descriptor that holds the old view, whose handle value may be reused).
struct FrameImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    std::uint32_t width = 0, height = 0;
    VkImageLayout layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    std::uint64_t generation = 0;  // changes when a new image is made
};

// An image of the application's that Renderer::draw_onto and record_onto draw the characters onto, blending each slot
// over the pixels already there with its blend mode, as on the renderer's own target: a multiply or screen slot over
// the application's background multiplies or screens that background, which compositing a frame drawn apart
// (FrameImage) cannot do where the frame is transparent. Requirements (the checked ones: a refusal names the field):
// - `image` holds premultiplied colour, VK_FORMAT_R8G8B8A8_UNORM, or VK_FORMAT_B8G8R8A8_UNORM (the same colours in
//   another byte order, as swapchain images often are; colours encoded as the atlas pages' are, as both formats take
//   them), or either's sRGB form, VK_FORMAT_R8G8B8A8_SRGB or VK_FORMAT_B8G8R8A8_SRGB, onto which every path draws
//   in linear light (each blend decodes the image's pixel, blends and encodes the result; the characters' colours
//   are decoded: shading.glsl), the gpu_tiles path through a copy (an sRGB image cannot be a storage image: the frame
//   copies it into an RGBA8 image of the renderer's, one per frame slot, made for the image's size, draws there in
//   linear light and copies it back); the first frame onto an image of a format other than RGBA8 UNORM on a raster
//   path makes that format's render pass and pipelines, and the first onto an sRGB image on the gpu_tiles path that
//   byte order's raster pass; the gpu_tiles path reads and writes a UNORM BGRA8 image as a storage image without a
//   format, checked: the device was made with shaderStorageImageReadWithoutFormat and
//   shaderStorageImageWriteWithoutFormat, and its format features, which take Vulkan 1.3 (for the instance and the
//   device) or VK_KHR_format_feature_flags2 to tell, say that BGRA8 images of optimal tiling are storage images read
//   and written without a format), of optimal tiling, single-sampled, and was made with
//   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT for the gpu, gpu_vertex and cpu paths, VK_IMAGE_USAGE_STORAGE_BIT for gpu_tiles
//   (onto an sRGB image, VK_IMAGE_USAGE_TRANSFER_SRC_BIT and VK_IMAGE_USAGE_TRANSFER_DST_BIT instead); its mipmap
//   level 0 and array layer 0 are drawn onto, and are `width` x `height` pixels; `view` is a 2D view of just those,
//   colour aspect, of `format` itself, unswizzled, with that usage;
// - when the frame's commands run it is in `layout` (not UNDEFINED or PREINITIALIZED, which would discard it), and
//   it is left in `layout`;
// - `generation` changes whenever `image` or `view` is made anew (a handle value may be reused): the renderer keeps
//   a framebuffer and a descriptor for the image per frame slot and remakes them when the image, view, format, size
//   or generation differs from that slot's last.
// The frame's commands, submitted to the queue by draw_onto (or recorded by record_onto: "before" and "after" then take
// in the application's own commands in that command buffer, and frames go into the queue in the order submitted, not
// called), touch the image only after every command submitted before them, their writes made available (so the
// application's drawing of the image, submitted earlier, needs no barrier for the frame's sake), and end with the
// image's writes available and visible to every later command on the queue, in any stage (so neither does its use
// after; a barrier for a layout of its own begins with srcStageMask VK_PIPELINE_STAGE_ALL_COMMANDS_BIT and
// srcAccessMask 0; validation layers before 1.3.268 report a false WRITE_AFTER_WRITE for its layout transition when it
// follows the frame in one command buffer, their issue 6508: srcAccessMask VK_ACCESS_MEMORY_WRITE_BIT, as correct,
// avoids it). Only the frame's first passes (places and skinning, on the renderer's own buffers) may run alongside the
// application's earlier work; its drawing never overlaps the application's, and FrameStats::gpu_ms counts the wait for
// that earlier work. Past the first frame (see HostDevice) nothing waits for the queue to go idle, and each frame may
// go onto another image, of any size. The image must outlive the frame's commands: destroy it only after finish(), or a
// fence of a later submission to the queue, has signalled (a fence covers every earlier submission to its queue).
struct HostImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    std::uint32_t width = 0, height = 0;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    std::uint64_t generation = 0;
};

// A subpass of the application's own render pass that Renderer::record_for_pass and record_in_pass (or
// record_in_secondary) draw the characters in, between the application's own draws there (its background before them,
// its interface after), as one more draw of that pass: for an engine that draws its frame in its own render passes.
// Requirements (the checked ones: a refusal names the field; the others, which Vulkan does not let the renderer see,
// are taken on trust, and breaking one is invalid use of Vulkan, which the validation layer reports):
// - `render_pass` is the application's render pass (or one compatible with it), made on the lent device, and
//   `subpass` one of its subpasses; or, with no render pass (checked: the device has HostDevice::dynamic_rendering),
//   a render pass instance begun with vkCmdBeginRendering, `subpass` 0 (checked), whose depth and stencil attachments
//   have `depth_format` and `stencil_format` (VK_FORMAT_UNDEFINED: none; checked: a format with that component, taken
//   as a depth/stencil attachment at `samples`, the same one when both are given; both VK_FORMAT_UNDEFINED with a
//   render pass), as VkPipelineRenderingCreateInfo needs them.
//   That subpass, or instance, has exactly one colour attachment, of `format` and `samples`, and no multiview; any
//   depth/stencil attachment of it is neither tested nor written by the characters' draw; the characters blend into
//   the colour attachment with each slot's blend mode over what it holds, which is premultiplied colour (encoded as
//   the atlas pages' are; in linear light for an sRGB attachment, whose pixels the device decodes and encodes);
// - `format` (checked) is a colour format the device blends into (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT); an
//   sRGB one is drawn in linear light, as onto an sRGB HostImage; `samples`
//   (checked) one sample count the device's framebuffers take; with more than one, the draw is multisampled as the
//   pass is. With a render pass, the renderer sees neither its attachment's format nor its sample count: those of
//   `format` and `samples` are taken on trust;
// - `area` is where the characters are drawn, within the render area: the camera's pixels (Camera2D) count from its
//   top-left corner, and nothing is drawn outside it (scissor); its offset is not negative and it lies within the
//   largest framebuffer and viewport the device takes (checked: the characters' viewport reaches from the
//   framebuffer's corner to the area's far one);
// - `generation` changes whenever `render_pass` is made anew (a handle value may be reused): the renderer makes the
//   characters' pipelines for each render pass and generation, subpass, format and sample count (with dynamic
//   rendering, for each format, sample count, and depth and stencil formats) it is given, on the first frame in it,
//   and keeps those of the eight last drawn in (Renderer::record_for_pass).
struct HostPass {
    VkRenderPass render_pass = VK_NULL_HANDLE;
    std::uint32_t subpass = 0;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkRect2D area{};
    std::uint64_t generation = 0;
    VkFormat depth_format = VK_FORMAT_UNDEFINED, stencil_format = VK_FORMAT_UNDEFINED;  // dynamic rendering only
};

// A frame that Renderer::record_onto (or record_for_pass, with record_in_pass or record_in_secondary) recorded into the
// application's command buffer, and what the submission of that command buffer must signal:
// - submit the command buffer once, to HostDevice::queue (the renderer's own submissions and idle waits are there,
//   and order against it), signalling `semaphore` (a timeline semaphore of the renderer's) to `value` when it
//   completes (VkTimelineSemaphoreSubmitInfo with VkSubmitInfo, or VkSemaphoreSubmitInfo with vkQueueSubmit2, its
//   stageMask VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, so that the signal follows every command of the frame), in
//   the order the frames were recorded (each value is greater than the last): never submit one after a frame recorded
//   later was submitted, since the renderer takes a value as having come for every frame recorded before it;
// - the renderer waits for that value before it reuses the frame's slot, frames_in_flight() frames later, and in
//   finish, read_back and a draw at a new size; such a wait lasts at most 30 seconds, then fails naming the frame (a
//   frame recorded and never submitted), leaving the frame pending. Recording more than frames_in_flight() frames
//   into one command buffer fails at once, naming the frame that holds the slot;
// - a command buffer dropped unsubmitted needs nothing done once a frame recorded after it has been submitted (its
//   value covers the earlier ones). When none will be, signal its value from the host (vkSignalSemaphore), but only
//   after every frame recorded before it has signalled (a host signal may not pass a pending one). The renderer's
//   destructor waits only for what was submitted to the queue: destroy it once every recorded command buffer has been
//   submitted, or never will be;
// - `stats` are those draw_onto gives; gpu_ms, fragments and the tile path's counts are known once the frame is
//   waited for (Renderer::finish, Renderer::last_finished), and stay unknown (gpu_ms -1) for a frame dropped, and
//   for one of record_for_pass whose draw was never recorded (or recorded into a secondary command buffer never
//   executed).
struct RecordedFrame {
    FrameStats stats;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    std::uint64_t value = 0;
};

}  // namespace spinegpu::gpu
