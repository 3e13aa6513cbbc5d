// Spine 4.2 JSON skeleton loader: the document, skeleton info, bones, slots, constraints and events. Skins are in
// json_skins.cpp, animations in json_animations.cpp. Defaults, scaling and the order things are created in follow
// the official runtime's JSON loader.
#include <simdjson.h>

#include <array>
#include <cmath>
#include <exception>
#include <new>

#include "json_loader.hpp"
#include "spinegpu/core/json_syntax.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {
namespace detail::json {
namespace {

constexpr std::array<const char*, 4> k_blend_names = {"normal", "additive", "multiply", "screen"};
constexpr std::array<const char*, 2> k_position_names = {"fixed", "percent"};
constexpr std::array<const char*, 4> k_spacing_names = {"length", "fixed", "percent", "proportional"};
constexpr std::array<const char*, 3> k_rotate_names = {"tangent", "chain", "chainScale"};

bool check_version(Load& load, Object root) {
    Reader& r = load.r;
    std::optional<Object> skeleton = r.object(root, "skeleton");
    if (!r.ok()) return false;
    if (!skeleton) return r.fail_at("skeleton", "expected the skeleton object with the Spine version (\"spine\")");
    auto scope = r.at("skeleton");
    std::string_view version = r.required_string(*skeleton, "spine");
    if (!r.ok()) return false;
    if (version != "4.2" && version.substr(0, 4) != "4.2.")
        return r.fail_at("spine", "unsupported Spine version " + std::string(version) + "; spinegpu reads 4.2 exports");
    return true;
}

bool read_skeleton_info(Load& load, Object root) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    std::optional<Object> skeleton = r.object(root, "skeleton");
    if (!skeleton) return r.ok();
    auto scope = r.at("skeleton");
    Object map = *skeleton;
    d.hash = r.string(map, "hash").value_or("");
    d.version = r.string(map, "spine").value_or("");
    d.x = r.number_f(map, "x", 0);
    d.y = r.number_f(map, "y", 0);
    d.width = r.number_f(map, "width", 0);
    d.height = r.number_f(map, "height", 0);
    d.reference_scale = r.number_f(map, "referenceScale", 100, load.scale);
    d.fps = r.number_f(map, "fps", d.fps);
    d.images_path = r.string(map, "images").value_or("");
    d.audio_path = r.string(map, "audio").value_or("");
    return r.ok();
}

// Adds `name` to `table`, failing on an empty or repeated name.
bool add_name(Reader& r, NameTable& table, std::string_view name, const char* kind, Index& out) {
    if (name.empty()) return r.fail_at("name", std::string("expected a non-empty ") + kind + " name");
    out = table.add(name);
    if (out == k_none) return r.fail_at("name", std::string("duplicate ") + kind + " name " + quote(name));
    return true;
}

Index find_bone(Load& load, Object map, std::string_view key) {
    std::string_view name = load.r.required_string(map, key);
    if (!load.r.ok()) return k_none;
    Index bone = load.data.bone_names.find(name);
    if (bone == k_none) load.r.fail_at(key, "unknown bone " + quote(name));
    return bone;
}

bool read_constraint_bones(Load& load, Object map, Range& out) {
    std::optional<Array> bones = load.r.required_array(map, "bones");
    if (!bones) return false;
    auto scope = load.r.at("bones");
    return load.bone_list(*bones, out);
}

bool read_bone(Load& load, Object map) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    BoneData b;
    std::string_view name = r.required_string(map, "name");
    if (std::optional<std::string_view> parent = r.string(map, "parent"); parent && !parent->empty()) {
        b.parent = d.bone_names.find(*parent);
        if (b.parent == k_none)
            return r.fail_at("parent", "unknown bone " + quote(*parent) + " (a parent must come before its children)");
    }
    b.length = r.number_f(map, "length", 0, load.scale);
    b.x = r.number_f(map, "x", 0, load.scale);
    b.y = r.number_f(map, "y", 0, load.scale);
    b.rotation_double = r.number(map, "rotation", 0);
    b.rotation = static_cast<float>(b.rotation_double);
    b.scale_x = r.number_f(map, "scaleX", 1);
    b.scale_y = r.number_f(map, "scaleY", 1);
    b.shear_x = r.number_f(map, "shearX", 0);
    b.shear_y = r.number_f(map, "shearY", 0);
    b.inherit = static_cast<Inherit>(r.enumeration(map, "inherit", 0, k_inherit_names));
    b.skin_required = r.boolean(map, "skin", false);
    b.color = r.color(map, "color", b.color);
    b.icon = r.string(map, "icon").value_or("");
    b.visible = r.boolean(map, "visible", true);
    Index index = 0;
    if (!r.ok() || !add_name(r, d.bone_names, name, "bone", index)) return false;
    d.bones.push_back(std::move(b));
    return true;
}

