// Drawing onto sRGB targets: every path shades in linear light there (shading.glsl, k_linear_light), as an engine
// that blends in linear light draws (the tile path through a copy of the image). Each slot of a skeleton written here
// shows one flat colour, of a straight or a premultiplied page, with a blend mode, slot colour and dark colour of its
// own, over an opaque background; every pixel inside each square must be what the formulas give when computed here in
// doubles: the texel and colours decoded from sRGB, the official blend of each mode applied in linear light, the
// result encoded. The same scene onto a UNORM image must give the formulas in encoded values, which differ: the test
// tells the two apart.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app_render_pass.hpp"
#include "host_image_support.hpp"
#include "host_vulkan_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/gpu/host_device.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

// One square of the scene: its slot's blend mode and colours, and which page it shows (k_pages).
struct Square {
    const char* name;
    int page;
    const char* blend;  // as the JSON names it
    std::array<int, 4> light;  // the slot colour, RGBA bytes
    std::array<int, 3> dark;   // the dark colour (two-color tint), or {-1, ...} for none
};

// The squares, 16 x 16 units each, four to a row: x centres -60, -20, 20, 60; y centres 30, -30 and -64.
constexpr std::array<Square, 9> k_squares{{
    {"normal", 0, "normal", {255, 255, 255, 255}, {-1, 0, 0}},
    {"pma-normal", 1, "normal", {255, 255, 255, 255}, {-1, 0, 0}},
    {"additive", 0, "additive", {255, 128, 64, 204}, {-1, 0, 0}},
    {"multiply", 0, "multiply", {255, 255, 255, 255}, {-1, 0, 0}},
    {"screen", 0, "screen", {192, 192, 192, 255}, {-1, 0, 0}},
    {"dark", 0, "normal", {230, 204, 179, 255}, {32, 64, 128}},
    {"pma-additive", 1, "additive", {255, 255, 255, 255}, {-1, 0, 0}},
    {"translucent-slot", 0, "normal", {128, 255, 128, 179}, {-1, 0, 0}},
    {"glow", 2, "additive", {255, 255, 255, 255}, {-1, 0, 0}},
}};

// Each page's one texel colour, RGBA bytes: the straight page's (straight), the premultiplied page's (the same,
// premultiplied and rounded), and a premultiplied glow's, red and green brighter than its alpha (light it adds).
constexpr std::array<std::array<int, 4>, 3> k_pages{{{200, 100, 50, 128}, {100, 50, 25, 128}, {200, 150, 30, 40}}};
constexpr std::array<const char*, 3> k_regions{"straight", "premultiplied", "glow"};
// The background the squares are drawn over, opaque, as the image holds it (sRGB-encoded bytes in an sRGB image).
constexpr std::array<std::uint8_t, 4> k_ground{51, 102, 153, 255};

const char* const k_atlas =
    "straight.png\nsize: 4, 4\nstraight\n  bounds: 0, 0, 4, 4\n\n"
    "pma.png\nsize: 4, 4\npma: true\npremultiplied\n  bounds: 0, 0, 4, 4\n\n"
    "glow.png\nsize: 4, 4\npma: true\nglow\n  bounds: 0, 0, 4, 4\n";

std::string hex(std::initializer_list<int> bytes) {
    std::string out;
    char two[3];
    for (int b : bytes) {
        std::snprintf(two, sizeof two, "%02x", b);
        out += two;
    }
    return out;
}

float centre_x(std::size_t i) { return -60.0f + 40.0f * static_cast<float>(i % 4); }
float centre_y(std::size_t i) { return i < 4 ? 30.0f : i < 8 ? -30.0f : -64.0f; }

std::string squares_skeleton() {
    std::string slots, attachments;
    for (std::size_t i = 0; i < k_squares.size(); ++i) {
        const Square& q = k_squares[i];
        const std::string region = k_regions[static_cast<std::size_t>(q.page)];
        slots += std::string(i == 0 ? "" : ",") + R"({"name": ")" + q.name + R"(", "bone": "root", "color": ")" +
                 hex({q.light[0], q.light[1], q.light[2], q.light[3]}) + "\"" +
                 (q.dark[0] < 0 ? "" : R"(, "dark": ")" + hex({q.dark[0], q.dark[1], q.dark[2]}) + "\"") +
                 R"(, "blend": ")" + q.blend + R"(", "attachment": ")" + region + "\"}";
        attachments += std::string(i == 0 ? "" : ",") + "\"" + q.name + "\": {\"" + region + "\": {\"x\": " +
                       std::to_string(centre_x(i)) + ", \"y\": " + std::to_string(centre_y(i)) +
                       R"(, "width": 16, "height": 16}})";
    }
    return R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}], "slots": [)" + slots +
           R"(], "skins": [{"name": "default", "attachments": {)" + attachments + "}}]}";
}

