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
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
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
// A translucent background, premultiplied as the image holds it (alpha about one half).
constexpr std::array<std::uint8_t, 4> k_translucent_ground{26, 51, 77, 128};

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

// What square `i` leaves in a pixel of `ground` (premultiplied RGBA bytes, as the image stores them), as stored RGBA
// bytes: in linear light when `linear` (decoded colours and background colour, the result encoded; alpha as it is),
// else in encoded values. The official premultiplied blends: normal ONE/1-sa, additive ONE/ONE, multiply DST/1-sa,
// screen ONE/1-sc (alpha: additive ONE/ONE, the others ONE/1-sa); two-color tint (t * light + (1 - t) * dark) * t.a *
// light.a.
std::array<double, 4> expected_pixel(std::size_t i, bool linear, const std::array<std::uint8_t, 4>& ground) {
    const Square& q = k_squares[i];
    const auto value = [linear](double byte) { return linear ? decode(byte / 255.0) : byte / 255.0; };
    const std::array<int, 4>& texel_bytes = k_pages[static_cast<std::size_t>(q.page)];
    const double ta = texel_bytes[3] / 255.0;
    const double la = q.light[3] / 255.0;
    const double a = ta * la;
    const std::string blend = q.blend;
    std::array<double, 4> out{};
    for (int c = 0; c < 3; ++c) {
        // The premultiplied texel: a premultiplied page's unpremultiplied, decoded and premultiplied again in linear
        // light, its colour past its alpha (a glow's) decoded on its own.
        const double t = texel_bytes[c] / 255.0, within = std::min(t, ta);
        const double texel = q.page == 0 ? value(texel_bytes[c]) * ta
                             : linear    ? decode(within / ta) * ta + decode(t - within)
                                         : t;
        double premultiplied = texel * value(q.light[c]) * la;
        if (q.dark[0] >= 0) premultiplied = std::max(premultiplied + (ta - texel) * value(q.dark[c]) * la, 0.0);
        const double dst = value(ground[static_cast<std::size_t>(c)]);
        const double result = blend == "additive"   ? premultiplied + dst
                              : blend == "multiply" ? dst * (premultiplied + 1 - a)
                              : blend == "screen"   ? premultiplied + dst * (1 - premultiplied)
                                                    : premultiplied + dst * (1 - a);
        out[static_cast<std::size_t>(c)] = 255.0 * (linear ? encode(result) : std::clamp(result, 0.0, 1.0));
    }
    const double ground_alpha = ground[3] / 255.0;
    out[3] = 255.0 * std::min(a + ground_alpha * (blend == "additive" ? 1.0 : 1.0 - a), 1.0);
    return out;
}