bool read_slot(Load& load, Object map) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    SlotData s;
    std::string_view name = r.required_string(map, "name");
    s.bone = find_bone(load, map, "bone");
    s.color = r.color(map, "color", s.color);
    if (std::optional<std::string_view> dark = r.string(map, "dark"); dark && !dark->empty()) {
        s.has_dark = true;
        s.dark = r.color(map, "dark", s.dark);
    }
    std::optional<std::string_view> attachment = r.string(map, "attachment");
    s.blend = static_cast<BlendMode>(r.enumeration(map, "blend", 0, k_blend_names));
    s.visible = r.boolean(map, "visible", true);
    Index index = 0;
    if (!r.ok() || !add_name(r, d.slot_names, name, "slot", index)) return false;
    if (attachment && !attachment->empty()) s.attachment_name = d.attachment_names.intern(*attachment);
    d.slots.push_back(s);
    return true;
}

// Reads the parts every constraint has: name (into `names`), order and skin.
bool read_constraint_head(Load& load, Object map, NameTable& names, const char* kind, std::int32_t& order,
                          bool& skin_required) {
    Reader& r = load.r;
    std::string_view name = r.required_string(map, "name");
    order = static_cast<std::int32_t>(r.integer(map, "order", 0, 0, k_int_max));
    skin_required = r.boolean(map, "skin", false);
    Index index = 0;
    if (!r.ok()) return false;
    index = names.add(name);
    if (index == k_none) return r.fail_at("name", std::string("duplicate ") + kind + " constraint name " + quote(name));
    return true;
}

bool read_ik(Load& load, Object map) {
    Reader& r = load.r;
    IkConstraintData c;
    if (!read_constraint_bones(load, map, c.bones)) return false;
    if (c.bones.count < 1 || c.bones.count > 2) return r.fail_at("bones", "expected 1 or 2 bones");
    c.target = find_bone(load, map, "target");
    c.mix = r.number_f(map, "mix", 1);
    c.softness = r.number_f(map, "softness", 0, load.scale);
    c.bend_direction = r.boolean(map, "bendPositive", true) ? 1 : -1;
    c.compress = r.boolean(map, "compress", false);
    c.stretch = r.boolean(map, "stretch", false);
    c.uniform = r.boolean(map, "uniform", false);
    if (!r.ok() || !read_constraint_head(load, map, load.data.ik_names, "IK", c.order, c.skin_required)) return false;
    load.data.ik_constraints.push_back(c);
    return true;
}

bool read_transform(Load& load, Object map) {
    Reader& r = load.r;
    TransformConstraintData c;
    if (!read_constraint_bones(load, map, c.bones)) return false;
    c.target = find_bone(load, map, "target");
    c.local = r.boolean(map, "local", false);
    c.relative = r.boolean(map, "relative", false);
    c.offset_rotation = r.number_f(map, "rotation", 0);
    c.offset_x = r.number_f(map, "x", 0, load.scale);
    c.offset_y = r.number_f(map, "y", 0, load.scale);
    c.offset_scale_x = r.number_f(map, "scaleX", 0);
    c.offset_scale_y = r.number_f(map, "scaleY", 0);
    c.offset_shear_y = r.number_f(map, "shearY", 0);
    c.mix_rotate = r.number_f(map, "mixRotate", 1);
    double mix_x = r.number(map, "mixX", 1);
    c.mix_x = static_cast<float>(mix_x);
    c.mix_y = r.number_f(map, "mixY", mix_x);
    double mix_scale_x = r.number(map, "mixScaleX", 1);
    c.mix_scale_x = static_cast<float>(mix_scale_x);
    c.mix_scale_y = r.number_f(map, "mixScaleY", mix_scale_x);
    c.mix_shear_y = r.number_f(map, "mixShearY", 1);
    if (!r.ok() || !read_constraint_head(load, map, load.data.transform_names, "transform", c.order, c.skin_required))
        return false;
    load.data.transform_constraints.push_back(c);
    return true;
}

