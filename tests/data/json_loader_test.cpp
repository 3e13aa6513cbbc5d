// The Spine 4.2 JSON loader: every example export, spot checks against values read from the files, every timeline
// type, the official curve sampling, and malformed input (each error names the JSON path and what was expected).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>
#include <unistd.h>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

namespace fs = std::filesystem;

std::string read_example(const std::string& relative) {
    Result<std::string> text = read_file_text((test::examples_dir() / relative).string());
    EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message());
    return text.ok() ? std::move(text).value() : std::string();
}

SkeletonData load_ok(std::string_view json, const std::string& file = "test.json", float scale = 0) {
    SkeletonLoadOptions options;
    options.scale = scale;
    Result<SkeletonData> data = load_skeleton_json(json, file, options);
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data).value() : SkeletonData{};
}

SkeletonData load_example(const std::string& relative) {
    return load_ok(read_example(relative), relative);
}

Error load_error(std::string_view json) {
    Result<SkeletonData> data = load_skeleton_json(json, "bad.json");
    EXPECT_FALSE(data.ok()) << "loaded without error:\n" << json;
    return data.ok() ? Error{} : data.error();
}

// A minimal valid document with `rest` appended inside the root object.
std::string doc(const std::string& rest) {
    std::string out = R"({"skeleton": {"spine": "4.2.22"})";
    if (!rest.empty()) out += ", " + rest;
    return out + "}";
}

const std::string k_two_bones = R"("bones": [{"name": "root"}, {"name": "arm", "parent": "root"}])";
const std::string k_one_slot = R"("slots": [{"name": "s", "bone": "arm"}])";

Index find_or_fail(const NameTable& table, std::string_view name) {
    Index i = table.find(name);
    EXPECT_NE(i, k_none) << "missing " << name;
    return i;
}

const AttachmentData& skin_attachment(const SkeletonData& d, std::string_view skin, std::string_view slot,
                                      std::string_view name) {
    static const AttachmentData none;
    Index s = find_or_fail(d.skin_names, skin), sl = find_or_fail(d.slot_names, slot);
    Index n = find_or_fail(d.attachment_names, name);
    Index a = d.find_skin_attachment(s, sl, n);
    EXPECT_NE(a, k_none) << skin << "/" << slot << "/" << name;
    return a == k_none ? none : d.attachments[static_cast<std::size_t>(a)];
}

// The timelines of `animation` with `type` and `target`.
std::vector<const TimelineData*> timelines_of(const SkeletonData& d, std::string_view animation, TimelineType type,
                                              Index target) {
    std::vector<const TimelineData*> out;
    Index a = find_or_fail(d.animation_names, animation);
    if (a == k_none) return out;
    Range r = d.animations[static_cast<std::size_t>(a)].timelines;
    for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i)
        if (d.timelines[i].type == type && d.timelines[i].target == target) out.push_back(&d.timelines[i]);
    return out;
}

const TimelineData& one_timeline(const SkeletonData& d, std::string_view animation, TimelineType type, Index target) {
    static const TimelineData none;
    std::vector<const TimelineData*> found = timelines_of(d, animation, type, target);
    EXPECT_EQ(found.size(), 1u) << animation << " " << timeline_type_name(type);
    return found.empty() ? none : *found[0];
}

float frame_value(const SkeletonData& d, const TimelineData& t, std::uint32_t frame, int column) {
    return d.frames[t.frames + frame * t.entries + static_cast<std::uint32_t>(column)];
}

bool inside(Range r, std::size_t size) { return std::size_t{r.offset} + r.count <= size; }

// Structural checks that hold for any loaded skeleton: every range inside its pool, every index in range, curve
// tables well formed, ids unique.
void check_invariants(const SkeletonData& d, const std::string& name) {
    SCOPED_TRACE(name);
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        EXPECT_LT(d.bones[i].parent, static_cast<Index>(i));
    }
    for (const SlotData& s : d.slots) {
        EXPECT_LT(static_cast<std::size_t>(s.bone), d.bones.size());
    }
    EXPECT_EQ(d.bones.size(), d.bone_names.size());
    EXPECT_EQ(d.slots.size(), d.slot_names.size());
    EXPECT_EQ(d.skins.size(), d.skin_names.size());
    EXPECT_EQ(d.animations.size(), d.animation_names.size());
    std::set<std::int32_t> vertex_ids, sequence_ids;
    for (const AttachmentData& a : d.attachments) {
        EXPECT_TRUE(inside(a.bones, d.indices.size()) && inside(a.vertices, d.floats.size()) &&
                    inside(a.region_uvs, d.floats.size()) && inside(a.triangles, d.triangles.size()) &&
                    inside(a.edges, d.indices.size()) && inside(a.lengths, d.floats.size()));
        for (std::uint32_t t = 0; t < a.triangles.count; ++t) {
            EXPECT_LT(d.triangles[a.triangles.offset + t] * 2u, a.world_vertices_length);
        }
        if (a.type != AttachmentType::region) {
            EXPECT_TRUE(vertex_ids.insert(a.vertex_id).second);
        }
        if (a.type == AttachmentType::mesh) {
            EXPECT_EQ(a.region_uvs.count, a.world_vertices_length);
        }
        if (a.sequence != k_none) {
            EXPECT_TRUE(sequence_ids.insert(d.sequences[static_cast<std::size_t>(a.sequence)].id).second);
        }
        EXPECT_NE(a.name, k_none);
    }
    for (const SkinData& skin : d.skins) {
        for (const SkinEntry& e : skin.entries) {
            EXPECT_LT(static_cast<std::size_t>(e.attachment), d.attachments.size());
        }
    }
    for (const AnimationData& a : d.animations) {
        ASSERT_TRUE(inside(a.timelines, d.timelines.size()));
        float last = 0;
        for (std::uint32_t i = a.timelines.offset; i < a.timelines.offset + a.timelines.count; ++i) {
            const TimelineData& t = d.timelines[i];
            ASSERT_GT(t.frame_count, 0u);
            ASSERT_LE(std::size_t{t.frames} + std::size_t{t.frame_count} * t.entries, d.frames.size());
            ASSERT_TRUE(inside(t.curves, d.curves.size()));
            last = std::max(last, frame_value(d, t, t.frame_count - 1, 0));
            if (t.curves.count == 0) continue;
            ASSERT_GE(t.curves.count, t.frame_count);
            for (std::uint32_t f = 0; f < t.frame_count; ++f) {
                float type = d.curves[t.curves.offset + f];
                if (type >= k_curve_bezier) {
                    EXPECT_LE(static_cast<std::uint32_t>(type - k_curve_bezier) + k_bezier_size, t.curves.count);
                }
            }
        }
        EXPECT_EQ(a.duration, last);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Example exports

TEST(JsonLoader, reads_every_example_export) {
    SPINEGPU_REQUIRE_EXAMPLES();
    int count = 0;
    for (const test::ExampleSkeleton& example : test::example_skeletons()) {
        SkeletonData d = load_ok(read_example(fs::relative(example.json, test::examples_dir()).string()),
                                 example.json.string());
        EXPECT_FALSE(d.bones.empty()) << example.json;
        EXPECT_EQ(d.version.substr(0, 4), "4.2.") << example.json;
        check_invariants(d, example.json.string());
        ++count;
    }
    EXPECT_EQ(count, 18);
}

TEST(JsonLoader, reads_spineboy_setup_pose) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("spineboy/spineboy-pro.json");
    EXPECT_EQ(d.hash, "dr3Kr/vMgPA");
    EXPECT_FLOAT_EQ(d.x, -188.63f);
    EXPECT_FLOAT_EQ(d.height, 686.2f);
    EXPECT_EQ(d.images_path, "./images/");
    EXPECT_EQ(d.reference_scale, 100);
    ASSERT_EQ(d.bones.size(), 67u);
    const BoneData& arm = d.bones[static_cast<std::size_t>(find_or_fail(d.bone_names, "front-upper-arm"))];
    EXPECT_EQ(arm.parent, d.bone_names.find("front-shoulder"));
    EXPECT_FLOAT_EQ(arm.length, 69.45f);
    EXPECT_FLOAT_EQ(arm.rotation, -87.51f);
    EXPECT_EQ(arm.x, 0);
    EXPECT_EQ(arm.scale_x, 1);
    EXPECT_EQ(arm.color, (Color{0, 1, 4 / 255.0f, 1}));
    EXPECT_FLOAT_EQ(d.bones[0].rotation, 0.05f);
    ASSERT_EQ(d.slots.size(), 52u);
    const SlotData& streaks = d.slots[static_cast<std::size_t>(find_or_fail(d.slot_names, "portal-streaks2"))];
    EXPECT_EQ(streaks.blend, BlendMode::additive);
    const SlotData& glow = d.slots[static_cast<std::size_t>(find_or_fail(d.slot_names, "muzzle-glow"))];
    EXPECT_EQ(glow.color.a, 0);
    EXPECT_EQ(glow.bone, d.bone_names.find("gun-tip"));
    const AttachmentData& head = skin_attachment(d, "default", "head", "head");
    EXPECT_EQ(head.type, AttachmentType::mesh);
    EXPECT_EQ(head.world_vertices_length, 2u * 63);
    EXPECT_EQ(head.triangles.count, 285u);
    EXPECT_EQ(head.hull_length, 2u * 29);
    EXPECT_EQ(d.attachment_paths[head.path], "head");
}

