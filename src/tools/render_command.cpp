// spinegpu render: one skeleton's pose after the steps (as `pose` steps it), drawn by the renderer through the GPU
// or the CPU path, written as a straight-alpha PNG (DESIGN.md, "Render").
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>

#include <unistd.h>

#include "camera_fit.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "usage.hpp"
#include "scene_render.hpp"
#include "render_path_option.hpp"
#include "schedule_player.hpp"
#include "skeleton_assets.hpp"
#include "spinegpu/core/file.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "unknown_name.hpp"

namespace spinegpu::tools {
namespace {

std::optional<gpu::Camera2D> parse_camera(const std::string& text) {
    gpu::Camera2D camera;
    float* fields[3] = {&camera.scale, &camera.ox, &camera.oy};
    std::size_t start = 0;
    for (int i = 0; i < 3; ++i) {
        std::size_t end = text.find(',', start);
        if ((i < 2) != (end != std::string::npos)) return std::nullopt;
        std::string field = text.substr(start, end == std::string::npos ? end : end - start);
        // Spaces around a field are allowed ("1, 320, 240"), as they were before numbers became strict.
        field.erase(0, field.find_first_not_of(' '));
        field.erase(field.find_last_not_of(' ') + 1);
        std::optional<double> v = parse_number(field);
        // The bounds hold for the number as written, and for the float it rounds to (1e9 + 1 rounds to 1e9).
        const double bound = i == 0 ? k_render_camera.max_scale : k_render_camera.max_offset;
        if (!v || !(std::fabs(*v) <= bound)) return std::nullopt;
        *fields[i] = static_cast<float>(*v);
        start = end + 1;
    }
    if (!in_range(camera, k_render_camera)) return std::nullopt;
    return camera;
}

// Whether `path` ends in ".png", in any case.
bool names_png(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension == ".png";
}

// Why the image could not be written to `path` once drawn, found before the work: `path` is a folder or a file that
// cannot be written, or the nearest of its folders that exists (the others are made when it is written) is not a
// folder or cannot be written in; "" when none of these holds. (Root passes every permission check.)
std::string unwritable_reason(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) return "is a folder";
    if (fs::exists(path, ec) && ::access(path.c_str(), W_OK) != 0)
        return std::string("cannot be written: ") + std::strerror(errno);
    fs::path folder = fs::path(path).parent_path();
    while (!folder.empty() && !fs::exists(folder, ec) && !ec) folder = folder.parent_path();
    if (folder.empty()) folder = ".";
    if (ec) return "cannot look at " + folder.string() + ": " + ec.message();
    if (!fs::is_directory(folder, ec)) return folder.string() + " is not a folder";
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return "cannot write in " + folder.string() + ": " + std::strerror(errno);
    return "";
}

}  // namespace

