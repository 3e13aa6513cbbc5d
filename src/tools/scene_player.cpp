// A scene's crowd played frame by frame: see scene_player.hpp.
#include "scene_player.hpp"

#include <algorithm>
#include <numeric>

#include "camera_fit.hpp"
#include "spinegpu/core/file.hpp"
#include "unknown_name.hpp"

namespace spinegpu::tools {
namespace {

Result<ScheduleSkin> resolve_skin(const SceneFile& scene, const SceneCharacter& c, const SkeletonData& data) {
    ScheduleSkin skin;
    skin.combined = c.skin.size() > 1;
    for (const std::string& name : c.skin) {
        Index s = data.skin_names.find(name);
        if (s == k_none) return make_error(scene.file, c.where + ".skin", unknown_name("skin", name, data.skin_names));
        skin.skins.push_back(s);
    }
    return skin;
}

}  // namespace

Result<std::unique_ptr<ScenePlayer>> ScenePlayer::load(const SceneFile& scene, const char* command,
                                                       gpu::RenderPath path) {
    std::unique_ptr<ScenePlayer> player(new ScenePlayer(scene));
    player->types_.reserve(scene.types.size());
    PageBudget budget;  // for all the types together: they share the renderer's page array
    for (const SceneType& t : scene.types) {
        Result<SkeletonAssets> assets = load_skeleton_assets(t.skeleton, t.atlas, budget);
        if (!assets)
            return make_error(scene.file, "types[" + std::to_string(player->types_.size()) + "]",
                              assets.error().message());
        warn_if_drawn_unclipped(command, t.name, assets->data, path);
        player->types_.push_back(std::move(*assets));
    }
    player->actors_.reserve(scene.characters.size());
    for (const SceneCharacter& c : scene.characters)
        if (Result<void> added = player->add_character(c); !added) return added.error();
    // Back to front: lower layers first; within a layer, characters higher up the canvas (farther) first.
    std::vector<std::size_t> order(player->actors_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const SceneCharacter &x = scene.characters[a], &y = scene.characters[b];
        return x.layer != y.layer ? x.layer < y.layer : x.y > y.y;
    });
    for (std::size_t i : order) {
        const Actor& a = player->actors_[i];
        player->draws_.push_back({&a.player->pose, a.type, a.tint});
    }
    if (scene.camera_scale) player->camera_ = gpu::Camera2D{*scene.camera_scale, *scene.camera_x, *scene.camera_y};
    return player;
}

Result<void> ScenePlayer::add_character(const SceneCharacter& c) {
    const SkeletonData& data = types_[c.type].data;
    Result<Schedule> schedule = Error{};
    if (!c.animation.empty()) {
        schedule = animation_schedule(c.animation, scene_.file, c.where + ".animation", data);
    } else {
        Result<std::string> text = read_file_text(c.schedule);
        schedule = text ? parse_schedule(*text, c.schedule, data) : Result<Schedule>(text.error());
        // (The schedule file's own error, told from the scene's place that names it.)
        if (!schedule) return make_error(scene_.file, c.where + ".schedule", schedule.error().message());
    }
    if (!schedule) return schedule.error();
    if (!c.skin.empty()) {
        Result<ScheduleSkin> skin = resolve_skin(scene_, c, data);
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
    actors_.push_back(std::move(a));
    return {};
}

Result<void> ScenePlayer::add_types_to(gpu::Renderer& renderer) {
    for (std::size_t i = 0; i < types_.size(); ++i) {
        Result<std::uint32_t> added = renderer.add_skeleton_type(types_[i].data, types_[i].atlas, types_[i].binding,
                                                                 std::move(types_[i].pages), scene_.types[i].name);
        if (!added) return added.error();
    }
    return {};
}

void ScenePlayer::step_range(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        Actor& a = actors_[i];
        a.player->run_step(a.next_step++, scene_.dt);
        a.player->state.notifications.clear();
    }
}

void ScenePlayer::step(WorkerPool* pool) {
    if (pool == nullptr) {
        step_range(0, actors_.size());
        return;
    }
    const RangeJob job{[](void* self, std::size_t begin, std::size_t end) {
                           static_cast<ScenePlayer*>(self)->step_range(begin, end);
                       },
                       this};
    pool->run(actors_.size(), 64, job);
}

Result<gpu::Camera2D> ScenePlayer::camera() {
    if (camera_) return *camera_;
    CameraFit fit;
    for (const Actor& actor : actors_) fit.add(actor.player->pose, types_[actor.type].binding);
    if (!fit.finite())
        return make_error(scene_.file, "camera", "the first frame's bounds are not finite (world transforms "
                                                 "overflowed), so no camera fits them; give one");
    const gpu::Camera2D fitted = fit.camera(scene_.width, scene_.height);
    if (!in_range(fitted, k_scene_camera))
        return make_error(scene_.file, "camera",
                          "the first frame's bounds need the camera " + camera_text(fitted) +
                              ", past what a scene's camera may be (" + k_scene_camera.text + "); give one");
    camera_ = fitted;
    return fitted;
}

}  // namespace spinegpu::tools
