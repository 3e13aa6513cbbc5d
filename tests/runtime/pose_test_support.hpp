// Helpers for the skeleton pose tests: loading an example skeleton with its atlas binding, and replaying the
// operations of tests/oracle/setup_pose_dump.mjs on a pose, so that a test and the official runtime pose the same
// skeleton the same way.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "test_support.hpp"

namespace spinegpu::test {

// A skeleton and its atlas binding, at a stable address (poses point at the data).
struct LoadedSkeleton {
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
};

// Loads `skeleton` and `atlas` (paths absolute, or relative to the examples folder). Fails the test (returns null)
// when either does not load.
inline std::unique_ptr<LoadedSkeleton> load_skeleton_and_atlas(const std::string& skeleton, const std::string& atlas) {
    namespace fs = std::filesystem;
    auto place = [](const std::string& p) { return fs::path(p).is_absolute() ? fs::path(p) : examples_dir() / p; };
    auto data = load_skeleton_file(place(skeleton).string());
    if (!data) {
        ADD_FAILURE() << data.error().message();
        return nullptr;
    }
    auto parsed = load_atlas_file(place(atlas).string());
    if (!parsed) {
        ADD_FAILURE() << parsed.error().message();
        return nullptr;
    }
    auto out = std::make_unique<LoadedSkeleton>();
    out->data = std::move(data.value());
    out->atlas = std::move(parsed.value());
    auto binding = bind_atlas(out->data, out->atlas);
    if (!binding) {
        ADD_FAILURE() << binding.error().message();
        return nullptr;
    }
    out->binding = std::move(binding.value());
    return out;
}

inline Index bone_index(const SkeletonData& data, const std::string& name) {
    const Index i = data.bone_names.find(name);
    EXPECT_NE(i, k_none) << "no bone " << name;
    return i;
}

inline Index slot_index(const SkeletonData& data, const std::string& name) {
    const Index i = data.slot_names.find(name);
    EXPECT_NE(i, k_none) << "no slot " << name;
    return i;
}

inline Index skin_index(const SkeletonData& data, const std::string& name) {
    const Index i = data.skin_names.find(name);
    EXPECT_NE(i, k_none) << "no skin " << name;
    return i;
}

inline const BoneWorld& world_of(const SkeletonPose& pose, const std::string& bone) {
    return pose.world[static_cast<std::size_t>(bone_index(*pose.data, bone))];
}

// The name the official runtime reports for a slot's attachment (Attachment.name), or "-" for none.
inline std::string attachment_name(const SkeletonPose& pose, Index slot) {
    const Index a = pose.slots[static_cast<std::size_t>(slot)].attachment;
    if (a == k_none) return "-";
    const AttachmentData& attachment = pose.data->attachments[static_cast<std::size_t>(a)];
    return pose.data->attachment_names[attachment.spine_name != k_none ? attachment.spine_name : attachment.name];
}

inline bool op_failed(const std::string& what) {
    ADD_FAILURE() << what;
    return false;
}

// Replays one setup_pose_dump.mjs operation (see that script for the list). `physics` receives a physics= mode.
// Returns false, with a test failure, on an operation it does not know.
inline bool apply_pose_operation(SkeletonPose& pose, const std::string& op, Physics& physics) {
    const SkeletonData& data = *pose.data;
    auto value_after = [&](std::size_t at) { return std::strtod(op.c_str() + at, nullptr); };
    if (op.rfind("skin=", 0) == 0) {
        std::vector<Index> skins;
        std::string names = op.substr(5);
        for (std::size_t start = 0;;) {
            const std::size_t plus = names.find('+', start);
            skins.push_back(skin_index(data, names.substr(start, plus - start)));
            if (plus == std::string::npos) break;
            start = plus + 1;
        }
        if (skins.size() == 1)
            set_skin(pose, skins[0]);
        else
            set_combined_skin(pose, skins);
        return true;
    }
    if (op == "noskin") {
        set_skin(pose, k_none);
        return true;
    }
    if (op == "applied") return true;  // read by the oracle comparison, not a change to the pose
    if (op == "setup") {
        set_to_setup_pose(pose);
        return true;
    }
    if (op.rfind("physics=", 0) == 0) {
        const std::string mode = op.substr(8);
        physics = mode == "reset" ? Physics::reset : mode == "update" ? Physics::update
                : mode == "pose" ? Physics::pose : Physics::none;
        return true;
    }
    const std::size_t eq = op.find('=');
    if (op.rfind("skeleton.", 0) == 0 && eq != std::string::npos) {
        const std::string field = op.substr(9, eq - 9);
        const auto v = static_cast<float>(value_after(eq + 1));
        if (field == "x") pose.x = v;
        else if (field == "y") pose.y = v;
        else if (field == "scaleX") pose.scale_x = v;
        else if (field == "scaleY") pose.scale_y = v;
        else return op_failed(std::string() + "unknown skeleton field " + field);
        return true;
    }
    if (op.rfind("attachment:", 0) == 0 && eq != std::string::npos) {
        const Index slot = slot_index(data, op.substr(11, eq - 11));
        const std::string name = op.substr(eq + 1);
        Index attachment = k_none;
        if (name != "-") {
            attachment = find_attachment(pose, slot, data.attachment_names.find(name));
            if (attachment == k_none) return op_failed(std::string() + "no attachment " + name);
        }
        set_slot_attachment(pose, slot, attachment);
        return true;
    }
    if (op.rfind("deform:", 0) == 0 && eq != std::string::npos) {
        const Index slot = slot_index(data, op.substr(7, eq - 7));
        SlotPose& s = pose.slots[static_cast<std::size_t>(slot)];
        if (s.attachment == k_none) return op_failed("slot shows nothing: " + op);
        const AttachmentData& a = data.attachments[static_cast<std::size_t>(s.attachment)];
        const bool weighted = a.bones.count > 0;
        const std::uint32_t count = weighted ? a.vertices.count / 3 * 2 : a.world_vertices_length;
        if (count > s.deform_capacity) return op_failed("deform larger than the slot's capacity: " + op);
        const double step = value_after(eq + 1);
        for (std::uint32_t k = 0; k < count; ++k) {
            const double setup = weighted ? 0.0 : static_cast<double>(data.floats[a.vertices.offset + k]);
            pose.deform[s.deform_offset + k] = static_cast<float>(setup + (static_cast<int>(k % 7) - 3) * step);
        }
        s.deform_count = count;
        return true;
    }
    if (op.rfind("sequence:", 0) == 0 && eq != std::string::npos) {
        const Index slot = slot_index(data, op.substr(9, eq - 9));
        pose.slots[static_cast<std::size_t>(slot)].sequence_index = static_cast<std::int32_t>(value_after(eq + 1));
        return true;
    }
    const std::size_t colon = op.find(':'), dot = op.find('.', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || dot == std::string::npos || eq == std::string::npos || eq < dot)
        return op_failed(std::string() + "unknown operation " + op);
    const std::string kind = op.substr(0, colon), name = op.substr(colon + 1, dot - colon - 1);
    const std::string field = op.substr(dot + 1, eq - dot - 1);
    const double v = value_after(eq + 1);
    const auto f = static_cast<float>(v);
    if (kind == "bone") {
        const auto i = static_cast<std::size_t>(bone_index(data, name));
        BoneTransform& t = pose.local[i];
        if (field == "x") t.x = f;
        else if (field == "y") t.y = f;
        else if (field == "rotation") t.rotation = f;
        else if (field == "scaleX") t.scale_x = f;
        else if (field == "scaleY") t.scale_y = f;
        else if (field == "shearX") t.shear_x = f;
        else if (field == "shearY") t.shear_y = f;
        else if (field == "inherit") pose.inherit[i] = static_cast<Inherit>(static_cast<int>(v));
        else return op_failed(std::string() + "unknown bone field " + field);
        return true;
    }
    if (kind == "ik") {
        const Index c = data.ik_names.find(name);
        if (c == k_none) return op_failed(std::string() + "no IK constraint " + name);
        IkPose& p = pose.ik[static_cast<std::size_t>(c)];
        if (field == "mix") p.mix = f;
        else if (field == "softness") p.softness = f;
        else if (field == "bendDirection") p.bend_direction = static_cast<std::int8_t>(v);
        else if (field == "compress") p.compress = v != 0;
        else if (field == "stretch") p.stretch = v != 0;
        else return op_failed(std::string() + "unknown IK field " + field);
        return true;
    }
    if (kind == "transform") {
        const Index c = data.transform_names.find(name);
        if (c == k_none) return op_failed(std::string() + "no transform constraint " + name);
        TransformPose& p = pose.transform[static_cast<std::size_t>(c)];
        if (field == "mixRotate") p.mix_rotate = f;
        else if (field == "mixX") p.mix_x = f;
        else if (field == "mixY") p.mix_y = f;
        else if (field == "mixScaleX") p.mix_scale_x = f;
        else if (field == "mixScaleY") p.mix_scale_y = f;
        else if (field == "mixShearY") p.mix_shear_y = f;
        else return op_failed(std::string() + "unknown transform field " + field);
        return true;
    }
    return op_failed(std::string() + "unknown operation " + op);
}

// Replays one setup_pose_dump.mjs operation on the data ("data.transform:NAME.FIELD=VALUE",
// "data.ik:NAME.uniform=VALUE"). Returns false, with a test failure, on anything else.
inline bool apply_data_operation(SkeletonData& data, const std::string& op) {
    const std::size_t colon = op.find(':'), eq = op.find('=');
    const std::size_t dot = op.find('.', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || dot == std::string::npos || eq == std::string::npos || eq < dot)
        return op_failed("unknown operation " + op);
    const std::string kind = op.substr(5, colon - 5), name = op.substr(colon + 1, dot - colon - 1);
    const std::string field = op.substr(dot + 1, eq - dot - 1);
    const double v = std::strtod(op.c_str() + eq + 1, nullptr);
    const auto f = static_cast<float>(v);
    if (kind == "ik") {
        const Index c = data.ik_names.find(name);
        if (c == k_none || field != "uniform") return op_failed("unknown operation " + op);
        data.ik_constraints[static_cast<std::size_t>(c)].uniform = v != 0;
        return true;
    }
    const Index c = data.transform_names.find(name);
    if (kind != "transform" || c == k_none) return op_failed("unknown operation " + op);
    TransformConstraintData& t = data.transform_constraints[static_cast<std::size_t>(c)];
    if (field == "local") t.local = v != 0;
    else if (field == "relative") t.relative = v != 0;
    else if (field == "offsetRotation") t.offset_rotation = f;
    else if (field == "offsetX") t.offset_x = f;
    else if (field == "offsetY") t.offset_y = f;
    else if (field == "offsetScaleX") t.offset_scale_x = f;
    else if (field == "offsetScaleY") t.offset_scale_y = f;
    else if (field == "offsetShearY") t.offset_shear_y = f;
    else return op_failed("unknown transform constraint data field " + field);
    return true;
}

// Creates a pose of `data`, replays `ops` and computes world transforms, as setup_pose_dump.mjs does: operations on
// the data first (they change `data`), then the others in order.
inline SkeletonPose posed(SkeletonData& data, const std::vector<std::string>& ops) {
    for (const std::string& op : ops)
        if (op.rfind("data.", 0) == 0) apply_data_operation(data, op);
    SkeletonPose pose = create_pose(data);
    Physics physics = Physics::none;
    for (const std::string& op : ops)
        if (op.rfind("data.", 0) != 0) apply_pose_operation(pose, op, physics);
    update_world_transform(pose, physics);
    return pose;
}

// A bone's world transform as the official runtime printed it (tests/oracle/setup_pose_dump.mjs).
struct BoneGolden {
    const char* name;
    double a, b, c, d, x, y;
};

// Expects each golden bone's world transform within `matrix` (a b c d) and `position` (x y). The defaults are
// twenty times tighter than DESIGN.md's 1e-3 and 0.05, yet above float rounding of JSON-exported data.
inline void expect_bones(const SkeletonPose& pose, std::initializer_list<BoneGolden> goldens, double matrix = 5e-5,
                         double position = 2.5e-3) {
    for (const BoneGolden& g : goldens) {
        const BoneWorld& w = world_of(pose, g.name);
        EXPECT_NEAR(w.a, g.a, matrix) << g.name;
        EXPECT_NEAR(w.b, g.b, matrix) << g.name;
        EXPECT_NEAR(w.c, g.c, matrix) << g.name;
        EXPECT_NEAR(w.d, g.d, matrix) << g.name;
        EXPECT_NEAR(w.x, g.x, position) << g.name;
        EXPECT_NEAR(w.y, g.y, position) << g.name;
    }
}

}  // namespace spinegpu::test
