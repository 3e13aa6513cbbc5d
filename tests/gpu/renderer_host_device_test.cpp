// Renderers on the application's own Vulkan device (RendererDesc::host, host_device.hpp). The application here is the
// test: it makes its instance (with the validation layer, synchronization validation included, where installed) and
// device, lends them to a renderer, and reads every frame in its own compute shader (shaders/frame_reader.comp),
// submitted between the renderer's frames. The frames it reads must be those a renderer on its own device draws, the
// renderer's next frame must wait for those reads, and the renderer must leave the device as it found it.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

const std::uint32_t k_frame_reader[] = {
#include "frame_reader.comp.inc"
};
const std::uint32_t k_frame_sampler[] = {
#include "frame_sampler.comp.inc"
};

// How the application reads the frame image in its compute shader: as a storage image (in GENERAL) or a sampled
// one (in SHADER_READ_ONLY_OPTIMAL).
enum class ReadAs { storage, sampled };

// The application's reading of one frame: the frame image loaded pixel by pixel in a compute shader and written to
// a host-visible buffer, submitted to the lent queue without waiting.
class FrameRead {
public:
    // The image is left in the layout the read needs, or in `leave_in` when given (the next draw() takes it from any
    // layout; read_back needs frame.layout).
    FrameRead(const HostDevice& host, const FrameImage& frame, ReadAs as = ReadAs::storage,
              VkImageLayout leave_in = VK_IMAGE_LAYOUT_UNDEFINED)
        : device_(host.device), physical_(host.physical), family_(host.queue_family), as_(as),
          layout_(as == ReadAs::storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) {
        pixels_ = std::size_t{frame.width} * frame.height;
        make_buffer();
        make_pipeline();
        record_and_submit(host.queue, frame, leave_in);
    }
    FrameRead(const FrameRead&) = delete;
    FrameRead& operator=(const FrameRead&) = delete;
    ~FrameRead() {
        vkDestroyFence(device_, fence_, nullptr);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyPipeline(device_, pipeline_, nullptr);
        vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
        vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
        vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
        vkDestroySampler(device_, sampler_, nullptr);
        vkDestroyBuffer(device_, buffer_, nullptr);
        vkFreeMemory(device_, memory_, nullptr);
    }

    // Waits for the read; the frame as straight-alpha RGBA8 (unpremultiply_rgba8, as Renderer::read_back).
    std::vector<std::uint8_t> straight_pixels() {
        EXPECT_EQ(vkWaitForFences(device_, 1, &fence_, VK_TRUE, ~std::uint64_t{0}), VK_SUCCESS);
        void* mapped = nullptr;
        vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped);
        VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
        range.memory = memory_;
        range.size = VK_WHOLE_SIZE;
        vkInvalidateMappedMemoryRanges(device_, 1, &range);
        std::vector<std::uint8_t> out(pixels_ * 4);
        std::memcpy(out.data(), mapped, out.size());
        vkUnmapMemory(device_, memory_);
        unpremultiply_rgba8(out);
        return out;
    }