TEST(JsonLoader, keeps_a_bone_setup_rotation_as_the_double_the_official_runtime_reads) {
    // The official runtime mixes rotations across tracks through discontinuous tests on this double; the float
    // rounds 0.1 and -103.457 (tests/oracle/schedules/json-setup-rotation-*.json compare the poses).
    SkeletonData d = load_ok(doc(R"("bones": [{"name": "root", "rotation": 0.1}, {"name": "a", "parent": "root",
        "rotation": -103.457}, {"name": "b", "parent": "root"}])"));
    ASSERT_EQ(d.bones.size(), 3u);
    EXPECT_EQ(d.bones[0].rotation_double, 0.1);
    EXPECT_EQ(d.bones[0].rotation, 0.1f);
    EXPECT_EQ(setup_rotation(d.bones[0]), 0.1);
    EXPECT_EQ(setup_rotation(d.bones[1]), -103.457);
    EXPECT_EQ(setup_rotation(d.bones[2]), 0.0);
    // Data changed after loading (or built without the double) is read from its float.
    d.bones[1].rotation = 12;
    EXPECT_EQ(setup_rotation(d.bones[1]), 12.0);
}

TEST(JsonLoader, reads_clipping_end_slots) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData boy = load_example("spineboy/spineboy-pro.json");
    const AttachmentData& clip = skin_attachment(boy, "default", "clipping", "clipping");
    EXPECT_EQ(clip.type, AttachmentType::clipping);
    EXPECT_EQ(clip.end_slot, boy.slot_names.find("head-bb"));
    EXPECT_EQ(clip.world_vertices_length, 18u);
    SkeletonData tank = load_example("tank/tank-pro.json");
    const AttachmentData& tank_clip = skin_attachment(tank, "default", "clipping", "clipping");
    EXPECT_EQ(tank_clip.end_slot, tank.slot_names.find("tank-glow"));
    EXPECT_EQ(tank_clip.world_vertices_length, 64u);
}

// The runtime samples each Bezier at parameter t = 0.1 .. 0.9; here the cubic is evaluated directly.
TEST(JsonLoader, samples_bezier_curves_like_the_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("spineboy/spineboy-pro.json");
    auto cubic = [](double p0, double p1, double p2, double p3, double t) {
        double u = 1 - t;
        return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
    };
    // walk / torso / rotate key 0: value -20.72, curve [0.025, -20.57, 0.071, -20.04], next key 0.1333 -20.04.
    const TimelineData& rotate = one_timeline(d, "walk", TimelineType::rotate, d.bone_names.find("torso"));
    ASSERT_GT(rotate.frame_count, 2u);
    EXPECT_FLOAT_EQ(frame_value(d, rotate, 0, 1), -20.72f);
    EXPECT_FLOAT_EQ(frame_value(d, rotate, 1, 0), 0.1333f);
    float type = d.curves[rotate.curves.offset];
    ASSERT_EQ(type, k_curve_bezier + static_cast<float>(rotate.frame_count));
    const float* samples = &d.curves[rotate.curves.offset + rotate.frame_count];
    for (int k = 0; k < 9; ++k) {
        double t = (k + 1) / 10.0;
        EXPECT_NEAR(samples[2 * k], cubic(0, 0.025, 0.071, 0.1333, t), 1e-5) << k;
        EXPECT_NEAR(samples[2 * k + 1], cubic(-20.72, -20.57, -20.04, -20.04, t), 1e-4) << k;
    }
    // walk / hip / translate key 0: y runs -13.86 -> -24.19 with handles (0.028, -19.14), (0.054, -24.02); the
    // second Bezier of the frame.
    const TimelineData& translate = one_timeline(d, "walk", TimelineType::translate, d.bone_names.find("hip"));
    EXPECT_EQ(translate.frame_count, 8u);
    const float* y = &d.curves[translate.curves.offset + translate.frame_count + k_bezier_size];
    for (int k = 0; k < 9; ++k) {
        double t = (k + 1) / 10.0;
        EXPECT_NEAR(y[2 * k], cubic(0, 0.028, 0.054, 0.1, t), 1e-5) << k;
        EXPECT_NEAR(y[2 * k + 1], cubic(-13.86, -19.14, -24.02, -24.19, t), 1e-4) << k;
    }
    // The last frame is stepped, as the runtime leaves it.
    EXPECT_EQ(d.curves[translate.curves.offset + translate.frame_count - 1], k_curve_stepped);
}

