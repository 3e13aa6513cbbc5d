// The binary (.skel) loader: every example export, a synthetic file with every attachment and timeline type
// (binary_skel_fixture.hpp), and untrusted-input behaviour (truncation, corruption, huge counts, bad indices).
// Expected values come from the official runtime (spine-core 4.2.119) loading the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "binary_skel_fixture.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Result<SkeletonData> load(const std::vector<std::uint8_t>& bytes, float scale = 0) {
    SkeletonLoadOptions options;
    options.scale = scale;
    return load_skeleton_binary(bytes, "test.skel", options);
}

std::vector<std::uint8_t> example(const char* folder, const char* file) {
    return read_bytes(test::examples_dir() / folder / file);
}

// The N of an error's "byte N", or -1 when `where` has another form.
long error_byte(const Error& e) {
    if (e.where.rfind("byte ", 0) != 0) return -1;
    return std::stol(e.where.substr(5));
}

// Expects an error at byte `at` whose sentence contains `text`.
void expect_error(const Result<SkeletonData>& r, std::size_t at, const std::string& text) {
    ASSERT_FALSE(r.ok()) << "expected an error containing \"" << text << "\"";
    EXPECT_EQ(r.error().file, "test.skel");
    EXPECT_EQ(r.error().where, "byte " + std::to_string(at)) << r.error().message();
    EXPECT_NE(r.error().what.find(text), std::string::npos) << r.error().message();
}

// Builds the fixture, loads it and expects an error at the byte of field `mark` (+ `extra`).
void expect_fixture_error(test::SkelFixture& f, const char* mark, const std::string& text, std::size_t extra = 0) {
    std::vector<std::uint8_t> bytes = f.build();
    ASSERT_TRUE(f.w.marks.count(mark)) << mark;
    expect_error(load(bytes), f.w.marks.at(mark) + extra, text);
}

template <class T>
bool in_pool(Range r, const std::vector<T>& pool) {
    return std::size_t{r.offset} + r.count <= pool.size();
}

// Every index and range of a loaded skeleton points inside what it indexes.
void expect_consistent(const SkeletonData& d) {
    auto n = [](const auto& v) { return static_cast<Index>(v.size()); };
    EXPECT_EQ(d.bone_names.size(), d.bones.size());
    EXPECT_EQ(d.slot_names.size(), d.slots.size());
    EXPECT_EQ(d.skin_names.size(), d.skins.size());
    EXPECT_EQ(d.animation_names.size(), d.animations.size());
    for (Index i = 0; i < n(d.bones); ++i) EXPECT_LT(d.bones[i].parent, i);
    for (const SlotData& s : d.slots) EXPECT_LT(s.bone, n(d.bones));
    for (const AttachmentData& a : d.attachments) {
        ASSERT_TRUE(in_pool(a.vertices, d.floats) && in_pool(a.bones, d.indices) && in_pool(a.region_uvs, d.floats) &&
                    in_pool(a.triangles, d.triangles) && in_pool(a.edges, d.indices) && in_pool(a.lengths, d.floats));
        if (a.type == AttachmentType::mesh) {
            EXPECT_EQ(a.region_uvs.count, a.world_vertices_length);
            for (std::uint32_t t = 0; t < a.triangles.count; ++t)
                EXPECT_LT(d.triangles[a.triangles.offset + t], a.world_vertices_length / 2);
        }
        if (a.bones.count > 0) {
            std::uint32_t influences = 0;
            for (std::uint32_t i = 0; i < a.bones.count;
                 i += 1 + static_cast<std::uint32_t>(d.indices[a.bones.offset + i]))
                influences += static_cast<std::uint32_t>(d.indices[a.bones.offset + i]);
            EXPECT_EQ(a.vertices.count, influences * 3);
        }
        EXPECT_LT(a.sequence, n(d.sequences));
        EXPECT_NE(a.name, k_none);
    }
    for (const SkinData& skin : d.skins)
        for (const SkinEntry& e : skin.entries) {
            EXPECT_LT(e.slot, n(d.slots));
            EXPECT_LT(e.attachment, n(d.attachments));
        }
    for (const AnimationData& anim : d.animations) {
        ASSERT_TRUE(in_pool(anim.timelines, d.timelines));
        for (std::uint32_t i = 0; i < anim.timelines.count; ++i) {
            const TimelineData& t = d.timelines[anim.timelines.offset + i];
            EXPECT_GT(t.frame_count, 0u);
            EXPECT_LE(std::size_t{t.frames} + std::size_t{t.frame_count} * t.entries, d.frames.size());
            EXPECT_TRUE(in_pool(t.curves, d.curves));
            EXPECT_FALSE(d.frames[t.frames + (t.frame_count - 1) * t.entries] > anim.duration);  // NaN allowed
        }
    }
}

int count_timelines(const SkeletonData& d, TimelineType type) {
    return static_cast<int>(std::count_if(d.timelines.begin(), d.timelines.end(),
                                          [&](const TimelineData& t) { return t.type == type; }));
}