bool read_path(Load& load, Object map) {
    Reader& r = load.r;
    PathConstraintData c;
    if (!read_constraint_bones(load, map, c.bones)) return false;
    std::string_view target = r.required_string(map, "target");
    if (!r.ok()) return false;
    c.target = load.data.slot_names.find(target);
    if (c.target == k_none) return r.fail_at("target", "unknown slot " + quote(target));
    c.position_mode = static_cast<PositionMode>(r.enumeration(map, "positionMode", 1, k_position_names));
    c.spacing_mode = static_cast<SpacingMode>(r.enumeration(map, "spacingMode", 0, k_spacing_names));
    c.rotate_mode = static_cast<RotateMode>(r.enumeration(map, "rotateMode", 0, k_rotate_names));
    c.offset_rotation = r.number_f(map, "rotation", 0);
    bool scale_position = c.position_mode == PositionMode::fixed;
    bool scale_spacing = c.spacing_mode == SpacingMode::length || c.spacing_mode == SpacingMode::fixed;
    c.position = r.number_f(map, "position", 0, scale_position ? load.scale : 1);
    c.spacing = r.number_f(map, "spacing", 0, scale_spacing ? load.scale : 1);
    c.mix_rotate = r.number_f(map, "mixRotate", 1);
    double mix_x = r.number(map, "mixX", 1);
    c.mix_x = static_cast<float>(mix_x);
    c.mix_y = r.number_f(map, "mixY", mix_x);
    if (!r.ok() || !read_constraint_head(load, map, load.data.path_names, "path", c.order, c.skin_required))
        return false;
    load.data.path_constraints.push_back(c);
    return true;
}

bool read_physics(Load& load, Object map) {
    Reader& r = load.r;
    PhysicsConstraintData c;
    c.bone = find_bone(load, map, "bone");
    c.x = r.number_f(map, "x", 0);
    c.y = r.number_f(map, "y", 0);
    c.rotate = r.number_f(map, "rotate", 0);
    c.scale_x = r.number_f(map, "scaleX", 0);
    c.shear_x = r.number_f(map, "shearX", 0);
    c.limit = r.number_f(map, "limit", 5000, load.scale);
    double fps = r.number(map, "fps", 60);
    // 1 to 255, the binary format's range (one byte, 0 refused): an editor export never has more, a huge rate
    // would make each frame run millions of physics steps, and a tiny one a step too long for a float.
    if (r.ok() && !(fps >= 1 && fps <= 255)) return r.fail_at("fps", "expected 1 to 255 steps per second");
    c.step = static_cast<float>(1 / fps);
    c.inertia = r.number_f(map, "inertia", 1);
    c.strength = r.number_f(map, "strength", 100);
    c.damping = r.number_f(map, "damping", 1);
    double mass = r.number(map, "mass", 1);
    if (r.ok() && !(mass > 0)) return r.fail_at("mass", "expected a positive number");
    c.mass_inverse = static_cast<float>(1 / mass);
    c.wind = r.number_f(map, "wind", 0);
    c.gravity = r.number_f(map, "gravity", 0);
    c.mix = r.number_f(map, "mix", 1);
    c.inertia_global = r.boolean(map, "inertiaGlobal", false);
    c.strength_global = r.boolean(map, "strengthGlobal", false);
    c.damping_global = r.boolean(map, "dampingGlobal", false);
    c.mass_global = r.boolean(map, "massGlobal", false);
    c.wind_global = r.boolean(map, "windGlobal", false);
    c.gravity_global = r.boolean(map, "gravityGlobal", false);
    c.mix_global = r.boolean(map, "mixGlobal", false);
    if (!r.ok() || !read_constraint_head(load, map, load.data.physics_names, "physics", c.order, c.skin_required))
        return false;
    load.data.physics_constraints.push_back(c);
    return true;
}

// Reads the array `key` of root, calling read(load, object) for each element.
template <class ReadItem>
bool read_list(Load& load, Object root, std::string_view key, ReadItem read) {
    Reader& r = load.r;
    std::optional<Array> list = r.array(root, key);
    if (!list) return r.ok();
    auto scope = r.at(key);
    std::size_t i = 0;
    for (Element e : *list) {
        auto item_scope = r.at(i++);
        std::optional<Object> map = r.as_object(e);
        if (!map || !read(load, *map)) return false;
    }
    return true;
}