TEST(JsonLoader, reads_celestial_circus_physics) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("celestial-circus/celestial-circus-pro.json");
    ASSERT_EQ(d.physics_constraints.size(), 30u);
    const PhysicsConstraintData& bench = d.physics_constraints[static_cast<std::size_t>(
        find_or_fail(d.physics_names, "bench-back"))];
    EXPECT_EQ(bench.order, 31);
    EXPECT_EQ(bench.bone, d.bone_names.find("bench-back"));
    EXPECT_FLOAT_EQ(bench.x, 0.4949f);
    EXPECT_FLOAT_EQ(bench.y, 0.4579f);
    EXPECT_EQ(bench.rotate, 0);
    EXPECT_EQ(bench.limit, 1500);
    EXPECT_EQ(bench.inertia, 0.5f);
    EXPECT_FLOAT_EQ(bench.damping, 0.85f);
    EXPECT_EQ(bench.strength, 100);
    EXPECT_EQ(bench.mass_inverse, 1);
    EXPECT_FLOAT_EQ(bench.step, 1.0f / 60);
    EXPECT_FALSE(bench.wind_global);
    // "" keys the timelines of every physics constraint.
    EXPECT_EQ(timelines_of(d, "wind-idle", TimelineType::physics_wind, k_none).size(), 1u);
    EXPECT_EQ(timelines_of(d, "wind-idle", TimelineType::physics_wind,
                           d.physics_names.find("girl/feathers-front")).size(), 1u);
    std::size_t total = d.ik_constraints.size() + d.transform_constraints.size() + d.path_constraints.size() +
                        d.physics_constraints.size();
    EXPECT_LE(d.constraint_order.size(), total);
}

TEST(JsonLoader, resolves_linked_meshes_to_parent_geometry) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData gob = load_example("goblins/goblins-pro.json");
    const AttachmentData& foot = skin_attachment(gob, "goblingirl", "left-foot", "left-foot");
    const AttachmentData& parent = skin_attachment(gob, "goblin", "left-foot", "left-foot");
    EXPECT_EQ(foot.type, AttachmentType::mesh);
    EXPECT_EQ(gob.attachment_names[foot.spine_name], "goblingirl/left-foot");
    EXPECT_EQ(gob.attachment_paths[foot.path], "goblingirl/left-foot");
    EXPECT_EQ(gob.attachment_paths[parent.path], "goblin/left-foot");
    EXPECT_EQ(foot.world_vertices_length, 24u);
    EXPECT_EQ(foot.triangles.count, 36u);
    EXPECT_EQ(foot.hull_length, 20u);
    EXPECT_EQ(foot.vertices.offset, parent.vertices.offset);
    EXPECT_EQ(foot.region_uvs.offset, parent.region_uvs.offset);
    EXPECT_EQ(foot.triangles.offset, parent.triangles.offset);
    EXPECT_EQ(foot.bones.offset, parent.bones.offset);
    EXPECT_FLOAT_EQ(foot.mesh_width, 65);
    EXPECT_EQ(&gob.attachments[static_cast<std::size_t>(foot.parent_mesh)], &parent);
    EXPECT_EQ(foot.timeline_attachment, foot.parent_mesh);  // "timelines" defaults to true
    EXPECT_NE(foot.vertex_id, parent.vertex_id);

    SkeletonData chibi = load_example("chibi-stickers/chibi-stickers.json");
    const AttachmentData& arm = skin_attachment(chibi, "erikari", "arm-l", "arm");
    const AttachmentData& arm_parent = skin_attachment(chibi, "spineboy", "arm-l", "arm");
    EXPECT_EQ(arm.world_vertices_length, 32u);
    EXPECT_EQ(arm.triangles.count, 42u);
    EXPECT_EQ(arm.vertices.offset, arm_parent.vertices.offset);
    EXPECT_EQ(arm.vertices.count, arm_parent.vertices.count);
    EXPECT_FLOAT_EQ(arm.mesh_height, 179);
}

TEST(JsonLoader, reads_dragon_sequences) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("dragon/dragon-ess.json");
    ASSERT_EQ(d.sequences.size(), 2u);
    const AttachmentData& wing = skin_attachment(d, "default", "left-wing", "left-wing");
    ASSERT_NE(wing.sequence, k_none);
    const SequenceData& s = d.sequences[static_cast<std::size_t>(wing.sequence)];
    EXPECT_EQ(s.count, 9);
    EXPECT_EQ(s.digits, 2);
    EXPECT_EQ(s.start, 1);
    EXPECT_EQ(s.setup_index, 0);
    EXPECT_NE(d.sequences[0].id, d.sequences[1].id);
    EXPECT_FLOAT_EQ(wing.width, 264);
    const TimelineData& t = one_timeline(d, "flying", TimelineType::sequence, d.slot_names.find("left-wing"));
    ASSERT_EQ(t.frame_count, 5u);
    EXPECT_EQ(t.attachment,
              d.find_skin_attachment(0, d.slot_names.find("left-wing"), d.attachment_names.find("left-wing")));
    EXPECT_EQ(frame_value(d, t, 0, 1), 2);                       // loop, index 0
    EXPECT_FLOAT_EQ(frame_value(d, t, 0, 2), 0.0667f);
    EXPECT_EQ(frame_value(d, t, 1, 1), 0);                       // hold, index 0
    EXPECT_FLOAT_EQ(frame_value(d, t, 1, 2), 0.0667f);           // delay carried from the previous key
    EXPECT_EQ(frame_value(d, t, 2, 1), 2 | (1 << 4));
    EXPECT_EQ(frame_value(d, t, 4, 1), 0 | (7 << 4));
    EXPECT_FLOAT_EQ(frame_value(d, t, 4, 2), 0.0333f);
}

TEST(JsonLoader, reads_tank_two_color_tint) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("tank/tank-pro.json");
    ASSERT_EQ(d.slots.size(), 200u);
    const SlotData& bg = d.slots[static_cast<std::size_t>(find_or_fail(d.slot_names, "smoke-puff1-bg"))];
    EXPECT_TRUE(bg.has_dark);
    EXPECT_EQ(bg.dark, (Color{0, 0, 0, 1}));
    const TimelineData& fg = one_timeline(d, "shoot", TimelineType::rgba2, d.slot_names.find("smoke-puff1-fg"));
    EXPECT_EQ(fg.entries, 8);
    EXPECT_EQ(fg.frame_count, 7u);
    EXPECT_FLOAT_EQ(frame_value(d, fg, 0, 0), 0.0667f);
    EXPECT_EQ(frame_value(d, fg, 0, 1), 1);                      // ffdf31ff
    EXPECT_EQ(frame_value(d, fg, 0, 2), 0xdf / 255.0f);
    EXPECT_EQ(frame_value(d, fg, 0, 3), 0x31 / 255.0f);
    EXPECT_EQ(frame_value(d, fg, 0, 4), 1);
    EXPECT_EQ(frame_value(d, fg, 0, 5), 1);                      // dark ff0000
    EXPECT_EQ(frame_value(d, fg, 0, 6), 0);
    EXPECT_EQ(frame_value(d, fg, 0, 7), 0);
    const TimelineData& bg_t = one_timeline(d, "shoot", TimelineType::rgba2, d.slot_names.find("smoke-puff1-bg"));
    EXPECT_EQ(d.curves[bg_t.curves.offset + 1], k_curve_stepped);  // key 1 has "curve": "stepped"
    EXPECT_EQ(d.curves[bg_t.curves.offset + 0], k_curve_linear);
}

