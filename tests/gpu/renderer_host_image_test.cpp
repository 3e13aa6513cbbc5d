// Renderers drawing onto the application's own images (Renderer::draw_onto, HostImage) on its device. The application
// here is the test (host_vulkan_support.hpp): it fills its image with two backgrounds, one per half, submits that,
// lets the renderer draw onto the image, and copies the image out in a submission of its own, none of them waited for
// in between. Every pixel must be what a renderer on its own device draws into its own target cleared to that half's
// background: blending onto the application's pixels is blending onto a background.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "host_image_support.hpp"
#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

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

// On every path, onto an image left in each of four layouts in turn: the frame the application copies out equals,
// pixel for pixel, what a renderer on its own device draws over each half's background, and differs from compositing
// a frame drawn apart where additive slots lie over the backgrounds. The validation layer (synchronization validation
// included) reports nothing on either device, nor anything left on the application's.
TEST(RendererOnHostDevice, draws_onto_the_application_image_as_into_its_own_target_over_the_same_background) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        std::uint64_t generation = 0;
        // (One image per path, the tile path's first: it is destroyed before the other paths' frames, which must not
        // touch it.)
        std::unique_ptr<AppImage> image;
        for (const OntoCase& c : onto_cases()) {
            const RenderPath path = c.path;
            const int scene = c.scene;
            const std::string& where = c.where;
            const std::span<const CharacterDraw> characters = scenes.characters(scene);
            const Camera2D& camera = scenes.camera(scene);
            if (scene == 0) image = std::make_unique<AppImage>(host.lent, k_width, k_height, ++generation, path);
            const std::vector<std::uint8_t> expected =
                drawn_over_two_backgrounds(own, characters, camera, k_width, k_height, path);
            ASSERT_FALSE(expected.empty()) << where;
            image->fill(two_backgrounds(k_width, k_height), c.layout);
            Result<FrameStats> drawn = lent.draw_onto(image->target(c.layout), characters, camera, path);
            ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
            EXPECT_EQ(drawn->characters, characters.size()) << where;
            const std::vector<std::uint8_t> seen = image->straight_pixels(c.layout);
            expect_drawn_as(seen, expected, own, camera, c);
            // Where the crowd's additive slots (muzzle flashes, the portal) lie over the backgrounds, compositing its
            // frame drawn apart over them would be wrong: what draw_onto is for. (The tank's multiply and additive
            // slots lie over its own pixels in this pose.)
            if (scene == 0) {
                ASSERT_TRUE(own.draw(characters, camera, k_width, k_height, Color{0, 0, 0, 0}, path).ok());
                Result<Image> apart = own.read_back();
                ASSERT_TRUE(apart.ok());
                EXPECT_GT(composite_differences(apart->rgba, seen, k_width), 20u) << where;
            }
        }
        Result<FrameStats> done = lent.finish();
        EXPECT_TRUE(done.ok());
    });
}