const TimelineData& find_timeline(const SkeletonData& d, Index animation, TimelineType type, Index target) {
    Range r = d.animations[static_cast<std::size_t>(animation)].timelines;
    for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i)
        if (d.timelines[i].type == type && d.timelines[i].target == target) return d.timelines[i];
    ADD_FAILURE() << "no " << timeline_type_name(type) << " timeline for " << target;
    return d.timelines.front();
}

std::vector<float> frames_of(const SkeletonData& d, const TimelineData& t) {
    auto first = d.frames.begin() + t.frames;
    return {first, first + t.frame_count * t.entries};
}

std::vector<float> curves_of(const SkeletonData& d, const TimelineData& t) {
    auto first = d.curves.begin() + t.curves.offset;
    return {first, first + t.curves.count};
}

Index attachment(const SkeletonData& d, const char* skin, const char* slot, const char* key) {
    return d.find_skin_attachment(d.skin_names.find(skin), d.slot_names.find(slot), d.attachment_names.find(key));
}

// ---------------------------------------------------------------------------------------------------------------
// Example exports

TEST(BinaryLoader, binary_loader_loads_every_example_export) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::vector<test::ExampleSkeleton> examples = test::example_skeletons();
    ASSERT_EQ(examples.size(), 18u);
    for (const test::ExampleSkeleton& e : examples) {
        SCOPED_TRACE(e.binary.string());
        Result<SkeletonData> r = load(read_bytes(e.binary));
        ASSERT_TRUE(r.ok()) << r.error().message();
        EXPECT_EQ(r->version.rfind("4.2.", 0), 0u);
        EXPECT_FALSE(r->bones.empty());
        EXPECT_FALSE(r->animations.empty());
        EXPECT_EQ(r->constraint_order.size(), r->ik_constraints.size() + r->transform_constraints.size() +
                                                  r->path_constraints.size() + r->physics_constraints.size());
        expect_consistent(*r);
    }
}

TEST(BinaryLoader, binary_loader_reads_spineboy_as_the_official_runtime_does) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Result<SkeletonData> r = load(example("spineboy", "spineboy-pro.skel"));
    ASSERT_TRUE(r.ok()) << r.error().message();
    const SkeletonData& d = *r;
    EXPECT_EQ(d.hash, "-4337f1076bdcaaf");  // the official runtime's string form of the 64-bit hash
    EXPECT_EQ(d.version, "4.2.22");
    EXPECT_FLOAT_EQ(d.x, -188.6337890625f);
    EXPECT_FLOAT_EQ(d.height, 686.2023315429688f);
    EXPECT_EQ(d.images_path, "./images/");
    EXPECT_EQ(d.bones.size(), 67u);
    EXPECT_EQ(d.slots.size(), 52u);
    EXPECT_EQ(d.ik_constraints.size(), 7u);
    EXPECT_EQ(d.transform_constraints.size(), 8u);
    EXPECT_EQ(d.animations.size(), 11u);
    EXPECT_EQ(d.animation_names[0], "aim");
    EXPECT_EQ(d.animation_names[10], "walk");
    const BoneData& crosshair = d.bones[2];
    EXPECT_EQ(d.bone_names[2], "crosshair");
    EXPECT_FLOAT_EQ(crosshair.x, 302.8308410644531f);
    EXPECT_EQ(crosshair.icon, "circle");
    // The binary format stores floats: the official runtime's setup rotation is the float.
    for (const BoneData& bone : d.bones) EXPECT_EQ(setup_rotation(bone), static_cast<double>(bone.rotation));
    EXPECT_NE(d.bones[6].rotation, 0.0f) << d.bone_names[6];
    EXPECT_FLOAT_EQ(crosshair.color.g, 0.24705882f);
    const IkConstraintData& aim = d.ik_constraints[0];
    EXPECT_EQ(d.ik_names[0], "aim-ik");
    EXPECT_EQ(aim.order, 13);
    EXPECT_EQ(aim.target, 2);
    EXPECT_EQ(aim.mix, 0);  // flag 32 clear: mix 0, as the official loader reads it
    EXPECT_EQ(aim.bend_direction, -1);
    const TransformConstraintData& tc = d.transform_constraints[0];
    EXPECT_FLOAT_EQ(tc.offset_rotation, -180);
    EXPECT_EQ(tc.mix_rotate, 0);
    EXPECT_EQ(d.events.size(), 1u);
    EXPECT_EQ(d.event_names[0], "footstep");
    EXPECT_EQ(d.slots[static_cast<std::size_t>(d.slot_names.find("portal-streaks1"))].blend, BlendMode::additive);
    const AnimationData& walk = d.animations[10];
    EXPECT_EQ(walk.duration, 1.0f);
    EXPECT_EQ(walk.timelines.count, 39u);
    EXPECT_GT(count_timelines(d, TimelineType::deform), 0);
    EXPECT_GT(count_timelines(d, TimelineType::event), 0);
}