TEST(JsonLoader, reads_draw_order_keys) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData ess = load_example("spineboy/spineboy-ess.json");
    const TimelineData& run = one_timeline(ess, "run", TimelineType::draw_order, k_none);
    ASSERT_EQ(run.frame_count, 1u);
    Index offset = ess.indices[run.aux.offset];
    ASSERT_NE(offset, k_none);
    // head (slot 9) moves up by 2.
    std::vector<Index> expected = {0, 1, 2, 3, 4, 5, 6, 9, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    std::vector<Index> order(ess.indices.begin() + offset, ess.indices.begin() + offset + 20);
    EXPECT_EQ(order, expected);

    SkeletonData raptor = load_example("raptor/raptor-pro.json");
    const TimelineData& jump = one_timeline(raptor, "jump", TimelineType::draw_order, k_none);
    Index at = raptor.indices[jump.aux.offset];
    ASSERT_NE(at, k_none);
    std::vector<Index> moved(raptor.indices.begin() + at, raptor.indices.begin() + at + 36);
    EXPECT_EQ(moved[29], raptor.slot_names.find("raptor-horn"));   // 25 + 4
    EXPECT_EQ(moved[21], raptor.slot_names.find("front-thigh"));   // 26 - 5
    std::vector<Index> sorted = moved;
    std::sort(sorted.begin(), sorted.end());
    std::vector<Index> identity(36);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(sorted, identity);
}

TEST(JsonLoader, reads_event_keys) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData d = load_example("spineboy/spineboy-ess.json");
    ASSERT_EQ(d.events.size(), 1u);
    EXPECT_EQ(d.event_names[0], "footstep");
    const TimelineData& walk = one_timeline(d, "walk", TimelineType::event, k_none);
    ASSERT_EQ(walk.frame_count, 2u);
    EXPECT_EQ(d.event_keys[walk.aux.offset].time, 0);
    EXPECT_FLOAT_EQ(d.event_keys[walk.aux.offset + 1].time, 0.5333f);
    EXPECT_EQ(d.event_keys[walk.aux.offset + 1].event, 0);
    EXPECT_EQ(d.event_keys[walk.aux.offset + 1].string_value, k_none);
}

// ---------------------------------------------------------------------------------------------------------------
// Inline documents

TEST(JsonLoader, reads_events_with_audio) {
    SkeletonData d = load_ok(doc(R"("events": {"boom": {"int": 3, "float": 1.5, "string": "s", "audio": "boom.wav",
        "volume": 0.5, "balance": -0.25}, "quiet": {"volume": 0.2}},
        "animations": {"a": {"events": [{"time": 0.5, "name": "boom", "volume": 0.75},
                                         {"time": 1, "name": "boom", "int": 9, "string": "t"},
                                         {"time": 2, "name": "quiet", "volume": 0.1}]}})"));
    ASSERT_EQ(d.events.size(), 2u);
    EXPECT_EQ(d.events[0].audio_path, "boom.wav");
    EXPECT_EQ(d.events[0].volume, 0.5f);
    EXPECT_EQ(d.events[0].balance, -0.25f);
    EXPECT_EQ(d.events[1].volume, 0);  // read only with audio, 0 otherwise (as the official runtime)
    const TimelineData& t = one_timeline(d, "a", TimelineType::event, k_none);
    const EventKey* keys = &d.event_keys[t.aux.offset];
    EXPECT_EQ(keys[0].volume, 0.75f);
    EXPECT_EQ(keys[0].balance, 0);  // keys default to 0 and 1, not to the event's values (as the official loader)
    EXPECT_EQ(keys[0].int_value, 3);
    EXPECT_EQ(keys[1].int_value, 9);
    EXPECT_EQ(d.strings[keys[1].string_value], "t");
    EXPECT_EQ(keys[2].volume, 0);
    EXPECT_EQ(d.animations[0].duration, 2);
}

const char* k_every_timeline = R"({"skeleton": {"spine": "4.2.1"},
"bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"slots": [{"name": "s", "bone": "b", "attachment": "m"}, {"name": "p", "bone": "b"}],
"ik": [{"name": "ik", "bones": ["b"], "target": "root"}],
"transform": [{"name": "tc", "bones": ["b"], "target": "root"}],
"path": [{"name": "pc", "bones": ["b"], "target": "p"}],
"physics": [{"name": "ph", "bone": "b"}],
"skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1],
  "triangles": [0,1,2], "vertices": [0,0, 10,0, 10,10], "sequence": {"count": 2}}}}}],
"animations": {"all": {
  "bones": {"b": {"rotate": [{}], "translate": [{}], "translatex": [{}], "translatey": [{}], "scale": [{}],
    "scalex": [{}], "scaley": [{}], "shear": [{}], "shearx": [{}], "sheary": [{}],
    "inherit": [{"inherit": "noScale"}]}},
  "slots": {"s": {"rgba": [{"color": "ffffffff"}], "rgb": [{"color": "ffffff"}], "alpha": [{}],
    "rgba2": [{"light": "ffffffff", "dark": "000000"}], "rgb2": [{"light": "ffffff", "dark": "000000"}],
    "attachment": [{"name": "m"}]}},
  "ik": {"ik": [{}]}, "transform": {"tc": [{}]},
  "path": {"pc": {"position": [{}], "spacing": [{}], "mix": [{}]}},
  "physics": {"ph": {"inertia": [{}], "strength": [{}], "damping": [{}], "mass": [{}], "wind": [{}], "gravity": [{}],
    "mix": [{}], "reset": [{}]}},
  "attachments": {"default": {"s": {"m": {"deform": [{}], "sequence": [{}]}}}},
  "drawOrder": [{}], "events": []}}})";

TEST(JsonLoader, reads_every_timeline_type) {
    SkeletonData d = load_ok(k_every_timeline);
    std::set<TimelineType> seen;
    for (const TimelineData& t : d.timelines) seen.insert(t.type);
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(k_timeline_type_count - 1));  // all but event (no keys)
    EXPECT_EQ(seen.count(TimelineType::event), 0u);
    check_invariants(d, "every timeline");
    // Defaults: scale timelines start at 1, mixes at 1.
    const TimelineData& scale = one_timeline(d, "all", TimelineType::scale, 1);
    EXPECT_EQ(frame_value(d, scale, 0, 1), 1);
    EXPECT_EQ(frame_value(d, scale, 0, 2), 1);
    const TimelineData& ik = one_timeline(d, "all", TimelineType::ik, 0);
    EXPECT_EQ(frame_value(d, ik, 0, 1), 1);
    EXPECT_EQ(frame_value(d, ik, 0, 3), 1);  // bend positive
    const TimelineData& inherit = one_timeline(d, "all", TimelineType::inherit, 1);
    EXPECT_EQ(frame_value(d, inherit, 0, 1), static_cast<float>(Inherit::no_scale));
}

