#include <chrono>
#include <cstdio>
#include <filesystem>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "cli_args.hpp"
#include "commands.hpp"
#include "demo_crowd.hpp"
#include "usage.hpp"
#include "scene_render.hpp"
#include "skeleton_report.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/demo_rig.hpp"

namespace spinegpu::tools {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_demo(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("demo"), error);
    auto usage_error = [](const std::string& why) {
        std::fprintf(stderr, "spinegpu demo: %s\n%s", why.c_str(), command_usage("demo"));
        return 2;
    };
    if (!args) return usage_error(error);
    if (!args->positional().empty()) return usage_error("unexpected argument \"" + args->positional()[0] + "\"");
    if (std::optional<std::string> dir = args->get("--export")) {
        if (dir->empty()) return usage_error("--export needs a folder's path, not an empty one");
        for (const char* flag : {"--out", "--characters", "--frames", "--device", "--validation"})
            if (args->has(flag)) return usage_error(std::string(flag) + " draws a crowd; --export only writes the rig");
        if (Result<void> written = write_demo_rig(*dir, false); !written) {
            std::fprintf(stderr, "spinegpu demo: %s\n", written.error().message().c_str());
            return 1;
        }
        return 0;
    }
    // Bounded so that a mistyped count is refused at once, before anything is built (a million characters took 8 GB).
    std::optional<std::uint32_t> characters = args->whole("--characters", 1, 100000, 400u);
    if (!characters) return usage_error("--characters needs a whole number from 1 to 100000");
    std::optional<std::uint32_t> frames = args->whole("--frames", 1, 10000, 30u);
    if (!frames) return usage_error("--frames needs a whole number from 1 to 10000");
    const std::string out = args->get("--out").value_or("out");
    if (out.empty()) return usage_error("--out needs a folder's path, not an empty one");

    // The rig, loaded from memory, described with its load times.
    const EmbeddedFile* json = find_demo_rig_file(".json");
    const EmbeddedFile* atlas_file = find_demo_rig_file(".atlas");
    const EmbeddedFile* page = find_demo_rig_file(".png");
    if (!json || !atlas_file || !page) {
        std::fprintf(stderr, "spinegpu demo: the embedded demo rig is incomplete\n");
        return 1;
    }
    auto start = std::chrono::steady_clock::now();
    std::string_view text(reinterpret_cast<const char*>(json->bytes.data()), json->bytes.size());
    Result<SkeletonData> skeleton = load_skeleton_json(text, std::string(json->name));
    double skeleton_ms = ms_since(start);
    if (!skeleton) {
        std::fprintf(stderr, "spinegpu demo: %s\n", skeleton.error().message().c_str());
        return 1;
    }
    std::string_view atlas_text(reinterpret_cast<const char*>(atlas_file->bytes.data()), atlas_file->bytes.size());
    Result<Atlas> atlas = parse_atlas(atlas_text, std::string(atlas_file->name));
    if (!atlas) {
        std::fprintf(stderr, "spinegpu demo: %s\n", atlas.error().message().c_str());
        return 1;
    }
    std::fputs(describe_text(std::string(json->name) + " (embedded demo rig)", *skeleton, &*atlas).c_str(), stdout);
    std::printf("skeleton load %.3f ms\n\n", skeleton_ms);

    // The crowd: the rig's files written beside the output, then played and drawn as a scene.
    const std::string rig_dir = (std::filesystem::path(out) / "demo-rig").string();
    if (Result<void> written = write_demo_rig(rig_dir, true); !written) {
        std::fprintf(stderr, "spinegpu demo: %s\n", written.error().message().c_str());
        return 1;
    }
    const SceneFile scene = demo_scene(rig_dir, *characters, 1920, 1080);
    // First the frames, through the GPU path; then both paths timed without reading frames back (a readback
    // between frames idles the GPU and would time its clocks ramping, not the work).
    SceneRenderOptions options;
    options.frames = *frames;
    options.out_dir = (std::filesystem::path(out) / "demo-frames").string();
    options.device = args->get("--device").value_or("");
    options.validation = args->has("--validation");
    options.quiet = true;
    Result<SceneRenderReport> written = render_scene(scene, options);
    if (!written) {
        std::fprintf(stderr, "spinegpu demo: %s\n", written.error().message().c_str());
        return 1;
    }
    char last[32];
    std::snprintf(last, sizeof last, "frame-%04u.png", *frames);
    std::error_code ec;
    std::filesystem::copy_file(std::filesystem::path(options.out_dir) / last, std::filesystem::path(out) / "demo.png",
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
        std::fprintf(stderr, "spinegpu demo: cannot write %s/demo.png: %s\n", out.c_str(), ec.message().c_str());
        return 1;
    }
    std::printf("%-5s %10s %10s %9s %10s %9s %12s %10s\n", "path", "characters", "update ms", "pack ms", "record ms",
                "GPU ms", "bytes/frame", "triangles");
    std::uint32_t timed_frames = 0;  // (the medians leave out the first frames: SceneRenderReport::timed_frames)
    for (gpu::RenderPath path : {gpu::RenderPath::gpu, gpu::RenderPath::cpu}) {
        options.path = path;
        options.write_images = false;
        Result<SceneRenderReport> report = render_scene(scene, options);
        if (!report) {
            std::fprintf(stderr, "spinegpu demo: %s\n", report.error().message().c_str());
            return 1;
        }
        timed_frames = report->timed_frames;
        std::printf("%-5s %10u %10.3f %9.3f %10.3f %9.3f %12llu %10u\n", path == gpu::RenderPath::gpu ? "gpu" : "cpu",
                    report->characters, report->update_ms, report->pack_ms, report->record_ms, report->gpu_ms,
                    static_cast<unsigned long long>(report->bytes_uploaded), report->triangles);
    }
    std::printf("(device: %s; medians over the last %u of %u frames; update is the runtime on one thread)\n",
                written->device.c_str(), timed_frames, *frames);
    std::printf("\nwrote %s/demo.png and %u frames in %s/demo-frames/\n", out.c_str(), *frames, out.c_str());
    std::printf("with a display, `spinegpu view --characters %u` plays this crowd live in a window\n", *characters);
    return 0;
}

}  // namespace spinegpu::tools