// Frames into the renderer's own target and onto two application images of two sizes, in turn, each keep to their
// own image: each application image holds what was drawn onto it, and read_back and frame_image still give the own
// target's last frame. A frame slot rewrites the tile path's target binding only when its image, or the image's
// generation, changes. Destroying the application's images before the renderer, and then the renderer, leaves
// nothing on the device.
TEST(RendererOnHostDevice, frames_onto_application_images_and_into_its_own_target_keep_to_their_images) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
        const std::uint32_t small = k_width / 2 + 8;  // (the second image's size)
        const Camera2D small_camera{0.09f, small / 2.0f, small / 2.0f};
        std::uint64_t generation = 0;
        for (RenderPath path : {RenderPath::gpu_tiles, RenderPath::gpu}) {
            const std::string where = "path " + std::to_string(static_cast<int>(path));
            auto big = std::make_unique<AppImage>(host.lent, k_width, k_height, ++generation, path);
            auto little = std::make_unique<AppImage>(host.lent, small, small, ++generation, path);
            const std::vector<std::uint8_t> expected_big =
                drawn_over_two_backgrounds(own, crowd, scenes.crowd_camera, k_width, k_height, path);
            const std::vector<std::uint8_t> expected_little =
                drawn_over_two_backgrounds(own, crowd, small_camera, small, small, path);
            ASSERT_TRUE(own.draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok());
            Result<Image> expected_own = own.read_back();
            ASSERT_TRUE(expected_own.ok());

            for (int round = 0; round < 2; ++round) {
                // (The renderer's first frames of each path go onto the application's images; own-target frames of
                // the same path, in both slots, come between the rounds.)
                for (int k = 0; k < 2 && round == 1; ++k)
                    ASSERT_TRUE(lent.draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok()) << where;
                // (In the other order the second time, so that each frame slot draws onto the other image.)
                AppImage* const order[2] = {round == 0 ? big.get() : little.get(),
                                            round == 0 ? little.get() : big.get()};
                for (AppImage* image : order) {
                    const bool is_big = image == big.get();
                    image->fill(two_backgrounds(is_big ? k_width : small, is_big ? k_height : small),
                                VK_IMAGE_LAYOUT_GENERAL);
                    Result<FrameStats> drawn = lent.draw_onto(image->target(VK_IMAGE_LAYOUT_GENERAL), crowd,
                                                              is_big ? scenes.crowd_camera : small_camera, path);
                    ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                }
                EXPECT_EQ(pixels_differing(big->straight_pixels(VK_IMAGE_LAYOUT_GENERAL), expected_big), 0u)
                    << where << ", round " << round;
                EXPECT_EQ(pixels_differing(little->straight_pixels(VK_IMAGE_LAYOUT_GENERAL), expected_little), 0u)
                    << where << ", round " << round;
            }
            // The own target still holds the draw() frame.
            Result<Image> kept = lent.read_back();
            ASSERT_TRUE(kept.ok()) << where << ": " << kept.error().message();
            EXPECT_EQ(pixels_differing(kept->rgba, expected_own->rgba), 0u) << where;
            EXPECT_TRUE(lent.frame_image().ok()) << where;

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
                        ? lent.draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, RenderPath::gpu)
                        : lent.draw_onto(target, crowd, scenes.crowd_camera, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                writes[frame] = drawn->descriptor_writes;
            }
            EXPECT_EQ(writes[2] + writes[3] + writes[8] + writes[9], 0u) << where;
            if (path == RenderPath::gpu_tiles) {
                EXPECT_GT(writes[0] + writes[1], 0u) << where;
                EXPECT_EQ(writes[4], 1u) << where;
                EXPECT_EQ(writes[5], 1u) << where;
            }
            EXPECT_TRUE(lent.finish().ok());
            big.reset();
            little.reset();
            ASSERT_TRUE(lent.draw(crowd, scenes.crowd_camera, k_width, k_height, k_left, path).ok()) << where;
            Result<Image> back = lent.read_back();
            ASSERT_TRUE(back.ok()) << where << ": " << back.error().message();
            EXPECT_EQ(pixels_differing(back->rgba, expected_own->rgba), 0u) << where;
        }
    });
}