TEST(JsonLoader, stores_deform_keys_with_setup_vertices_added) {
    SkeletonData d = load_ok(doc(k_two_bones + ", " + k_one_slot + R"(,
        "skins": [{"name": "default", "attachments": {"s": {
          "plain": {"type": "mesh", "uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [1,2, 3,4, 5,6]},
          "weighted": {"type": "mesh", "uvs": [0,0, 1,0], "triangles": [],
                       "vertices": [2, 0, 1,1,0.5, 1, 2,2,0.5,  1, 1, 3,3,1]}}}}],
        "animations": {"a": {"attachments": {"default": {"s": {
          "plain": {"deform": [{"time": 0}, {"time": 1, "offset": 2, "vertices": [10, 20]}]},
          "weighted": {"deform": [{"offset": 1, "vertices": [7, 8]}]}}}}}})"), "deform.json", 2);
    std::vector<const TimelineData*> all = timelines_of(d, "a", TimelineType::deform, 0);
    ASSERT_EQ(all.size(), 2u);
    const TimelineData& plain = *all[0];
    ASSERT_EQ(plain.aux.count, 12u);
    const float* keys = &d.floats[plain.aux.offset];
    std::vector<float> first(keys, keys + 6), second(keys + 6, keys + 12);
    EXPECT_EQ(first, (std::vector<float>{2, 4, 6, 8, 10, 12}));      // setup vertices, scaled by 2
    EXPECT_EQ(second, (std::vector<float>{2, 4, 26, 48, 10, 12}));   // setup + key * 2
    const TimelineData& w = *all[1];
    ASSERT_EQ(w.aux.count, 6u);  // 3 influences x 2, not 2 vertices x 2
    std::vector<float> offsets(&d.floats[w.aux.offset], &d.floats[w.aux.offset] + 6);
    EXPECT_EQ(offsets, (std::vector<float>{0, 14, 16, 0, 0, 0}));
    EXPECT_EQ(d.attachments[static_cast<std::size_t>(w.attachment)].world_vertices_length, 4u);
}

TEST(JsonLoader, applies_scale_as_the_official_loader_does) {
    SkeletonData d = load_ok(doc(R"("bones": [{"name": "root", "x": 10, "length": 5, "rotation": 30}],
        "ik": [{"name": "ik", "bones": ["root"], "target": "root", "softness": 4}],
        "animations": {"a": {"bones": {"root": {"translate": [{"x": 1, "y": 2}], "rotate": [{"value": 45}]}}}})"),
                             "scaled.json", 0.5f);
    EXPECT_EQ(d.bones[0].x, 5);
    EXPECT_EQ(d.bones[0].length, 2.5f);
    EXPECT_EQ(d.bones[0].rotation, 30);
    EXPECT_EQ(d.ik_constraints[0].softness, 2);
    EXPECT_EQ(d.reference_scale, 50);
    const TimelineData& t = one_timeline(d, "a", TimelineType::translate, 0);
    EXPECT_EQ(frame_value(d, t, 0, 1), 0.5f);
    EXPECT_EQ(frame_value(d, t, 0, 2), 1);
    EXPECT_EQ(frame_value(d, one_timeline(d, "a", TimelineType::rotate, 0), 0, 1), 45);
}

TEST(JsonLoader, refuses_a_scale_that_is_not_finite) {
    for (const float scale : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        SkeletonLoadOptions options;
        options.scale = scale;
        Result<SkeletonData> data = load_skeleton_json(doc(k_two_bones), "scaled.json", options);
        ASSERT_FALSE(data.ok());
        EXPECT_EQ(data.error().message(), "scaled.json: the load options: scale must be finite");
    }
}

TEST(JsonLoader, accepts_physics_rates_from_1_to_255) {
    for (const int fps : {1, 255}) {
        SkeletonData d = load_ok(doc(k_two_bones + R"(, "physics": [{"name": "ph", "bone": "arm", "fps": )" +
                                     std::to_string(fps) + "}]"));
        EXPECT_FLOAT_EQ(d.physics_constraints[0].step, 1.0f / static_cast<float>(fps));
    }
}

TEST(JsonLoader, reads_constraint_defaults_and_fields) {
    SkeletonData d = load_ok(doc(k_two_bones + ", " + k_one_slot + R"(,
        "transform": [{"name": "t", "bones": ["arm"], "target": "root", "mixX": 0.25, "mixScaleX": 0.5}],
        "path": [{"name": "p", "order": 2, "bones": ["arm"], "target": "s", "positionMode": "fixed",
                  "spacingMode": "percent", "rotateMode": "chainScale", "position": 3, "spacing": 4, "mixX": 0.5}],
        "physics": [{"name": "ph", "order": 1, "bone": "arm", "fps": 30, "mass": 4, "limit": 10}],
        "ik": [{"name": "ik", "bones": ["root", "arm"], "target": "root", "bendPositive": false}])"));
    const TransformConstraintData& t = d.transform_constraints[0];
    EXPECT_EQ(t.mix_y, 0.25f);          // defaults to mixX
    EXPECT_EQ(t.mix_scale_y, 0.5f);     // defaults to mixScaleX
    EXPECT_EQ(t.mix_rotate, 1);
    const PathConstraintData& p = d.path_constraints[0];
    EXPECT_EQ(p.target, 0);
    EXPECT_EQ(p.position_mode, PositionMode::fixed);
    EXPECT_EQ(p.spacing_mode, SpacingMode::percent);
    EXPECT_EQ(p.rotate_mode, RotateMode::chain_scale);
    EXPECT_EQ(p.mix_y, 0.5f);
    const PhysicsConstraintData& ph = d.physics_constraints[0];
    EXPECT_FLOAT_EQ(ph.step, 1.0f / 30);
    EXPECT_EQ(ph.mass_inverse, 0.25f);
    EXPECT_EQ(ph.limit, 10);
    EXPECT_EQ(d.ik_constraints[0].bend_direction, -1);
    EXPECT_EQ(d.ik_constraints[0].bones.count, 2u);
    ASSERT_EQ(d.constraint_order.size(), 3u);  // orders 0 (ik, transform), 1 (physics), 2 (path)
    EXPECT_EQ(d.constraint_order[0].kind, ConstraintKind::ik);
    EXPECT_EQ(d.constraint_order[1].kind, ConstraintKind::physics);
    EXPECT_EQ(d.constraint_order[2].kind, ConstraintKind::path);
}

TEST(JsonLoader, keeps_javascript_member_order) {
    // Array-index keys come first, in numeric order, as JSON.parse orders them for the official runtime.
    SkeletonData d = load_ok(doc(R"("animations": {"walk": {}, "10": {}, "2": {}, "run": {}})"));
    ASSERT_EQ(d.animations.size(), 4u);
    EXPECT_EQ(d.animation_names[0], "2");
    EXPECT_EQ(d.animation_names[1], "10");
    EXPECT_EQ(d.animation_names[2], "walk");
    EXPECT_EQ(d.animation_names[3], "run");
}

// load_skeleton_file on a temporary file `name` holding `bytes` (removed again).
Result<SkeletonData> load_as_file(const std::string& bytes, const std::string& name) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("spinegpu_" + std::to_string(::getpid()) + "_" + name);
    {
        std::ofstream out(path, std::ios::binary);
        out << bytes;
    }
    Result<SkeletonData> loaded = load_skeleton_file(path.string());
    std::filesystem::remove(path);
    return loaded;
}

TEST(JsonLoader, reads_a_file_that_starts_with_a_byte_order_mark) {
    const std::string text = "\xEF\xBB\xBF" + doc(k_two_bones);
    EXPECT_EQ(load_ok(text).bones.size(), 2u);
    // load_skeleton_file must see JSON behind the mark and hand the loader text it can parse.
    Result<SkeletonData> loaded = load_as_file(text, "bom.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().message();
    EXPECT_EQ(loaded->bone_names[1], "arm");
}

TEST(JsonLoader, text_behind_a_byte_order_mark_or_opening_with_a_bracket_gets_json_errors) {
    // A second mark, or an array at the root, is JSON gone wrong, not a binary export's header.
    const std::pair<std::string, std::string> cases[] = {
        {"\xEF\xBB\xBF\xEF\xBB\xBF" + doc(k_two_bones), "line 1, column 1"},
        {"[1, 2]", "expected an object, found an array"},
        {"\xEF\xBB\xBF\n[]", "expected an object, found an array"},
    };
    for (const auto& [text, what] : cases) {
        Result<SkeletonData> loaded = load_as_file(text, "text_kind.json");
        ASSERT_FALSE(loaded.ok()) << what;
        EXPECT_NE(loaded.error().message().find(what), std::string::npos) << loaded.error().message();
        EXPECT_EQ(loaded.error().message().find("header"), std::string::npos) << loaded.error().message();
    }
}

TEST(JsonLoader, an_image_or_other_text_given_as_the_skeleton_is_named_for_what_it_is) {
    const std::pair<std::string, std::string> cases[] = {
        {std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16), "a PNG image, not a skeleton"},
        {"spineboy.png\nsize: 1024, 256\nfilter: Linear, Linear\n", "text that is not a JSON object"},
    };
    for (const auto& [bytes, what] : cases) {
        Result<SkeletonData> loaded = load_as_file(bytes, "not_a_skeleton.skel");
        ASSERT_FALSE(loaded.ok()) << what;
        EXPECT_NE(loaded.error().message().find(what), std::string::npos) << loaded.error().message();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

struct BadCase {
    std::string json;
    std::string where;
    std::string what;  // a substring of the message
};

void expect_errors(const std::vector<BadCase>& cases) {
    for (const BadCase& c : cases) {
        Error e = load_error(c.json);
        EXPECT_EQ(e.file, "bad.json");
        EXPECT_EQ(e.where, c.where) << c.json << "\n" << e.what;
        EXPECT_NE(e.what.find(c.what), std::string::npos) << e.what << " (wanted " << c.what << ")";
    }
}

TEST(JsonLoader, rejects_other_spine_versions) {
    expect_errors({
        {R"({"skeleton": {"spine": "3.8.99"}})", "/skeleton/spine",
         "unsupported Spine version 3.8.99; spinegpu reads 4.2 exports"},
        {R"({"skeleton": {"spine": "4.1.0"}})", "/skeleton/spine", "4.1.0"},
        {R"({"skeleton": {"spine": "4.20"}})", "/skeleton/spine", "4.20"},
        {R"({"skeleton": {}})", "/skeleton/spine", "missing: expected a string"},
        {R"({"bones": []})", "/skeleton", "Spine version"},
    });
}

TEST(JsonLoader, rejects_numbers_past_a_float) {
    expect_errors({
        {R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root", "scaleX": 1e39}]})", "/bones/0/scaleX",
         "beyond a 32-bit float's range"},
        {R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root", "x": -3.5e38}]})", "/bones/0/x",
         "beyond a 32-bit float's range"},
        {R"({"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root"}],
            "skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": [0,0, 1,0, 0,1],
            "triangles": [0, 1, 2], "vertices": [0, 0, 1e39, 0, 0, 10]}}}}]})",
         "/skins/0/attachments/s/m/vertices/2", "beyond a 32-bit float's range"},
    });
}

