// Scene files for `spinegpu render --scene` (the format is documented in README.md, "Scene files"): skeleton types,
// characters placed on a 2D canvas with their animation or schedule, the camera and the background. Parsed with
// errors that name the file and the place ("characters[3].type: unknown type \"knight\""). Names of animations and
// skins are resolved later, against each type's skeleton (scene_render.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/core/result.hpp"

namespace spinegpu::tools {

struct SceneType {
    std::string name;
    std::string skeleton, atlas;   // resolved against the scene file's folder
};

struct SceneCharacter {
    std::size_t type = 0;          // into SceneFile::types
    float x = 0, y = 0, scale = 1;
    bool flip_x = false, flip_y = false;
    Color tint;
    std::vector<std::string> skin;  // empty: none; more than one: combined, as schedules combine skins
    std::string animation;          // looping; or
    std::string schedule;           // a schedule file (resolved against the scene file's folder)
    double start = 0;               // seconds the character has already played before frame 1
    std::int32_t layer = 0;
    std::string where;              // "characters[3]", for later errors
};

struct SceneFile {
    std::string file;
    std::vector<SceneType> types;
    std::vector<SceneCharacter> characters;
    std::uint32_t width = 1280, height = 720;
    std::optional<float> camera_scale, camera_x, camera_y;  // all three, or none: fit the first frame
    Color background{0, 0, 0, 0};
    double dt = 1.0 / 60;
};

// Parses scene JSON. `file` names the source in errors and is the base for relative paths.
Result<SceneFile> parse_scene(const std::string& json, const std::string& file);

}  // namespace spinegpu::tools