// Expects every pixel of each square's inner 10 x 10 (the camera puts the origin at the frame's centre, one pixel a
// unit) in `pixels` (RGBA bytes as stored, k_width x k_height; over the opaque k_ground, straight pixels are the same)
// within one step of expected_pixel(`linear`, `ground`) in every channel; `where` names the case.
void expect_squares(const std::vector<std::uint8_t>& pixels, bool linear, const std::string& where,
                    const std::array<std::uint8_t, 4>& ground = k_ground) {
    ASSERT_EQ(pixels.size(), std::size_t{k_width} * k_height * 4) << where;
    for (std::size_t i = 0; i < k_squares.size(); ++i) {
        const std::array<double, 4> want = expected_pixel(i, linear, ground);
        const int cx = static_cast<int>(k_width / 2 + centre_x(i)), cy = static_cast<int>(k_height / 2 - centre_y(i));
        int off = 0;
        std::string first;
        for (int y = cy - 5; y < cy + 5; ++y)
            for (int x = cx - 5; x < cx + 5; ++x) {
                const std::uint8_t* p = &pixels[(std::size_t(y) * k_width + x) * 4];
                bool bad = false;
                for (std::size_t c = 0; c < 4; ++c) bad = bad || std::abs(p[c] - want[c]) > 1.0;
                if (bad && off++ == 0) {
                    char text[160];
                    std::snprintf(text, sizeof text, "(%d, %d, %d, %d) at (%d, %d), expected (%.2f, %.2f, %.2f, %.2f)",
                                  p[0], p[1], p[2], p[3], x, y, want[0], want[1], want[2], want[3]);
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

// A scene's skeleton, atlas and pages.
struct SceneSource {
    std::string skeleton;
    std::string atlas;
    std::vector<Image> pages;
};

SceneSource squares_source() { return {squares_skeleton(), k_atlas, square_pages()}; }

// Loads `source` into `lent`; false after recording a failure.
bool load_scene(Renderer& lent, const SceneSource& source, LitScene& scene) {
    scene.skeleton = load_text_skeleton(source.skeleton, "scene.json", source.atlas, "scene.atlas");
    if (!scene.skeleton) return false;
    Result<std::uint32_t> type = lent.add_skeleton_type(scene.skeleton->data, scene.skeleton->atlas,
                                                        scene.skeleton->binding, source.pages, "scene");
    EXPECT_TRUE(type.ok()) << type.error().message();
    if (!type) return false;
    scene.type = *type;
    scene.character = {&scene.skeleton->pose, *type, Color{}};
    return true;
}

// `k_width` x `k_height` pixels of `colour` (RGBA bytes).
std::vector<std::uint8_t> ground(const std::array<std::uint8_t, 4>& colour = k_ground) {
    std::vector<std::uint8_t> pixels;
    for (std::uint32_t i = 0; i < k_width * k_height; ++i) pixels.insert(pixels.end(), colour.begin(), colour.end());
    return pixels;
}

// Runs `body` with the application's device (make_host), a renderer lent it and `source` loaded (the squares unless
// told), then expects the validation layer to have reported nothing on it. A `storage_range` is the renderer's
// SPINEGPU_DIAGNOSE_STORAGE_RANGE.
template <typename Body>
void with_lent_scene(Body body, const SceneSource& source = squares_source(), const char* storage_range = nullptr) {
    SPINEGPU_REQUIRE_RENDERER(own);
    std::unique_ptr<HostVulkan> host = make_host(own->device_name(), all_features());
    ASSERT_TRUE(host);
    {
        if (storage_range != nullptr) setenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE", storage_range, 1);
        std::unique_ptr<Renderer> lent = renderer_on(*host);
        unsetenv("SPINEGPU_DIAGNOSE_STORAGE_RANGE");
        ASSERT_TRUE(lent);
        LitScene scene;
        ASSERT_TRUE(load_scene(*lent, source, scene));
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
            const std::array<double, 4> linear = expected_pixel(i, true, k_ground),
                                        encoded = expected_pixel(i, false, k_ground);
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

TEST(LinearLight, every_path_decodes_a_translucent_srgb_images_stored_colour_and_blends_its_alpha_as_it_is) {
    with_lent_scene([](HostVulkan& host, Renderer& lent, LitScene& scene) {
        std::uint64_t generation = 0;
        for (const VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB})
            for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex,
                                          RenderPath::gpu_tiles}) {
                const std::string where = "format " + std::to_string(format) + ", " + path_words(path) + " path";
                AppImage image(host.lent, k_width, k_height, ++generation, RenderPath::gpu, format);
                image.fill(ground(k_translucent_ground), VK_IMAGE_LAYOUT_GENERAL);
                Result<FrameStats> drawn =
                    lent.draw_onto(image.target(VK_IMAGE_LAYOUT_GENERAL), {&scene.character, 1}, scene.camera, path);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                expect_squares(image.stored_pixels(VK_IMAGE_LAYOUT_GENERAL), true, where, k_translucent_ground);
            }
    });
}

// The two colours of the gradient page (opaque): its two left texel columns hold the first, its two right ones the
// second.
constexpr std::array<std::uint8_t, 3> k_gradient_left{0, 64, 255}, k_gradient_right{255, 200, 0};

// One slot showing a 4 x 4 page of k_gradient_left and k_gradient_right (straight, linear filtering) over a square 63
// units wide and 16 high, centred half a unit right of the origin: the pixel column k_width / 2 samples it at u = 0.5,
// halfway between the columns' centres; columns up to k_width / 2 - 8 sample the left colour alone, from k_width / 2 +
// 8 the right one alone.
SceneSource gradient_source() {
    SceneSource source;
    source.skeleton = R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}], )"
                      R"("slots": [{"name": "gradient", "bone": "root", "attachment": "gradient"}], )"
                      R"("skins": [{"name": "default", "attachments": {"gradient": )"
                      R"({"gradient": {"x": 0.5, "width": 63, "height": 16}}}}]})";
    source.atlas = "gradient.png\nsize: 4, 4\nfilter: Linear, Linear\ngradient\n  bounds: 0, 0, 4, 4\n";
    Image page;
    page.width = page.height = 4;
    for (int k = 0; k < 16; ++k) {
        const std::array<std::uint8_t, 3>& colour = k % 4 < 2 ? k_gradient_left : k_gradient_right;
        page.rgba.insert(page.rgba.end(), colour.begin(), colour.end());
        page.rgba.push_back(255);
    }
    source.pages.push_back(std::move(page));
    return source;
}