int run_render(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("render"), error);
    auto usage = [&](const std::string& why) {
        std::fprintf(stderr, "spinegpu render: %s\n%s", why.c_str(), command_usage("render"));
        return 2;
    };
    auto fail = [](const Error& e) {
        std::fprintf(stderr, "spinegpu render: %s\n", e.message().c_str());
        return 1;
    };
    if (!args) return usage(error);
    if (!args->positional().empty()) return usage("unexpected argument \"" + args->positional()[0] + "\"");
    if (std::optional<std::string> scene_path = args->get("--scene")) {
        // The scene file says what these say for one skeleton.
        for (const char* flag : {"--skeleton", "--atlas", "--animation", "--schedule", "--skin", "--steps", "--dt",
                                 "--width", "--height", "--camera", "--fit", "--background"})
            if (args->has(flag)) return usage(std::string(flag) + " is for one skeleton; a scene file gives its own");
        SceneRenderOptions options;
        std::optional<std::uint32_t> frames = args->whole("--frames", 1, 100000, 1u);
        if (!frames) return usage("--frames needs a whole number from 1 to 100000");
        options.frames = *frames;
        std::optional<std::string> out = args->get("--out");
        if (!out) return usage("--out DIR is required");
        if (out->empty()) return usage("--out needs a folder's path, not an empty one");
        // (A .png name is the one-skeleton form's: a scene writes a folder of frames.)
        if (names_png(*out))
            return usage("--out names the folder a scene's frames go to, not a .png file");
        options.out_dir = *out;
        if (std::optional<std::string> p = args->get("--path")) {
            std::optional<gpu::RenderPath> path = parse_render_path(*p);
            if (!path) return usage(k_path_choices);
            options.path = *path;
        }
        options.device = args->get("--device").value_or("");
        options.validation = args->has("--validation");
        Result<std::string> text = read_file_text(*scene_path);
        if (!text) return fail(text.error());
        Result<SceneFile> scene = parse_scene(*text, *scene_path);
        if (!scene) return fail(scene.error());
        Result<SceneRenderReport> report = render_scene(*scene, options);
        if (!report) return fail(report.error());
        std::printf("%u character%s (%u culled) on %s, camera %.9g,%.9g,%.9g; per frame (median of the last %u): "
                    "update %.3f ms, pack %.3f ms, record %.3f ms, GPU %.3f ms, %llu bytes uploaded, %u triangles\n",
                    report->characters, report->characters == 1 ? "" : "s", report->culled, report->device.c_str(),
                    report->camera.scale,
                    report->camera.ox, report->camera.oy, report->timed_frames, report->update_ms, report->pack_ms,
                    report->record_ms, report->gpu_ms,
                    static_cast<unsigned long long>(report->bytes_uploaded), report->triangles);
        return 0;
    }
    std::optional<std::string> skeleton_path = args->get("--skeleton"), atlas_path = args->get("--atlas");
    if (!skeleton_path || !atlas_path) return usage("--skeleton and --atlas are required");
    if (args->has("--frames")) return usage("--frames is for --scene; one skeleton is drawn after --steps");
    if (args->has("--animation") == args->has("--schedule")) return usage("give one of --animation and --schedule");
    std::optional<std::uint32_t> steps = args->whole("--steps", 0, 4294967295u, 60u);  // (as pose's)
    if (!steps) return usage("--steps needs a whole number from 0 to 4294967295");
    std::optional<double> dt = args->has("--dt") ? parse_number(*args->get("--dt")) : 0.016666666666666666;
    if (!dt || !(*dt >= 0) || *dt > 3600) return usage("--dt needs a number of seconds from 0 to 3600");
    if (!args->has("--width") && !args->has("--height")) return usage("--width and --height are required");
    if (args->has("--width") != args->has("--height")) return usage("--width and --height go together");
    std::optional<std::uint32_t> width = parse_whole(args->get("--width"), 1, 16384);
    std::optional<std::uint32_t> height = parse_whole(args->get("--height"), 1, 16384);
    if (!width || !height) return usage("--width and --height need whole numbers from 1 to 16384");
    if (args->has("--camera") == args->has("--fit")) return usage("give one of --camera and --fit");
    std::optional<gpu::Camera2D> camera;
    if (args->has("--camera")) {
        camera = parse_camera(*args->get("--camera"));
        if (!camera) return usage(std::string("--camera needs SCALE,OX,OY: ") + k_render_camera.text);
    }
    Color background{0, 0, 0, 0};
    if (std::optional<std::string> text = args->get("--background"))
        if (text->size() != 8 || !parse_hex_color(text->data(), text->size(), background))
            return usage("--background needs RRGGBBAA");
    gpu::RenderPath path = gpu::RenderPath::gpu;
    if (std::optional<std::string> p = args->get("--path")) {
        std::optional<gpu::RenderPath> parsed = parse_render_path(*p);
        if (!parsed) return usage(k_path_choices);
        path = *parsed;
    }
    std::optional<std::string> out = args->get("--out");
    if (!out) return usage("--out is required");
    // (PNG is the only format written: a .jpg name would hold a PNG.)
    if (!names_png(*out)) return usage("--out names a .png file");
    if (std::string why = unwritable_reason(*out); !why.empty()) return fail(make_error(*out, "--out", why));

    PageBudget budget;
    Result<SkeletonAssets> assets = load_skeleton_assets(*skeleton_path, *atlas_path, budget);
    if (!assets) return fail(assets.error());
    const SkeletonData& data = assets->data;
    Result<Schedule> schedule = Error{};
    if (std::optional<std::string> animation = args->get("--animation")) {
        schedule = animation_schedule(*animation, *skeleton_path, "--animation", data);
    } else {
        std::string schedule_path = *args->get("--schedule");
        Result<std::string> text = read_file_text(schedule_path);
        if (!text) return fail(text.error());
        schedule = parse_schedule(*text, schedule_path, data);
    }
    if (!schedule) return fail(schedule.error());
    Index skin = k_none;
    if (std::optional<std::string> name = args->get("--skin")) {
        skin = data.skin_names.find(*name);
        if (skin == k_none)
            return fail(make_error(*skeleton_path, "--skin", unknown_name("skin", *name, data.skin_names)));
    }

    SchedulePlayer player(data, *schedule, skin);
    CameraFit fit;
    for (std::uint64_t step = 1; step <= *steps; ++step) {  // (a 32-bit counter would wrap at the largest --steps)
        player.run_step(static_cast<std::uint32_t>(step), *dt);
        player.state.notifications.clear();
        if (!camera) fit.add(player.pose, assets->binding);
    }
    if (*steps == 0) {
        // The setup pose (with the skin), whose world transforms no step has computed.
        update_world_transform(player.pose, Physics::none);
        if (!camera) fit.add(player.pose, assets->binding);
    }
    const bool fitted = !camera;
    if (fitted && !fit.finite())
        return fail(make_error(*skeleton_path, "--fit", "the pose's bounds are not finite (its world transforms "
                                                        "overflowed), so no camera fits them"));
    if (fitted) camera = fit.camera(*width, *height);
    if (fitted && !in_range(*camera, k_render_camera))
        return fail(make_error(*skeleton_path, "--fit", "the pose's bounds need the camera " + camera_text(*camera) +
                                                            ", past what --camera takes (" + k_render_camera.text +
                                                            "); give a --camera"));
    if (fitted && !fit.any())
        std::fprintf(stderr, "spinegpu render: %s: the pose shows no attachment (in this skin, at this time), so --fit "
                             "has nothing to frame: the image is the background alone\n", skeleton_path->c_str());
    if (fitted && fit.flat())
        std::fprintf(stderr, "spinegpu render: %s: the pose's attachments have no area, all on one line or at one "
                             "point (bones scaled to 0?), so --fit has nothing to frame: the image is the background "
                             "alone\n",
                     skeleton_path->c_str());

    warn_if_drawn_unclipped("render", *skeleton_path, data, path);
    gpu::RendererDesc desc;
    desc.device = args->get("--device").value_or("");
    desc.validation = args->has("--validation");
    Result<std::unique_ptr<gpu::Renderer>> renderer = gpu::Renderer::create(desc);
    if (!renderer) return fail(renderer.error());
    Result<std::uint32_t> type = (*renderer)->add_skeleton_type(data, assets->atlas, assets->binding,
                                                                std::move(assets->pages), *skeleton_path);
    if (!type) return fail(type.error());
    const gpu::CharacterDraw character{&player.pose, *type, Color{}};
    Result<gpu::FrameStats> frame = (*renderer)->draw({&character, 1}, *camera, *width, *height, background, path);
    if (!frame) return fail(frame.error());
    Result<Image> image = (*renderer)->read_back();
    if (!image) return fail(image.error());
    if (std::error_code ec; !std::filesystem::path(*out).parent_path().empty() &&
                            !std::filesystem::create_directories(std::filesystem::path(*out).parent_path(), ec) && ec)
        return fail(make_error(*out, "--out", "cannot create its folder: " + ec.message()));
    if (Result<void> written = write_png_file(*out, *image); !written) return fail(written.error());
    if (std::uint64_t messages = (*renderer)->validation_messages(); messages != 0) {
        std::fprintf(stderr, "spinegpu render: %llu validation messages, the first: %s\n",
                     static_cast<unsigned long long>(messages), (*renderer)->first_validation_message().c_str());
        return 1;
    }
    // The chosen camera, printed once the image is written: a failed render prints only its error.
    if (fitted) std::printf("--camera %s\n", camera_text(*camera).c_str());
    return 0;
}

}  // namespace spinegpu::tools