TEST(JsonLoader, rejects_invalid_json) {
    expect_errors({
        {"", "line 1, column 1", "invalid JSON"},
        {"{", "line 1, column 2", "invalid JSON"},
        {R"({"skeleton": {"spine": "4.2.0"},})", "line 1, column 33", "invalid JSON"},
        {"{\"skeleton\": {\"spine\": \"4.2.0\"},\n  \"bones\": [{\"name\": \"root\"]}", "line 2, column 28",
         "invalid JSON"},
        {"[1, 2]", "/", "expected an object"},
    });
}

TEST(JsonLoader, names_the_place_of_numbers_and_escapes_the_parser_refuses) {
    expect_errors({
        {R"({"skeleton": {"spine": "4.2.0"}, "bones": [{"name": "root", "x": 1e309}]})", "line 1, column 66",
         "invalid JSON"},
        {"{\"skeleton\": {\"spine\": \"4.2.0\"},\n  \"bones\": [{\"name\": \"root\", \"y\": 18446744073709551616}]}",
         "line 2, column 35", "invalid JSON"},
        {R"({"skeleton": {"spine": "4.2.0"}, "bones": [{"name": "r\uD800"}]})", "line 1, column 55", "invalid JSON"},
    });
}

TEST(JsonLoader, rejects_wrong_types) {
    expect_errors({
        {doc(R"("bones": {})"), "/bones", "expected an array"},
        {doc(R"("bones": [{"name": "root", "x": "1"}])"), "/bones/0/x", "expected a number, found a string"},
        {doc(R"("bones": [{"name": 3}])"), "/bones/0/name", "expected a string"},
        {doc(R"("bones": [{"x": 1}])"), "/bones/0/name", "missing: expected a string"},
        {doc(R"("bones": [{"name": "r", "skin": 1}])"), "/bones/0/skin", "expected true or false"},
        {doc(R"("bones": [{"name": "r", "color": "red"}])"), "/bones/0/color", "expected a colour"},
        {doc(R"("bones": [{"name": "r", "inherit": "sideways"}])"), "/bones/0/inherit", "expected one of"},
        {doc(k_two_bones + R"(, "slots": [{"name": "s", "bone": "arm", "blend": "overlay"}])"), "/slots/0/blend",
         "\"overlay\""},
        {doc(k_two_bones + ", " + k_one_slot + R"(, "skins": [{"name": "default", "attachments": {"s": {"a": 5}}}])"),
         "/skins/0/attachments/s/a", "expected an object"},
        {doc(k_two_bones + ", " + k_one_slot +
             R"(, "skins": [{"name": "default", "attachments": {"s": {"a": {"type": "sprite"}}}}])"),
         "/skins/0/attachments/s/a/type", "expected one of"},
        {doc(R"("bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": {"rotate": [{"time": "0"}]}}}})"),
         "/animations/a/bones/root/rotate/0/time", "expected a number"},
        {doc(R"("bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": {"rotate": {}}}}})"),
         "/animations/a/bones/root/rotate", "expected an array"},
        {doc(R"("bones": [{"name": "root"}, {"name": "root"}])"), "/bones/1/name", "duplicate bone name"},
        {doc(R"("physics": [{"name": "p", "bone": "x", "fps": 0}])"), "/physics/0/bone", "unknown bone \"x\""},
        {doc(R"("bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "fps": 0}])"),
         "/physics/0/fps", "expected 1 to 255 steps per second"},
        // Rates past the binary format's range (one byte): 1e30 would run that many physics steps per frame.
        {doc(R"("bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "fps": 256}])"),
         "/physics/0/fps", "expected 1 to 255 steps per second"},
        {doc(R"("bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "fps": 1e30}])"),
         "/physics/0/fps", "expected 1 to 255 steps per second"},
        {doc(R"("bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "fps": 0.5}])"),
         "/physics/0/fps", "expected 1 to 255 steps per second"},
        {doc(R"("bones": [{"name": "root"}], "ik": [{"name": "i", "bones": [], "target": "root"}])"), "/ik/0/bones",
         "expected 1 or 2 bones"},
    });
}