// The pages, 4 x 4 texels of one colour each.
std::vector<Image> square_pages() {
    std::vector<Image> pages(k_pages.size());
    for (std::size_t p = 0; p < pages.size(); ++p) {
        pages[p].width = pages[p].height = 4;
        for (int k = 0; k < 16; ++k)
            for (int c = 0; c < 4; ++c) pages[p].rgba.push_back(static_cast<std::uint8_t>(k_pages[p][c]));
    }
    return pages;
}

double decode(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double encode(double c) {
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

// What square `i` leaves in a pixel of the background, as RGB bytes: in linear light when `linear` (decoded colours
// and background, the result encoded), else in encoded values. The official premultiplied blends: normal ONE/1-sa,
// additive ONE/ONE, multiply DST/1-sa, screen ONE/1-sc; two-color tint (t * light + (1 - t) * dark) * t.a * light.a.
std::array<double, 3> expected_rgb(std::size_t i, bool linear) {
    const Square& q = k_squares[i];
    const auto value = [linear](double byte) { return linear ? decode(byte / 255.0) : byte / 255.0; };
    const std::array<int, 4>& texel_bytes = k_pages[static_cast<std::size_t>(q.page)];
    const double ta = texel_bytes[3] / 255.0;
    const double la = q.light[3] / 255.0;
    const double a = ta * la;
    std::array<double, 3> out{};
    for (int c = 0; c < 3; ++c) {
        // The premultiplied texel: a premultiplied page's unpremultiplied, decoded and premultiplied again in linear
        // light, its colour past its alpha (a glow's) decoded on its own.
        const double t = texel_bytes[c] / 255.0, within = std::min(t, ta);
        const double texel = q.page == 0 ? value(texel_bytes[c]) * ta
                             : linear    ? decode(within / ta) * ta + decode(t - within)
                                         : t;
        double premultiplied = texel * value(q.light[c]) * la;
        if (q.dark[0] >= 0) premultiplied = std::max(premultiplied + (ta - texel) * value(q.dark[c]) * la, 0.0);
        const double dst = value(k_ground[c]);
        const std::string blend = q.blend;
        const double result = blend == "additive"   ? premultiplied + dst
                              : blend == "multiply" ? dst * (premultiplied + 1 - a)
                              : blend == "screen"   ? premultiplied + dst * (1 - premultiplied)
                                                    : premultiplied + dst * (1 - a);
        out[c] = 255.0 * (linear ? encode(result) : std::clamp(result, 0.0, 1.0));
    }
    return out;
}

// Expects every pixel of each square's inner 10 x 10 (the camera puts the origin at the frame's centre, one pixel a
// unit) in `pixels` (RGBA bytes, k_width x k_height) within one step of expected_rgb(`linear`), and opaque; `where`
// names the case.
void expect_squares(const std::vector<std::uint8_t>& pixels, bool linear, const std::string& where) {
    ASSERT_EQ(pixels.size(), std::size_t{k_width} * k_height * 4) << where;
    for (std::size_t i = 0; i < k_squares.size(); ++i) {
        const std::array<double, 3> want = expected_rgb(i, linear);
        const int cx = static_cast<int>(k_width / 2 + centre_x(i)), cy = static_cast<int>(k_height / 2 - centre_y(i));
        int off = 0;
        std::string first;
        for (int y = cy - 5; y < cy + 5; ++y)
            for (int x = cx - 5; x < cx + 5; ++x) {
                const std::uint8_t* p = &pixels[(std::size_t(y) * k_width + x) * 4];
                bool bad = p[3] != 255;
                for (int c = 0; c < 3; ++c) bad = bad || std::abs(p[c] - want[c]) > 1.0;
                if (bad && off++ == 0) {
                    char text[160];
                    std::snprintf(text, sizeof text, "(%d, %d, %d, %d) at (%d, %d), expected (%.2f, %.2f, %.2f)", p[0],
                                  p[1], p[2], p[3], x, y, want[0], want[1], want[2]);
                    first = text;
                }
            }
        EXPECT_EQ(off, 0) << where << ", square " << k_squares[i].name << ": " << off << " of 100 pixels off, first "
                          << first;
    }
}

// The scene as a renderer on the application's device draws it.
struct LitScene {
    std::unique_ptr<TextSkeleton> skeleton;
    std::uint32_t type = 0;
    CharacterDraw character;
    Camera2D camera{1.0f, k_width / 2.0f, k_height / 2.0f};
};

// Loads the squares into `lent`; false after recording a failure.
bool load_squares(Renderer& lent, LitScene& scene) {
    scene.skeleton = load_text_skeleton(squares_skeleton(), "squares.json", k_atlas, "squares.atlas");
    if (!scene.skeleton) return false;
    Result<std::uint32_t> type = lent.add_skeleton_type(scene.skeleton->data, scene.skeleton->atlas,
                                                        scene.skeleton->binding, square_pages(), "squares");
    EXPECT_TRUE(type.ok()) << type.error().message();
    if (!type) return false;
    scene.type = *type;
    scene.character = {&scene.skeleton->pose, *type, Color{}};
    return true;
}

// `k_width` x `k_height` pixels of k_ground.
std::vector<std::uint8_t> ground() {
    std::vector<std::uint8_t> pixels;
    for (std::uint32_t i = 0; i < k_width * k_height; ++i)
        pixels.insert(pixels.end(), k_ground.begin(), k_ground.end());
    return pixels;
}

// Runs `body` with the application's device (make_host), a renderer lent it and the scene loaded, then expects the
// validation layer to have reported nothing on it.
template <typename Body>
void with_lent_scene(Body body) {
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        ASSERT_TRUE(lent);
        LitScene scene;
        ASSERT_TRUE(load_squares(*lent, scene));
        body(*host, *lent, scene);
        if (::testing::Test::HasFatalFailure()) return;
    }
    host->destroy_device();
    expect_no_host_messages(*host);
}

std::string path_words(RenderPath path) {
    return path == RenderPath::gpu     ? "gpu"
           : path == RenderPath::cpu ? "cpu"
           : path == RenderPath::gpu_vertex ? "gpu_vertex"
                                            : "gpu_tiles";
}

TEST(LinearLight, every_path_blends_in_linear_light_onto_srgb_images_and_in_encoded_values_onto_unorm_ones) {
    with_lent_scene([](HostVulkan& host, Renderer& lent, LitScene& scene) {
        // The formulas tell the two pipelines apart in every square (else a square would prove nothing).
        for (std::size_t i = 0; i < k_squares.size(); ++i) {
            const std::array<double, 3> linear = expected_rgb(i, true), encoded = expected_rgb(i, false);
            double most = 0;
            for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(linear[c] - encoded[c]));
            EXPECT_GT(most, 4.0) << k_squares[i].name;
        }
        std::uint64_t generation = 0;
        for (const VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
                                      VK_FORMAT_B8G8R8A8_UNORM})
            for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex,
                                          RenderPath::gpu_tiles}) {
                const bool linear = format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_B8G8R8A8_SRGB;
                // (The tile path onto a BGRA8 UNORM image needs storage images without a format: tested apart.)
                if (path == RenderPath::gpu_tiles && format == VK_FORMAT_B8G8R8A8_UNORM) continue;
                const std::string where = "format " + std::to_string(format) + ", " + path_words(path) + " path";
                // (The tile path copies an sRGB image, which needs no storage use: made as for the gpu path.)
                AppImage image(host.lent, k_width, k_height, ++generation, linear ? RenderPath::gpu : path, format);
                image.fill(ground(), VK_IMAGE_LAYOUT_GENERAL);
                Result<FrameStats> drawn =
                    lent.draw_onto(image.target(VK_IMAGE_LAYOUT_GENERAL), {&scene.character, 1}, scene.camera, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                expect_squares(image.straight_pixels(VK_IMAGE_LAYOUT_GENERAL), linear, where);
            }
    });
}

