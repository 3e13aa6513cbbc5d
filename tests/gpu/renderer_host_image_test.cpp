// Renderers drawing onto the application's own images (Renderer::draw_onto, HostImage) on its device. The application
// here is the test (host_vulkan_support.hpp): it fills its image with two backgrounds, one per half, submits that,
// lets the renderer draw onto the image, and copies the image out in a submission of its own, none of them waited for
// in between. Every pixel must be what a renderer on its own device draws into its own target cleared to that half's
// background: blending onto the application's pixels is blending onto a background.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// The halves' backgrounds: the left opaque, the right translucent; straight colours whose premultiplied bytes are
// exact (so that a clear and a packed colour agree): (51, 102, 153, 255) and (153, 0, 153, 153).
const Color k_left{0.2f, 0.4f, 0.6f, 1.0f};
const Color k_right{1.0f, 0.0f, 1.0f, 0.6f};

// The usage an image needs to be drawn onto through `path` (HostImage) and no other, as the application's images
// here are made: with SAMPLED (for SHADER_READ_ONLY_OPTIMAL) and transfers, for the test's own use.
VkImageUsageFlags usage_for(RenderPath path) {
    return (path == RenderPath::gpu_tiles ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
           VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
}

// The application's image: RGBA8 UNORM of the usage usage_for(path) gives, with a host-visible buffer to fill it from
// and one to copy it into. Each fill and each copy out is a submission of its own to the lent queue.
class AppImage {
public:
    AppImage(const HostDevice& host, std::uint32_t width, std::uint32_t height, std::uint64_t generation,
             RenderPath path)
        : host_(host), width_(width), height_(height), generation_(generation) {
        VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        image.imageType = VK_IMAGE_TYPE_2D;
        image.format = VK_FORMAT_R8G8B8A8_UNORM;
        image.extent = {width, height, 1};
        image.mipLevels = image.arrayLayers = 1;
        image.samples = VK_SAMPLE_COUNT_1_BIT;
        image.tiling = VK_IMAGE_TILING_OPTIMAL;
        image.usage = usage_for(path);
        EXPECT_EQ(vkCreateImage(device(), &image, nullptr, &image_), VK_SUCCESS);
        VkMemoryRequirements needs;
        vkGetImageMemoryRequirements(device(), image_, &needs);
        image_memory_ = allocate(needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        vkBindImageMemory(device(), image_, image_memory_, 0);
        VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view.image = image_;
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = VK_FORMAT_R8G8B8A8_UNORM;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        EXPECT_EQ(vkCreateImageView(device(), &view, nullptr, &view_), VK_SUCCESS);
        for (VkBuffer* buffer : {&upload_, &download_}) {
            VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
            info.size = bytes();
            info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
            EXPECT_EQ(vkCreateBuffer(device(), &info, nullptr, buffer), VK_SUCCESS);
            vkGetBufferMemoryRequirements(device(), *buffer, &needs);
            VkDeviceMemory& memory = buffer == &upload_ ? upload_memory_ : download_memory_;
            memory = allocate(needs, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
            vkBindBufferMemory(device(), *buffer, memory, 0);
        }
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool.queueFamilyIndex = host.queue_family;
        vkCreateCommandPool(device(), &pool, nullptr, &pool_);
        VkCommandBufferAllocateInfo buffers{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        buffers.commandPool = pool_;
        buffers.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        buffers.commandBufferCount = 2;
        vkAllocateCommandBuffers(device(), &buffers, commands_);
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // (nothing pending yet)
        for (VkFence* f : {&filled_, &copied_}) vkCreateFence(device(), &fence, nullptr, f);
    }
    AppImage(const AppImage&) = delete;
    AppImage& operator=(const AppImage&) = delete;
    ~AppImage() {
        const VkFence both[2] = {filled_, copied_};
        vkWaitForFences(device(), 2, both, VK_TRUE, ~std::uint64_t{0});
        for (VkFence f : {filled_, copied_}) vkDestroyFence(device(), f, nullptr);
        vkDestroyCommandPool(device(), pool_, nullptr);
        vkDestroyImageView(device(), view_, nullptr);
        vkDestroyImage(device(), image_, nullptr);
        for (VkBuffer b : {upload_, download_}) vkDestroyBuffer(device(), b, nullptr);
        for (VkDeviceMemory m : {image_memory_, upload_memory_, download_memory_}) vkFreeMemory(device(), m, nullptr);
    }

    // The image as draw_onto takes it, in `layout`; with another generation when `generation` is not 0.
    HostImage target(VkImageLayout layout, std::uint64_t generation = 0) const {
        return HostImage{image_,  view_,  VK_FORMAT_R8G8B8A8_UNORM,
                         width_,  height_, layout,
                         generation != 0 ? generation : generation_};
    }

    // Submits, without waiting, a copy of `premultiplied` (RGBA8, width x height) into the image, leaving it in
    // `layout`.
    void fill(std::span<const std::uint8_t> premultiplied, VkImageLayout layout) {
        ASSERT_EQ(premultiplied.size(), bytes());
        ASSERT_EQ(vkWaitForFences(device(), 1, &filled_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
        vkResetFences(device(), 1, &filled_);
        void* mapped = nullptr;
        vkMapMemory(device(), upload_memory_, 0, VK_WHOLE_SIZE, 0, &mapped);
        std::memcpy(mapped, premultiplied.data(), bytes());
        vkUnmapMemory(device(), upload_memory_);
        VkCommandBuffer cb = begin(0);
        // (Whatever used the image before has finished: its fences were waited for.)
        barrier(cb, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {width_, height_, 1};
        vkCmdCopyBufferToImage(cb, upload_, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
        // Into the layout draw_onto is told of; the renderer's frame waits for every earlier command itself.
        barrier(cb, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0);
        submit(cb, filled_);
    }

    // Submits a copy of the image, in `layout`, into the host-visible buffer, leaving the image in
    // TRANSFER_SRC_OPTIMAL, and returns the copy once done, as straight-alpha RGBA8 (unpremultiply_rgba8, as
    // read_back).
    std::vector<std::uint8_t> straight_pixels(VkImageLayout layout) {
        EXPECT_EQ(vkWaitForFences(device(), 1, &copied_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
        vkResetFences(device(), 1, &copied_);
        VkCommandBuffer cb = begin(1);
        // The renderer's frame left its writes visible to every later command: the barrier only changes layout.
        barrier(cb, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferImageCopy copy{};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {width_, height_, 1};
        vkCmdCopyImageToBuffer(cb, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, download_, 1, &copy);
        VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                             nullptr, 0, nullptr);
        submit(cb, copied_);
        EXPECT_EQ(vkWaitForFences(device(), 1, &copied_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
        void* mapped = nullptr;
        vkMapMemory(device(), download_memory_, 0, VK_WHOLE_SIZE, 0, &mapped);
        std::vector<std::uint8_t> out(bytes());
        std::memcpy(out.data(), mapped, out.size());
        vkUnmapMemory(device(), download_memory_);
        unpremultiply_rgba8(out);
        return out;
    }

private:
    VkDevice device() const { return host_.device; }
    std::size_t bytes() const { return std::size_t{width_} * height_ * 4; }
    VkDeviceMemory allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags properties) {
        VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        info.allocationSize = needs.size;
        info.memoryTypeIndex = find_memory_type(host_.physical, needs.memoryTypeBits, properties);
        VkDeviceMemory memory = VK_NULL_HANDLE;
        EXPECT_EQ(vkAllocateMemory(device(), &info, nullptr, &memory), VK_SUCCESS);
        return memory;
    }
    VkCommandBuffer begin(int k) {
        VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(commands_[k], &info);
        return commands_[k];
    }
    void barrier(VkCommandBuffer cb, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src_stage,
                 VkAccessFlags src_access, VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
        VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        b.srcAccessMask = src_access;
        b.dstAccessMask = dst_access;
        b.oldLayout = from;
        b.newLayout = to;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = image_;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &b);
    }
    void submit(VkCommandBuffer cb, VkFence fence) {
        vkEndCommandBuffer(cb);
        VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        info.commandBufferCount = 1;
        info.pCommandBuffers = &cb;
        EXPECT_EQ(vkQueueSubmit(host_.queue, 1, &info, fence), VK_SUCCESS);
    }

    const HostDevice& host_;
    std::uint32_t width_, height_;
    std::uint64_t generation_;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkDeviceMemory image_memory_ = VK_NULL_HANDLE;
    VkBuffer upload_ = VK_NULL_HANDLE, download_ = VK_NULL_HANDLE;
    VkDeviceMemory upload_memory_ = VK_NULL_HANDLE, download_memory_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer commands_[2] = {};
    VkFence filled_ = VK_NULL_HANDLE, copied_ = VK_NULL_HANDLE;  // signalled when no fill, no copy out is pending
};

// The two backgrounds as the application's image holds them: premultiplied RGBA8, the left half k_left (columns
// below width / 2), the rest k_right.
std::vector<std::uint8_t> two_backgrounds(std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> out(std::size_t{width} * height * 4);
    for (std::uint32_t y = 0; y < height; ++y)
        for (std::uint32_t x = 0; x < width; ++x) {
            const Color c = x < width / 2 ? k_left : k_right;
            const std::uint32_t packed = gpu::pack_rgba8({c.r * c.a, c.g * c.a, c.b * c.a, c.a});
            std::memcpy(&out[(std::size_t{y} * width + x) * 4], &packed, 4);
        }
    return out;
}

// What `own`, a renderer on its own device, draws of `characters` over two_backgrounds: its frame over k_left for the
// left half, over k_right for the rest (straight RGBA8, as read_back gives it); empty after recording a failure.
std::vector<std::uint8_t> drawn_over_two_backgrounds(Renderer& own, std::span<const CharacterDraw> characters,
                                                     const Camera2D& camera, std::uint32_t width,
                                                     std::uint32_t height, RenderPath path) {
    std::vector<std::uint8_t> halves[2];
    for (int k = 0; k < 2; ++k) {
        Result<FrameStats> drawn = own.draw(characters, camera, width, height, k == 0 ? k_left : k_right, path);
        EXPECT_TRUE(drawn.ok()) << drawn.error().message();
        Result<Image> image = own.read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        if (!drawn || !image) return {};
        halves[k] = std::move(image->rgba);
    }
    std::vector<std::uint8_t> out = std::move(halves[1]);
    for (std::uint32_t y = 0; y < height; ++y)
        std::memcpy(&out[std::size_t{y} * width * 4], &halves[0][std::size_t{y} * width * 4], width / 2 * 4);
    return out;
}

// How many pixels of `frame` (straight RGBA8, drawn over transparency) composited over two_backgrounds ("over",
// premultiplied) differ from `drawn` (straight RGBA8) by more than 8/255 in a channel: what compositing a frame drawn
// apart would get wrong against drawing onto the image.
std::uint32_t composite_differences(const std::vector<std::uint8_t>& frame, const std::vector<std::uint8_t>& drawn,
                                    std::uint32_t width) {
    std::uint32_t n = 0;
    for (std::size_t i = 0; i + 3 < frame.size() && i + 3 < drawn.size(); i += 4) {
        const Color b = (i / 4) % width < width / 2 ? k_left : k_right;
        const float sa = frame[i + 3] / 255.0f;
        const float alpha = sa + b.a * (1 - sa);
        const float background[3] = {b.r, b.g, b.b};
        bool off = std::abs(alpha * 255 - drawn[i + 3]) > 8;
        for (int k = 0; k < 3 && alpha > 0; ++k) {
            const float premultiplied = frame[i + k] / 255.0f * sa + background[k] * b.a * (1 - sa);
            off = off || std::abs(premultiplied / alpha * 255 - drawn[i + k]) > 8;
        }
        n += off ? 1 : 0;
    }
    return n;
}

// How many pixels of two straight RGBA8 images differ in any channel.
std::uint32_t pixels_differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    if (a.size() != b.size()) return ~0u;
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < a.size(); i += 4) n += std::memcmp(&a[i], &b[i], 4) != 0 ? 1 : 0;
    return n;
}

// The scenes drawn: the forty spineboys (additive slots, tints, translucency) and a tank firing (multiply and
// additive slots), each with its camera. Both renderers draw the same poses: each type is added to the lent renderer
// with the skeleton data it was added to `own` with (pages loaded again, as a renderer takes them).
struct Scenes {
    std::optional<SpineboyCrowd> crowd;
    std::optional<AddedType> tank;
    std::unique_ptr<Player> tank_player;
    std::vector<CharacterDraw> tank_draw;
    Camera2D crowd_camera{0.18f, k_width / 2.0f, k_height / 2.0f}, tank_camera;
};

// Adds `added` (a type of another renderer) to `renderer` at the same index; false after recording a failure.
bool add_again(Renderer& renderer, const AddedType& added, const std::string& skeleton, const std::string& atlas) {
    std::unique_ptr<DrawableType> pages = load_drawable(skeleton, atlas);
    if (!pages) return false;
    const LoadedSkeleton& loaded = *added.drawable->loaded;
    Result<std::uint32_t> type =
        renderer.add_skeleton_type(loaded.data, loaded.atlas, loaded.binding, std::move(pages->pages), skeleton);
    EXPECT_TRUE(type.ok()) << type.error().message();
    return type && *type == added.type;
}

// Loads the scenes' types into both renderers and poses the tank; false after recording a failure.
bool load_scenes(Renderer& own, Renderer& lent, Scenes& s) {
    s.crowd = load_spineboy_crowd(own);
    s.tank = load_type(own, "tank/tank-pro.skel", "tank/tank.atlas", "tank");
    if (!s.crowd || !s.tank ||
        !add_again(lent, s.crowd->spineboy, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas") ||
        !add_again(lent, *s.tank, "tank/tank-pro.skel", "tank/tank.atlas"))
        return false;
    const SkeletonData& tank = s.tank->data();
    s.tank_player = std::make_unique<Player>(tank, k_none, tank.animation_names.find("shoot"));
    for (int step = 0; step < 20; ++step) s.tank_player->step(1.0 / 60);  // (the shot's flash and smoke)
    s.tank_draw = {CharacterDraw{&s.tank_player->pose, s.tank->type, Color{}}};
    s.tank_camera = fit(s.tank_player->pose, s.tank->binding());
    return true;
}

// On every path, onto an image left in each of four layouts in turn: the frame the application copies out equals,
// pixel for pixel, what a renderer on its own device draws over each half's background, and differs from compositing
// a frame drawn apart where additive slots lie over the backgrounds. The validation layer (synchronization validation
// included) reports nothing on either device, nor anything left on the application's.
TEST(RendererOnHostDevice, draws_onto_the_application_image_as_into_its_own_target_over_the_same_background) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        Scenes scenes;
        ASSERT_TRUE(load_scenes(*own, *lent, scenes));
        int case_index = 0;
        std::uint64_t generation = 0;
        // (The tile path first: its image is destroyed before the other paths' frames, which must not touch it.)
        for (RenderPath path : {RenderPath::gpu_tiles, RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex}) {
            // (A colour attachment layout only for images made for the raster paths.)
            const bool tiles = path == RenderPath::gpu_tiles;
            const VkImageLayout layouts[] = {VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                             tiles ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
            AppImage image(host->lent, k_width, k_height, ++generation, path);
            for (int scene = 0; scene < 2; ++scene) {
                const std::span<const CharacterDraw> characters =
                    scene == 0 ? std::span<const CharacterDraw>(scenes.crowd->characters) : scenes.tank_draw;
                const Camera2D& camera = scene == 0 ? scenes.crowd_camera : scenes.tank_camera;
                const VkImageLayout layout = layouts[case_index++ % 4];
                const std::string where = "path " + std::to_string(static_cast<int>(path)) + ", scene " +
                                          std::to_string(scene) + ", layout " + std::to_string(layout);
                if (path == RenderPath::gpu_vertex && scene == 1) continue;  // (the tank has draw-order timelines)
                const std::vector<std::uint8_t> expected =
                    drawn_over_two_backgrounds(*own, characters, camera, k_width, k_height, path);
                ASSERT_FALSE(expected.empty()) << where;
                image.fill(two_backgrounds(k_width, k_height), layout);
                Result<FrameStats> drawn = lent->draw_onto(image.target(layout), characters, camera, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                EXPECT_EQ(drawn->characters, characters.size()) << where;
                const std::vector<std::uint8_t> seen = image.straight_pixels(layout);
                EXPECT_GT(pixels_differing(seen, drawn_over_two_backgrounds(*own, {}, camera, k_width, k_height,
                                                                            path)),
                          1000u)
                    << where << ": the characters cover too little to tell";
                EXPECT_EQ(pixels_differing(seen, expected), 0u) << where;
                // Where the crowd's additive slots (muzzle flashes, the portal) lie over the backgrounds,
                // compositing its frame drawn apart over them would be wrong: what draw_onto is for. (The tank's
                // multiply and additive slots lie over its own pixels in this pose.)
                if (scene == 0) {
                    ASSERT_TRUE(own->draw(characters, camera, k_width, k_height, Color{0, 0, 0, 0}, path).ok());
                    Result<Image> apart = own->read_back();
                    ASSERT_TRUE(apart.ok());
                    EXPECT_GT(composite_differences(apart->rgba, seen, k_width), 20u) << where;
                }
            }
        }
        Result<FrameStats> done = lent->finish();
        EXPECT_TRUE(done.ok());
    }
    expect_no_validation_messages(*own);
    host->destroy_device();  // (the validation layer reports what the renderer left on it)
    expect_no_host_messages(*host);
}

// Frames into the renderer's own target and onto two application images of two sizes, in turn, each keep to their
// own image: each application image holds what was drawn onto it, and read_back and frame_image still give the own
// target's last frame. A frame slot rewrites the tile path's target binding only when its image, or the image's
// generation, changes. Destroying the application's images before the renderer, and then the renderer, leaves
// nothing on the device.
TEST(RendererOnHostDevice, frames_onto_application_images_and_into_its_own_target_keep_to_their_images) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        Scenes scenes;
        ASSERT_TRUE(load_scenes(*own, *lent, scenes));
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const std::uint32_t small = k_width / 2 + 8;  // (the second image's size)
        const Camera2D small_camera{0.09f, small / 2.0f, small / 2.0f};
        std::uint64_t generation = 0;
        for (RenderPath path : {RenderPath::gpu_tiles, RenderPath::gpu}) {
            const std::string where = "path " + std::to_string(static_cast<int>(path));
            auto big = std::make_unique<AppImage>(host->lent, k_width, k_height, ++generation, path);
            auto little = std::make_unique<AppImage>(host->lent, small, small, ++generation, path);
            const std::vector<std::uint8_t> expected_big =
                drawn_over_two_backgrounds(*own, crowd, scenes.crowd_camera, k_width, k_height, path);
            const std::vector<std::uint8_t> expected_little =
                drawn_over_two_backgrounds(*own, crowd, small_camera, small, small, path);
            ASSERT_TRUE(own->draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok());
            Result<Image> expected_own = own->read_back();
            ASSERT_TRUE(expected_own.ok());

            for (int round = 0; round < 2; ++round) {
                // (The renderer's first frames of each path go onto the application's images; own-target frames of
                // the same path, in both slots, come between the rounds.)
                for (int k = 0; k < 2 && round == 1; ++k)
                    ASSERT_TRUE(lent->draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok()) << where;
                // (In the other order the second time, so that each frame slot draws onto the other image.)
                AppImage* const order[2] = {round == 0 ? big.get() : little.get(),
                                            round == 0 ? little.get() : big.get()};
                for (AppImage* image : order) {
                    const bool is_big = image == big.get();
                    image->fill(two_backgrounds(is_big ? k_width : small, is_big ? k_height : small),
                                VK_IMAGE_LAYOUT_GENERAL);
                    Result<FrameStats> drawn = lent->draw_onto(image->target(VK_IMAGE_LAYOUT_GENERAL), crowd,
                                                               is_big ? scenes.crowd_camera : small_camera, path);
                    ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                }
                EXPECT_EQ(pixels_differing(big->straight_pixels(VK_IMAGE_LAYOUT_GENERAL), expected_big), 0u)
                    << where << ", round " << round;
                EXPECT_EQ(pixels_differing(little->straight_pixels(VK_IMAGE_LAYOUT_GENERAL), expected_little), 0u)
                    << where << ", round " << round;
            }
            // The own target still holds the draw() frame.
            Result<Image> kept = lent->read_back();
            ASSERT_TRUE(kept.ok()) << where << ": " << kept.error().message();
            EXPECT_EQ(pixels_differing(kept->rgba, expected_own->rgba), 0u) << where;
            EXPECT_TRUE(lent->frame_image().ok()) << where;

            // Ten more frames, not read in between: onto the big image (left in TRANSFER_SRC by its copy out) but
            // frames 6 and 7, into the own target through the gpu path. Once both slots have drawn onto the image,
            // their bindings stay, frames of another path between them included; a new generation of the same image
            // (from frame 4) is rewritten (the tile path's binding).
            std::uint32_t writes[10] = {};
            const std::uint64_t renewed = ++generation;
            for (int frame = 0; frame < 10; ++frame) {
                const HostImage target =
                    big->target(VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, frame >= 4 ? renewed : 0);
                Result<FrameStats> drawn =
                    frame == 6 || frame == 7
                        ? lent->draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, RenderPath::gpu)
                        : lent->draw_onto(target, crowd, scenes.crowd_camera, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                writes[frame] = drawn->descriptor_writes;
            }
            EXPECT_EQ(writes[2] + writes[3] + writes[8] + writes[9], 0u) << where;
            if (path == RenderPath::gpu_tiles) {
                EXPECT_GT(writes[0] + writes[1], 0u) << where;
                EXPECT_EQ(writes[4], 1u) << where;
                EXPECT_EQ(writes[5], 1u) << where;
            }
            EXPECT_TRUE(lent->finish().ok());
            big.reset();
            little.reset();
            ASSERT_TRUE(lent->draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok()) << where;
            Result<Image> back = lent->read_back();
            ASSERT_TRUE(back.ok()) << where << ": " << back.error().message();
            EXPECT_EQ(pixels_differing(back->rgba, expected_own->rgba), 0u) << where;
        }
    }
    expect_no_validation_messages(*own);
    host->destroy_device();
    expect_no_host_messages(*host);
}

// What cannot be drawn onto is refused, naming the fault: any image on a renderer with its own device; on the
// application's, a missing image or view, a format other than RGBA8 UNORM, an empty size and a layout that would
// discard the image. A renderer that has drawn only onto the application's images has no frame to read back.
TEST(RendererOnHostDevice, what_it_cannot_draw_onto_is_refused_naming_the_field) {
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        AppImage image(host->lent, 16, 16, 1, RenderPath::gpu);
        image.fill(two_backgrounds(16, 16), VK_IMAGE_LAYOUT_GENERAL);
        const HostImage fine = image.target(VK_IMAGE_LAYOUT_GENERAL);
        const auto refusal = [](Renderer& renderer, const HostImage& target) {
            Result<FrameStats> drawn = renderer.draw_onto(target, {}, Camera2D{}, RenderPath::gpu);
            return drawn ? std::string("drawn") : drawn.error().message();
        };
        EXPECT_NE(refusal(*own, fine).find("RendererDesc::host"), std::string::npos) << refusal(*own, fine);
        HostImage wrong = fine;
        wrong.image = VK_NULL_HANDLE;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::image is VK_NULL_HANDLE"), std::string::npos);
        wrong = fine;
        wrong.view = VK_NULL_HANDLE;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::view is VK_NULL_HANDLE"), std::string::npos);
        wrong = fine;
        wrong.format = VK_FORMAT_B8G8R8A8_UNORM;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::format is 44"), std::string::npos) << refusal(*lent, wrong);
        wrong = fine;
        wrong.height = 0;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::width x height is 16x0"), std::string::npos)
            << refusal(*lent, wrong);
        wrong = fine;
        wrong.layout = VK_IMAGE_LAYOUT_UNDEFINED;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::layout is VK_IMAGE_LAYOUT_UNDEFINED"), std::string::npos);
        // The frame's own refusals name the call.
        const CharacterDraw posed_by_nobody{nullptr, 0, Color{}};
        Result<FrameStats> unposed = lent->draw_onto(fine, {&posed_by_nobody, 1}, Camera2D{}, RenderPath::gpu);
        ASSERT_FALSE(unposed.ok());
        EXPECT_NE(unposed.error().message().find("draw_onto: a character's pose is missing"), std::string::npos)
            << unposed.error().message();
        EXPECT_EQ(refusal(*lent, fine), "drawn");  // (no characters: the image as it was)
        EXPECT_TRUE(lent->finish().ok());
        // Frames drawn onto the application's images leave none in the renderer's own target.
        Result<Image> none = lent->read_back();
        ASSERT_FALSE(none.ok());
        EXPECT_NE(none.error().message().find("own target"), std::string::npos) << none.error().message();
        EXPECT_FALSE(lent->frame_image().ok());
    }
    host->destroy_device();
    expect_no_host_messages(*host);
}

}  // namespace
}  // namespace spinegpu::test
