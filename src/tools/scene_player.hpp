// A scene's crowd played frame by frame (scene_file.hpp): its skeleton types loaded, every character stepping as
// `pose` steps one (its schedule, DESIGN.md's stepping), and the draw list back to front (layer, then farther up the
// canvas first). Shared by `render --scene`, `demo` and `view`, which draw it headless or in a window.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "scene_file.hpp"
#include "schedule_player.hpp"
#include "skeleton_assets.hpp"
#include "spinegpu/core/result.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::tools {

class ScenePlayer {
public:
    // Loads the scene's types and sets its characters up (each at its start time). `command` and `path` name the
    // command and the path it draws through in warnings. Errors name the scene file and place (the schedule file's
    // own errors told from the scene's place that names it).
    // `scene` must outlive the player.
    static Result<std::unique_ptr<ScenePlayer>> load(const SceneFile& scene, const char* command,
                                                     gpu::RenderPath path);
    static Result<std::unique_ptr<ScenePlayer>> load(const SceneFile&& scene, const char*, gpu::RenderPath) = delete;
    ScenePlayer(const ScenePlayer&) = delete;
    ScenePlayer& operator=(const ScenePlayer&) = delete;

    // Adds every type to `renderer`, giving it the page images (so once per player).
    Result<void> add_types_to(gpu::Renderer& renderer);
    // Steps every character one frame of the scene's dt (notifications dropped), on `pool`'s threads when given (the
    // characters are independent: the poses are the same either way).
    void step(WorkerPool* pool = nullptr);
    // The characters to draw, back to front, with their current poses.
    std::span<const gpu::CharacterDraw> draws() const { return draws_; }
    std::uint32_t character_count() const { return static_cast<std::uint32_t>(actors_.size()); }
    // The scene's camera, or else the one that fits the characters' bounds in the current frame with a 5% margin,
    // chosen at the first call and kept. Fails when no camera fits those bounds.
    Result<gpu::Camera2D> camera();

private:
    struct Actor {
        std::unique_ptr<Schedule> schedule;
        std::unique_ptr<SchedulePlayer> player;
        std::uint32_t type = 0;
        std::uint32_t next_step = 1;
        Color tint;
    };

    explicit ScenePlayer(const SceneFile& scene) : scene_(scene) {}
    Result<void> add_character(const SceneCharacter& c);
    void step_range(std::size_t begin, std::size_t end);

    const SceneFile& scene_;
    std::vector<SkeletonAssets> types_;
    std::vector<Actor> actors_;
    std::vector<gpu::CharacterDraw> draws_;
    std::optional<gpu::Camera2D> camera_;
};

}  // namespace spinegpu::tools