TEST(JsonLoader, rejects_unknown_references) {
    std::string base = k_two_bones + ", " + k_one_slot;
    std::string skin = R"("skins": [{"name": "default", "attachments": {"s": {"r": {"width": 1, "height": 1}}}}])";
    expect_errors({
        {doc(R"("bones": [{"name": "root"}, {"name": "arm", "parent": "foo"}])"), "/bones/1/parent",
         "unknown bone \"foo\""},
        {doc(R"("bones": [{"name": "arm", "parent": "root"}, {"name": "root"}])"), "/bones/0/parent",
         "unknown bone \"root\""},
        {doc(k_two_bones + R"(, "slots": [{"name": "s", "bone": "leg"}])"), "/slots/0/bone", "unknown bone \"leg\""},
        {doc(k_two_bones + R"(, "ik": [{"name": "i", "bones": ["arm", "leg"], "target": "root"}])"), "/ik/0/bones/1",
         "unknown bone \"leg\""},
        {doc(base + R"(, "path": [{"name": "p", "bones": ["arm"], "target": "nope"}])"), "/path/0/target",
         "unknown slot \"nope\""},
        {doc(base + R"(, "skins": [{"name": "x", "ik": ["nope"]}])"), "/skins/0/ik/0", "unknown ik constraint"},
        {doc(base + R"(, "skins": [{"name": "x", "attachments": {"t": {}}}])"), "/skins/0/attachments/t",
         "unknown slot \"t\""},
        {doc(base + R"(, "skins": [{"name": "x", "attachments": {"s": {"c": {"type": "clipping", "end": "z"}}}}])"),
         "/skins/0/attachments/s/c/end", "unknown slot \"z\""},
        {doc(base + R"(, "animations": {"a": {"slots": {"q": {}}}})"), "/animations/a/slots/q", "unknown slot \"q\""},
        {doc(base + R"(, "animations": {"a": {"bones": {"q": {}}}})"), "/animations/a/bones/q", "unknown bone \"q\""},
        {doc(base + R"(, "animations": {"a": {"ik": {"q": [{}]}}})"), "/animations/a/ik/q", "unknown IK constraint"},
        {doc(base + R"(, "animations": {"a": {"transform": {"q": [{}]}}})"), "/animations/a/transform/q",
         "unknown transform constraint"},
        {doc(base + R"(, "animations": {"a": {"path": {"q": {}}}})"), "/animations/a/path/q",
         "unknown path constraint"},
        {doc(base + R"(, "animations": {"a": {"physics": {"g/h": {}}}})"), "/animations/a/physics/g~1h",
         "unknown physics constraint \"g/h\""},
        {doc(base + R"(, "animations": {"a": {"events": [{"name": "bang"}]}})"), "/animations/a/events/0/name",
         "unknown event \"bang\""},
        {doc(base + ", " + skin + R"(, "animations": {"a": {"attachments": {"other": {}}}})"),
         "/animations/a/attachments/other", "unknown skin \"other\""},
        {doc(base + ", " + skin + R"(, "animations": {"a": {"attachments": {"default": {"s": {"zz": {}}}}}})"),
         "/animations/a/attachments/default/s/zz", "unknown attachment \"zz\" in skin \"default\""},
        {doc(base + ", " + skin +
             R"(, "animations": {"a": {"attachments": {"default": {"s": {"r": {"deform": [{}]}}}}}})"),
         "/animations/a/attachments/default/s/r/deform", "deform needs a vertex attachment"},
        {doc(base + ", " + skin +
             R"(, "animations": {"a": {"attachments": {"default": {"s": {"r": {"sequence": [{}]}}}}}})"),
         "/animations/a/attachments/default/s/r/sequence", "has no sequence"},
        {doc(base + R"(, "animations": {"a": {"slots": {"s": {"colour": [{}]}}}})"), "/animations/a/slots/s/colour",
         "unknown slot timeline"},
        {doc(base + R"(, "animations": {"a": {"bones": {"arm": {"spin": [{}]}}}})"), "/animations/a/bones/arm/spin",
         "unknown bone timeline"},
        {doc(base + R"(, "animations": {"a": {"deform": {}}})"), "/animations/a/deform", "unknown animation section"},
    });
}

TEST(JsonLoader, rejects_unresolvable_linked_meshes) {
    std::string base = k_two_bones + ", " + k_one_slot;
    std::string mesh =
        R"("m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0, 1,1]})";
    expect_errors({
        {doc(base + R"(, "skins": [{"name": "default", "attachments": {"s": {
             "l": {"type": "linkedmesh", "parent": "x"}}}}])"),
         "/skins/0/attachments/s/l/parent", "parent mesh \"x\" not found in skin \"default\""},
        {doc(base + R"(, "skins": [{"name": "a", "attachments": {"s": {
             "l": {"type": "linkedmesh", "parent": "x"}}}}])"),
         "/skins/0/attachments/s/l/parent", "no default skin"},
        {doc(base + R"(, "skins": [{"name": "default", "attachments": {"s": {)" + mesh +
             R"(, "l": {"type": "linkedmesh", "parent": "m", "skin": "nope"}}}}])"),
         "/skins/0/attachments/s/l/skin", "unknown skin \"nope\""},
        {doc(base + R"(, "skins": [{"name": "default", "attachments": {"s": {"r": {"width": 1, "height": 1},
             "l": {"type": "linkedmesh", "parent": "r"}}}}])"),
         "/skins/0/attachments/s/l/parent", "not a mesh"},
        {doc(base + R"(, "skins": [{"name": "default", "attachments": {"s": {
             "a": {"type": "linkedmesh", "parent": "b"}, "b": {"type": "linkedmesh", "parent": "a"}}}}])"),
         "/skins/0/attachments/s/b/parent", "cycle"},
    });
}

