// The application's images in the tests of drawing onto them (host_image_support.hpp).
#include "host_image_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::test {

using namespace spinegpu::gpu;

namespace {

// Whether `format` holds its pixels as BGRA8.
bool is_bgra(VkFormat format) { return format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB; }

// Swaps the first and third byte of every pixel: RGBA8 to BGRA8 and back.
void swap_red_and_blue(std::span<std::uint8_t> pixels) {
    for (std::size_t i = 0; i + 3 < pixels.size(); i += 4) std::swap(pixels[i], pixels[i + 2]);
}

}  // namespace

VkImageUsageFlags usage_for(RenderPath path) {
    return (path == RenderPath::gpu_tiles ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
           VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
}

AppImage::AppImage(const HostDevice& host, std::uint32_t width, std::uint32_t height, std::uint64_t generation,
                   RenderPath path, VkFormat format)
    : host_(host), width_(width), height_(height), generation_(generation), format_(format) {
    VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    image.imageType = VK_IMAGE_TYPE_2D;
    image.format = format;
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
    view.format = format;
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

AppImage::~AppImage() {
    const VkFence both[2] = {filled_, copied_};
    vkWaitForFences(device(), 2, both, VK_TRUE, ~std::uint64_t{0});
    for (VkFence f : {filled_, copied_}) vkDestroyFence(device(), f, nullptr);
    vkDestroyCommandPool(device(), pool_, nullptr);
    vkDestroyImageView(device(), view_, nullptr);
    vkDestroyImage(device(), image_, nullptr);
    for (VkBuffer b : {upload_, download_}) vkDestroyBuffer(device(), b, nullptr);
    for (VkDeviceMemory m : {image_memory_, upload_memory_, download_memory_}) vkFreeMemory(device(), m, nullptr);
}

HostImage AppImage::target(VkImageLayout layout, std::uint64_t generation) const {
    return HostImage{image_, view_, format_, width_, height_, layout, generation != 0 ? generation : generation_};
}

void AppImage::fill(std::span<const std::uint8_t> premultiplied, VkImageLayout layout) {
    ASSERT_EQ(vkWaitForFences(device(), 1, &filled_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
    vkResetFences(device(), 1, &filled_);
    VkCommandBuffer cb = begin(0);
    record_fill(cb, premultiplied, layout);
    submit(cb, filled_);
}

void AppImage::record_fill(VkCommandBuffer cb, std::span<const std::uint8_t> premultiplied, VkImageLayout layout) {
    ASSERT_EQ(premultiplied.size(), bytes());
    void* mapped = nullptr;
    vkMapMemory(device(), upload_memory_, 0, VK_WHOLE_SIZE, 0, &mapped);
    std::memcpy(mapped, premultiplied.data(), bytes());
    if (is_bgra(format_)) swap_red_and_blue({static_cast<std::uint8_t*>(mapped), bytes()});
    vkUnmapMemory(device(), upload_memory_);
    // After every earlier command (the renderer's last frame on the image included): its contents are discarded.
    barrier(cb, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {width_, height_, 1};
    vkCmdCopyBufferToImage(cb, upload_, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    // Into the layout the renderer is told of; its frame waits for every earlier command itself.
    barrier(cb, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0);
}

std::vector<std::uint8_t> AppImage::straight_pixels(VkImageLayout layout) {
    std::vector<std::uint8_t> pixels = stored_pixels(layout);
    unpremultiply_rgba8(pixels);
    return pixels;
}

std::vector<std::uint8_t> AppImage::stored_pixels(VkImageLayout layout) {
    EXPECT_EQ(vkWaitForFences(device(), 1, &copied_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
    vkResetFences(device(), 1, &copied_);
    VkCommandBuffer cb = begin(1);
    record_copy_out(cb, layout);
    submit(cb, copied_);
    EXPECT_EQ(vkWaitForFences(device(), 1, &copied_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
    return copied_out_stored();
}

void AppImage::record_copy_out(VkCommandBuffer cb, VkImageLayout layout) {
    // The renderer's frame left its writes available and visible to every later command: the barrier only changes
    // layout, and srcAccessMask 0 would do. MEMORY_WRITE keeps Debian 12's validation layer (1.3.239) from reporting
    // a false WRITE_AFTER_WRITE for a layout transition after writes made available by a chained barrier within one
    // command buffer (its issue 6508, fixed in 1.3.268).
    barrier(cb, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
            VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {width_, height_, 1};
    vkCmdCopyImageToBuffer(cb, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, download_, 1, &copy);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
                         0, nullptr);
}

std::vector<std::uint8_t> AppImage::copied_out() const {
    std::vector<std::uint8_t> out = copied_out_stored();
    unpremultiply_rgba8(out);
    return out;
}

std::vector<std::uint8_t> AppImage::copied_out_stored() const {
    void* mapped = nullptr;
    vkMapMemory(device(), download_memory_, 0, VK_WHOLE_SIZE, 0, &mapped);
    std::vector<std::uint8_t> out(bytes());
    std::memcpy(out.data(), mapped, out.size());
    vkUnmapMemory(device(), download_memory_);
    if (is_bgra(format_)) swap_red_and_blue(out);
    return out;
}

VkDeviceMemory AppImage::allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags properties) {
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = needs.size;
    info.memoryTypeIndex = find_memory_type(host_.physical, needs.memoryTypeBits, properties);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device(), &info, nullptr, &memory), VK_SUCCESS);
    return memory;
}

VkCommandBuffer AppImage::begin(int k) {
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(commands_[k], &info);
    return commands_[k];
}

void AppImage::barrier(VkCommandBuffer cb, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src_stage,
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

void AppImage::submit(VkCommandBuffer cb, VkFence fence) {
    vkEndCommandBuffer(cb);
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.commandBufferCount = 1;
    info.pCommandBuffers = &cb;
    EXPECT_EQ(vkQueueSubmit(host_.queue, 1, &info, fence), VK_SUCCESS);
}

AppCommands::AppCommands(const HostDevice& host, std::uint32_t count, std::uint32_t secondaries)
    : host_(host), buffers_(count), secondaries_(secondaries), fences_(count) {
    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = host.queue_family;
    EXPECT_EQ(vkCreateCommandPool(host.device, &pool, nullptr, &pool_), VK_SUCCESS);
    VkCommandBufferAllocateInfo buffers{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    buffers.commandPool = pool_;
    buffers.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    buffers.commandBufferCount = count;
    EXPECT_EQ(vkAllocateCommandBuffers(host.device, &buffers, buffers_.data()), VK_SUCCESS);
    if (secondaries > 0) {
        buffers.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
        buffers.commandBufferCount = secondaries;
        EXPECT_EQ(vkAllocateCommandBuffers(host.device, &buffers, secondaries_.data()), VK_SUCCESS);
    }
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    for (VkFence& f : fences_) vkCreateFence(host.device, &fence, nullptr, &f);
}

AppCommands::~AppCommands() {
    vkQueueWaitIdle(host_.queue);
    for (VkFence f : fences_) vkDestroyFence(host_.device, f, nullptr);
    vkDestroyCommandPool(host_.device, pool_, nullptr);
}

VkCommandBuffer AppCommands::begin(std::uint32_t k) {
    vkResetCommandBuffer(buffers_[k], 0);
    VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(buffers_[k], &info);
    return buffers_[k];
}

void AppCommands::submit(std::uint32_t k, const RecordedFrame& frame, VkSemaphore wait, std::uint64_t wait_value) {
    vkEndCommandBuffer(buffers_[k]);
    VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    values.signalSemaphoreValueCount = 1;
    values.pSignalSemaphoreValues = &frame.value;
    values.waitSemaphoreValueCount = wait != VK_NULL_HANDLE ? 1 : 0;
    values.pWaitSemaphoreValues = &wait_value;
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    info.pNext = &values;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &buffers_[k];
    info.signalSemaphoreCount = 1;
    info.pSignalSemaphores = &frame.semaphore;
    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    info.waitSemaphoreCount = wait != VK_NULL_HANDLE ? 1 : 0;
    info.pWaitSemaphores = &wait;
    info.pWaitDstStageMask = &wait_stage;
    vkResetFences(host_.device, 1, &fences_[k]);
    EXPECT_EQ(vkQueueSubmit(host_.queue, 1, &info, fences_[k]), VK_SUCCESS);
}

void AppCommands::wait(std::uint32_t k) {
    EXPECT_EQ(vkWaitForFences(host_.device, 1, &fences_[k], VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
}

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

std::vector<std::uint8_t> drawn_over_two_backgrounds(Renderer& own, std::span<const CharacterDraw> characters,
                                                     Camera2D camera, std::uint32_t width, std::uint32_t height,
                                                     RenderPath path, VkOffset2D offset) {
    camera.ox += static_cast<float>(offset.x);
    camera.oy += static_cast<float>(offset.y);
    const std::uint32_t frame_width = static_cast<std::uint32_t>(offset.x) + width;
    const std::uint32_t frame_height = static_cast<std::uint32_t>(offset.y) + height;
    std::vector<std::uint8_t> halves[2];
    for (int k = 0; k < 2; ++k) {
        Result<FrameStats> drawn =
            own.draw(characters, camera, frame_width, frame_height, k == 0 ? k_left : k_right, path);
        EXPECT_TRUE(drawn.ok()) << drawn.error().message();
        Result<Image> image = own.read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        if (!drawn || !image) return {};
        halves[k] = std::move(image->rgba);
    }
    std::vector<std::uint8_t> out(std::size_t{width} * height * 4);
    for (std::uint32_t y = 0; y < height; ++y)
        for (int k = 0; k < 2; ++k) {  // (the left half from the frame over k_left, the rest over k_right)
            const std::uint32_t x = k == 0 ? 0 : width / 2, end = k == 0 ? width / 2 : width;
            const std::size_t from = ((offset.y + y) * std::size_t{frame_width} + offset.x + x) * 4;
            std::memcpy(&out[(y * std::size_t{width} + x) * 4], &halves[k][from], (end - x) * 4);
        }
    return out;
}

std::uint32_t pixels_off_by_more_than(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                                      int steps) {
    if (a.size() != b.size()) return ~0u;
    // (Premultiplied again, each by its own alpha, as the images held them before readback divided by alpha.)
    const auto premultiplied = [](const std::vector<std::uint8_t>& p, std::size_t i, std::size_t k) {
        return k == 3 ? int{p[i + 3]} : (int{p[i + k]} * int{p[i + 3]} + 127) / 255;
    };
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < a.size(); i += 4) {
        bool off = false;
        for (std::size_t k = 0; k < 4; ++k)
            off = off || std::abs(premultiplied(a, i, k) - premultiplied(b, i, k)) > steps;
        n += off ? 1 : 0;
    }
    return n;
}

std::uint32_t pixels_differing(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    if (a.size() != b.size()) return ~0u;
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < a.size(); i += 4) n += std::memcmp(&a[i], &b[i], 4) != 0 ? 1 : 0;
    return n;
}

namespace {

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

}  // namespace

std::span<const CharacterDraw> Scenes::characters(int scene) const {
    return scene == 0   ? std::span<const CharacterDraw>(crowd->characters)
           : scene == 1 ? std::span<const CharacterDraw>(tank_draw)
                        : std::span<const CharacterDraw>(clipped_draw);
}

const Camera2D& Scenes::camera(int scene) const {
    return scene == 0 ? crowd_camera : scene == 1 ? tank_camera : clipped_camera;
}

std::vector<OntoCase> onto_cases() {
    std::vector<OntoCase> out;
    int index = 0;
    for (RenderPath path : {RenderPath::gpu_tiles, RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex}) {
        const bool tiles = path == RenderPath::gpu_tiles;
        const VkImageLayout layouts[] = {VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                         tiles ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
        for (int scene = 0; scene < 2; ++scene) {
            const VkImageLayout layout = layouts[index++ % 4];
            if (path == RenderPath::gpu_vertex && scene == 1) continue;
            out.push_back({path, scene, layout,
                           "path " + std::to_string(static_cast<int>(path)) + ", scene " + std::to_string(scene) +
                               ", layout " + std::to_string(layout)});
        }
    }
    return out;
}

void expect_drawn_as(const std::vector<std::uint8_t>& seen, const std::vector<std::uint8_t>& expected, Renderer& own,
                     const Camera2D& camera, const OntoCase& c) {
    EXPECT_GT(pixels_differing(seen, drawn_over_two_backgrounds(own, {}, camera, k_width, k_height, c.path)), 1000u)
        << c.where << ": the characters cover too little to tell";
    EXPECT_EQ(pixels_differing(seen, expected), 0u) << c.where;
}

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
    s.clipped_player = std::make_unique<Player>(tank, k_none, tank.animation_names.find("shoot"));
    for (int step = 0; step < 10; ++step) s.clipped_player->step(1.0 / 60);  // (the glow, clipped, until 0.27 s)
    s.clipped_draw = {CharacterDraw{&s.clipped_player->pose, s.tank->type, Color{}}};
    s.clipped_camera = fit(s.clipped_player->pose, s.tank->binding());
    return true;
}

void on_lent_device(const std::function<void(Renderer&, HostVulkan&, Renderer&, Scenes&)>& body) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        Scenes scenes;
        ASSERT_TRUE(load_scenes(*own, *lent, scenes));
        body(*own, *host, *lent, scenes);
        if (::testing::Test::HasFatalFailure()) return;  // (as an ASSERT in the test's own body would end it)
    }
    expect_no_validation_messages(*own);
    host->destroy_device();  // (the validation layer reports what the renderer left on it)
    expect_no_host_messages(*host);
}

}  // namespace spinegpu::test
