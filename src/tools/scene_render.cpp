// Playing and drawing a scene: see scene_render.hpp.
#include "scene_render.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "scene_player.hpp"

namespace spinegpu::tools {

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

Result<SceneRenderReport> render_scene(const SceneFile& scene, const SceneRenderOptions& options) {
    Result<std::unique_ptr<ScenePlayer>> loaded = ScenePlayer::load(scene, "render", options.path);
    if (!loaded) return loaded.error();
    ScenePlayer& player = **loaded;
    gpu::RendererDesc desc;
    desc.device = options.device;
    desc.validation = options.validation;
    Result<std::unique_ptr<gpu::Renderer>> made = gpu::Renderer::create(desc);
    if (!made) return made.error();
    gpu::Renderer& renderer = **made;
    if (Result<void> added = player.add_types_to(renderer); !added) return added.error();

    SceneRenderReport report;
    report.device = renderer.device_name();
    report.characters = player.character_count();
    std::vector<double> update_ms, pack_ms, record_ms, gpu_ms;
    // The first frame in each slot allocates the slot's buffers, likely why the crowd scene's ten characters took
    // 1.4 ms of packing on the H200 by the median of three frames, two of them such: left out of the medians when
    // later frames exist.
    const std::uint32_t warm_up = options.frames > renderer.frames_in_flight() ? renderer.frames_in_flight() : 0;
    report.timed_frames = options.frames - warm_up;
    for (std::uint32_t frame = 1; frame <= options.frames; ++frame) {
        const auto start = std::chrono::steady_clock::now();
        player.step();
        const double update =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        Result<gpu::Camera2D> camera = player.camera();  // (fitted to the first frame when the scene gives none)
        if (!camera) return camera.error();
        Result<gpu::FrameStats> stats =
            renderer.draw(player.draws(), *camera, scene.width, scene.height, scene.background, options.path);
        // A refusal (the vertex-shader path and a draw-order timeline, a crowd past the limits) names the scene.
        if (!stats) {
            Error named = make_error(scene.file, "frame " + std::to_string(frame), stats.error().message());
            named.vk_result = stats.error().vk_result;
            return named;
        }
        std::optional<Image> image;
        if (options.write_images) {
            Result<Image> read = renderer.read_back();
            if (!read) return read.error();
            image = std::move(*read);
        }
        Result<gpu::FrameStats> done = renderer.finish();
        if (!done) return done.error();
        if (frame > warm_up) {
            update_ms.push_back(update);
            pack_ms.push_back(done->pack_ms);
            record_ms.push_back(done->record_ms);
            if (done->gpu_ms >= 0) gpu_ms.push_back(done->gpu_ms);
        }
        report.bytes_uploaded = done->bytes_uploaded;
        report.vertices = done->vertices;
        report.triangles = done->triangles;
        report.culled = done->culled;
        if (!image) continue;
        // The folder is made only once there is a frame to put in it.
        if (std::error_code ec; frame == 1 && !std::filesystem::create_directories(options.out_dir, ec) && ec)
            return make_error(options.out_dir, "", "cannot create the folder: " + ec.message());
        char name[32];
        std::snprintf(name, sizeof name, "frame-%04u.png", frame);
        const std::string path = (std::filesystem::path(options.out_dir) / name).string();
        if (Result<void> written = write_png_file(path, *image); !written) return written.error();
        if (!options.quiet) std::printf("wrote %s\n", path.c_str());
    }
    if (renderer.validation_messages() != 0)
        return make_error("vulkan", "validation", std::to_string(renderer.validation_messages()) +
                                                      " messages, the first: " + renderer.first_validation_message());
    report.update_ms = median(update_ms);
    report.pack_ms = median(pack_ms);
    report.record_ms = median(record_ms);
    report.gpu_ms = gpu_ms.empty() ? -1 : median(gpu_ms);
    report.camera = *player.camera();  // (known: at least one frame was drawn)
    return report;
}

}  // namespace spinegpu::tools