TEST(JsonLoader, rejects_inconsistent_geometry) {
    std::string base = k_two_bones + ", " + k_one_slot;
    auto mesh = [&](const std::string& body) {
        return doc(base + R"(, "skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", )" + body +
                   "}}}}]");
    };
    const std::string at = "/skins/0/attachments/s/m/";
    expect_errors({
        {mesh(R"("uvs": [0,0, 1], "triangles": [], "vertices": [])"), at + "uvs", "even number"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0])"), at + "vertices/2",
         "exactly 6 numbers, found 4"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,3], "vertices": [0,0, 1,0, 1,1])"), at + "triangles/2",
         "expected a vertex index below 3"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1], "vertices": [0,0, 1,0, 1,1])"), at + "triangles",
         "multiple of 3"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,-1], "vertices": [0,0, 1,0, 1,1])"), at + "triangles/2",
         "vertex index"},
        {mesh(R"("uvs": [0,0, 1,0], "triangles": [], "vertices": [1, 5, 0,0,1, 1, 0, 0,0,1])"), at + "vertices/1",
         "bone index below 2"},
        {mesh(R"("uvs": [0,0, 1,0], "triangles": [], "vertices": [1, 0, 0,0,1, 3, 0, 0,0,1])"), at + "vertices/5",
         "bone count"},
        {mesh(R"("uvs": [0,0, 1,0], "triangles": [], "vertices": [-1, 0, 0,0,1, 1, 0, 0,0,1])"), at + "vertices/0",
         "bone count"},
        {mesh(R"("uvs": [0,0, 1,0], "triangles": [], "vertices": [1, 0, 0,0,1])"), at + "vertices",
         "expected 2 weighted vertices, found 1"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0, 1,"x"])"), at + "vertices/5",
         "expected a number"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0, 1,1], "hull": 4)"), at + "hull",
         "integer from 0 to 3"},
        {mesh(R"("uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0, 1,1], "sequence": {"count": 0})"),
         at + "sequence/count", "at least 1 frame"},
        {mesh(R"("triangles": [], "vertices": [])"), at + "uvs", "missing: expected an array"},
        {doc(base + R"(, "skins": [{"name": "d", "attachments": {"s": {"b": {"type": "boundingbox", "vertexCount": -1,
             "vertices": []}}}}])"), "/skins/0/attachments/s/b/vertexCount", "integer from 0"},
        {doc(base + R"(, "skins": [{"name": "d", "attachments": {"s": {"p": {"type": "path", "vertexCount": 3,
             "vertices": [0,0,1,1,2,2], "lengths": [1, 2]}}}}])"), "/skins/0/attachments/s/p/lengths",
         "expected 1 curve lengths"},
        {doc(base + R"(, "skins": [{"name": "d", "attachments": {"s": {"r": {"width": 1}}}}])"),
         "/skins/0/attachments/s/r/height", "missing: expected a number"},
    });
}

TEST(JsonLoader, rejects_bad_keys) {
    std::string base = k_two_bones + R"(, "slots": [{"name": "s", "bone": "arm"}, {"name": "t", "bone": "root"}],
        "skins": [{"name": "default", "attachments": {"s": {
        "m": {"type": "mesh", "uvs": [0,0, 1,0, 1,1], "triangles": [0,1,2], "vertices": [0,0, 1,0, 1,1]}}}}])";
    auto anim = [&](const std::string& body) { return doc(base + R"(, "animations": {"a": )" + body + "}"); };
    expect_errors({
        {anim(R"({"bones": {"arm": {"rotate": [{"curve": "linear"}, {"time": 1}]}}})"),
         "/animations/a/bones/arm/rotate/0/curve", "expected \"stepped\""},
        {anim(R"({"bones": {"arm": {"translate": [{"curve": [0, 0, 1, 1]}, {"time": 1}]}}})"),
         "/animations/a/bones/arm/translate/0/curve", "expected 8 numbers"},
        {anim(R"({"bones": {"arm": {"rotate": [{"curve": [0, 0, 1, "1"]}, {"time": 1}]}}})"),
         "/animations/a/bones/arm/rotate/0/curve/3", "expected a number"},
        {anim(R"({"slots": {"s": {"rgba": [{"color": "fff"}]}}})"), "/animations/a/slots/s/rgba/0/color",
         "expected a colour"},
        {anim(R"({"slots": {"s": {"rgba2": [{"light": "ffffffff"}]}}})"), "/animations/a/slots/s/rgba2/0/dark",
         "missing: expected a colour"},
        {anim(R"({"drawOrder": [{"offsets": [{"slot": "s", "offset": 2}]}]})"),
         "/animations/a/drawOrder/0/offsets/0/offset", "outside the draw order"},
        {anim(R"({"drawOrder": [{"offsets": [{"slot": "s", "offset": 0}, {"slot": "s", "offset": 0}]}]})"),
         "/animations/a/drawOrder/0/offsets/1/slot", "once, in setup order"},
        {anim(R"({"drawOrder": [{"offsets": [{"slot": "s", "offset": 1}, {"slot": "t", "offset": 0}]}]})"),
         "/animations/a/drawOrder/0/offsets/1/offset", "onto another slot"},
        {anim(R"({"drawOrder": [{"offsets": [{"slot": "s"}, {"slot": "t"}, {"slot": "t"}]}]})"),
         "/animations/a/drawOrder/0/offsets", "at most 2 offsets"},
        {anim(R"({"drawOrder": [{"offsets": [{"slot": "x", "offset": 0}]}]})"),
         "/animations/a/drawOrder/0/offsets/0/slot", "unknown slot \"x\""},
        {anim(R"({"attachments": {"default": {"s": {"m": {"deform": [{"vertices": [1, 2, 3, 4, 5, 6, 7]}]}}}}})"),
         "/animations/a/attachments/default/s/m/deform/0/vertices", "expected at most 6 values"},
        {anim(R"({"attachments": {"default": {"s": {"m": {"deform": [{"offset": 5, "vertices": [1, 2]}]}}}}})"),
         "/animations/a/attachments/default/s/m/deform/0/vertices", "at most 1 values after offset 5"},
        {anim(R"({"bones": {"arm": {"inherit": [{"inherit": "both"}]}}})"), "/animations/a/bones/arm/inherit/0/inherit",
         "expected one of"},
        {anim(R"({"events": [{}]})"), "/animations/a/events/0/name", "missing: expected a string"},
    });
}

// Every prefix of a real export is malformed JSON: each must give an error, never a crash.
TEST(JsonLoader, rejects_every_truncation_of_a_real_export) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::string text = read_example("spineboy/spineboy-ess.json");
    std::size_t end = text.rfind('}');
    ASSERT_NE(end, std::string::npos);
    int errors = 0;
    for (std::size_t length = 0; length < end; length += (length < 4096 ? 13 : 401)) {
        Result<SkeletonData> d = load_skeleton_json(std::string_view(text).substr(0, length), "cut.json");
        ASSERT_FALSE(d.ok()) << "prefix of " << length << " bytes loaded";
        EXPECT_FALSE(d.error().what.empty());
        ++errors;
    }
    EXPECT_GT(errors, 100);
}

// Changing one byte of a real export gives either a skeleton or an error, never a crash (run it under the
// sanitizers to see memory errors).
TEST(JsonLoader, survives_single_byte_corruption) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::string text = read_example("goblins/goblins-pro.json");
    const char replacements[] = {'0', '9', '-', '"', '{', ']', 'x', ' ', 'e'};
    std::uint32_t seed = 12345;
    int loaded = 0, failed = 0;
    for (int i = 0; i < 600; ++i) {
        seed = seed * 1664525u + 1013904223u;
        std::string copy = text;
        copy[seed % copy.size()] = replacements[(seed >> 16) % sizeof(replacements)];
        Result<SkeletonData> d = load_skeleton_json(copy, "corrupt.json");
        if (d.ok()) {
            check_invariants(*d, "corrupt");
            ++loaded;
        } else {
            EXPECT_FALSE(d.error().where.empty());
            ++failed;
        }
    }
    EXPECT_GT(failed, 0);
    EXPECT_GT(loaded, 0);
}

}  // namespace
}  // namespace spinegpu