bool read_events(Load& load, Object root) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    std::optional<Object> events = r.object(root, "events");
    if (!events) return r.ok();
    auto scope = r.at("events");
    for (const Member& m : Reader::members(*events)) {
        auto event_scope = r.at(m.key);
        std::optional<Object> map = r.as_object(m.value);
        if (!map) return false;
        EventData e;
        e.int_value = static_cast<std::int32_t>(r.integer(*map, "int", 0, -k_int_max - 1, k_int_max));
        e.float_value = r.number_f(*map, "float", 0);
        e.string_value = r.string(*map, "string").value_or("");
        e.audio_path = r.string(*map, "audio").value_or("");
        // Without audio the official runtime leaves volume and balance at 0 and reads neither.
        e.volume = e.audio_path.empty() ? 0 : r.number_f(*map, "volume", 1);
        e.balance = e.audio_path.empty() ? 0 : r.number_f(*map, "balance", 0);
        if (!r.ok()) return false;
        if (d.event_names.add(m.key) == k_none) return r.fail("duplicate event name " + quote(m.key));
        d.events.push_back(std::move(e));
    }
    return true;
}

bool read_document(Load& load, Object root) {
    Reader& r = load.r;
    if (!check_version(load, root) || !read_skeleton_info(load, root)) return false;
    if (!read_list(load, root, "bones", read_bone) || !read_list(load, root, "slots", read_slot)) return false;
    if (!read_list(load, root, "ik", read_ik) || !read_list(load, root, "transform", read_transform) ||
        !read_list(load, root, "path", read_path) || !read_list(load, root, "physics", read_physics))
        return false;
    if (std::optional<Array> skins = r.array(root, "skins")) {
        auto scope = r.at("skins");
        if (!read_skins(load, *skins)) return false;
    }
    if (!r.ok() || !resolve_linked_meshes(load) || !read_events(load, root)) return false;
    if (std::optional<Object> animations = r.object(root, "animations")) {
        auto scope = r.at("animations");
        if (!read_animations(load, *animations)) return false;
    }
    return r.ok();
}

Result<SkeletonData> load(std::string_view json, const std::string& file, const SkeletonLoadOptions& options) {
    if (!std::isfinite(options.scale)) return make_error(file, "the load options", "scale must be finite");
    json = without_byte_order_mark(json);
    simdjson::padded_string padded(json);
    if (padded.data() == nullptr && !json.empty()) return make_error(file, "/", "out of memory copying the document");
    simdjson::dom::parser parser;
    Element root_element;
    if (simdjson::error_code error = parser.parse(padded).get(root_element); error != simdjson::SUCCESS)
        return make_error(file, json_error_place(json, "/"),
                          std::string("invalid JSON: ") + simdjson::error_message(error));
    SkeletonData data;
    Load state(file, data, options.scale == 0 ? 1.0 : static_cast<double>(options.scale));
    std::optional<Object> root = state.r.as_object(root_element);
    if (!root || !read_document(state, *root)) return state.r.error();
    finish_skeleton_data(data);
    return data;
}

}  // namespace

bool Load::bone_list(Array names, Range& out) {
    out.offset = static_cast<std::uint32_t>(data.indices.size());
    out.count = 0;
    std::size_t i = 0;
    for (Element e : names) {
        auto scope = r.at(i++);
        std::optional<std::string_view> name = r.as_string(e);
        if (!name) return false;
        Index bone = data.bone_names.find(*name);
        if (bone == k_none) return r.fail("unknown bone " + quote(*name));
        if (!pool_room(data.indices.size(), 1, "index pool")) return false;
        data.indices.push_back(bone);
        ++out.count;
    }
    return true;
}

}  // namespace detail::json

Result<SkeletonData> load_skeleton_json(std::string_view json, const std::string& file,
                                        const SkeletonLoadOptions& options) {
    try {
        return detail::json::load(json, file, options);
    } catch (const std::bad_alloc&) {
        return make_error(file, "/", "out of memory");
    } catch (const std::exception& e) {
        return make_error(file, "/", std::string("internal error: ") + e.what());
    }
}

}  // namespace spinegpu