TEST(BinaryLoader, binary_loader_reads_physics_constraints) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Result<SkeletonData> r = load(example("celestial-circus", "celestial-circus-pro.skel"));
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->physics_constraints.size(), 30u);
    const PhysicsConstraintData& p = r->physics_constraints[0];
    EXPECT_EQ(r->physics_names[0], "bench-back");
    EXPECT_EQ(p.order, 31);
    EXPECT_EQ(p.bone, 5);
    EXPECT_FLOAT_EQ(p.x, 0.49490002f);
    EXPECT_FLOAT_EQ(p.limit, 1500);
    EXPECT_FLOAT_EQ(p.step, 1.0f / 60);
    EXPECT_FLOAT_EQ(p.damping, 0.85f);
    bool all_constraints = false;
    for (const TimelineData& t : r->timelines)
        if (t.type == TimelineType::physics_wind && t.target == k_none) all_constraints = true;
    EXPECT_TRUE(all_constraints) << "celestial-circus has a wind timeline for every physics constraint";
}

TEST(BinaryLoader, binary_loader_reads_two_color_tint) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Result<SkeletonData> r = load(example("tank", "tank-pro.skel"));
    ASSERT_TRUE(r.ok()) << r.error().message();
    const SlotData& s = r->slots[static_cast<std::size_t>(r->slot_names.find("smoke-puff1-bg"))];
    EXPECT_TRUE(s.has_dark);
    EXPECT_EQ(s.dark, (Color{0, 0, 0, 1}));
    EXPECT_FLOAT_EQ(s.color.r, 0.9254902f);
    EXPECT_GT(count_timelines(*r, TimelineType::rgba2), 0);
    EXPECT_GT(count_timelines(*r, TimelineType::draw_order), 0);
}

TEST(BinaryLoader, binary_loader_reads_sequences) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Result<SkeletonData> r = load(example("dragon", "dragon-ess.skel"));
    ASSERT_TRUE(r.ok()) << r.error().message();
    ASSERT_EQ(r->sequences.size(), 2u);
    Index wing = attachment(*r, "default", "left-wing", "left-wing");
    ASSERT_NE(wing, k_none);
    const SequenceData& s =
        r->sequences[static_cast<std::size_t>(r->attachments[static_cast<std::size_t>(wing)].sequence)];
    EXPECT_EQ(s.count, 9);
    EXPECT_EQ(s.start, 1);
    EXPECT_EQ(s.digits, 2);
    EXPECT_GT(count_timelines(*r, TimelineType::sequence), 0);
}

