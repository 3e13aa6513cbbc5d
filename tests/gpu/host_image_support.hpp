// The application's images in the tests of drawing onto them (Renderer::draw_onto and record_onto, HostImage): an
// image it fills with two backgrounds and copies out, what a renderer on its own device draws over the same
// backgrounds, and the scenes both renderers draw.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {

// The halves' backgrounds: the left opaque, the right translucent; straight colours whose premultiplied bytes are
// exact (so that a clear and a packed colour agree): (51, 102, 153, 255) and (153, 0, 153, 153).
inline constexpr Color k_left{0.2f, 0.4f, 0.6f, 1.0f};
inline constexpr Color k_right{1.0f, 0.0f, 1.0f, 0.6f};

// The usage an image needs to be drawn onto through `path` (HostImage) and no other, as the application's images
// here are made: with SAMPLED (for SHADER_READ_ONLY_OPTIMAL) and transfers, for the test's own use.
VkImageUsageFlags usage_for(gpu::RenderPath path);

// The application's image: RGBA8 UNORM (or `format`: BGRA8 UNORM, or either in sRGB, whose bytes go in and come out
// encoded, as they are) of the usage usage_for(path) gives, with a host-visible buffer to fill it from and one to copy
// it into; its pixels go in and come out as RGBA, whatever the format. fill and straight_pixels each submit on their
// own to the lent queue; record_fill and record_copy_out record the same into a command buffer of the application's.
class AppImage {
public:
    AppImage(const gpu::HostDevice& host, std::uint32_t width, std::uint32_t height, std::uint64_t generation,
             gpu::RenderPath path, VkFormat format = VK_FORMAT_R8G8B8A8_UNORM);
    AppImage(const AppImage&) = delete;
    AppImage& operator=(const AppImage&) = delete;
    // Waits for its own submissions, then destroys the image and its buffers.
    ~AppImage();

    // The image as draw_onto takes it, in `layout`; with another generation when `generation` is not 0.
    gpu::HostImage target(VkImageLayout layout, std::uint64_t generation = 0) const;

    // Submits, without waiting, a copy of `premultiplied` (RGBA8, width x height) into the image, leaving it in
    // `layout`.
    void fill(std::span<const std::uint8_t> premultiplied, VkImageLayout layout);
    // Submits a copy of the image, in `layout`, into the host-visible buffer, leaving the image in
    // TRANSFER_SRC_OPTIMAL, and returns the copy once done, as straight-alpha RGBA8 (unpremultiply_rgba8, as
    // read_back).
    std::vector<std::uint8_t> straight_pixels(VkImageLayout layout);
    // As straight_pixels, but the pixels as the image stores them (premultiplied), only reordered to RGBA.
    std::vector<std::uint8_t> stored_pixels(VkImageLayout layout);

    // Writes `premultiplied` to the upload buffer (nothing of the image's own submissions may be pending), and records
    // into `cb` its copy into the image, left in `layout`, after every earlier command in `cb`.
    void record_fill(VkCommandBuffer cb, std::span<const std::uint8_t> premultiplied, VkImageLayout layout);
    // Records into `cb` the copy of the image, in `layout`, into the host-visible buffer (left in
    // TRANSFER_SRC_OPTIMAL), made visible to the host.
    void record_copy_out(VkCommandBuffer cb, VkImageLayout layout);
    // The host-visible buffer's copy, as straight-alpha RGBA8, once the submission that recorded it has completed.
    std::vector<std::uint8_t> copied_out() const;
    // As copied_out, but premultiplied, as the image stores them.
    std::vector<std::uint8_t> copied_out_stored() const;

private:
    VkDevice device() const { return host_.device; }
    std::size_t bytes() const { return std::size_t{width_} * height_ * 4; }
    VkDeviceMemory allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags properties);
    VkCommandBuffer begin(int k);
    void barrier(VkCommandBuffer cb, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src_stage,
                 VkAccessFlags src_access, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
    void submit(VkCommandBuffer cb, VkFence fence);

    const gpu::HostDevice& host_;
    std::uint32_t width_, height_;
    std::uint64_t generation_;
    VkFormat format_;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkDeviceMemory image_memory_ = VK_NULL_HANDLE;
    VkBuffer upload_ = VK_NULL_HANDLE, download_ = VK_NULL_HANDLE;
    VkDeviceMemory upload_memory_ = VK_NULL_HANDLE, download_memory_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_[2] = {};
    VkFence filled_ = VK_NULL_HANDLE, copied_ = VK_NULL_HANDLE;  // signalled when no fill, no copy out is pending
};

// The application's command buffers, `count` of them, and a fence per buffer for its own waits: what it records the
// renderer's frames into (Renderer::record_onto); and `secondaries` secondary command buffers from the same pool.
class AppCommands {
public:
    AppCommands(const gpu::HostDevice& host, std::uint32_t count, std::uint32_t secondaries = 0);
    AppCommands(const AppCommands&) = delete;
    AppCommands& operator=(const AppCommands&) = delete;
    // Waits until the queue is idle, then destroys the command buffers and fences.
    ~AppCommands();