private:
    void make_buffer() {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = pixels_ * 4;
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        ASSERT_EQ(vkCreateBuffer(device_, &info, nullptr, &buffer_), VK_SUCCESS);
        VkMemoryRequirements needs;
        vkGetBufferMemoryRequirements(device_, buffer_, &needs);
        VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        allocate.allocationSize = needs.size;
        allocate.memoryTypeIndex =
            find_memory_type(physical_, needs.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
        ASSERT_EQ(vkAllocateMemory(device_, &allocate, nullptr, &memory_), VK_SUCCESS);
        vkBindBufferMemory(device_, buffer_, memory_, 0);
    }
    void make_pipeline() {
        if (as_ == ReadAs::sampled) {
            VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
            vkCreateSampler(device_, &sampler, nullptr, &sampler_);
        }
        const VkDescriptorSetLayoutBinding bindings[2] = {
            {0, image_type(), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
            {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
        VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        set_info.bindingCount = 2;
        set_info.pBindings = bindings;
        vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_);
        VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        layout_info.setLayoutCount = 1;
        layout_info.pSetLayouts = &set_layout_;
        vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_);
        VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        module_info.codeSize = as_ == ReadAs::storage ? sizeof(k_frame_reader) : sizeof(k_frame_sampler);
        module_info.pCode = as_ == ReadAs::storage ? k_frame_reader : k_frame_sampler;
        VkShaderModule module = VK_NULL_HANDLE;
        vkCreateShaderModule(device_, &module_info, nullptr, &module);
        VkComputePipelineCreateInfo pipeline{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        pipeline.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                          module, "main", nullptr};
        pipeline.layout = pipeline_layout_;
        EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline, nullptr, &pipeline_), VK_SUCCESS);
        vkDestroyShaderModule(device_, module, nullptr);
        const VkDescriptorPoolSize sizes[2] = {{image_type(), 1},
                                               {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
        VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        pool_info.maxSets = 1;
        pool_info.poolSizeCount = 2;
        pool_info.pPoolSizes = sizes;
        vkCreateDescriptorPool(device_, &pool_info, nullptr, &descriptor_pool_);
        VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        allocate.descriptorPool = descriptor_pool_;
        allocate.descriptorSetCount = 1;
        allocate.pSetLayouts = &set_layout_;
        vkAllocateDescriptorSets(device_, &allocate, &set_);
    }
    VkDescriptorType image_type() const {
        return as_ == ReadAs::storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    }
    void record_and_submit(VkQueue queue, const FrameImage& frame, VkImageLayout leave_in) {
        const VkDescriptorImageInfo image{sampler_, frame.view, layout_};
        const VkDescriptorBufferInfo buffer{buffer_, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
                                          {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
        writes[0].dstSet = writes[1].dstSet = set_;
        writes[0].descriptorCount = writes[1].descriptorCount = 1;
        writes[0].descriptorType = image_type();
        writes[0].pImageInfo = &image;
        writes[1].dstBinding = 1;
        writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[1].pBufferInfo = &buffer;
        vkUpdateDescriptorSets(device_, 2, writes, 0, nullptr);

        VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool_info.queueFamilyIndex = family_;
        vkCreateCommandPool(device_, &pool_info, nullptr, &pool_);
        VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        allocate.commandPool = pool_;
        allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        allocate.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        vkAllocateCommandBuffers(device_, &allocate, &cb);
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cb, &begin);
        // As FrameImage says: from the renderer's stage and layout to the use (a shader read, in its layout).
        VkImageMemoryBarrier to_read{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        to_read.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        to_read.oldLayout = frame.layout;
        to_read.newLayout = layout_;
        to_read.srcQueueFamilyIndex = to_read.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        to_read.image = frame.image;
        to_read.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cb, frame.stage, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                             &to_read);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout_, 0, 1, &set_, 0, nullptr);
        vkCmdDispatch(cb, (frame.width + 7) / 8, (frame.height + 7) / 8, 1);
        VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                             nullptr, 0, nullptr);
        if (leave_in != VK_IMAGE_LAYOUT_UNDEFINED) {
            VkImageMemoryBarrier back = to_read;
            back.srcAccessMask = 0;
            back.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            back.oldLayout = layout_;
            back.newLayout = leave_in;
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                 nullptr, 0, nullptr, 1, &back);
        }
        vkEndCommandBuffer(cb);
        VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        vkCreateFence(device_, &fence_info, nullptr, &fence_);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cb;
        EXPECT_EQ(vkQueueSubmit(queue, 1, &submit, fence_), VK_SUCCESS);
    }

    VkDevice device_;
    VkPhysicalDevice physical_;
    std::uint32_t family_;
    ReadAs as_;
    VkImageLayout layout_;  // the read's
    VkSampler sampler_ = VK_NULL_HANDLE;
    std::size_t pixels_ = 0;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

