// spinegpu view: a scene's crowd, or the demo crowd, played live in a window. GLFW makes the window (loaded at run
// time: glfw_library.hpp); the renderer draws each frame at the window's size and shows it there (Renderer::present).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "demo_crowd.hpp"
#include "glfw_library.hpp"
#include "render_path_option.hpp"
#include "scene_player.hpp"
#include "scene_render.hpp"
#include "spinegpu/core/file.hpp"
#include "usage.hpp"
#include "view_controls.hpp"

namespace spinegpu::tools {
namespace {

std::atomic<bool> g_stop_asked{false};  // SIGINT or SIGTERM: the window closes as its close button closes it

// The first SIGINT or SIGTERM asks the view to close; a second one ends the process as the signal does by default
// (in case the view cannot close, waiting on the window system).
void on_stop_signal(int signal) {
    g_stop_asked = true;
    std::signal(signal, SIG_DFL);
}

const GlfwLibrary* g_glfw = nullptr;  // for make_surface

// GLFW initialised, and terminated at the end of the scope (which destroys any window left).
struct GlfwSession {
    const GlfwLibrary& glfw;
    ~GlfwSession() { glfw.terminate(); }
};

// One window, destroyed at the end of the scope (after the renderer that presents to it).
struct Window {
    const GlfwLibrary& glfw;
    GLFWwindow* handle = nullptr;
    ~Window() {
        if (handle != nullptr) glfw.destroy_window(handle);
    }
};

// The window's surface for the renderer, made by GLFW.
std::int32_t make_surface(void* window, void* instance, void* surface) {
    return g_glfw->create_window_surface(static_cast<VkInstance>(instance), static_cast<GLFWwindow*>(window),
                                         nullptr, static_cast<VkSurfaceKHR*>(surface));
}

// Per-frame figures for medians: those of the last 10,000 to 20,000 frames (so that a view left open for hours holds
// no more), and of the last 120 for the title.
class Samples {
public:
    void push_back(double value) {
        if (values_.size() == 2 * k_kept) values_.erase(values_.begin(), values_.begin() + k_kept);
        values_.push_back(value);
    }
    bool empty() const { return values_.empty(); }
    double median() const { return tools::median(values_); }
    double recent_median() const {
        const auto recent = static_cast<std::ptrdiff_t>(std::min(k_recent, values_.size()));
        return tools::median({values_.end() - recent, values_.end()});
    }

private:
    static constexpr std::size_t k_kept = 10000, k_recent = 120;
    std::vector<double> values_;
};

// Milliseconds with `digits` decimals, or "n/a" for an unknown (negative) time.
std::string milliseconds_text(double ms, int digits) {
    if (ms < 0) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, ms);
    return text;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The temporary folder the demo crowd's rig is written to, removed once the crowd is loaded (or on any return).
struct DemoRigFolder {
    std::filesystem::path path;
    void remove() {
        std::error_code ec;
        if (!path.empty()) std::filesystem::remove_all(path, ec);
        path.clear();
    }
    ~DemoRigFolder() { remove(); }
};

struct ViewOptions {
    std::optional<std::uint32_t> frames;  // close (or hold) after this many frames
    bool hold = false;
    gpu::RenderPath path = gpu::RenderPath::gpu;
    std::optional<std::uint32_t> width, height;
};

// Plays `player` in `window` through `renderer` until the window closes (or the frames are done), stepping the
// characters on `pool` (which the renderer packs on); prints the summary. Returns the exit code.
int play(const GlfwLibrary& glfw, GLFWwindow* window, gpu::Renderer& renderer, ScenePlayer& player,
         const SceneFile& scene, const ViewOptions& options, WorkerPool& pool) {
    ViewControls controls;
    attach_controls(glfw, window, controls);
    struct Detached {  // (on every return: the callbacks point at `controls`)
        const GlfwLibrary& glfw;
        GLFWwindow* window;
        ~Detached() { detach_controls(glfw, window); }
    } detached{glfw, window};
    Samples frame_ms, update_ms, pack_ms, record_ms, gpu_ms;
    std::uint64_t gpu_frame = 0;  // the frame whose GPU time was taken last
    std::uint32_t stepped = 0, shown = 0;
    bool holding = false;
    std::string held_at;  // the size and camera the held frame was last announced at
    auto last_present = std::chrono::steady_clock::now(), last_title = last_present;
    double last_update = 0;
    while (!glfw.window_should_close(window) && !g_stop_asked) {
        if (holding || controls.paused) glfw.wait_events_timeout(0.05);
        else glfw.poll_events();
        int w = 0, h = 0, window_w = 0, window_h = 0;
        glfw.framebuffer_size(window, &w, &h);
        glfw.window_size(window, &window_w, &window_h);
        controls.set_pixels_per_unit(w, h, window_w, window_h);
        if (w <= 0 || h <= 0) {  // minimized
            glfw.wait_events_timeout(0.05);
            continue;
        }
        const bool steps = !holding && !controls.paused;
        if (steps) {
            const auto start = std::chrono::steady_clock::now();
            player.step(&pool);
            last_update = ms_since(start);
            ++stepped;
        }
        Result<gpu::Camera2D> scene_camera = player.camera();
        if (!scene_camera) {
            std::fprintf(stderr, "spinegpu view: %s\n", scene_camera.error().message().c_str());
            return 1;
        }
        const gpu::Camera2D camera = controls.camera(*scene_camera, scene, w, h);
        Result<gpu::FrameStats> stats = renderer.draw(player.draws(), camera, static_cast<std::uint32_t>(w),
                                                      static_cast<std::uint32_t>(h), scene.background, options.path);
        Result<bool> presented = stats ? renderer.present(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h))
                                       : Result<bool>(stats.error());
        if (!presented) {
            std::fprintf(stderr, "spinegpu view: %s\n", presented.error().message().c_str());
            return 1;
        }
        const auto now = std::chrono::steady_clock::now();
        // (The GPU time of the frame the draw waited for, two frames back with two in flight: each frame once.)
        const std::optional<gpu::FrameStats> finished = renderer.last_finished();
        if (finished && finished->frame != gpu_frame && finished->gpu_ms >= 0) {
            gpu_ms.push_back(finished->gpu_ms);
            gpu_frame = finished->frame;
        }
        if (*presented && steps) {
            ++shown;
            frame_ms.push_back(std::chrono::duration<double, std::milli>(now - last_present).count());
            update_ms.push_back(last_update);
            pack_ms.push_back(stats->pack_ms);
            record_ms.push_back(stats->record_ms);
        }
        last_present = now;
        if (options.frames && stepped >= *options.frames && !holding) {
            if (!options.hold) break;
            holding = true;
        }
        if (holding && *presented) {  // (announced again when the window is resized, zoomed or panned)
            char at[128];
            std::snprintf(at, sizeof at, "%dx%d, camera %.9g,%.9g,%.9g", w, h, camera.scale, camera.ox, camera.oy);
            if (held_at != at) {
                char title[96];
                std::snprintf(title, sizeof title, "spinegpu view: holding frame %u", stepped);
                glfw.set_window_title(window, title);
                std::printf("holding frame %u at %s (close the window to end)\n", stepped, at);
                std::fflush(stdout);
                held_at = at;
            }
        }
        if (!holding && std::chrono::duration<double>(now - last_title).count() >= 0.5 && !frame_ms.empty()) {
            char title[160];
            std::snprintf(title, sizeof title,
                          "spinegpu view: %u character%s, %.1f fps, update %.2f ms, pack %.2f ms, GPU %s ms%s",
                          player.character_count(), player.character_count() == 1 ? "" : "s",
                          1000.0 / frame_ms.recent_median(), last_update, stats->pack_ms,
                          milliseconds_text(finished ? finished->gpu_ms : -1, 2).c_str(),
                          controls.paused ? " (paused)" : "");
            glfw.set_window_title(window, title);
            last_title = now;
        }
    }
    Result<gpu::FrameStats> last = renderer.finish();
    if (!last) {
        std::fprintf(stderr, "spinegpu view: %s\n", last.error().message().c_str());
        return 1;
    }
    if (renderer.validation_messages() != 0) {
        std::fprintf(stderr, "spinegpu view: vulkan validation: %llu messages, the first: %s\n",
                     static_cast<unsigned long long>(renderer.validation_messages()),
                     renderer.first_validation_message().c_str());
        return 1;
    }
    const double frame = frame_ms.median();
    if (gpu_ms.empty() && last->gpu_ms >= 0) gpu_ms.push_back(last->gpu_ms);  // (a run too short for the others)
    std::printf("showed %u frame%s of %u character%s on %s: per frame (median) %.3f ms (%.1f fps), update %.3f ms, "
                "pack %.3f ms, record %.3f ms, GPU %s ms\n",
                shown, shown == 1 ? "" : "s", player.character_count(), player.character_count() == 1 ? "" : "s",
                renderer.device_name().c_str(), frame,
                frame > 0 ? 1000.0 / frame : 0.0, update_ms.median(), pack_ms.median(), record_ms.median(),
                milliseconds_text(gpu_ms.empty() ? -1 : gpu_ms.median(), 3).c_str());
    return 0;
}

}  // namespace