    // Command buffer `k`, reset and begun.
    VkCommandBuffer begin(std::uint32_t k);
    // Ends command buffer `k` and submits it to the lent queue, signalling `frame`'s value, and fence `k`; with
    // `wait`, a timeline semaphore, waiting for it to reach `wait_value` first.
    void submit(std::uint32_t k, const gpu::RecordedFrame& frame, VkSemaphore wait = VK_NULL_HANDLE,
                std::uint64_t wait_value = 0);
    // Command buffer `k` as it is (recording, when begun and not yet submitted).
    VkCommandBuffer buffer(std::uint32_t k) const { return buffers_[k]; }
    // Secondary command buffer `k`, as it is.
    VkCommandBuffer secondary(std::uint32_t k) const { return secondaries_[k]; }
    // Waits for the submission of command buffer `k`.
    void wait(std::uint32_t k);

private:
    const gpu::HostDevice& host_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<VkCommandBuffer> buffers_, secondaries_;
    std::vector<VkFence> fences_;
};

// The two backgrounds as the application's image holds them: premultiplied RGBA8, the left half k_left (columns
// below width / 2), the rest k_right.
std::vector<std::uint8_t> two_backgrounds(std::uint32_t width, std::uint32_t height);

// What `own`, a renderer on its own device, draws of `characters` over two_backgrounds: its frame over k_left for the
// left half, over k_right for the rest (straight RGBA8, as read_back gives it); empty after recording a failure. With
// an `offset`, what it draws in a `width` x `height` area at that offset of a larger frame (the area's pixels only): a
// frame reaching from the corner to the area's far corner, the camera moved by the offset, which is the arithmetic
// the renderer does for such an area (Renderer::record_in_pass), cut to the area, each half over its background.
std::vector<std::uint8_t> drawn_over_two_backgrounds(gpu::Renderer& own,
                                                     std::span<const gpu::CharacterDraw> characters,
                                                     gpu::Camera2D camera, std::uint32_t width, std::uint32_t height,
                                                     gpu::RenderPath path, VkOffset2D offset = {0, 0});

// How many pixels of two straight RGBA8 images differ by more than `steps` in some channel of their premultiplied
// values (each colour times its pixel's alpha / 255, rounded: what the images held before readback divided by alpha,
// within its rounding).
std::uint32_t pixels_off_by_more_than(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                                      int steps);

// How many pixels of two straight RGBA8 images differ in any channel.
std::uint32_t pixels_differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b);

// The scenes drawn: the forty spineboys (additive slots, tints, translucency), a tank firing (multiply and additive
// slots) and the tank earlier in its shot, its glow clipped (a clipping attachment in view), each with its camera.
// Both renderers draw the same poses: each type is added to the lent renderer with the skeleton data it was added to
// `own` with (pages loaded again, as a renderer takes them).
struct Scenes {
    std::optional<SpineboyCrowd> crowd;
    std::optional<AddedType> tank;
    std::unique_ptr<Player> tank_player, clipped_player;
    std::vector<gpu::CharacterDraw> tank_draw, clipped_draw;
    gpu::Camera2D crowd_camera{0.18f, k_width / 2.0f, k_height / 2.0f}, tank_camera, clipped_camera;

    // The characters and the camera of scene 0 (the crowd), 1 (the tank) or 2 (the tank clipped).
    std::span<const gpu::CharacterDraw> characters(int scene) const;
    const gpu::Camera2D& camera(int scene) const;
};

// One frame onto the application's image: its path, its scene (Scenes), the layout the image is in and left in, and
// words naming the case in failures.
struct OntoCase {
    gpu::RenderPath path;
    int scene = 0;
    VkImageLayout layout;
    std::string where;
};

// Every path with both scenes (the crowd alone through gpu_vertex, which cannot follow the tank's draw-order
// timelines), the tile path first, the image in GENERAL, SHADER_READ_ONLY_OPTIMAL, COLOR_ATTACHMENT_OPTIMAL (GENERAL
// on the tile path, whose images are no colour attachments) and TRANSFER_DST_OPTIMAL in turn.
std::vector<OntoCase> onto_cases();

// Expects `seen` (straight RGBA8, k_width x k_height, drawn over two_backgrounds) to equal `expected` pixel for pixel,
// and to differ from what `own` draws with `camera` of no characters in more than 1,000 pixels (enough drawn to tell).
void expect_drawn_as(const std::vector<std::uint8_t>& seen, const std::vector<std::uint8_t>& expected,
                     gpu::Renderer& own, const gpu::Camera2D& camera, const OntoCase& c);

// Loads the scenes' types into both renderers and poses the tank; false after recording a failure.
bool load_scenes(gpu::Renderer& own, gpu::Renderer& lent, Scenes& s);

// The whole body of a test on the application's device: runs `body` with a renderer on its own device (the test
// skipped as SPINEGPU_REQUIRE_EXAMPLES and SPINEGPU_REQUIRE_RENDERER skip it), the application's device (make_host
// with all_features), a renderer lent that device, and the scenes loaded into both. Once `body` has returned (its own
// Vulkan objects destroyed), destroys the lent renderer, then the application's device, expecting the validation
// layer to have reported nothing on either; a fatal failure in `body` ends the test there instead, as it would in the
// test's own body.
void on_lent_device(
    const std::function<void(gpu::Renderer& own, HostVulkan& host, gpu::Renderer& lent, Scenes& scenes)>& body);

}  // namespace spinegpu::test