// Six frames of the crowd on every path, each read by the application in its own submission right after draw()
// and before the next draw() overwrites the image (as a storage image and as a sampled one, in turn, each left in
// the layout of its read), equal what a renderer on its own device draws for those poses, and read_back agrees;
// the validation layer (synchronization validation included) reports nothing. (Debian 12's
// layer, 1.3.239, checks hazards within a command buffer only, and lavapipe runs submissions one after another: a
// next frame that did not wait for the application's read could fail this test only on a hardware driver.)
TEST(RendererOnHostDevice, the_application_reads_each_frame_as_a_renderer_on_its_own_device_draws_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        EXPECT_EQ(lent->device_name(), own->device_name());
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*own);
        std::optional<SpineboyCrowd> lent_crowd = load_spineboy_crowd(*lent);
        ASSERT_TRUE(crowd && lent_crowd);
        const Camera2D camera{0.18f, k_width / 2.0f, k_height / 2.0f};
        for (RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_tiles}) {
            const std::string where = "path " + std::to_string(static_cast<int>(path));
            std::vector<std::vector<std::uint8_t>> expected;
            std::vector<std::unique_ptr<FrameRead>> reads;
            for (int frame = 0; frame < 6; ++frame) {
                for (auto* players : {&crowd->players, &lent_crowd->players})
                    for (auto& player : *players) player->step(1.0 / 60);
                ASSERT_TRUE(own->draw(crowd->characters, camera, k_width, k_height, k_background, path).ok());
                Result<Image> alone = own->read_back();
                ASSERT_TRUE(alone.ok()) << alone.error().message();
                expected.push_back(std::move(alone->rgba));
                Result<FrameStats> drawn =
                    lent->draw(lent_crowd->characters, camera, k_width, k_height, k_background, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                Result<FrameImage> image = lent->frame_image();
                ASSERT_TRUE(image.ok()) << image.error().message();
                EXPECT_EQ(image->width, k_width);
                EXPECT_EQ(image->height, k_height);
                EXPECT_EQ(image->format, VK_FORMAT_R8G8B8A8_UNORM);
                // (The last frame's read puts the image back in the layout read_back needs.)
                reads.push_back(std::make_unique<FrameRead>(host->lent, *image,
                                                            frame % 2 == 0 ? ReadAs::storage : ReadAs::sampled,
                                                            frame == 5 ? image->layout : VK_IMAGE_LAYOUT_UNDEFINED));
            }
            for (std::size_t frame = 0; frame < reads.size(); ++frame) {
                const std::vector<std::uint8_t> seen = reads[frame]->straight_pixels();
                EXPECT_GT(pixels_off_background(Image{k_width, k_height, seen}), 1000u) << where;
                EXPECT_TRUE(seen == expected[frame]) << where << ", frame " << frame;
            }
            reads.clear();
            Result<Image> back = lent->read_back();
            ASSERT_TRUE(back.ok()) << back.error().message();
            EXPECT_TRUE(back->rgba == expected.back()) << where;
        }
    }
    expect_no_validation_messages(*own);
    host->destroy_device();  // (the validation layer reports what the renderer left on it)
    expect_no_host_messages(*host);
}

// A renderer made and destroyed on the application's device, after drawing at two sizes, destroys none of the
// application's objects and leaves none of its own (the validation layer reports objects left when the device is
// destroyed); the device and queue keep working between renderers and after them. A draw at another size, while the
// application still reads the last frame's image, waits for that read before it destroys the image, and makes a new
// one of a new generation.
TEST(RendererOnHostDevice, leaves_the_application_device_working_and_nothing_of_its_own_on_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    if (!has_validation_layer())
        GTEST_SKIP() << "needs VK_LAYER_KHRONOS_validation: it reports objects left on the device or destroyed in use";
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    for (int round = 0; round < 2; ++round) {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*lent);
        ASSERT_TRUE(crowd);
        EXPECT_FALSE(lent->frame_image().ok());  // no frame yet
        std::vector<std::unique_ptr<FrameRead>> reads;
        std::vector<std::uint64_t> generations;
        for (std::uint32_t size : {k_width, k_width / 2, k_width / 2}) {
            const Camera2D camera{0.18f, size / 2.0f, size / 2.0f};
            ASSERT_TRUE(lent->draw(crowd->characters, camera, size, size, k_background, RenderPath::gpu).ok());
            Result<FrameImage> image = lent->frame_image();
            ASSERT_TRUE(image.ok());
            EXPECT_EQ(image->width, size);
            generations.push_back(image->generation);
            reads.push_back(std::make_unique<FrameRead>(host->lent, *image, ReadAs::sampled));  // not waited for
        }
        EXPECT_NE(generations[0], generations[1]);
        EXPECT_EQ(generations[1], generations[2]);
        for (std::size_t k = 0; k < reads.size(); ++k) {
            const std::uint32_t size = k == 0 ? k_width : k_width / 2;
            EXPECT_GT(pixels_off_background(Image{size, size, reads[k]->straight_pixels()}), 100u) << k;
        }
    }
    EXPECT_EQ(vkQueueWaitIdle(host->lent.queue), VK_SUCCESS);
    EXPECT_EQ(vkDeviceWaitIdle(host->lent.device), VK_SUCCESS);
    host->destroy_device();
    expect_no_host_messages(*host);
}

