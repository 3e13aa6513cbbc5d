// The renderer's public calls: creation, skeleton types, frames (drawn by renderer_frame.cpp) and waiting for them,
// readback and handing frames on. Setup is in renderer_setup.cpp.
#include <algorithm>
#include <cstring>
#include <string>

#include "renderer_impl.hpp"
#include "spinegpu/gpu/host_device.hpp"

namespace spinegpu::gpu {

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

Result<std::unique_ptr<Renderer>> Renderer::create(const RendererDesc& desc) {
    auto impl = std::make_unique<Impl>();
    if (desc.host != nullptr && (!desc.device.empty() || desc.validation || desc.window != nullptr)) {
        const char* field = !desc.device.empty() ? "device" : desc.validation ? "validation" : "window";
        return make_error("renderer", "host device",
                          std::string("a renderer on the application's device takes no RendererDesc::") + field +
                              ": the application chooses, validates and shows its device");
    }
    Result<std::unique_ptr<VkContext>> context = desc.host != nullptr
                                                     ? create_vk_context(*desc.host)
                                                     : create_vk_context(desc.device, desc.validation, desc.window);
    if (!context) return context.error();
    impl->context = std::move(*context);
    impl->frames_in_flight = desc.frames_in_flight != 0 ? desc.frames_in_flight : 2;
    impl->storage_range = impl->context->properties.limits.maxStorageBufferRange;
    // (At least 4 bytes: a descriptor's range may not be 0.)
    if (std::optional<std::uint64_t> bytes = diagnostic_number("SPINEGPU_DIAGNOSE_STORAGE_RANGE"))
        impl->storage_range = std::min<std::uint64_t>(impl->storage_range, std::max<std::uint64_t>(*bytes, 4));
    // SPINEGPU_DIAGNOSE_DRAW_INDEX=N: indexed draws reach at most vertex N, so that tests reach the refusal of a
    // device without fullDrawIndexUint32.
    if (std::optional<std::uint64_t> index = diagnostic_number("SPINEGPU_DIAGNOSE_DRAW_INDEX"))
        impl->context->max_draw_index =
            static_cast<std::uint32_t>(std::min<std::uint64_t>(impl->context->max_draw_index, *index));
    // SPINEGPU_DIAGNOSE_SHARED_MEMORY=N: compute shaders may use at most N bytes of shared memory per workgroup, as on
    // a device that has no more (the tile rasterizer needs 32 KB; the skinning pass holds fewer slots).
    // (At least 16,384 bytes, the least any Vulkan device has.)
    if (std::optional<std::uint64_t> bytes = diagnostic_number("SPINEGPU_DIAGNOSE_SHARED_MEMORY")) {
        std::uint32_t& limit = impl->context->properties.limits.maxComputeSharedMemorySize;
        limit = static_cast<std::uint32_t>(std::min<std::uint64_t>(limit, std::max<std::uint64_t>(*bytes, 16384)));
    }
    if (Result<void> r = impl->create_pipelines(); !r) return r.error();
    if (Result<void> r = impl->create_frames(); !r) return r.error();
    if (desc.window != nullptr) {
        Result<std::unique_ptr<Presenter>> presenter =
            Presenter::create(*impl->context, impl->command_pool, desc.window->vsync);
        if (!presenter) return presenter.error();
        impl->presenter = std::move(*presenter);
    }
    return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

const std::string& Renderer::device_name() const { return impl_->context->device_name; }
bool Renderer::software_device() const { return impl_->context->software; }
std::uint32_t Renderer::frames_in_flight() const { return impl_->frames_in_flight; }
std::uint64_t Renderer::validation_messages() const { return impl_->context->validation_messages.load(); }
std::string Renderer::first_validation_message() const { return impl_->context->first_validation_message; }

Result<std::uint32_t> Renderer::add_skeleton_type(const SkeletonData& data, const Atlas& atlas,
                                                  const AtlasBinding& binding, std::vector<Image> pages,
                                                  const std::string& name) {
    if (impl_->finalized)
        return make_error(name, "renderer",
                          "skeleton types must be added before the first frame is drawn (or finalize() called)");
    if (impl_->static_error)
        return make_error(name, "renderer", "the skeleton types could not be uploaded, so none can be added: " +
                                                impl_->static_error->message());
    if (pages.size() != atlas.pages.size())
        return make_error(name, "pages", "the atlas has " + std::to_string(atlas.pages.size()) + " pages but " +
                                             std::to_string(pages.size()) + " images were given");
    for (std::size_t i = 0; i < pages.size(); ++i) {
        const Image& page = pages[i];
        const std::string which = "page image " + std::to_string(i) + " (" + std::to_string(page.width) + " x " +
                                  std::to_string(page.height) + ")";
        if (page.width == 0 || page.height == 0) return make_error(name, "pages", which + " has no pixels");
        if (page.rgba.size() != std::size_t{page.width} * page.height * 4)
            return make_error(name, "pages", which + " holds " + std::to_string(page.rgba.size()) +
                                                 " bytes of pixels; RGBA8 needs " +
                                                 std::to_string(std::size_t{page.width} * page.height * 4));
    }
    SkeletonTypeEntry entry;
    entry.data = &data;
    entry.atlas = &atlas;
    entry.binding = &binding;
    entry.pages = std::move(pages);
    entry.name = name;
    impl_->types.push_back(std::move(entry));
    return static_cast<std::uint32_t>(impl_->types.size() - 1);
}

const StaticSkeleton& Renderer::skeleton_type(std::uint32_t type) const { return impl_->types[type].bind; }

std::uint32_t Renderer::skeleton_type_count() const { return static_cast<std::uint32_t>(impl_->types.size()); }

const SkeletonData& Renderer::skeleton_type_data(std::uint32_t type) const { return *impl_->types[type].data; }

void Renderer::set_worker_pool(WorkerPool* pool) { impl_->pool = pool; }

Result<void> Renderer::finalize() {
    if (impl_->finalized) return {};
    return impl_->upload_static();
}

std::uint64_t signal_timeout_ns() {
    const std::optional<std::uint64_t> ms = diagnostic_number("SPINEGPU_DIAGNOSE_SIGNAL_TIMEOUT_MS");
    return ms && *ms < 3'600'000 ? *ms * 1'000'000 : 30'000'000'000;
}

Result<void> Renderer::Impl::wait_slot(FrameSlot& slot, const char* call, std::optional<SignalDeadline> deadline,
                                       VkCommandBuffer into) {
    if (!slot.pending) return {};
    const bool recorded = slot.signal != 0;
    std::uint64_t reached = 0;  // (a later frame's signal covers an earlier frame's, dropped or not yet waited for)
    if (recorded && (vkGetSemaphoreCounterValue(context->device, timeline, &reached) != VK_SUCCESS ||
                     reached < slot.signal)) {
        const std::string frame = "frame " + std::to_string(slot.stats.frame) + " (RecordedFrame::value " +
                                  std::to_string(slot.signal) + ")";
        if (into != VK_NULL_HANDLE && into == slot.recorded_into)
            return make_error("renderer", call,
                              frame + ", recorded into this same command buffer, holds the frame slot that this "
                                      "frame needs: record at most frames_in_flight() frames into one command "
                                      "buffer (RendererDesc::frames_in_flight), or, when that frame was dropped and "
                                      "the buffer reset, signal its value from the host first (RecordedFrame)");
        VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
        wait.semaphoreCount = 1;
        wait.pSemaphores = &timeline;
        wait.pValues = &slot.signal;
        if (!deadline) deadline = signal_deadline();  // (read only when a recorded frame is waited for)
        const auto left = deadline->at - std::chrono::steady_clock::now();
        const auto timeout = std::max<std::int64_t>(
            0, std::chrono::duration_cast<std::chrono::nanoseconds>(left).count());
        const VkResult r = vkWaitSemaphores(context->device, &wait, static_cast<std::uint64_t>(timeout));
        if (r == VK_TIMEOUT)
            return make_error("renderer", call,
                              frame + ", recorded into the application's command buffer (record_onto or "
                                      "record_for_pass), has not "
                                      "signalled within " + std::to_string(deadline->total_ns / 1'000'000) +
                                      " ms: submit each recorded command buffer once, in the order recorded, "
                                      "signalling its value (host_device.hpp, RecordedFrame)");
        if (r != VK_SUCCESS) return vk_error("vkWaitSemaphores", r);
    } else if (!recorded) {
        if (VkResult r = vkWaitForFences(context->device, 1, &slot.fence, VK_TRUE, UINT64_MAX); r != VK_SUCCESS)
            return vk_error("vkWaitForFences", r);
        vkResetFences(context->device, 1, &slot.fence);
    }
    slot.signal = 0;
    slot.pending = false;
    slot.recorded_into = VK_NULL_HANDLE;
    // (A frame prepared for the application's render pass, its draw not recorded, is dropped once it has run.)
    if (awaiting_draw && &slot == &frames[awaiting_draw->slot]) awaiting_draw.reset();
    if (recorded && !retired_pipelines.empty()) destroy_retired_pipelines(false);
    // A recorded frame whose command buffer was dropped, its value covered by a later one, never ran: its queries
    // and counters hold nothing of it (or were never written), so its stats keep no GPU figures.
    const auto* counted = static_cast<const std::uint32_t*>(slot.counters.mapped);
    if (recorded && counted[k_ran_word] != static_cast<std::uint32_t>(slot.stats.frame)) {
        slot.drawn_path.reset();  // (nor do its output buffers: read_back_geometry has nothing to read)
        return {};
    }
    if (slot.timed && queries != VK_NULL_HANDLE) {
        // (A frame whose draw in the application's pass was never recorded has no last stamp: its GPU time stays
        // unknown, its skinning's is known.)
        const auto index = static_cast<std::uint32_t>(&slot - frames.data());
        // (One drawn in a secondary command buffer: its last stamp only if that buffer was executed, without
        // waiting for it, since the frame's value has come.)
        const std::uint32_t written = slot.undrawn || slot.drawn_in_secondary ? 2 : k_queries_per_frame;
        std::uint64_t stamps[k_queries_per_frame] = {};
        VkResult r = vkGetQueryPoolResults(context->device, queries, index * k_queries_per_frame, written,
                                           sizeof(stamps), stamps, sizeof(std::uint64_t),
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        bool last = r == VK_SUCCESS && !slot.undrawn;
        if (last && slot.drawn_in_secondary)
            last = vkGetQueryPoolResults(context->device, queries, index * k_queries_per_frame + 2, 1,
                                         sizeof(std::uint64_t), &stamps[2], sizeof(std::uint64_t),
                                         VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
        if (r == VK_SUCCESS) {
            // (Differences in the valid bits, so that a counter that wrapped between two stamps still subtracts.)
            const std::uint64_t mask = context->timestamp_mask;
            const double ms_per_tick = context->timestamp_period_ns * 1e-6;
            if (last) slot.stats.gpu_ms = static_cast<double>((stamps[2] - stamps[0]) & mask) * ms_per_tick;
            slot.stats.skin_ms = static_cast<double>((stamps[1] - stamps[0]) & mask) * ms_per_tick;
        }
    }
    if (slot.tiles) {
        tile_mask_words_asked = std::uint64_t{counted[2]} * k_tile_mask_demand_unit;
        slot.stats.unmasked = counted[3];
        if (counted[4] != 0)
            return make_error(context->device_name, "tile rasterizer",
                              "a frame drawn through the tile path is wrong: the driver cut its loops short "
                              "(llvmpipe ends a shader's loops once they have run 65,535 passes in all), because a "
                              "tile or a character held more triangles than the tile path can draw here; draw such "
                              "frames through the gpu path");
        if (slot.timed) slot.stats.fragments = counted[0];
    } else if (slot.timed && !slot.undrawn && statistics != VK_NULL_HANDLE) {
        const auto index = static_cast<std::uint32_t>(&slot - frames.data());
        std::uint64_t fragments = 0;
        const VkQueryResultFlags wait = slot.drawn_in_secondary ? 0 : VK_QUERY_RESULT_WAIT_BIT;
        if (vkGetQueryPoolResults(context->device, statistics, index, 1, sizeof(fragments), &fragments,
                                  sizeof(fragments), VK_QUERY_RESULT_64_BIT | wait) == VK_SUCCESS)
            slot.stats.fragments = fragments;
    }
    last_finished = slot.stats;
    return {};
}

SignalDeadline signal_deadline() {
    const std::uint64_t total = signal_timeout_ns();
    return {std::chrono::steady_clock::now() + std::chrono::nanoseconds(total), total};
}

Result<void> Renderer::Impl::wait_all(const char* call) {
    std::optional<Error> failed;
    const SignalDeadline deadline = signal_deadline();  // (one for all the slots)
    for (std::size_t k = 0; k < frames.size(); ++k)
        if (Result<void> r = wait_slot(frames[(frame_index + k) % frames.size()], call, deadline); !r && !failed)
            failed = r.error();
    if (failed) return *failed;
    return {};
}

Result<FrameStats> Renderer::draw(std::span<const CharacterDraw> characters, const Camera2D& camera,
                                  std::uint32_t width, std::uint32_t height, Color background, RenderPath path,
                                  PoseJob poses) {
    impl_->awaiting_draw.reset();
    return impl_->draw_frame(FrameTarget{nullptr, width, height, background}, characters, camera, path, poses);
}

namespace {

// draw_onto's and record_onto's refusals (named `call`): a renderer on its own device, or a `target` that breaks
// HostImage's checked requirements for `path`.
Result<void> check_onto(const Renderer::Impl& m, const HostImage& target, RenderPath path, const char* call) {
    auto refuse = [call](const std::string& why) { return make_error("renderer", call, why); };
    if (!m.context->borrowed)
        return refuse("this renderer made its own device, on which no image of the application's can be: lend it "
                      "yours (RendererDesc::host)");
    if (target.image == VK_NULL_HANDLE) return refuse("HostImage::image is VK_NULL_HANDLE");
    if (target.view == VK_NULL_HANDLE) return refuse("HostImage::view is VK_NULL_HANDLE");
    const std::string format = "HostImage::format is " + std::to_string(static_cast<int>(target.format));
    const bool srgb = target.format == VK_FORMAT_R8G8B8A8_SRGB || target.format == VK_FORMAT_B8G8R8A8_SRGB;
    if (target.format != VK_FORMAT_R8G8B8A8_UNORM && target.format != VK_FORMAT_B8G8R8A8_UNORM && !srgb)
        return refuse(format + ", not VK_FORMAT_R8G8B8A8_UNORM (" + std::to_string(VK_FORMAT_R8G8B8A8_UNORM) +
                      "), VK_FORMAT_B8G8R8A8_UNORM (" + std::to_string(VK_FORMAT_B8G8R8A8_UNORM) +
                      ") or their sRGB forms (" + std::to_string(VK_FORMAT_R8G8B8A8_SRGB) + ", " +
                      std::to_string(VK_FORMAT_B8G8R8A8_SRGB) + "), the formats the renderer draws onto");
    // (A device without the tile path at all is refused by the frame, naming what it lacks.)
    if (target.format == VK_FORMAT_B8G8R8A8_UNORM && path == RenderPath::gpu_tiles &&
        tile_rasterizer_supported(*m.context) && !m.context->bgra_tiles_missing.empty())
        return refuse(format + " (VK_FORMAT_B8G8R8A8_UNORM): the gpu-tiles path draws onto such images as storage "
                               "images read and written without a format, and " + m.context->bgra_tiles_missing +
                      "; draw onto this one through the gpu path");
    const VkPhysicalDeviceLimits& limits = m.context->properties.limits;
    if (target.width == 0 || target.height == 0 || target.width > limits.maxFramebufferWidth ||
        target.height > limits.maxFramebufferHeight)
        return refuse("HostImage::width x height is " + std::to_string(target.width) + "x" +
                      std::to_string(target.height) + ": empty or larger than the device allows");
    if (target.layout == VK_IMAGE_LAYOUT_UNDEFINED || target.layout == VK_IMAGE_LAYOUT_PREINITIALIZED)
        return refuse(std::string("HostImage::layout is ") +
                      (target.layout == VK_IMAGE_LAYOUT_UNDEFINED ? "VK_IMAGE_LAYOUT_UNDEFINED"
                                                                  : "VK_IMAGE_LAYOUT_PREINITIALIZED") +
                      ", which would discard what the image holds: give the layout it is in");
    return {};
}

}  // namespace

Result<FrameStats> Renderer::draw_onto(const HostImage& target, std::span<const CharacterDraw> characters,
                                       const Camera2D& camera, RenderPath path, PoseJob poses) {
    impl_->awaiting_draw.reset();
    if (Result<void> r = check_onto(*impl_, target, path, "draw_onto"); !r) return r.error();
    return impl_->draw_frame(FrameTarget{&target, target.width, target.height, Color{}}, characters, camera, path,
                             poses);
}

namespace {

// What record_onto and record_for_pass (named `call`) need besides their target: a command buffer, and a device with
// timeline semaphores, the renderer's semaphore made on it (the first call makes it).
Result<void> prepare_recording(Renderer::Impl& m, VkCommandBuffer commands, const char* call) {
    if (commands == VK_NULL_HANDLE) return make_error("renderer", call, "the command buffer is VK_NULL_HANDLE");
    if (!m.context->timeline_semaphore)
        return make_error("renderer", call,
                          "the application's device was made without timeline semaphores "
                          "(HostDevice::timeline_semaphore), which the submissions of recorded frames signal: enable "
                          "VkPhysicalDeviceVulkan12Features::timelineSemaphore in vkCreateDevice");
    if (m.timeline == VK_NULL_HANDLE) {
        VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
        type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        info.pNext = &type;
        if (VkResult r = vkCreateSemaphore(m.context->device, &info, nullptr, &m.timeline); r != VK_SUCCESS)
            return vk_error("vkCreateSemaphore", r);
    }
    return {};
}

// The depth and stencil formats of a HostPass for dynamic rendering: each a format with that component, taken by the
// device as a depth/stencil attachment at the pass's sample count, and the same format when both are given (one image
// holds both).
Result<void> check_depth_stencil(const Renderer::Impl& m, const HostPass& pass) {
    auto refuse = [](const std::string& why) { return make_error("renderer", "record_for_pass", why); };
    if (pass.depth_format != VK_FORMAT_UNDEFINED && pass.stencil_format != VK_FORMAT_UNDEFINED &&
        pass.depth_format != pass.stencil_format)
        return refuse("HostPass::depth_format is " + std::to_string(pass.depth_format) + " and stencil_format " +
                      std::to_string(pass.stencil_format) +
                      ": one image holds both attachments of a render pass instance, so they are one format");
    const VkPhysicalDeviceLimits& limits = m.context->properties.limits;
    const auto samples = static_cast<std::uint32_t>(pass.samples);
    for (const bool depth : {true, false}) {
        const VkFormat format = depth ? pass.depth_format : pass.stencil_format;
        if (format == VK_FORMAT_UNDEFINED) continue;
        const std::string field = std::string("HostPass::") + (depth ? "depth_format" : "stencil_format") + " is " +
                                  std::to_string(format);
        bool has_depth = false, has_stencil = false;
        switch (format) {
            case VK_FORMAT_D16_UNORM: case VK_FORMAT_X8_D24_UNORM_PACK32: case VK_FORMAT_D32_SFLOAT:
                has_depth = true;
                break;
            case VK_FORMAT_S8_UINT: has_stencil = true; break;
            case VK_FORMAT_D16_UNORM_S8_UINT: case VK_FORMAT_D24_UNORM_S8_UINT: case VK_FORMAT_D32_SFLOAT_S8_UINT:
                has_depth = has_stencil = true;
                break;
            default: break;
        }
        if (depth ? !has_depth : !has_stencil)
            return refuse(field + ", a format without a " + (depth ? "depth" : "stencil") + " component");
        VkFormatProperties properties{};
        vkGetPhysicalDeviceFormatProperties(m.context->physical, format, &properties);
        if ((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) == 0)
            return refuse(field + ", which this device does not take as a depth/stencil attachment");
        if (((depth ? limits.framebufferDepthSampleCounts : limits.framebufferStencilSampleCounts) & samples) == 0)
            return refuse(field + ", which this device's framebuffers do not take at " + std::to_string(samples) +
                          " samples (HostPass::samples)");
    }
    return {};
}

// record_for_pass's refusals: a renderer on its own device, the tile path, or a `pass` that breaks HostPass's checked
// requirements.
Result<void> check_pass(const Renderer::Impl& m, const HostPass& pass, RenderPath path) {
    auto refuse = [](const std::string& why) { return make_error("renderer", "record_for_pass", why); };
    if (!m.context->borrowed)
        return refuse("this renderer made its own device, on which no render pass of the application's can be: lend "
                      "it yours (RendererDesc::host)");
    if (path == RenderPath::gpu_tiles)
        return refuse("the gpu-tiles path draws in compute, which no render pass can hold: draw in the application's "
                      "render pass through the gpu path, or onto its image through gpu-tiles (record_onto)");
    if (pass.render_pass == VK_NULL_HANDLE && !m.context->dynamic_rendering)
        return refuse("HostPass::render_pass is VK_NULL_HANDLE, which means a render pass instance begun with "
                      "vkCmdBeginRendering, and the application's device was made without dynamic rendering "
                      "(HostDevice::dynamic_rendering)");
    if (pass.render_pass == VK_NULL_HANDLE && pass.subpass != 0)
        return refuse("HostPass::subpass is " + std::to_string(pass.subpass) +
                      ", and a render pass instance begun with vkCmdBeginRendering (HostPass::render_pass "
                      "VK_NULL_HANDLE) has only subpass 0");
    if (pass.render_pass != VK_NULL_HANDLE &&
        (pass.depth_format != VK_FORMAT_UNDEFINED || pass.stencil_format != VK_FORMAT_UNDEFINED))
        return refuse("HostPass::depth_format and stencil_format are for dynamic rendering: with a render pass, "
                      "leave them VK_FORMAT_UNDEFINED (the render pass names its attachments)");
    if (Result<void> r = check_depth_stencil(m, pass); !r) return r;
    VkFormatProperties properties{};
    vkGetPhysicalDeviceFormatProperties(m.context->physical, pass.format, &properties);
    const std::string format = "HostPass::format is " + std::to_string(static_cast<int>(pass.format));
    if ((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT) == 0)
        return refuse(format + ", which this device does not blend into as a colour attachment");
    const VkPhysicalDeviceLimits& limits = m.context->properties.limits;
    const auto samples = static_cast<std::uint32_t>(pass.samples);
    if (samples == 0 || (samples & (samples - 1)) != 0 || (limits.framebufferColorSampleCounts & samples) == 0)
        return refuse("HostPass::samples is " + std::to_string(samples) +
                      ", not one sample count this device's framebuffers take");
    // (The viewport reaches from the framebuffer's corner to the area's far one: record_draw_calls.)
    const VkRect2D& area = pass.area;
    const std::uint64_t right = std::uint64_t{area.extent.width} + static_cast<std::uint32_t>(area.offset.x);
    const std::uint64_t bottom = std::uint64_t{area.extent.height} + static_cast<std::uint32_t>(area.offset.y);
    if (area.offset.x < 0 || area.offset.y < 0 || area.extent.width == 0 || area.extent.height == 0 ||
        right > std::min(limits.maxFramebufferWidth, limits.maxViewportDimensions[0]) ||
        bottom > std::min(limits.maxFramebufferHeight, limits.maxViewportDimensions[1]))
        return refuse("HostPass::area is " + std::to_string(area.extent.width) + "x" +
                      std::to_string(area.extent.height) + " at (" + std::to_string(area.offset.x) + ", " +
                      std::to_string(area.offset.y) +
                      "): empty, at a negative offset or past the largest framebuffer or viewport the device allows");
    return {};
}

}  // namespace

Result<RecordedFrame> Renderer::record_onto(VkCommandBuffer commands, const HostImage& target,
                                            std::span<const CharacterDraw> characters, const Camera2D& camera,
                                            RenderPath path, PoseJob poses) {
    Impl& m = *impl_;
    m.awaiting_draw.reset();
    if (Result<void> r = check_onto(m, target, path, "record_onto"); !r) return r.error();
    if (Result<void> r = prepare_recording(m, commands, "record_onto"); !r) return r.error();
    Result<FrameStats> stats = m.draw_frame(FrameTarget{&target, target.width, target.height, Color{}, commands},
                                            characters, camera, path, poses);
    if (!stats) return stats.error();
    return RecordedFrame{*stats, m.timeline, m.timeline_value};
}

Result<RecordedFrame> Renderer::record_for_pass(VkCommandBuffer commands, const HostPass& pass,
                                                std::span<const CharacterDraw> characters, const Camera2D& camera,
                                                RenderPath path, PoseJob poses) {
    Impl& m = *impl_;
    m.awaiting_draw.reset();
    if (Result<void> r = check_pass(m, pass, path); !r) return r.error();
    if (Result<void> r = prepare_recording(m, commands, "record_for_pass"); !r) return r.error();
    FrameTarget to{nullptr, pass.area.extent.width, pass.area.extent.height, Color{}, commands, &pass};
    Result<FrameStats> stats = m.draw_frame(to, characters, camera, path, poses);
    if (!stats) return stats.error();
    return RecordedFrame{*stats, m.timeline, m.timeline_value};
}

Result<FrameStats> Renderer::finish() {
    Impl& m = *impl_;
    if (Result<void> r = m.wait_all("finish"); !r) return r.error();
    if (m.last_frame < 0) return FrameStats{};
    return m.frames[static_cast<std::size_t>(m.last_frame)].stats;
}

Result<Image> Renderer::read_back() {
    Impl& m = *impl_;
    if (!m.target_drawn)
        return make_error("renderer", "read_back",
                          "no frame has been drawn into the renderer's own target (draw; draw_onto's frames are in the "
                          "application's images)");
    if (Result<void> done = m.wait_all("read_back"); !done) return done.error();
    Result<void> copied = m.submit_once([&](VkCommandBuffer cb) {
        // After every earlier command: the frame, and on the application's device its use of the image, which it
        // has put back in TRANSFER_SRC_OPTIMAL (FrameImage).
        image_barrier(cb, m.target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {m.width, m.height, 1};
        vkCmdCopyImageToBuffer(cb, m.target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, m.readback.buffer, 1, &copy);
        VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                             nullptr, 0, nullptr);
    });
    if (!copied) return copied.error();
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = m.readback.memory;
    range.size = VK_WHOLE_SIZE;
    vkInvalidateMappedMemoryRanges(m.context->device, 1, &range);
    Image image;
    image.width = m.width;
    image.height = m.height;
    const auto* src = static_cast<const std::uint8_t*>(m.readback.mapped);
    image.rgba.assign(src, src + std::size_t{m.width} * m.height * 4);
    unpremultiply_rgba8(image.rgba);
    return image;
}

Result<DrawnGeometry> Renderer::read_back_geometry() {
    Impl& m = *impl_;
    if (m.last_frame < 0) return make_error("renderer", "read_back_geometry", "no frame has been drawn");
    FrameSlot& f = m.frames[static_cast<std::size_t>(m.last_frame)];
    if (!f.drawn_path)
        return make_error("renderer", "read_back_geometry",
                          "the last draw failed after taking the last frame's slot, whose buffers it may have "
                          "remade");
    if (*f.drawn_path == RenderPath::gpu_vertex)
        return make_error("renderer", "read_back_geometry",
                          "the last frame went through the gpu_vertex path, which skins in the vertex shader and "
                          "writes no vertices");
    if (Result<void> done = m.wait_all("read_back_geometry"); !done) return done.error();
    if (!f.drawn_path)
        return make_error("renderer", "read_back_geometry",
                          "the last frame, recorded into the application's command buffer, never ran (the buffer was "
                          "dropped and its value signalled from the host)");
    const std::size_t vertex_count = f.stats.vertices, index_count = std::size_t{f.stats.triangles} * 3;
    const std::size_t vertex_bytes = vertex_count * sizeof(GpuOutVertex), index_bytes = index_count * 4;
    DrawnGeometry out;
    out.vertices.resize(vertex_count);
    out.indices.resize(index_count);
    if (*f.drawn_path == RenderPath::cpu) {
        // Written here, in mapped memory.
        if (vertex_bytes > 0) std::memcpy(out.vertices.data(), f.cpu_vertices.mapped, vertex_bytes);
        if (index_bytes > 0) std::memcpy(out.indices.data(), f.cpu_indices.mapped, index_bytes);
        return out;
    }
    if (vertex_bytes == 0 && index_bytes == 0) return out;
    // Written by the skinning pass, in device-local memory: copied into a buffer the host reads.
    GpuBuffer staging;
    staging.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (Result<void> made = create_buffer(*m.context, vertex_bytes + index_bytes, staging.usage, true, staging, true);
        !made)
        return made.error();
    Result<void> copied = m.submit_once([&](VkCommandBuffer cb) {
        VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        written.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &written,
                             0, nullptr, 0, nullptr);
        if (vertex_bytes > 0) {
            const VkBufferCopy vertices{0, 0, vertex_bytes};
            vkCmdCopyBuffer(cb, f.gpu_vertices.buffer, staging.buffer, 1, &vertices);
        }
        if (index_bytes > 0) {
            const VkBufferCopy indices{0, vertex_bytes, index_bytes};
            vkCmdCopyBuffer(cb, f.gpu_indices.buffer, staging.buffer, 1, &indices);
        }
        VkMemoryBarrier copied_out{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        copied_out.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        copied_out.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &copied_out, 0,
                             nullptr, 0, nullptr);
    });
    if (copied) {
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
        range.memory = staging.memory;
        range.size = VK_WHOLE_SIZE;
        vkInvalidateMappedMemoryRanges(m.context->device, 1, &range);
        const auto* bytes = static_cast<const std::uint8_t*>(staging.mapped);
        if (vertex_bytes > 0) std::memcpy(out.vertices.data(), bytes, vertex_bytes);
        if (index_bytes > 0) std::memcpy(out.indices.data(), bytes + vertex_bytes, index_bytes);
    }
    destroy_buffer(*m.context, staging);
    if (!copied) return copied.error();
    return out;
}

std::optional<FrameStats> Renderer::last_finished() const { return impl_->last_finished; }

Result<FrameImage> Renderer::frame_image() const {
    const Impl& m = *impl_;
    if (!m.context->borrowed)
        return make_error("renderer", "frame_image",
                          "this renderer made its own device, whose image no other code can use: lend it yours "
                          "(RendererDesc::host)");
    if (!m.target_drawn)
        return make_error("renderer", "frame_image",
                          "no frame has been drawn into the renderer's own target at this size (draw)");
    FrameImage image;
    image.image = m.target;
    image.view = m.target_view;
    image.width = m.width;
    image.height = m.height;
    image.generation = m.target_generation;
    return image;
}

Result<bool> Renderer::present(std::uint32_t width, std::uint32_t height) {
    Impl& m = *impl_;
    if (!m.presenter) return make_error("renderer", "present", "this renderer was made without a window");
    if (!m.target_drawn)
        return make_error("renderer", "present", "no frame has been drawn at this target size");
    return m.presenter->present(m.target, {m.width, m.height}, {width, height});
}

}  // namespace spinegpu::gpu