TEST(LinearLight, the_characters_blend_in_linear_light_in_the_applications_srgb_render_pass) {
    with_lent_scene([](HostVulkan& host, Renderer& lent, LitScene& scene) {
        for (const bool dynamic : {false, true}) {
            if (dynamic && !host.lent.dynamic_rendering) continue;
            const std::string where = dynamic ? "dynamic rendering" : "render pass";
            AppImage image(host.lent, k_width, k_height, 1, RenderPath::gpu, VK_FORMAT_R8G8B8A8_SRGB);
            AppRenderPass pass(host.lent, image.target(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL), false,
                               VK_SAMPLE_COUNT_1_BIT, dynamic);
            AppCommands commands(host.lent, 1);
            VkCommandBuffer cb = commands.begin(0);
            const VkRect2D area{{0, 0}, {k_width, k_height}};
            Result<RecordedFrame> prepared =
                lent.record_for_pass(cb, pass.host_pass(area), {&scene.character, 1}, scene.camera, RenderPath::gpu);
            ASSERT_TRUE(prepared.ok()) << where << ": " << prepared.error().message();
            // The background cleared as the pass clears: a straight colour, taken as linear light and stored encoded.
            const Color clear{static_cast<float>(decode(k_ground[0] / 255.0)),
                              static_cast<float>(decode(k_ground[1] / 255.0)),
                              static_cast<float>(decode(k_ground[2] / 255.0)), 1.0f};
            pass.begin(cb, clear);
            ASSERT_TRUE(lent.record_in_pass(cb).ok()) << where;
            pass.end(cb);
            image.record_copy_out(cb, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            commands.submit(0, *prepared);
            commands.wait(0);
            expect_squares(image.copied_out(), true, where);
        }
    });
}

TEST(LinearLight, the_tile_path_draws_srgb_images_of_two_sizes_in_turn) {
    with_lent_scene([](HostVulkan& host, Renderer& lent, LitScene& scene) {
        // Frames recorded in the application's command buffers onto the k_width x k_height image and a larger one,
        // in an order that has each frame slot's copy of the image made for one size and then for the other.
        const std::uint32_t large = k_width + 48;
        AppImage small_image(host.lent, k_width, k_height, 1, RenderPath::gpu, VK_FORMAT_R8G8B8A8_SRGB);
        AppImage large_image(host.lent, large, large, 2, RenderPath::gpu, VK_FORMAT_R8G8B8A8_SRGB);
        const std::vector<std::uint8_t> small_ground = ground();
        std::vector<std::uint8_t> large_ground;
        for (std::uint32_t i = 0; i < large * large; ++i)
            large_ground.insert(large_ground.end(), k_ground.begin(), k_ground.end());
        AppCommands commands(host.lent, 2);
        for (int frame = 0; frame < 6; ++frame) {
            const std::string where = "frame " + std::to_string(frame);
            const bool on_large = frame % 3 == 1;
            AppImage& image = on_large ? large_image : small_image;
            const auto k = static_cast<std::uint32_t>(frame % 2);
            VkCommandBuffer cb = commands.begin(k);
            image.record_fill(cb, on_large ? large_ground : small_ground, VK_IMAGE_LAYOUT_GENERAL);
            // (Centred on the large image as on the small one: the squares land at the same offsets from its centre.)
            Camera2D camera = scene.camera;
            if (on_large) camera.ox = camera.oy = large / 2.0f;
            Result<RecordedFrame> recorded = lent.record_onto(cb, image.target(VK_IMAGE_LAYOUT_GENERAL),
                                                              {&scene.character, 1}, camera, RenderPath::gpu_tiles);
            ASSERT_TRUE(recorded.ok()) << where << ": " << recorded.error().message();
            image.record_copy_out(cb, VK_IMAGE_LAYOUT_GENERAL);
            commands.submit(k, *recorded);
            commands.wait(k);
            std::vector<std::uint8_t> pixels = image.copied_out();
            if (on_large) {  // (the k_width x k_height pixels around the centre)
                std::vector<std::uint8_t> middle;
                const std::uint32_t from = (large - k_width) / 2;
                for (std::uint32_t y = 0; y < k_height; ++y) {
                    const auto row = pixels.begin() + static_cast<std::ptrdiff_t>(((from + y) * large + from) * 4);
                    middle.insert(middle.end(), row, row + k_width * 4);
                }
                pixels = std::move(middle);
            }
            expect_squares(pixels, true, where);
        }
    });
}

}  // namespace
}  // namespace spinegpu::test