TEST(BinaryLoader, binary_loader_resolves_linked_meshes_after_all_skins) {
    SPINEGPU_REQUIRE_EXAMPLES();
    // Linked mesh counts from the official runtime.
    for (auto [folder, file, expected] : {std::tuple{"goblins", "goblins-pro.skel", 2},
                                          std::tuple{"chibi-stickers", "chibi-stickers.skel", 61},
                                          std::tuple{"mix-and-match", "mix-and-match-pro.skel", 6}}) {
        SCOPED_TRACE(file);
        Result<SkeletonData> r = load(example(folder, file));
        ASSERT_TRUE(r.ok()) << r.error().message();
        int linked = 0;
        for (const AttachmentData& a : r->attachments) {
            if (a.parent_mesh == k_none) continue;
            ++linked;
            const AttachmentData& parent = r->attachments[static_cast<std::size_t>(a.parent_mesh)];
            EXPECT_EQ(a.vertices.offset, parent.vertices.offset);
            EXPECT_EQ(a.bones.offset, parent.bones.offset);
            EXPECT_EQ(a.triangles.offset, parent.triangles.offset);
            EXPECT_EQ(a.region_uvs.offset, parent.region_uvs.offset);
            EXPECT_EQ(a.world_vertices_length, parent.world_vertices_length);
            EXPECT_EQ(a.hull_length, parent.hull_length);
            EXPECT_EQ(a.timeline_attachment, a.parent_mesh);  // these exports' linked meshes inherit timelines
        }
        EXPECT_EQ(linked, expected);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The synthetic file: every attachment and timeline type

TEST(BinaryLoader, binary_loader_reads_every_attachment_type) {
    test::SkelFixture f;
    Result<SkeletonData> r = load(f.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    const SkeletonData& d = *r;
    expect_consistent(d);
    EXPECT_EQ(d.hash, "-212345678");
    EXPECT_EQ(d.fps, 24);
    EXPECT_EQ(d.audio_path, "./snd/");
    EXPECT_EQ(d.bones[2].inherit, Inherit::no_rotation_or_reflection);
    EXPECT_TRUE(d.bones[2].skin_required);
    EXPECT_FALSE(d.bones[1].visible);
    EXPECT_EQ(d.bones[1].icon, "star");
    EXPECT_EQ(d.slots[0].attachment_name, d.attachment_names.find("mesh"));
    EXPECT_FLOAT_EQ(d.slots[0].dark.b, 0x30 / 255.0f);
    EXPECT_FALSE(d.slots[1].has_dark);
    EXPECT_EQ(d.slots[2].blend, BlendMode::screen);
    EXPECT_FALSE(d.slots[1].visible);

    const IkConstraintData& ik = d.ik_constraints[0];
    EXPECT_TRUE(ik.skin_required && ik.compress && !ik.stretch);
    EXPECT_EQ(ik.bend_direction, 1);
    EXPECT_FLOAT_EQ(ik.mix, 0.75f);
    EXPECT_FLOAT_EQ(ik.softness, 3);
    const TransformConstraintData& tc = d.transform_constraints[0];
    EXPECT_TRUE(tc.local && tc.relative);
    EXPECT_FLOAT_EQ(tc.offset_scale_y, 0.2f);
    EXPECT_FLOAT_EQ(tc.mix_shear_y, 0.5f);
    const PathConstraintData& pc = d.path_constraints[0];
    EXPECT_EQ(pc.position_mode, PositionMode::fixed);
    EXPECT_EQ(pc.spacing_mode, SpacingMode::percent);
    EXPECT_EQ(pc.rotate_mode, RotateMode::chain);
    EXPECT_FLOAT_EQ(pc.offset_rotation, 45);
    const PhysicsConstraintData& ph = d.physics_constraints[0];
    EXPECT_FLOAT_EQ(ph.mass_inverse, 2);
    EXPECT_FLOAT_EQ(ph.mix, 0.8f);
    EXPECT_TRUE(ph.inertia_global && ph.mix_global);
    EXPECT_EQ(d.constraint_order.size(), 4u);

    const AttachmentData& mesh = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s0", "mesh"))];
    EXPECT_EQ(mesh.type, AttachmentType::mesh);
    EXPECT_EQ(d.attachment_paths[mesh.path], "meshpath");
    EXPECT_EQ(mesh.hull_length, 8u);
    EXPECT_EQ(mesh.triangles.count, 6u);
    EXPECT_EQ(mesh.edges.count, 2u);
    EXPECT_FLOAT_EQ(mesh.mesh_width, 64);
    const AttachmentData& region = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s0", "region"))];
    EXPECT_EQ(d.attachment_names[region.spine_name], "regionname");
    EXPECT_EQ(d.attachment_paths[region.path], "regionname");  // the path defaults to the attachment's own name
    EXPECT_FLOAT_EQ(region.rotation, 30);
    EXPECT_EQ(d.sequences[static_cast<std::size_t>(region.sequence)].count, 3);
    const AttachmentData& box = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s1", "box"))];
    EXPECT_EQ(box.type, AttachmentType::bounding_box);
    EXPECT_EQ(box.bones.count, 9u);
    EXPECT_EQ(box.vertices.count, 18u);
    const AttachmentData& point = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s1", "point"))];
    EXPECT_EQ(point.type, AttachmentType::point);
    EXPECT_FLOAT_EQ(point.y, 4);
    const AttachmentData& clip = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s1", "clip"))];
    EXPECT_EQ(clip.end_slot, 2);
    EXPECT_EQ(clip.world_vertices_length, 6u);
    const AttachmentData& path = d.attachments[static_cast<std::size_t>(attachment(d, "default", "s2", "path"))];
    EXPECT_TRUE(path.closed && path.constant_speed);
    EXPECT_EQ(path.lengths.count, 2u);

    const SkinData& skin2 = d.skins[1];
    EXPECT_EQ(skin2.bones, std::vector<Index>{2});
    EXPECT_EQ(skin2.constraints.size(), 4u);
    Index linked_index = attachment(d, "skin2", "s0", "linked");
    const AttachmentData& linked = d.attachments[static_cast<std::size_t>(linked_index)];
    EXPECT_EQ(linked.parent_mesh, attachment(d, "default", "s0", "mesh"));
    EXPECT_EQ(linked.timeline_attachment, linked.parent_mesh);
    EXPECT_EQ(linked.vertices.offset, mesh.vertices.offset);
    EXPECT_EQ(linked.edges.count, 0u);  // the official setParentMesh does not share edges
    EXPECT_EQ(linked.color, (Color{0, 0, 1, 1}));

    EXPECT_FLOAT_EQ(d.events[0].volume, 0.8f);
    EXPECT_EQ(d.events[0].int_value, -5);
    EXPECT_EQ(d.events[1].volume, 0);  // no audio: the official runtime keeps 0
}

TEST(BinaryLoader, binary_loader_reads_every_timeline_type) {
    test::SkelFixture f;
    Result<SkeletonData> r = load(f.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    const SkeletonData& d = *r;
    for (int type = 0; type < k_timeline_type_count; ++type)
        EXPECT_EQ(count_timelines(d, static_cast<TimelineType>(type)),
                  1 + (type == static_cast<int>(TimelineType::rotate)))
            << timeline_type_name(static_cast<TimelineType>(type));
    EXPECT_EQ(d.animations[0].duration, 1);
    EXPECT_EQ(d.animations[1].duration, 2);

    const TimelineData& attach = find_timeline(d, 0, TimelineType::attachment, 0);
    EXPECT_EQ(d.index_span(attach.aux)[0], d.attachment_names.find("region"));
    EXPECT_EQ(d.index_span(attach.aux)[1], k_none);
    std::vector<float> rgba2{0.25f};
    for (int c = 10; c <= 70; c += 10) rgba2.push_back(static_cast<float>(c / 255.0));
    EXPECT_EQ(frames_of(d, find_timeline(d, 0, TimelineType::rgba2, 0)), rgba2);
    EXPECT_EQ(frames_of(d, find_timeline(d, 0, TimelineType::inherit, 1)), (std::vector<float>{0, 1, 1, 4}));
    EXPECT_EQ(frames_of(d, find_timeline(d, 0, TimelineType::ik, 0)),
              (std::vector<float>{0, 0.5f, 2, 1, 1, 1, 1, 1, 4, -1, 0, 0}));
    EXPECT_EQ(frames_of(d, find_timeline(d, 0, TimelineType::physics_reset, k_none)), (std::vector<float>{0.1f, 0.2f}));
    EXPECT_EQ(frames_of(d, find_timeline(d, 0, TimelineType::physics_mass, 0)), (std::vector<float>{0, 40}));
    const TimelineData& seq = find_timeline(d, 0, TimelineType::sequence, 0);
    EXPECT_EQ(frames_of(d, seq), (std::vector<float>{0, 18, 0.1f, 0.5f, 6, 0.2f}));  // mode | index << 4
    EXPECT_EQ(seq.attachment, attachment(d, "default", "s0", "region"));

    const TimelineData& order = find_timeline(d, 0, TimelineType::draw_order, k_none);
    Index key = d.index_span(order.aux)[0];
    ASSERT_NE(key, k_none);
    EXPECT_EQ((std::vector<Index>(d.indices.begin() + key, d.indices.begin() + key + 3)),
              (std::vector<Index>{2, 0, 1}));

    const TimelineData& events = find_timeline(d, 0, TimelineType::event, k_none);
    ASSERT_EQ(events.aux.count, 2u);
    const EventKey& e0 = d.event_keys[events.aux.offset];
    EXPECT_EQ(e0.int_value, 7);
    EXPECT_EQ(d.strings[e0.string_value], "override");
    EXPECT_FLOAT_EQ(e0.volume, 0.3f);
    const EventKey& e1 = d.event_keys[events.aux.offset + 1];
    EXPECT_EQ(e1.event, 1);
    EXPECT_EQ(e1.string_value, k_none);
    EXPECT_EQ(e1.volume, 0);
}

TEST(BinaryLoader, binary_loader_builds_curves_like_the_official_runtime) {
    test::SkelFixture f;
    Result<SkeletonData> r = load(f.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    // Sampled by the official RotateTimeline for the same bytes: 2 frame types, then 9 (x, y) points.
    const TimelineData& rotate = find_timeline(*r, 0, TimelineType::rotate, 1);
    std::vector<float> curves = curves_of(*r, rotate);
    ASSERT_EQ(curves.size(), 20u);
    EXPECT_EQ(curves[0], 4);  // bezier at offset 2
    EXPECT_EQ(curves[1], 1);  // last frame stepped
    EXPECT_FLOAT_EQ(curves[2], 0.082f);
    EXPECT_FLOAT_EQ(curves[3], 9);
    EXPECT_FLOAT_EQ(curves[4], 0.176f);
    EXPECT_FLOAT_EQ(curves[5], 18);
    const TimelineData& rgba = find_timeline(*r, 0, TimelineType::rgba, 0);
    EXPECT_EQ(rgba.curves.count, 2u + 4 * 18);
    EXPECT_FLOAT_EQ(curves_of(*r, rgba)[3], 0.7776f);
    const TimelineData& rgb = find_timeline(*r, 0, TimelineType::rgb, 0);
    EXPECT_EQ(curves_of(*r, rgb), (std::vector<float>{1, 1}));
    const TimelineData& alpha = find_timeline(*r, 0, TimelineType::alpha, 0);
    EXPECT_EQ(curves_of(*r, alpha), (std::vector<float>{0, 1}));
    const TimelineData& deform = find_timeline(*r, 0, TimelineType::deform, 0);
    EXPECT_FLOAT_EQ(curves_of(*r, deform)[3], 0.0496f);
}

TEST(BinaryLoader, binary_loader_stores_full_deform_keys) {
    test::SkelFixture f;
    Result<SkeletonData> r = load(f.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    // Unweighted: the setup vertices plus the key's offsets, every vertex of every frame.
    const TimelineData& deform = find_timeline(*r, 0, TimelineType::deform, 0);
    EXPECT_EQ(deform.attachment, attachment(*r, "default", "s0", "mesh"));
    auto keys = r->float_span(deform.aux);
    EXPECT_EQ(std::vector<float>(keys.begin(), keys.end()),
              (std::vector<float>{0, 0, 2.5f, -2.5f, 2, -2, 3, -3, 0, 0, 1, -1, 2, -2, 3, -3}));

    // Weighted: offsets per bone influence, zeros where the key has none.
    f.mesh_weighted = true;
    Result<SkeletonData> w = load(f.build());
    ASSERT_TRUE(w.ok()) << w.error().message();
    auto weighted = w->float_span(find_timeline(*w, 0, TimelineType::deform, 0).aux);
    EXPECT_EQ(std::vector<float>(weighted.begin(), weighted.end()),
              (std::vector<float>{0, 0, 1.5f, -1.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(BinaryLoader, binary_loader_reads_files_without_nonessential_data) {
    test::SkelFixture f;
    f.nonessential = false;
    Result<SkeletonData> r = load(f.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    expect_consistent(*r);
    EXPECT_EQ(r->fps, 30);
    EXPECT_TRUE(r->images_path.empty());
    EXPECT_TRUE(r->bones[1].icon.empty());
    EXPECT_EQ(r->bones[1].color, BoneData{}.color);
    const AttachmentData& mesh = r->attachments[static_cast<std::size_t>(attachment(*r, "default", "s0", "mesh"))];
    EXPECT_EQ(mesh.edges.count, 0u);
    EXPECT_EQ(mesh.mesh_width, 0);
    const AttachmentData& point = r->attachments[static_cast<std::size_t>(attachment(*r, "default", "s1", "point"))];
    EXPECT_EQ(point.color, (Color{0.38f, 0.94f, 0, 1}));
}

TEST(BinaryLoader, refuses_a_scale_that_is_not_finite) {
    test::SkelFixture f;
    for (const float scale : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
        Result<SkeletonData> data = load(f.build(), scale);
        ASSERT_FALSE(data.ok());
        EXPECT_EQ(data.error().message(), "test.skel: the load options: scale must be finite");
    }
}

TEST(BinaryLoader, binary_loader_applies_scale) {
    test::SkelFixture f;
    Result<SkeletonData> one = load(f.build());
    Result<SkeletonData> two = load(f.build(), 2);
    ASSERT_TRUE(one.ok() && two.ok());
    EXPECT_EQ(two->bones[1].x, 2 * one->bones[1].x);
    EXPECT_EQ(two->bones[1].length, 2 * one->bones[1].length);
    EXPECT_EQ(two->bones[1].rotation, one->bones[1].rotation);
    EXPECT_EQ(two->reference_scale, 200);
    EXPECT_EQ(two->ik_constraints[0].softness, 6);
    EXPECT_EQ(two->path_constraints[0].position, 20);    // fixed position mode: scaled
    EXPECT_EQ(two->path_constraints[0].spacing, 0.5f);   // percent spacing: not scaled
    EXPECT_EQ(two->floats[2], 2 * one->floats[2]);  // mesh vertex x
    auto x_of = [](const SkeletonData& d) {
        return frames_of(d, find_timeline(d, 0, TimelineType::translate_x, 1))[1];
    };
    EXPECT_EQ(x_of(*two), 2 * x_of(*one));
}

TEST(BinaryLoader, binary_loader_assigns_unique_ids_from_zero) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for (const char* file : {"goblins-pro.skel", "goblins-pro.skel"}) {  // twice: ids restart per load
        Result<SkeletonData> r = load(example("goblins", file));
        ASSERT_TRUE(r.ok());
        std::set<std::int32_t> ids;
        for (const AttachmentData& a : r->attachments)
            if (a.type != AttachmentType::region) {
                EXPECT_TRUE(ids.insert(a.vertex_id).second);
            }
        ASSERT_FALSE(ids.empty());
        EXPECT_EQ(*ids.begin(), 0);
        EXPECT_EQ(*ids.rbegin(), static_cast<std::int32_t>(ids.size()) - 1);
    }
    Result<SkeletonData> dragon = load(example("dragon", "dragon-ess.skel"));
    ASSERT_TRUE(dragon.ok());
    for (std::size_t i = 0; i < dragon->sequences.size(); ++i) EXPECT_EQ(dragon->sequences[i].id, static_cast<int>(i));
}

// ---------------------------------------------------------------------------------------------------------------
// Untrusted input

// Every prefix of a valid file is an error that names a byte inside the prefix.
void expect_every_prefix_fails(const std::vector<std::uint8_t>& bytes, std::size_t stride) {
    for (std::size_t n = 0; n < bytes.size(); n += stride) {
        std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        Result<SkeletonData> r = load(prefix);
        ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes loaded";
        long at = error_byte(r.error());
        ASSERT_GE(at, 0) << r.error().message();
        ASSERT_LE(static_cast<std::size_t>(at), n) << r.error().message();
        ASSERT_FALSE(r.error().what.empty());
    }
}

TEST(BinaryLoader, binary_loader_rejects_truncated_file) {
    test::SkelFixture f;
    expect_every_prefix_fails(f.build(), 1);
    SPINEGPU_REQUIRE_EXAMPLES();
    std::vector<std::uint8_t> powerup = example("powerup", "powerup-ess.skel");
    ASSERT_EQ(powerup.size(), 4381u);
    expect_every_prefix_fails(powerup, 1);
    Result<SkeletonData> r = load(std::vector<std::uint8_t>(powerup.begin(), powerup.end() - 1));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().what.find("unexpected end of file while reading"), std::string::npos) << r.error().message();
    expect_every_prefix_fails(example("spineboy", "spineboy-pro.skel"), 7);
}

TEST(BinaryLoader, binary_loader_survives_corrupted_bytes) {
    test::SkelFixture f;
    std::vector<std::vector<std::uint8_t>> files{f.build()};
    if (test::examples_available()) files.push_back(example("powerup", "powerup-ess.skel"));
    for (const std::vector<std::uint8_t>& original : files) {
        for (std::size_t i = 0; i < original.size(); ++i) {
            for (std::uint8_t value : {std::uint8_t{0xff}, static_cast<std::uint8_t>(original[i] ^ 0x55),
                                       std::uint8_t{0x00}}) {
                std::vector<std::uint8_t> bytes = original;
                bytes[i] = value;
                Result<SkeletonData> r = load(bytes);
                if (r.ok()) expect_consistent(*r);
                else ASSERT_GE(error_byte(r.error()), 0) << r.error().message();
            }
        }
    }
}

TEST(BinaryLoader, binary_loader_rejects_wrong_version) {
    for (const char* version : {"3.8.99", "4.1.20", "4.3.01", "4.20"}) {
        test::SkelFixture f;
        f.version = version;
        expect_fixture_error(f, "version", std::string("\"") + version + "\"");
    }
    // A 3.8 file starts with a hash string, so the version lands on garbage: still a clean error.
    std::vector<std::uint8_t> old{0x0d, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 0x07,
                                  '3',  '.', '8', '.', '9', '9'};
    EXPECT_FALSE(load(old).ok());
}

TEST(BinaryLoader, binary_loader_rejects_infinite_and_nan_floats) {
    // The header's x, the first float after the version string ("4.2.xx": a length byte and the characters).
    for (const std::uint32_t bits : {0x7f800000u, 0xff800000u, 0x7fc00000u}) {
        test::SkelFixture f;
        std::vector<std::uint8_t> bytes = f.build();
        const std::size_t x = f.w.marks.at("version") + 1 + f.version.size();
        for (std::size_t k = 0; k < 4; ++k) bytes[x + k] = static_cast<std::uint8_t>(bits >> (24 - 8 * k));
        expect_error(load(bytes), x, "not a finite number");
    }
}

TEST(BinaryLoader, binary_loader_calls_a_file_without_a_version_not_a_skeleton) {
    // Text that is not JSON lands in the binary loader, whose version string is then made of that text's bytes.
    const std::string atlas = "page.png\n\tsize: 64, 64\n\tfilter: Linear, Linear\nregion\n\tbounds: 0, 0, 8, 8\n";
    const Result<SkeletonData> r = load(std::vector<std::uint8_t>(atlas.begin(), atlas.end()));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "byte 0");
    EXPECT_NE(r.error().what.find("not a Spine skeleton"), std::string::npos) << r.error().message();
}

TEST(BinaryLoader, binary_loader_rejects_huge_counts_without_allocating) {
    test::SkelFixture f;
    f.bone_count = 0x0fffffff;
    expect_fixture_error(f, "bone count", "bone count 268435455 is larger than");

    f = test::SkelFixture{};
    std::vector<std::uint8_t> bytes = f.build();
    std::size_t at = f.w.marks["string count"];
    bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at));  // the count was one byte: 9
    bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), {0xff, 0xff, 0xff, 0xff, 0x07});
    expect_error(load(bytes), at, "string count 2147483647");
}

TEST(BinaryLoader, binary_loader_rejects_deform_keys_beyond_the_pool_limit) {
    // 10,000 vertices x 3,400 keys of 6 bytes each: a small file asking for 68 million floats.
    test::SkelFixture f;
    f.mesh_vertices = 10000;
    f.deform_frames = 3400;
    Result<SkeletonData> r = load(f.build());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().what.find("deform keys too large"), std::string::npos) << r.error().message();
}

TEST(BinaryLoader, binary_loader_keeps_no_curve_room_a_timeline_cannot_use) {
    // The rotate timeline has 2 keys, so at most 1 bezier, but declares 20: the table must hold only what was read.
    test::SkelFixture declared;
    declared.rotate_beziers = 20;
    Result<SkeletonData> r = load(declared.build());
    ASSERT_TRUE(r.ok()) << r.error().message();
    test::SkelFixture exact;
    Result<SkeletonData> e = load(exact.build());
    ASSERT_TRUE(e.ok()) << e.error().message();
    const TimelineData& rotate = find_timeline(*r, 0, TimelineType::rotate, 1);
    EXPECT_EQ(rotate.curves.count, 2u + k_bezier_size);
    EXPECT_EQ(curves_of(*r, rotate), curves_of(*e, find_timeline(*e, 0, TimelineType::rotate, 1)));
    EXPECT_EQ(r->curves.size(), e->curves.size());
}

TEST(BinaryLoader, binary_loader_rejects_sequences_without_frames_and_unstorable_frame_indices) {
    test::SkelFixture f;
    f.sequence_count = 0;
    expect_fixture_error(f, "sequence", "sequence of 0 frames (expected 1 to 100000)");
    f = test::SkelFixture{};
    f.sequence_count = 100001;
    expect_fixture_error(f, "sequence", "sequence of 100001 frames");
    f = test::SkelFixture{};
    f.sequence_key = (1u << 24) | 2;  // frame index 2^20: index << 4 would no longer be exact in the key's float
    expect_fixture_error(f, "sequence key", "sequence frame index 1048576 is not 0..1048575");
    f = test::SkelFixture{};
    f.sequence_key = 0x80000002u;  // a negative frame index
    expect_fixture_error(f, "sequence key", "sequence frame index -134217728");
}

TEST(BinaryLoader, binary_loader_rejects_out_of_range_indices) {
    struct Case {
        const char* mark;
        void (*corrupt)(test::SkelFixture&);
        const char* text;
    };
    const Case cases[] = {
        {"bone2 parent", [](test::SkelFixture& f) { f.bone2_parent = 9; },
         "bone 2: parent index 9 out of range (2 bones so far)"},
        {"slot0 bone", [](test::SkelFixture& f) { f.slot0_bone = 3; }, "slot 0: bone index 3 out of range (3 bones)"},
        {"slot0 attachment", [](test::SkelFixture& f) { f.slot0_attachment = 77; },
         "string reference 77 out of range (9 strings)"},
        {"clip end slot", [](test::SkelFixture& f) { f.clip_end_slot = 3; }, "clipping end slot index 3 out of range"},
        {"last triangle", [](test::SkelFixture& f) { f.last_triangle = 4; },
         "triangle vertex index 4 out of range (4 vertices)"},
        {"linked skin", [](test::SkelFixture& f) { f.linked_skin = 2; }, "skin index 2 out of range (2 skins)"},
        {"linked skin", [](test::SkelFixture& f) { f.linked_parent = test::s_box; }, "parent mesh \"box\" not found"},
        {"event key event", [](test::SkelFixture& f) { f.event_key_event = 2; },
         "event index 2 out of range (2 events)"},
        {"draw order slot", [](test::SkelFixture& f) { f.draw_order_slot = 3; },
         "draw order slot 3 out of order or range"},
        {"draw order slot", [](test::SkelFixture& f) { f.draw_order_shift = 1; }, "out of range or taken"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        test::SkelFixture f;
        c.corrupt(f);
        expect_fixture_error(f, c.mark, c.text);
    }
    test::SkelFixture f;
    f.mesh_weighted = true;
    f.weighted_bone = 3;
    expect_fixture_error(f, "weighted bone", "vertex 3 bone index 3 out of range (3 bones)");
    f = test::SkelFixture{};
    f.deform_attachment = test::s_box;  // "box" is in slot s1, not s0
    expect_fixture_error(f, "deform attachment", "attachment \"box\": no such attachment");
    EXPECT_NE(load(f.build()).error().what.find("animation \"all\""), std::string::npos);
}

TEST(BinaryLoader, binary_loader_rejects_invalid_enums_and_counts) {
    test::SkelFixture f;
    f.bone2_inherit = 5;
    expect_fixture_error(f, "bone2 inherit", "inherit mode 5");
    f = test::SkelFixture{};
    f.slot1_blend = 4;
    expect_fixture_error(f, "slot1 blend", "blend mode 4");
    f = test::SkelFixture{};
    f.mesh_type = 7;
    expect_fixture_error(f, "mesh flags", "attachment type 7");
    f = test::SkelFixture{};
    f.rotate_curve = 3;
    expect_fixture_error(f, "rotate curve", "curve type 3");
    f = test::SkelFixture{};
    f.rotate_beziers = 0;
    expect_fixture_error(f, "rotate curve", "more bezier curves than the 0 declared", 1);
    f = test::SkelFixture{};
    f.physics_fps = 0;
    expect_fixture_error(f, "physics fps", "physics step rate 0");
    f = test::SkelFixture{};
    f.deform_frames = 0;
    expect_fixture_error(f, "deform frames", "timeline has no frames");
}

TEST(BinaryLoader, binary_loader_rejects_malformed_varint_and_duplicate_names) {
    test::SkelFixture f;
    std::vector<std::uint8_t> bytes = f.build();
    std::size_t at = f.w.marks["bone count"];
    bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at));
    bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), {0x83, 0x80, 0x80, 0x80, 0x10});
    expect_error(load(bytes), at, "malformed varint");

    bytes = f.build();
    std::vector<std::uint8_t> b2{3, 'b', '2'};
    auto it = std::search(bytes.begin(), bytes.end(), b2.begin(), b2.end());
    ASSERT_NE(it, bytes.end());
    it[2] = '1';
    expect_error(load(bytes), static_cast<std::size_t>(it - bytes.begin()), "bone \"b1\" is defined twice");
}

}  // namespace
}  // namespace spinegpu