// A BGRA8 UNORM image (as swapchains often are) takes the same colours in another byte order: on every path (the
// tile path reading and writing it as a storage image without a format), each frame onto one, by draw_onto or
// record_onto, is what a renderer on its own device draws over the same backgrounds, with frames onto an RGBA8 image
// between them, which stay equal to it pixel for pixel; in the second round in the other order, so that each frame
// slot draws onto both images. (lavapipe blends into a BGRA8 attachment through other code than into an RGBA8 one,
// and rounds a dozen of the crowd's pixels the other way: on the raster paths a premultiplied channel of the BGRA8
// image may be 1/255 off, none more; the tile path blends in its shader, and on a hardware driver the two must be
// equal.)
TEST(RendererOnHostDevice, draws_onto_a_bgra_image_the_colours_it_draws_onto_an_rgba_one) {
    on_lent_device([](Renderer& own, HostVulkan& host, Renderer& lent, Scenes& scenes) {
        std::uint64_t generation = 0;
        for (RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex, RenderPath::gpu_tiles}) {
            const std::string where = "path " + std::to_string(static_cast<int>(path));
            if (path == RenderPath::gpu_tiles) {
                // (Only where the device reads and writes BGRA8 storage images without a format: the next test.)
                AppImage probe(host.lent, 16, 16, ++generation, path, VK_FORMAT_B8G8R8A8_UNORM);
                probe.fill(two_backgrounds(16, 16), VK_IMAGE_LAYOUT_GENERAL);
                Result<FrameStats> drawn = lent.draw_onto(probe.target(VK_IMAGE_LAYOUT_GENERAL), {}, Camera2D{}, path);
                ASSERT_TRUE(lent.finish().ok());
                if (!drawn) {
                    std::printf("(the tile path: skipped, %s)\n", drawn.error().message().c_str());
                    continue;
                }
            }
            // (A storage image, not a colour attachment, on the tile path: not in COLOR_ATTACHMENT_OPTIMAL.)
            const VkImageLayout layout = path == RenderPath::gpu_tiles ? VK_IMAGE_LAYOUT_GENERAL
                                                                       : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            AppImage bgra(host.lent, k_width, k_height, ++generation, path, VK_FORMAT_B8G8R8A8_UNORM);
            AppImage rgba(host.lent, k_width, k_height, ++generation, path);
            const std::span<const CharacterDraw> crowd = scenes.crowd->characters;
            const std::vector<std::uint8_t> expected =
                drawn_over_two_backgrounds(own, crowd, scenes.crowd_camera, k_width, k_height, path);
            ASSERT_FALSE(expected.empty()) << where;
            const std::vector<std::uint8_t> none =
                drawn_over_two_backgrounds(own, {}, scenes.crowd_camera, k_width, k_height, path);
            const auto expect_bgra_drawn_as = [&](const std::vector<std::uint8_t>& seen, const std::string& at) {
                EXPECT_GT(pixels_differing(seen, none), 1000u) << at << ": the characters cover too little to tell";
                EXPECT_EQ(pixels_off_by_more_than(seen, expected, 1), 0u) << at;
                if (!own.software_device() || path == RenderPath::gpu_tiles) {
                    EXPECT_EQ(pixels_differing(seen, expected), 0u) << at;
                }
            };
            for (int round = 0; round < 2; ++round) {
                for (AppImage* image : {round == 0 ? &bgra : &rgba, round == 0 ? &rgba : &bgra}) {
                    image->fill(two_backgrounds(k_width, k_height), layout);
                    Result<FrameStats> drawn = lent.draw_onto(image->target(layout), crowd, scenes.crowd_camera, path);
                    ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                }
                const OntoCase c{path, 0, layout, where + ", round " + std::to_string(round)};
                expect_bgra_drawn_as(bgra.straight_pixels(c.layout), c.where);
                expect_drawn_as(rgba.straight_pixels(c.layout), expected, own, scenes.crowd_camera, c);
            }
            // Recorded into the application's command buffer.
            AppCommands commands(host.lent, 1);
            VkCommandBuffer cb = commands.begin(0);
            bgra.record_fill(cb, two_backgrounds(k_width, k_height), VK_IMAGE_LAYOUT_GENERAL);
            Result<RecordedFrame> recorded =
                lent.record_onto(cb, bgra.target(VK_IMAGE_LAYOUT_GENERAL), crowd, scenes.crowd_camera, path);
            ASSERT_TRUE(recorded.ok()) << where << ": " << recorded.error().message();
            bgra.record_copy_out(cb, VK_IMAGE_LAYOUT_GENERAL);
            commands.submit(0, *recorded);
            commands.wait(0);
            expect_bgra_drawn_as(bgra.copied_out(), where + ", recorded");
            ASSERT_TRUE(lent.finish().ok());
        }
    });
}

