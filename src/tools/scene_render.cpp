// Playing and drawing a scene: see scene_render.hpp.
#include "scene_render.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numeric>
#include <optional>

#include "camera_fit.hpp"
#include "schedule_player.hpp"
#include "skeleton_assets.hpp"
#include "spinegpu/core/file.hpp"

namespace spinegpu::tools {
namespace {

struct Actor {
    std::unique_ptr<Schedule> schedule;
    std::unique_ptr<SchedulePlayer> player;
    std::uint32_t type = 0;
    std::uint32_t next_step = 1;
    Color tint;
};

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

Result<ScheduleSkin> resolve_skin(const SceneFile& scene, const SceneCharacter& c, const SkeletonData& data) {
    ScheduleSkin skin;
    skin.combined = c.skin.size() > 1;
    for (const std::string& name : c.skin) {
        Index s = data.skin_names.find(name);
        if (s == k_none) return make_error(scene.file, c.where + ".skin", "unknown skin \"" + name + "\"");
        skin.skins.push_back(s);
    }
    return skin;
}

}  // namespace

Result<SceneRenderReport> render_scene(const SceneFile& scene, const SceneRenderOptions& options) {
    std::vector<SkeletonAssets> types;
    types.reserve(scene.types.size());
    PageBudget budget;  // for all the types together: they share the renderer's page array
    for (const SceneType& t : scene.types) {
        Result<SkeletonAssets> assets = load_skeleton_assets(t.skeleton, t.atlas, budget);
        if (!assets)
            return make_error(scene.file, "types[" + std::to_string(types.size()) + "]", assets.error().message());
        warn_if_drawn_unclipped("render", t.name, assets->data, options.path);
        types.push_back(std::move(*assets));
    }
    gpu::RendererDesc desc;
    desc.device = options.device;
    desc.validation = options.validation;
    Result<std::unique_ptr<gpu::Renderer>> made = gpu::Renderer::create(desc);
    if (!made) return made.error();
    gpu::Renderer& renderer = **made;
    for (std::size_t i = 0; i < types.size(); ++i) {
        Result<std::uint32_t> added = renderer.add_skeleton_type(types[i].data, types[i].atlas, types[i].binding,
                                                                 std::move(types[i].pages), scene.types[i].name);
        if (!added) return added.error();
    }

    std::vector<Actor> actors;
    actors.reserve(scene.characters.size());
    for (const SceneCharacter& c : scene.characters) {
        const SkeletonData& data = types[c.type].data;
        Result<Schedule> schedule = Error{};
        if (!c.animation.empty()) {
            schedule = animation_schedule(c.animation, scene.file, c.where + ".animation", data);
        } else {
            Result<std::string> text = read_file_text(c.schedule);
            schedule = text ? parse_schedule(*text, c.schedule, data) : Result<Schedule>(text.error());
            // (The schedule file's own error, told from the scene's place that names it.)
            if (!schedule) return make_error(scene.file, c.where + ".schedule", schedule.error().message());
        }
        if (!schedule) return schedule.error();
        if (!c.skin.empty()) {
            Result<ScheduleSkin> skin = resolve_skin(scene, c, data);
            if (!skin) return skin.error();
            schedule->skin = std::move(*skin);
        }
        Actor a;
        a.schedule = std::make_unique<Schedule>(std::move(*schedule));
        a.player = std::make_unique<SchedulePlayer>(data, *a.schedule, k_none);
        SkeletonPose& pose = a.player->pose;
        pose.x = c.x;
        pose.y = c.y;
        pose.scale_x = c.flip_x ? -c.scale : c.scale;
        pose.scale_y = c.flip_y ? -c.scale : c.scale;
        a.type = static_cast<std::uint32_t>(c.type);
        a.tint = c.tint;
        if (c.start > 0) a.player->run_step(a.next_step++, c.start);
        actors.push_back(std::move(a));
    }
    // Back to front: lower layers first; within a layer, characters higher up the canvas (farther) first.
    std::vector<std::size_t> order(actors.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const SceneCharacter &x = scene.characters[a], &y = scene.characters[b];
        return x.layer != y.layer ? x.layer < y.layer : x.y > y.y;
    });
    std::vector<gpu::CharacterDraw> draws;
    for (std::size_t i : order) draws.push_back({&actors[i].player->pose, actors[i].type, actors[i].tint});

    SceneRenderReport report;
    report.device = renderer.device_name();
    report.characters = static_cast<std::uint32_t>(actors.size());
    std::vector<double> update_ms, pack_ms, record_ms, gpu_ms;
    std::optional<gpu::Camera2D> camera;
    if (scene.camera_scale) camera = gpu::Camera2D{*scene.camera_scale, *scene.camera_x, *scene.camera_y};
    // The first frame in each slot allocates the slot's buffers, likely why the crowd scene's ten characters took
    // 1.4 ms of packing on the H200 by the median of three frames, two of them such: left out of the medians when
    // later frames exist.
    const std::uint32_t warm_up = options.frames > renderer.frames_in_flight() ? renderer.frames_in_flight() : 0;
    report.timed_frames = options.frames - warm_up;
    for (std::uint32_t frame = 1; frame <= options.frames; ++frame) {
        const auto start = std::chrono::steady_clock::now();
        for (Actor& a : actors) {
            a.player->run_step(a.next_step++, scene.dt);
            a.player->state.notifications.clear();
        }
        const double update =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!camera) {
            // Fit the first frame: every character's bounds.
            CameraFit fit;
            for (const Actor& actor : actors) fit.add(actor.player->pose, types[actor.type].binding);
            if (!fit.finite())
                return make_error(scene.file, "camera", "the first frame's bounds are not finite (world transforms "
                                                        "overflowed), so no camera fits them; give one");
            camera = fit.camera(scene.width, scene.height);
            if (!in_range(*camera, k_scene_camera))
                return make_error(scene.file, "camera",
                                  "the first frame's bounds need the camera " + camera_text(*camera) +
                                      ", past what a scene's camera may be (" + k_scene_camera.text + "); give one");
        }
        Result<gpu::FrameStats> stats = renderer.draw(draws, *camera, scene.width, scene.height, scene.background,
                                                      options.path);
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
    report.camera = *camera;
    return report;
}

}  // namespace spinegpu::tools