// What the renderer cannot draw with is refused at create(), naming what is missing: a device made without
// dual-source blending, a queue family that does not exist, a handle left out, an instance older than Vulkan 1.2,
// and a device name, validation or window asked of a renderer that uses the application's. A device without 64-bit
// shader arithmetic draws through the gpu path and refuses the tile path. A renderer on its own device has no frame
// image to share.
TEST(RendererOnHostDevice, what_it_cannot_draw_with_is_refused_with_the_reason) {
    SPINEGPU_REQUIRE_RENDERER(own);
    Result<FrameImage> unshared = own->frame_image();
    ASSERT_FALSE(unshared.ok());
    EXPECT_NE(unshared.error().message().find("RendererDesc::host"), std::string::npos);
    const auto refusal = [](const HostDevice& lent, const RendererDesc& base) {
        RendererDesc desc = base;
        desc.host = &lent;
        Result<std::unique_ptr<Renderer>> made = Renderer::create(desc);
        return made ? std::string("made") : made.error().message();
    };
    VkPhysicalDeviceFeatures no_blending = all_features();
    no_blending.dualSrcBlend = VK_FALSE;
    std::unique_ptr<HostVulkan> plain = make_host(own->device_name(), no_blending);
    ASSERT_TRUE(plain);
    EXPECT_NE(refusal(plain->lent, {}).find("dualSrcBlend"), std::string::npos) << refusal(plain->lent, {});

    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    HostDevice wrong = host->lent;
    wrong.queue_family = 1000;
    EXPECT_NE(refusal(wrong, {}).find("queue family 1000 does not exist"), std::string::npos) << refusal(wrong, {});
    wrong = host->lent;
    wrong.features.dualSrcBlend = VK_FALSE;  // (as the application says it made the device)
    EXPECT_NE(refusal(wrong, {}).find("dualSrcBlend"), std::string::npos);
    wrong = host->lent;
    wrong.queue = VK_NULL_HANDLE;
    EXPECT_NE(refusal(wrong, {}).find("HostDevice::queue is VK_NULL_HANDLE"), std::string::npos)
        << refusal(wrong, {});
    wrong = host->lent;
    wrong.api_version = VK_API_VERSION_1_1;
    EXPECT_NE(refusal(wrong, {}).find("api_version is 1.1"), std::string::npos) << refusal(wrong, {});
    RendererDesc named;
    named.device = "llvmpipe";
    RendererDesc validated;
    validated.validation = true;
    const WindowSurface window;
    RendererDesc windowed;
    windowed.window = &window;
    for (const auto& [desc, field] : {std::pair{&named, "RendererDesc::device"},
                                      std::pair{&validated, "RendererDesc::validation"},
                                      std::pair{&windowed, "RendererDesc::window"}})
        EXPECT_NE(refusal(host->lent, *desc).find(field), std::string::npos) << refusal(host->lent, *desc);
    EXPECT_EQ(refusal(host->lent, {}), "made");

    VkPhysicalDeviceFeatures no_64_bits = all_features();
    no_64_bits.shaderInt64 = no_64_bits.shaderFloat64 = VK_FALSE;
    std::unique_ptr<HostVulkan> narrow = make_host(own->device_name(), no_64_bits);
    ASSERT_TRUE(narrow);
    if (examples_available()) {
        std::unique_ptr<Renderer> lent = renderer_on(*narrow);
        ASSERT_TRUE(lent);
        std::optional<SpineboyCrowd> crowd = load_spineboy_crowd(*lent);
        ASSERT_TRUE(crowd);
        const Camera2D camera{0.18f, k_width / 2.0f, k_height / 2.0f};
        EXPECT_TRUE(lent->draw(crowd->characters, camera, k_width, k_height, k_background, RenderPath::gpu).ok());
        Result<FrameStats> tiles =
            lent->draw(crowd->characters, camera, k_width, k_height, k_background, RenderPath::gpu_tiles);
        ASSERT_FALSE(tiles.ok());
        EXPECT_NE(tiles.error().message().find("shaderInt64"), std::string::npos) << tiles.error().message();
    }
    for (HostVulkan* h : {plain.get(), host.get(), narrow.get()}) {
        h->destroy_device();
        expect_no_host_messages(*h);
    }
}

}  // namespace
}  // namespace spinegpu::test