int run_view(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("view"), error);
    auto usage = [](const std::string& why) {
        std::fprintf(stderr, "spinegpu view: %s\n%s", why.c_str(), command_usage("view"));
        return 2;
    };
    auto fail = [](const Error& e) {
        std::fprintf(stderr, "spinegpu view: %s\n", e.message().c_str());
        return 1;
    };
    if (!args) return usage(error);
    if (!args->positional().empty()) return usage("unexpected argument \"" + args->positional()[0] + "\"");
    ViewOptions options;
    if (args->has("--frames")) {
        options.frames = args->whole("--frames", 1, 100000000, 1u);
        if (!options.frames) return usage("--frames needs a whole number from 1 to 100000000");
    }
    options.hold = args->has("--hold");
    if (options.hold && !options.frames) return usage("--hold keeps the last of --frames N frames; give --frames");
    if (std::optional<std::string> p = args->get("--path")) {
        std::optional<gpu::RenderPath> path = parse_render_path(*p);
        if (!path) return usage(k_path_choices);
        options.path = *path;
    }
    if (args->has("--width") != args->has("--height")) return usage("--width and --height go together");
    if (args->has("--width")) {
        options.width = parse_whole(args->get("--width"), 1, 16384);
        options.height = parse_whole(args->get("--height"), 1, 16384);
        if (!options.width || !options.height) return usage("--width and --height need whole numbers from 1 to 16384");
    }
    const std::optional<std::string> scene_path = args->get("--scene");
    if (scene_path && args->has("--characters"))
        return usage("--characters is for the demo crowd; a scene file gives its own");
    std::optional<std::uint32_t> characters = args->whole("--characters", 1, 100000, 400u);
    if (!characters) return usage("--characters needs a whole number from 1 to 100000");

    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);

    // The crowd: the scene file's, or the demo's.
    SceneFile scene;
    DemoRigFolder demo_rig;
    if (scene_path) {
        Result<std::string> text = read_file_text(*scene_path);
        if (!text) return fail(text.error());
        Result<SceneFile> parsed = parse_scene(*text, *scene_path);
        if (!parsed) return fail(parsed.error());
        scene = std::move(*parsed);
    } else {
        std::error_code ec;
        std::string folder = (std::filesystem::temp_directory_path(ec) / "spinegpu-view-XXXXXX").string();
        if (ec || mkdtemp(folder.data()) == nullptr)
            return fail(make_error("spinegpu view", "demo rig", "cannot make a temporary folder for the rig"));
        demo_rig.path = folder;
        if (Result<void> written = write_demo_rig(folder, true); !written) return fail(written.error());
        scene = demo_scene(folder, *characters, 1920, 1080);
    }
    Result<std::unique_ptr<ScenePlayer>> loaded = ScenePlayer::load(scene, "view", options.path);
    demo_rig.remove();  // (everything is read)
    if (!loaded) return fail(loaded.error());

    Result<const GlfwLibrary*> library = load_glfw();
    if (!library) return fail(library.error());
    const GlfwLibrary& glfw = **library;
    g_glfw = &glfw;
    if (glfw.init() != GLFW_TRUE)
        return fail(make_error("glfw", "init", "no window system to open a window in (" + glfw.last_error() +
                                                   "); a window needs a display: render draws headless"));
    GlfwSession session{glfw};
    if (glfw.vulkan_supported() != GLFW_TRUE)
        return fail(make_error("glfw", "vulkan", "GLFW finds no Vulkan loader (" + glfw.last_error() + ")"));
    // The window: --width x --height, or the scene's canvas shrunk to fit 90% of the screen.
    double fit = 1;
    if (!options.width) {
        if (GLFWmonitor* monitor = glfw.primary_monitor())
            if (const GLFWvidmode* mode = glfw.video_mode(monitor))
                fit = std::min({1.0, 0.9 * mode->width / scene.width, 0.9 * mode->height / scene.height});
        options.width = std::max(1u, static_cast<std::uint32_t>(scene.width * fit));
        options.height = std::max(1u, static_cast<std::uint32_t>(scene.height * fit));
    }
    glfw.window_hint(GLFW_CLIENT_API, GLFW_NO_API);
    Window window{glfw, glfw.create_window(static_cast<int>(*options.width), static_cast<int>(*options.height),
                                           "spinegpu view", nullptr, nullptr)};
    if (window.handle == nullptr)
        return fail(make_error("glfw", "window", "cannot open a window (" + glfw.last_error() + ")"));

    gpu::WindowSurface surface;
    std::uint32_t count = 0;
    const char** extensions = glfw.required_instance_extensions(&count);
    if (extensions == nullptr)
        return fail(make_error("glfw", "vulkan", "no Vulkan surface for this window system (" + glfw.last_error() +
                                                     ")"));
    surface.instance_extensions.assign(extensions, extensions + count);
    surface.create = make_surface;
    surface.context = window.handle;
    surface.vsync = !args->has("--no-vsync");
    // Every core steps the characters and packs their poses (the pool outlives the renderer that uses it).
    WorkerPool pool(std::max(1u, std::thread::hardware_concurrency()));
    gpu::RendererDesc desc;
    desc.device = args->get("--device").value_or("");
    desc.validation = args->has("--validation");
    desc.window = &surface;
    Result<std::unique_ptr<gpu::Renderer>> renderer = gpu::Renderer::create(desc);
    if (!renderer) return fail(renderer.error());
    if (Result<void> added = (*loaded)->add_types_to(**renderer); !added) return fail(added.error());
    (*renderer)->set_worker_pool(&pool);
    return play(glfw, window.handle, **renderer, **loaded, scene, options, pool);
}

}  // namespace spinegpu::tools
