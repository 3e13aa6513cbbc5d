// Renderers made with a window (RendererDesc::window). The window here is a headless surface where the Vulkan loader
// offers VK_EXT_headless_surface, else a GLFW window where there is a display (ctest runs these tests once more under
// Xvfb, where a window is required: SPINEGPU_TEST_REQUIRE_WINDOW=1); without either they skip. Frames are presented
// at each size the window takes, with the target scaled when the sizes differ, and a window without area shows
// nothing; all with the validation layer on and silent. What reaches a real window's screen is checked by
// tests/cli/view_shows_what_render_draws.sh under Xvfb.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "renderer_test_support.hpp"
#include "spinegpu/gpu/renderer.hpp"
#if SPINEGPU_TEST_GLFW
#include "glfw_library.hpp"
#endif

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

bool loader_has_extension(const char* name) {
    std::uint32_t count = 0;
    if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

std::int32_t make_headless_surface(void*, void* instance, void* surface) {
    auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(static_cast<VkInstance>(instance), "vkCreateHeadlessSurfaceEXT"));
    if (create == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
    VkHeadlessSurfaceCreateInfoEXT info{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT, nullptr, 0};
    return create(static_cast<VkInstance>(instance), &info, nullptr, static_cast<VkSurfaceKHR*>(surface));
}

std::int32_t fail_to_make_surface(void*, void*, void*) { return VK_ERROR_INITIALIZATION_FAILED; }

// A window for a renderer to present to: a headless surface, or a GLFW window (destroyed with this).
struct TestWindow {
    WindowSurface surface;
#if SPINEGPU_TEST_GLFW
    const tools::GlfwLibrary* glfw = nullptr;
    GLFWwindow* window = nullptr;
    ~TestWindow() {
        if (window != nullptr) glfw->destroy_window(window);
        if (glfw != nullptr) glfw->terminate();
    }
#endif
};

#if SPINEGPU_TEST_GLFW
const tools::GlfwLibrary* g_glfw = nullptr;

std::int32_t make_glfw_surface(void* window, void* instance, void* surface) {
    return g_glfw->create_window_surface(static_cast<VkInstance>(instance), static_cast<GLFWwindow*>(window),
                                         nullptr, static_cast<VkSurfaceKHR*>(surface));
}

// A GLFW window's surface in `out`; false with `why` set when there is no display or no GLFW.
bool open_glfw_window(TestWindow& out, std::string& why) {
    if (std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr) {
        why = "no display for a window";
        return false;
    }
    Result<const tools::GlfwLibrary*> glfw = tools::load_glfw();
    if (!glfw) {
        why = glfw.error().message();
        return false;
    }
    g_glfw = *glfw;
    if (g_glfw->init() != GLFW_TRUE) {
        why = "glfwInit: " + g_glfw->last_error();
        return false;
    }
    out.glfw = g_glfw;
    std::uint32_t count = 0;
    const char** extensions = g_glfw->required_instance_extensions(&count);
    if (extensions == nullptr) {
        why = "GLFW has no Vulkan surface: " + g_glfw->last_error();
        return false;
    }
    g_glfw->window_hint(GLFW_CLIENT_API, GLFW_NO_API);
    out.window = g_glfw->create_window(160, 120, "spinegpu test", nullptr, nullptr);
    if (out.window == nullptr) {
        why = "glfwCreateWindow: " + g_glfw->last_error();
        return false;
    }
    out.surface.instance_extensions.assign(extensions, extensions + count);
    out.surface.create = make_glfw_surface;
    out.surface.context = out.window;
    return true;
}
#endif

// A window to present to in `out`: a headless surface, else a GLFW window; false with `why` set when neither can
// be had here.
bool open_window(TestWindow& out, std::string& why) {
    if (loader_has_extension(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME)) {
        out.surface.instance_extensions = {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME};
        out.surface.create = make_headless_surface;
        return true;
    }
    why = "the Vulkan loader offers no VK_EXT_headless_surface";
#if SPINEGPU_TEST_GLFW
    std::string glfw_why;
    if (open_glfw_window(out, glfw_why)) return true;
    why += ", and " + glfw_why;
#endif
    return false;
}

// A renderer with validation presenting to `window` (opened here); null with `skip_reason` set when this machine
// has no window to give it or no device presents to it, where SPINEGPU_TEST_REQUIRE_WINDOW is not set (any other
// failure fails the test).
std::unique_ptr<Renderer> create_window_renderer(TestWindow& window, bool vsync, std::string& skip_reason) {
    std::string why;
    if (!open_window(window, why)) {
        if (std::getenv("SPINEGPU_TEST_REQUIRE_WINDOW") != nullptr)
            ADD_FAILURE() << "a window is required here: " << why;
        else
            skip_reason = why;
        return nullptr;
    }
    window.surface.vsync = vsync;
    RendererDesc desc;
    desc.validation = true;
    desc.window = &window.surface;
    return create_renderer(desc, skip_reason);
}

// The error Renderer::create gives for a window whose surface comes from `create` after the instance gets
// `extensions` (none when creation succeeds).
std::string window_creation_error(std::vector<std::string> extensions,
                                  std::int32_t (*create)(void*, void*, void*)) {
    WindowSurface window;
    window.instance_extensions = std::move(extensions);
    window.create = create;
    RendererDesc desc;
    desc.window = &window;
    Result<std::unique_ptr<Renderer>> made = Renderer::create(desc);
    return made.ok() ? std::string() : made.error().message();
}

// Declares `window` and `renderer` (create_window_renderer's, with `vsync`), or skips (no window or device here) or
// returns (failed) from the test.
#define SPINEGPU_REQUIRE_WINDOW_RENDERER(renderer, window, vsync)                              \
    std::string skip_reason;                                                                   \
    TestWindow window;                                                                         \
    std::unique_ptr<Renderer> renderer = create_window_renderer(window, vsync, skip_reason);   \
    if (!renderer) {                                                                           \
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;                                 \
        return;                                                                                \
    }

TEST(RendererWindow, frames_are_presented_at_every_size_the_window_takes_and_read_back_as_drawn) {
    for (bool vsync : {true, false}) {
        SPINEGPU_REQUIRE_WINDOW_RENDERER(renderer, window, vsync);
        // The window's sizes in turn: the first, larger, smaller, the first again; each frame drawn at that size,
        // a few frames each, so that both frames in flight and several window images are used at every size.
        const std::uint32_t sizes[][2] = {{160, 120}, {320, 200}, {64, 48}, {160, 120}};
        for (const auto& size : sizes) {
            for (int frame = 0; frame < 4; ++frame) {
                for (RenderPath path : {RenderPath::gpu, RenderPath::gpu_tiles}) {
                    Result<FrameStats> drawn =
                        renderer->draw({}, Camera2D{}, size[0], size[1], k_background, path);
                    ASSERT_TRUE(drawn.ok()) << drawn.error().message();
                    Result<bool> shown = renderer->present(size[0], size[1]);
                    ASSERT_TRUE(shown.ok()) << shown.error().message();
                    EXPECT_TRUE(*shown) << size[0] << "x" << size[1] << ", vsync " << vsync;
                }
            }
            Result<Image> image = renderer->read_back();
            ASSERT_TRUE(image.ok()) << image.error().message();
            EXPECT_EQ(image->width, size[0]);
            EXPECT_EQ(pixels_off_background(*image), 0u);
        }
        // A window of another size than the frame: the frame is scaled to fill it.
        Result<bool> scaled = renderer->present(400, 300);
        ASSERT_TRUE(scaled.ok()) << scaled.error().message();
        EXPECT_TRUE(*scaled);
        // A window without area (minimized) shows nothing and is no error.
        Result<bool> minimized = renderer->present(0, 0);
        ASSERT_TRUE(minimized.ok()) << minimized.error().message();
        EXPECT_FALSE(*minimized);
        ASSERT_TRUE(renderer->finish().ok());
        expect_no_validation_messages(*renderer);
    }
}

TEST(RendererWindow, presenting_before_a_frame_at_the_targets_size_fails_saying_so) {
    SPINEGPU_REQUIRE_WINDOW_RENDERER(renderer, window, true);
    Result<bool> shown = renderer->present(160, 120);
    ASSERT_FALSE(shown.ok());
    EXPECT_NE(shown.error().message().find("no frame has been drawn"), std::string::npos) << shown.error().message();
    expect_no_validation_messages(*renderer);
}

TEST(RendererWindow, a_renderer_without_a_window_refuses_to_present) {
    SPINEGPU_REQUIRE_RENDERER(renderer);
    ASSERT_TRUE(renderer->draw({}, Camera2D{}, 32, 32, k_background, RenderPath::gpu).ok());
    Result<bool> shown = renderer->present(32, 32);
    ASSERT_FALSE(shown.ok());
    EXPECT_NE(shown.error().message().find("made without a window"), std::string::npos) << shown.error().message();
}

TEST(RendererWindow, a_window_whose_surface_cannot_be_made_fails_creation_naming_the_result) {
    SPINEGPU_REQUIRE_RENDERER(probe);  // (skips where there is no Vulkan at all)
    const std::string message = window_creation_error({}, fail_to_make_surface);
    EXPECT_NE(message.find("window's surface"), std::string::npos) << message;
    EXPECT_NE(message.find("VK_ERROR_INITIALIZATION_FAILED"), std::string::npos) << message;
}

TEST(RendererWindow, a_window_extension_the_loader_lacks_fails_creation_naming_the_result) {
    SPINEGPU_REQUIRE_RENDERER(probe);
    const std::string message = window_creation_error({"VK_SPINEGPU_no_such_surface"}, make_headless_surface);
    EXPECT_NE(message.find("VK_ERROR_EXTENSION_NOT_PRESENT"), std::string::npos) << message;
}

}  // namespace
}  // namespace spinegpu::test