TEST(LinearLight, a_straight_page_is_decoded_before_it_is_filtered_onto_srgb_images) {
    // Halfway between the two colours: their mean in linear light, encoded (sRGB images), or the mean of their
    // encoded values (UNORM images); the two differ by far more than a step.
    std::array<double, 3> linear{}, encoded{};
    for (std::size_t c = 0; c < 3; ++c) {
        linear[c] = 255.0 * encode((decode(k_gradient_left[c] / 255.0) + decode(k_gradient_right[c] / 255.0)) / 2.0);
        encoded[c] = (k_gradient_left[c] + k_gradient_right[c]) / 2.0;
    }
    ASSERT_GT(std::abs(linear[0] - encoded[0]), 4.0);
    with_lent_scene(
        [&](HostVulkan& host, Renderer& lent, LitScene& scene) {
            std::uint64_t generation = 0;
            for (const VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM})
                for (const RenderPath path : {RenderPath::gpu, RenderPath::cpu, RenderPath::gpu_vertex,
                                              RenderPath::gpu_tiles}) {
                    const bool srgb = format == VK_FORMAT_R8G8B8A8_SRGB;
                    const std::string where = "format " + std::to_string(format) + ", " + path_words(path) + " path";
                    AppImage image(host.lent, k_width, k_height, ++generation, srgb ? RenderPath::gpu : path, format);
                    image.fill(ground(), VK_IMAGE_LAYOUT_GENERAL);
                    Result<FrameStats> drawn = lent.draw_onto(image.target(VK_IMAGE_LAYOUT_GENERAL),
                                                              {&scene.character, 1}, scene.camera, path);
                    ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                    const std::vector<std::uint8_t> pixels = image.straight_pixels(VK_IMAGE_LAYOUT_GENERAL);
                    const std::array<double, 3> middle = srgb ? linear : encoded;
                    std::array<double, 3> left{}, right{};
                    std::copy(k_gradient_left.begin(), k_gradient_left.end(), left.begin());
                    std::copy(k_gradient_right.begin(), k_gradient_right.end(), right.begin());
                    for (std::uint32_t y = k_height / 2 - 6; y < k_height / 2 + 6; ++y)
                        for (const auto& [x, want] : {std::pair{k_width / 2 - 20, left}, std::pair{k_width / 2, middle},
                                                      std::pair{k_width / 2 + 20, right}}) {
                            const std::uint8_t* p = &pixels[(std::size_t{y} * k_width + x) * 4];
                            for (std::size_t c = 0; c < 3; ++c)
                                EXPECT_LE(std::abs(p[c] - want[c]), 1.0)
                                    << where << ": channel " << c << " at (" << x << ", " << y << ") is "
                                    << int{p[c]} << ", expected " << want[c];
                        }
                }
        },
        gradient_source());
}

TEST(LinearLight, a_frame_refused_after_the_tile_path_remade_its_copy_of_an_srgb_image_leaves_the_next_frame_whole) {
    // Storage buffers of 4 KiB (SPINEGPU_DIAGNOSE_STORAGE_RANGE) refuse a frame of 1000 characters after its slot's
    // copy of the image was remade for the image's size and before the copy is bound. The next frame, onto the image
    // every slot was bound to before, must bind its own new copy: one that used the destroyed view is reported by the
    // validation layer (with_lent_scene), as its pixels may not show it (a new view can take the old one's handle).
    with_lent_scene(
        [](HostVulkan& host, Renderer& lent, LitScene& scene) {
            const std::uint32_t large = k_width + 48;
            AppImage small_image(host.lent, k_width, k_height, 1, RenderPath::gpu, VK_FORMAT_R8G8B8A8_SRGB);
            AppImage large_image(host.lent, large, large, 2, RenderPath::gpu, VK_FORMAT_R8G8B8A8_SRGB);
            const auto draw_small = [&](const std::string& where) {
                small_image.fill(ground(), VK_IMAGE_LAYOUT_GENERAL);
                Result<FrameStats> drawn = lent.draw_onto(small_image.target(VK_IMAGE_LAYOUT_GENERAL),
                                                          {&scene.character, 1}, scene.camera, RenderPath::gpu_tiles);
                ASSERT_TRUE(drawn.ok()) << where << ": " << drawn.error().message();
                expect_squares(small_image.straight_pixels(VK_IMAGE_LAYOUT_GENERAL), true, where);
            };
            for (int frame = 0; frame < 4; ++frame) draw_small("frame " + std::to_string(frame));
            const std::vector<CharacterDraw> crowd(1000, scene.character);
            Result<FrameStats> refused = lent.draw_onto(large_image.target(VK_IMAGE_LAYOUT_GENERAL), crowd,
                                                        scene.camera, RenderPath::gpu_tiles);
            ASSERT_FALSE(refused.ok());
            EXPECT_NE(refused.error().message().find("too many characters"), std::string::npos)
                << refused.error().message();
            draw_small("the frame after the refused one");
        },
        squares_source(), "4096");
}

}  // namespace
}  // namespace spinegpu::test