// What cannot be drawn onto is refused, naming the fault: any image on a renderer with its own device; on the
// application's, a missing image or view, a format other than RGBA8 or BGRA8, UNORM or sRGB, an empty size and a
// layout that would discard the image. A renderer that has drawn only onto the application's images has no frame to
// read back.
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
        const auto refusal = [](Renderer& renderer, const HostImage& target, RenderPath path = RenderPath::gpu) {
            Result<FrameStats> drawn = renderer.draw_onto(target, {}, Camera2D{}, path);
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
        wrong.format = VK_FORMAT_R16G16B16A16_SFLOAT;
        EXPECT_NE(refusal(*lent, wrong).find("HostImage::format is 97, not VK_FORMAT_R8G8B8A8_UNORM (37), "
                                             "VK_FORMAT_B8G8R8A8_UNORM (44) or their sRGB forms (43, 50)"),
                  std::string::npos)
            << refusal(*lent, wrong);
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

// The tile path draws onto a BGRA8 image only on a device made with storage images read and written without a format
// (shaderStorageImageReadWithoutFormat and shaderStorageImageWriteWithoutFormat) whose BGRA8 format does both in
// optimal tiling: without either feature, it refuses, naming them (and what the device lacks); with both, it draws or
// refuses naming what the format lacks. Drawn, an empty frame reads and writes every pixel of the image: it is what
// it was, byte for byte (the BGRA8 test above checks the characters).
TEST(RendererOnHostDevice, the_tile_path_onto_a_bgra_image_needs_storage_images_without_a_format) {
    SPINEGPU_REQUIRE_RENDERER(own);
    for (int lacking = 0; lacking < 3; ++lacking) {
        VkPhysicalDeviceFeatures features = all_features();
        if (lacking == 1) features.shaderStorageImageReadWithoutFormat = VK_FALSE;
        if (lacking == 2) features.shaderStorageImageWriteWithoutFormat = VK_FALSE;
        std::unique_ptr<HostVulkan> host = make_host(own->device_name(), features);
        ASSERT_TRUE(host);
        {
            std::unique_ptr<Renderer> lent = renderer_on(*host);
            ASSERT_TRUE(lent);
            AppImage image(host->lent, 16, 16, 1, RenderPath::gpu_tiles, VK_FORMAT_B8G8R8A8_UNORM);
            const std::vector<std::uint8_t> backgrounds = two_backgrounds(16, 16);
            image.fill(backgrounds, VK_IMAGE_LAYOUT_GENERAL);
            Result<FrameStats> tiles =
                lent->draw_onto(image.target(VK_IMAGE_LAYOUT_GENERAL), {}, Camera2D{}, RenderPath::gpu_tiles);
            if (tiles) {
                EXPECT_EQ(lacking, 0);
                EXPECT_TRUE(lent->finish().ok());
                std::vector<std::uint8_t> straight = backgrounds;
                unpremultiply_rgba8(straight);
                EXPECT_EQ(image.straight_pixels(VK_IMAGE_LAYOUT_GENERAL), straight);
            } else {
                const std::string why = tiles.error().message();
                std::printf("(lacking %d: %s)\n", lacking, why.c_str());
                EXPECT_NE(why.find("HostImage::format is 44 (VK_FORMAT_B8G8R8A8_UNORM): the gpu-tiles path draws "
                                   "onto such images as storage images read and written without a format, and "),
                          std::string::npos)
                    << why;
                if (lacking != 0) {
                    // (Both features named; on a device that has them, as made without one.)
                    EXPECT_NE(why.find("shaderStorageImageReadWithoutFormat"), std::string::npos) << why;
                    EXPECT_NE(why.find("shaderStorageImageWriteWithoutFormat"), std::string::npos) << why;
                    VkPhysicalDeviceFeatures has{};
                    vkGetPhysicalDeviceFeatures(host->lent.physical, &has);
                    if (has.shaderStorageImageReadWithoutFormat && has.shaderStorageImageWriteWithoutFormat) {
                        EXPECT_NE(why.find("the device was not made with storage images read and written without "
                                           "a format"),
                                  std::string::npos)
                            << why;
                    }
                }
            }
        }
        host->destroy_device();
        expect_no_host_messages(*host);
    }
}

}  // namespace
}  // namespace spinegpu::test
