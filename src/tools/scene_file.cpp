// Scene files: see scene_file.hpp.
#include "scene_file.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "camera_fit.hpp"
#include "json_values.hpp"
#include "spinegpu/core/json_syntax.hpp"

namespace spinegpu::tools {
namespace {

using simdjson::dom::element;
using json::array_of;
using json::is_number;
using json::number;

// `value` in the fewest digits that give it back ("%g": 1e-06, 16384).
std::string shortest(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// Reads members of one JSON object with typed getters that record the first error at "where.key" ("key" for the
// scene's own members, where is empty; a key the object holds twice is that error, found on construction).
class Fields {
public:
    Fields(const std::string& file, std::string where, element object, std::optional<Error>& error)
        : file_(file), where_(std::move(where)), error_(error), object_(json::object_of(object)) {
        if (!object.is_object()) fail("", "must be an object");  // and its fields are read from an empty object
        // Before any field is read, so that no other error about a repeated key's first or last value comes first.
        if (std::optional<std::string_view> twice = json::repeated_key(object_)) fail(*twice, "appears twice");
    }

    // The member `key`, if present; `key` becomes one of the object's known keys (see check_keys).
    std::optional<element> get(std::string_view key) {
        known_.push_back(key);
        element e;
        if (object_.at_key(key).get(e) != simdjson::SUCCESS) return std::nullopt;
        return e;
    }
    // Fails on the first member that no getter asked for (a misspelt key would otherwise be ignored), except
    // "comment", free text (a string).
    void check_keys() {
        for (auto [key, value] : object_) {
            if (key == "comment") {
                if (!value.is_string()) return fail(key, "must be a string (free text)");
            } else if (std::find(known_.begin(), known_.end(), key) == known_.end()) {
                return fail(key, "unknown key");
            }
        }
    }
    void number_field(std::string_view key, float& out, double low, double high) {
        std::optional<element> e = get(key);
        if (!e) return;
        if (!is_number(*e) || !(number(*e) >= low && number(*e) <= high))
            return fail(key, "must be a number from " + shortest(low) + " to " + shortest(high));
        out = static_cast<float>(number(*e));
    }
    void number_field(std::string_view key, double& out, double low, double high) {
        float f = static_cast<float>(out);
        std::optional<element> e = get(key);
        if (!e) return;
        number_field(key, f, low, high);
        if (is_number(*e)) out = number(*e);
    }
    // A string value; an empty one is refused (no name, path or colour is empty).
    void string_field(std::string_view key, std::string& out) {
        std::optional<element> e = get(key);
        if (!e) return;
        if (!e->is_string()) return fail(key, "must be a string");
        out = std::string(e->get_string().value_unsafe());
        if (out.empty()) fail(key, "must not be empty");
    }
    void bool_field(std::string_view key, bool& out) {
        std::optional<element> e = get(key);
        if (!e) return;
        if (!e->is_bool()) return fail(key, "must be true or false");
        out = e->get_bool().value_unsafe();
    }
    void color_field(std::string_view key, Color& out) {
        std::string text;
        string_field(key, text);
        if (!text.empty() && (text.size() != 8 || !parse_hex_color(text.data(), text.size(), out)))
            fail(key, "must be a colour RRGGBBAA");
    }
    void fail(std::string_view key, std::string what) {
        if (error_) return;
        // The scene's own members are named bare, as "types" and "characters[3]" are; the scene itself "scene".
        const std::string place = key.empty()     ? (where_.empty() ? "scene" : where_)
                                  : where_.empty() ? std::string(key)
                                                   : where_ + "." + std::string(key);
        error_ = make_error(file_, place, std::move(what));
    }
    const std::string& where() const { return where_; }

private:
    const std::string& file_;
    std::string where_;
    std::optional<Error>& error_;
    simdjson::dom::object object_;
    std::vector<std::string_view> known_;
};

std::string resolve(const std::string& scene_file, const std::string& path) {
    std::filesystem::path p(path);
    if (p.is_absolute()) return path;
    return (std::filesystem::path(scene_file).parent_path() / p).string();
}

}  // namespace

Result<SceneFile> parse_scene(const std::string& json, const std::string& file) {
    SceneFile scene;
    scene.file = file;
    simdjson::dom::parser parser;
    element root;
    const std::string_view text = without_byte_order_mark(json);
    if (auto error = parser.parse(text.data(), text.size()).get(root); error != simdjson::SUCCESS)
        return make_error(file, json_error_place(text, "JSON"),
                          std::string("invalid JSON: ") + simdjson::error_message(error));
    std::optional<Error> error;
    Fields top(file, "", root, error);
    if (error) return *error;
    float width = 1280, height = 720;
    top.number_field("width", width, 1, 16384);
    top.number_field("height", height, 1, 16384);
    if (width != std::floor(width)) top.fail("width", "sizes are whole pixels");
    if (height != std::floor(height)) top.fail("height", "sizes are whole pixels");
    scene.width = static_cast<std::uint32_t>(width);
    scene.height = static_cast<std::uint32_t>(height);
    top.color_field("background", scene.background);
    top.number_field("dt", scene.dt, 0, 10);
    if (std::optional<element> camera = top.get("camera")) {
        Fields c(file, "camera", *camera, error);
        float scale = 0, x = 0, y = 0;
        c.number_field("scale", scale, k_scene_camera.min_scale, k_scene_camera.max_scale);
        c.number_field("x", x, -k_scene_camera.max_offset, k_scene_camera.max_offset);
        c.number_field("y", y, -k_scene_camera.max_offset, k_scene_camera.max_offset);
        if (!c.get("scale")) c.fail("scale", "is required (or leave out the camera to fit the first frame)");
        scene.camera_scale = scale;
        scene.camera_x = x;
        scene.camera_y = y;
        c.check_keys();
    }
    std::optional<element> types = top.get("types");
    if (!types || !types->is_array()) return make_error(file, "types", "an array of skeleton types is required");
    std::size_t i = 0;
    for (element t : array_of(*types)) {
        Fields f(file, "types[" + std::to_string(i++) + "]", t, error);
        SceneType type;
        f.string_field("name", type.name);
        f.string_field("skeleton", type.skeleton);
        f.string_field("atlas", type.atlas);
        if (type.name.empty() || type.skeleton.empty() || type.atlas.empty())
            f.fail("", "needs \"name\", \"skeleton\" and \"atlas\"");
        for (const SceneType& other : scene.types)
            if (other.name == type.name) f.fail("name", "\"" + type.name + "\" is used twice");
        type.skeleton = resolve(file, type.skeleton);
        type.atlas = resolve(file, type.atlas);
        f.check_keys();
        scene.types.push_back(std::move(type));
        if (error) return *error;
    }
    std::optional<element> characters = top.get("characters");
    if (!characters || !characters->is_array()) return make_error(file, "characters", "an array is required");
    i = 0;
    for (element c : array_of(*characters)) {
        SceneCharacter ch;
        ch.where = "characters[" + std::to_string(i++) + "]";
        Fields f(file, ch.where, c, error);
        std::string type;
        f.string_field("type", type);
        ch.type = scene.types.size();
        for (std::size_t t = 0; t < scene.types.size(); ++t)
            if (scene.types[t].name == type) ch.type = t;
        if (!f.get("type")) f.fail("type", "is required");
        if (ch.type == scene.types.size()) f.fail("type", "unknown type \"" + type + "\"");
        f.number_field("x", ch.x, -1e9, 1e9);
        f.number_field("y", ch.y, -1e9, 1e9);
        f.number_field("scale", ch.scale, 1e-6, 1e6);
        f.bool_field("flipX", ch.flip_x);
        f.bool_field("flipY", ch.flip_y);
        f.color_field("tint", ch.tint);
        if (std::optional<element> skin = f.get("skin")) {
            if (skin->is_string()) {
                ch.skin.emplace_back(skin->get_string().value_unsafe());
            } else if (skin->is_array()) {
                for (element s : array_of(*skin)) {
                    if (!s.is_string()) f.fail("skin", "must be a name or an array of names");
                    else ch.skin.emplace_back(s.get_string().value_unsafe());
                }
                if (ch.skin.empty()) f.fail("skin", "an empty skin list");
            } else {
                f.fail("skin", "must be a name or an array of names");
            }
            if (std::find(ch.skin.begin(), ch.skin.end(), "") != ch.skin.end()) f.fail("skin", "must not be empty");
        }
        f.string_field("animation", ch.animation);
        f.string_field("schedule", ch.schedule);
        if (ch.animation.empty() == ch.schedule.empty())
            f.fail("", "needs exactly one of \"animation\" and \"schedule\"");
        if (!ch.schedule.empty()) ch.schedule = resolve(file, ch.schedule);
        // (One update of `start` seconds: physics then takes start x 60 fixed steps, so an hour at most.)
        f.number_field("start", ch.start, 0, 3600);
        float layer = 0;
        f.number_field("layer", layer, -1e6, 1e6);
        if (layer != std::floor(layer)) f.fail("layer", "must be a whole number");
        ch.layer = static_cast<std::int32_t>(layer);
        f.check_keys();
        scene.characters.push_back(std::move(ch));
        if (error) return *error;
    }
    top.check_keys();
    if (error) return *error;
    return scene;
}

}  // namespace spinegpu::tools
