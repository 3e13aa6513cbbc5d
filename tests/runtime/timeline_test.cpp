// Timelines applied to a pose, checked against the official runtime: timeline_rig.json keys every 4.2 timeline
// type (bezier, stepped and linear keys, overshooting colour curves, weighted and unweighted deforms, a linked mesh,
// sequences, draw order, events, constraint and physics timelines, a skin-required bone), and
// timeline_expected.mjs printed what @esotericsoftware/spine-core 4.2.119 does with it for every blend, both mix
// directions and several times into timeline_expected.inc. The named tests below restate single behaviours from
// first principles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {
namespace {

struct RigCase {
    const char* label;
    float last_time, time, alpha;
    MixBlend blend;
    MixDirection direction;
    bool loop;
    bool with_base;                           // `base` applied before (else the deforms start empty)
    std::vector<double> values;               // in dump() order
    std::vector<std::vector<double>> deforms;  // per slot
    std::vector<double> draw_order;
    std::vector<double> events;               // time, event, int, float per fired event
};

struct PropertyIdsCase {
    const char* animation;
    const char* type;
    std::vector<std::string> ids;
};

#include "runtime/timeline_expected.inc"

// The attachment names the dump reports by position (timeline_expected.mjs's attachmentNames).
const std::vector<std::string> k_attachment_names = {"mesh", "lmesh", "wmesh", "seq", "r1", "r2", "path"};

const SkeletonData& rig() {
    static const SkeletonData data = [] {
        Result<SkeletonData> loaded =
            load_skeleton_file(std::string(SPINEGPU_SOURCE_DIR) + "/tests/runtime/timeline_rig.json");
        EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message());
        return loaded.ok() ? std::move(loaded).value() : SkeletonData{};
    }();
    return data;
}

Index animation(const char* name) { return rig().animation_names.find(name); }
Index bone(const char* name) { return rig().bone_names.find(name); }
Index slot(const char* name) { return rig().slot_names.find(name); }

// The state every expected case starts from (timeline_expected.mjs's prepare()): setup pose, skeleton time 0.75,
// simulations moving, then (`with_base`) `base` applied so that the current pose differs from the setup pose.
SkeletonPose prepare(bool with_base = true) {
    const SkeletonData& data = rig();
    SkeletonPose pose = create_pose(data);
    set_to_setup_pose(pose);
    update_time(pose, 0.75f);
    for (PhysicsPose& p : pose.physics) {
        p.x_velocity = 3;
        p.remaining = 0.5f;
        p.reset = false;
    }
    if (with_base)
        apply_animation(data, animation("base"), pose, 0, 0, false, nullptr, 1, MixBlend::setup, MixDirection::in);
    return pose;
}

struct Dump {
    std::vector<double> values;
    std::vector<std::string> names;  // what each value is, for failure messages
    std::vector<std::vector<double>> deforms;
    std::vector<double> draw_order, events;

    void add(const std::string& name, double value) {
        names.push_back(name);
        values.push_back(value);
    }
};

// The pose in timeline_expected.mjs's dump() order.
Dump dump(const SkeletonPose& pose, const std::vector<Index>& events) {
    const SkeletonData& data = rig();
    Dump d;
    for (std::size_t b = 0; b < data.bones.size(); ++b) {
        const BoneTransform& l = pose.local[b];
        const std::string n = "bone " + data.bone_names[static_cast<Index>(b)] + " ";
        d.add(n + "x", l.x);
        d.add(n + "y", l.y);
        d.add(n + "rotation", l.rotation);
        d.add(n + "scale_x", l.scale_x);
        d.add(n + "scale_y", l.scale_y);
        d.add(n + "shear_x", l.shear_x);
        d.add(n + "shear_y", l.shear_y);
        d.add(n + "inherit", static_cast<int>(pose.inherit[b]));
    }
    for (std::size_t s = 0; s < data.slots.size(); ++s) {
        const SlotPose& p = pose.slots[s];
        const bool dark = data.slots[s].has_dark;
        const std::string n = "slot " + data.slot_names[static_cast<Index>(s)] + " ";
        d.add(n + "r", p.color.r);
        d.add(n + "g", p.color.g);
        d.add(n + "b", p.color.b);
        d.add(n + "a", p.color.a);
        d.add(n + "dark r", dark ? p.dark.r : 0);
        d.add(n + "dark g", dark ? p.dark.g : 0);
        d.add(n + "dark b", dark ? p.dark.b : 0);
        double attachment = -1;
        if (p.attachment != k_none) {
            const AttachmentData& shown = data.attachments[static_cast<std::size_t>(p.attachment)];
            const std::string& name = data.attachment_names[shown.name];
            attachment = static_cast<double>(
                std::find(k_attachment_names.begin(), k_attachment_names.end(), name) - k_attachment_names.begin());
        }
        d.add(n + "attachment", attachment);
        d.add(n + "sequence index", p.sequence_index);
        d.deforms.emplace_back(pose.deform.begin() + p.deform_offset,
                               pose.deform.begin() + p.deform_offset + p.deform_count);
    }
    for (std::size_t c = 0; c < pose.ik.size(); ++c) {
        const IkPose& p = pose.ik[c];
        const std::string n = "ik " + data.ik_names[static_cast<Index>(c)] + " ";
        d.add(n + "mix", p.mix);
        d.add(n + "softness", p.softness);
        d.add(n + "bend direction", p.bend_direction);
        d.add(n + "compress", p.compress);
        d.add(n + "stretch", p.stretch);
    }
    for (const TransformPose& p : pose.transform) {
        d.add("transform mix rotate", p.mix_rotate);
        d.add("transform mix x", p.mix_x);
        d.add("transform mix y", p.mix_y);
        d.add("transform mix scale x", p.mix_scale_x);
        d.add("transform mix scale y", p.mix_scale_y);
        d.add("transform mix shear y", p.mix_shear_y);
    }
    for (const PathPose& p : pose.path) {
        d.add("path position", p.position);
        d.add("path spacing", p.spacing);
        d.add("path mix rotate", p.mix_rotate);
        d.add("path mix x", p.mix_x);
        d.add("path mix y", p.mix_y);
    }
    for (std::size_t c = 0; c < pose.physics.size(); ++c) {
        const PhysicsPose& p = pose.physics[c];
        const std::string n = "physics " + data.physics_names[static_cast<Index>(c)] + " ";
        d.add(n + "inertia", p.inertia);
        d.add(n + "strength", p.strength);
        d.add(n + "damping", p.damping);
        d.add(n + "mass inverse", p.mass_inverse);
        d.add(n + "wind", p.wind);
        d.add(n + "gravity", p.gravity);
        d.add(n + "mix", p.mix);
        d.add(n + "reset", p.reset);
        d.add(n + "remaining", p.remaining);
        d.add(n + "last time", p.last_time);
        d.add(n + "x velocity", p.x_velocity);
    }
    d.draw_order.assign(pose.draw_order.begin(), pose.draw_order.end());
    for (Index e : events) {
        const EventKey& k = data.event_keys[static_cast<std::size_t>(e)];
        d.events.insert(d.events.end(), {k.time, static_cast<double>(k.event), static_cast<double>(k.int_value),
                                         k.float_value});
    }
    return d;
}

// We store floats where the official runtime stores doubles: allow float rounding of the stored values.
double tolerance(double expected) { return 2e-6 * std::max(1.0, std::abs(expected)); }

void expect_values(const std::vector<double>& actual, const std::vector<double>& expected, const std::string& what) {
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_NEAR(actual[i], expected[i], tolerance(expected[i])) << what << " [" << i << "]";
}

TEST(TimelineTest, every_timeline_type_matches_official_runtime_for_each_blend_direction_and_time) {
    const SkeletonData& data = rig();
    ASSERT_FALSE(k_rig_cases.empty());
    for (const RigCase& c : k_rig_cases) {
        SCOPED_TRACE(c.label);
        SkeletonPose pose = prepare(c.with_base);
        std::vector<Index> events;
        apply_animation(data, animation("all"), pose, c.last_time, c.time, c.loop, &events, c.alpha, c.blend,
                        c.direction);
        Dump d = dump(pose, events);
        ASSERT_EQ(d.values.size(), c.values.size());
        for (std::size_t i = 0; i < c.values.size(); ++i)
            EXPECT_NEAR(d.values[i], c.values[i], tolerance(c.values[i])) << d.names[i];
        ASSERT_EQ(d.deforms.size(), c.deforms.size());
        for (std::size_t s = 0; s < c.deforms.size(); ++s)
            expect_values(d.deforms[s], c.deforms[s], "deform of slot " + data.slot_names[static_cast<Index>(s)]);
        EXPECT_EQ(d.draw_order, c.draw_order);
        expect_values(d.events, c.events, "fired events");
    }
}

TEST(TimelineTest, sequence_modes_match_official_frame_indices) {
    const SkeletonData& data = rig();
    ASSERT_EQ(k_sequence_mode_indices.size(), 161u);
    for (std::size_t i = 0; i < k_sequence_mode_indices.size(); ++i) {
        SkeletonPose pose = prepare();
        float time = static_cast<float>(static_cast<double>(i) * 0.05);
        apply_animation(data, animation("sequence-modes"), pose, time, time, false, nullptr, 1, MixBlend::setup,
                        MixDirection::in);
        EXPECT_EQ(pose.slots[static_cast<std::size_t>(slot("s-seq"))].sequence_index, k_sequence_mode_indices[i])
            << "time " << time;
    }
}

TEST(TimelineTest, property_ids_are_equal_exactly_when_official_ids_are) {
    const SkeletonData& data = rig();
    struct Entry {
        std::string official;
        std::uint64_t ours;
        std::string where;
    };
    std::vector<Entry> entries;
    std::size_t next = 0;
    for (std::size_t a = 0; a < data.animations.size(); ++a) {
        Range r = data.animations[a].timelines;
        for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i, ++next) {
            const TimelineData& t = data.timelines[i];
            ASSERT_LT(next, k_property_ids.size());
            const PropertyIdsCase& expected = k_property_ids[next];
            std::string where = std::string(expected.animation) + " timeline " + std::to_string(i - r.offset);
            ASSERT_EQ(data.animation_names[static_cast<Index>(a)], expected.animation) << where;
            ASSERT_STREQ(timeline_type_name(t.type), expected.type) << where;
            std::uint64_t ids[3];
            int count = timeline_property_ids(data, t, ids);
            ASSERT_EQ(static_cast<std::size_t>(count), expected.ids.size()) << where;
            for (int k = 0; k < count; ++k)
                entries.push_back({expected.ids[static_cast<std::size_t>(k)], ids[k], where});
        }
    }
    EXPECT_EQ(next, k_property_ids.size());
    for (const Entry& x : entries)
        for (const Entry& y : entries)
            EXPECT_EQ(x.official == y.official, x.ours == y.ours)
                << x.where << " (" << x.official << ") vs " << y.where << " (" << y.official << ")";
}

// ---------------------------------------------------------------------------------------------------------------
// Single behaviours, from first principles.

TEST(TimelineTest, light_colour_of_rgba_keys_is_clamped_but_rgb_keys_are_not) {
    // Both red curves overshoot 1 at 0.35 (handles at 1.6 and 1.4 of a 0..1 range; unclamped, the official curves
    // give 1.030 and 1.086 there).
    SkeletonPose pose = prepare();
    apply_animation(rig(), animation("all"), pose, 0.35f, 0.35f, false, nullptr, 1, MixBlend::setup,
                    MixDirection::in);
    EXPECT_EQ(pose.slots[static_cast<std::size_t>(slot("s-weighted"))].color.r, 1.0f);  // rgba: Color.set clamps
    EXPECT_GT(pose.slots[static_cast<std::size_t>(slot("s-swap"))].color.r, 1.0f);      // rgb: stored as is
}

std::vector<float> fired_times(const std::vector<Index>& events) {
    std::vector<float> times;
    for (Index e : events) times.push_back(rig().event_keys[static_cast<std::size_t>(e)].time);
    return times;
}

TEST(TimelineTest, event_timeline_fires_keys_in_last_time_exclusive_to_time_inclusive) {
    // Keys: e1 at 0.1, e2 and e1 at 0.5, e2 at 1.
    SkeletonPose pose = prepare();
    std::vector<Index> events;
    apply_animation(rig(), animation("all"), pose, 0.1f, 0.5f, false, &events, 1, MixBlend::replace,
                    MixDirection::in);
    EXPECT_EQ(fired_times(events), (std::vector<float>{0.5f, 0.5f}));  // not 0.1: last_time is exclusive
    const EventKey& first = rig().event_keys[static_cast<std::size_t>(events[0])];
    EXPECT_EQ(rig().event_names[first.event], "e2");  // keys at one time fire in key order
    EXPECT_EQ(first.int_value, 3);
}

TEST(TimelineTest, looping_event_timeline_fires_the_end_then_the_start_across_the_wrap) {
    SkeletonPose pose = prepare();
    std::vector<Index> events;
    // 1.9 -> 2.3 wraps to 0.9 -> 0.3: the key at 1 (after 0.9), then the key at 0.1.
    apply_animation(rig(), animation("all"), pose, 1.9f, 2.3f, true, &events, 1, MixBlend::replace,
                    MixDirection::in);
    EXPECT_EQ(fired_times(events), (std::vector<float>{1.0f, 0.1f}));
}

TEST(TimelineTest, event_timeline_without_a_list_fires_nothing_and_changes_nothing) {
    SkeletonPose pose = prepare();
    std::vector<Index> events;
    apply_animation(rig(), animation("all"), pose, 0.9f, 0.9f, false, &events, 1, MixBlend::replace,
                    MixDirection::in);
    EXPECT_TRUE(events.empty());  // last_time == time: nothing lies in (0.9, 0.9]
}

TEST(TimelineTest, draw_order_timeline_applies_key_order_and_restores_setup_order) {
    const SkeletonData& data = rig();
    // Key at 0.4: s-mesh (slot 0) moves 3 later, s-path (slot 4) 3 earlier; the others keep their relative order.
    SkeletonPose pose = prepare();
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(pose.draw_order, (std::vector<Index>{1, 4, 2, 0, 3, 5}));
    // Mixing out keeps the order under replace and resets it under setup.
    apply_animation(data, animation("all"), pose, 0, 0.95f, false, nullptr, 0.5f, MixBlend::replace,
                    MixDirection::out);
    EXPECT_EQ(pose.draw_order, (std::vector<Index>{1, 4, 2, 0, 3, 5}));
    apply_animation(data, animation("all"), pose, 0, 0.95f, false, nullptr, 0.5f, MixBlend::setup,
                    MixDirection::out);
    EXPECT_EQ(pose.draw_order, (std::vector<Index>{0, 1, 2, 3, 4, 5}));
    // The key at 0.9 has no offsets: the setup order.
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    apply_animation(data, animation("all"), pose, 0, 0.95f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(pose.draw_order, (std::vector<Index>{0, 1, 2, 3, 4, 5}));
}

Index shown_name(const SkeletonPose& pose, Index s) {
    Index a = pose.slots[static_cast<std::size_t>(s)].attachment;
    return a == k_none ? k_none : rig().attachments[static_cast<std::size_t>(a)].name;
}

TEST(TimelineTest, attachment_timeline_sets_keys_and_mixing_out_restores_setup_only_under_setup_blend) {
    const SkeletonData& data = rig();
    const Index swap = slot("s-swap");
    const Index r1 = data.attachment_names.find("r1"), r2 = data.attachment_names.find("r2");
    SkeletonPose pose = prepare();
    apply_animation(data, animation("all"), pose, 0, 0.5f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(shown_name(pose, swap), r2);
    apply_animation(data, animation("all"), pose, 0, 0.8f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(shown_name(pose, swap), k_none);  // a null key clears the slot
    apply_animation(data, animation("all"), pose, 0, 0.8f, false, nullptr, 0.3f, MixBlend::first, MixDirection::out);
    EXPECT_EQ(shown_name(pose, swap), k_none);
    apply_animation(data, animation("all"), pose, 0, 0.8f, false, nullptr, 0.3f, MixBlend::setup, MixDirection::out);
    EXPECT_EQ(shown_name(pose, swap), r1);
    // Before the first key: setup and first restore the setup attachment, replace keeps the current one.
    set_attachment_by_name(pose, swap, r2);
    apply_animation(data, animation("all"), pose, 0, 0.1f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(shown_name(pose, swap), r2);
    apply_animation(data, animation("all"), pose, 0, 0.1f, false, nullptr, 1, MixBlend::first, MixDirection::in);
    EXPECT_EQ(shown_name(pose, swap), r1);
}

TEST(TimelineTest, deform_timeline_applies_to_linked_mesh_and_skips_other_attachments) {
    const SkeletonData& data = rig();
    const auto mesh_slot = static_cast<std::size_t>(slot("s-mesh"));
    SkeletonPose pose = prepare();
    // At 0.45 the attachment key has switched s-mesh to lmesh, a linked mesh that inherits mesh's deform keys.
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::setup, MixDirection::in);
    EXPECT_EQ(shown_name(pose, static_cast<Index>(mesh_slot)), data.attachment_names.find("lmesh"));
    EXPECT_EQ(pose.slots[mesh_slot].deform_count, 8u);
    // A slot showing nothing is left alone.
    set_slot_attachment(pose, static_cast<Index>(mesh_slot), k_none);
    const Index deform_timeline = [&] {
        Range r = data.animations[static_cast<std::size_t>(animation("all"))].timelines;
        for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i)
            if (data.timelines[i].type == TimelineType::deform &&
                data.timelines[i].target == static_cast<Index>(mesh_slot))
                return static_cast<Index>(i);
        return k_none;
    }();
    ASSERT_NE(deform_timeline, k_none);
    apply_timeline(data, data.timelines[static_cast<std::size_t>(deform_timeline)], pose, 0, 0.45f, nullptr, 1,
                   MixBlend::setup, MixDirection::in);
    EXPECT_EQ(pose.slots[mesh_slot].deform_count, 0u);
}

TEST(TimelineTest, a_deform_added_or_mixed_past_alpha_one_is_marked_as_beyond_its_keys) {
    const SkeletonData& data = rig();
    const Index all = animation("all");
    // Replaced and mixed within 0..1: the keys bound the deform.
    SkeletonPose pose = prepare();
    apply_animation(data, all, pose, 0, 0.45f, false, nullptr, 1, MixBlend::setup, MixDirection::in);
    apply_animation(data, all, pose, 0, 0.45f, false, nullptr, 0.5f, MixBlend::replace, MixDirection::in);
    EXPECT_FALSE(pose.deform_beyond_keys);
    // Added, or mixed past 1 or below 0: it may lie anywhere, and stays marked.
    for (const auto& [alpha, blend] : {std::pair{1.0f, MixBlend::add}, std::pair{1.5f, MixBlend::replace},
                                       std::pair{-0.5f, MixBlend::first}}) {
        pose = prepare();
        apply_animation(data, all, pose, 0, 0.45f, false, nullptr, 1, MixBlend::setup, MixDirection::in);
        apply_animation(data, all, pose, 0, 0.45f, false, nullptr, alpha, blend, MixDirection::in);
        EXPECT_TRUE(pose.deform_beyond_keys) << "alpha " << alpha;
        apply_animation(data, all, pose, 0, 0.45f, false, nullptr, 1, MixBlend::setup, MixDirection::in);
        EXPECT_TRUE(pose.deform_beyond_keys) << "alpha " << alpha << ", then replaced";
    }
}

TEST(TimelineTest, sequence_timeline_skips_slot_not_showing_its_attachment) {
    const SkeletonData& data = rig();
    const auto seq_slot = static_cast<std::size_t>(slot("s-seq"));
    SkeletonPose pose = prepare();
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(pose.slots[seq_slot].sequence_index, 3);  // loop from index 1, 0.25 s at 0.1 s per frame
    set_slot_attachment(pose, static_cast<Index>(seq_slot), k_none);
    EXPECT_EQ(pose.slots[seq_slot].sequence_index, -1);
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_EQ(pose.slots[seq_slot].sequence_index, -1);
}

TEST(TimelineTest, timelines_of_inactive_bones_and_constraints_are_skipped) {
    // `req` and `ik-req` are skin-required and no skin is set: their keys must not apply.
    const SkeletonData& data = rig();
    SkeletonPose pose = prepare();
    apply_animation(data, animation("all"), pose, 0, 0.45f, false, nullptr, 1, MixBlend::setup, MixDirection::in);
    EXPECT_EQ(pose.local[static_cast<std::size_t>(bone("req"))].rotation, 12.0f);
    const auto req_slot = static_cast<std::size_t>(slot("s-req"));
    EXPECT_EQ(pose.slots[req_slot].color.g, data.slots[req_slot].color.g);
    EXPECT_FLOAT_EQ(pose.ik[static_cast<std::size_t>(data.ik_names.find("ik-req"))].mix, 0.4f);
}

TEST(TimelineTest, physics_reset_key_resets_the_simulation_at_skeleton_time) {
    const SkeletonData& data = rig();
    const auto ph1 = static_cast<std::size_t>(data.physics_names.find("ph1"));
    const auto ph2 = static_cast<std::size_t>(data.physics_names.find("ph2"));
    SkeletonPose pose = prepare();
    // ph2's reset keys are at 0.4 and 0.9; (0.3, 0.45] crosses the first.
    apply_animation(data, animation("all"), pose, 0.3f, 0.45f, false, nullptr, 1, MixBlend::replace,
                    MixDirection::in);
    EXPECT_TRUE(pose.physics[ph2].reset);
    EXPECT_EQ(pose.physics[ph2].x_velocity, 0.0f);
    EXPECT_EQ(pose.physics[ph2].remaining, 0.0f);
    EXPECT_EQ(pose.physics[ph2].last_time, 0.75f);  // the skeleton's time
    EXPECT_EQ(pose.physics[ph1].x_velocity, 3.0f);  // only the keyed constraint
    // (0.45, 0.85] crosses no key.
    pose.physics[ph2].x_velocity = 2;
    apply_animation(data, animation("all"), pose, 0.45f, 0.85f, false, nullptr, 1, MixBlend::replace,
                    MixDirection::in);
    EXPECT_EQ(pose.physics[ph2].x_velocity, 2.0f);
}

TEST(TimelineTest, physics_timeline_for_every_constraint_changes_only_global_parameters) {
    const SkeletonData& data = rig();
    const auto ph1 = static_cast<std::size_t>(data.physics_names.find("ph1"));
    const auto ph2 = static_cast<std::size_t>(data.physics_names.find("ph2"));
    SkeletonPose pose = prepare();
    // After the last key (0.8) of the all-constraints timelines: strength 120 (global on ph2 only), wind -1 (ph1
    // only), mass 4 (both, stored inverted).
    apply_animation(data, animation("all"), pose, 0, 1.0f, false, nullptr, 1, MixBlend::replace, MixDirection::in);
    EXPECT_FLOAT_EQ(pose.physics[ph2].strength, 120.0f);
    EXPECT_FLOAT_EQ(pose.physics[ph1].strength, 80.0f);  // setup, untouched
    EXPECT_FLOAT_EQ(pose.physics[ph1].wind, -1.0f);
    EXPECT_FLOAT_EQ(pose.physics[ph2].wind, 2.0f);       // setup, untouched
    EXPECT_FLOAT_EQ(pose.physics[ph1].mass_inverse, 0.25f);
    EXPECT_FLOAT_EQ(pose.physics[ph2].mass_inverse, 0.25f);
}

TEST(TimelineTest, scale_mixing_takes_sign_from_the_side_mixed_from) {
    // b2 scale_x: setup -1.2, `base` keys 0.7 (current -0.84); after the last key the timeline gives -0.4 x setup
    // = 0.48. Mixing in with first blend: sign of the key (+), magnitude mixed from |current|.
    const SkeletonData& data = rig();
    const auto b2 = static_cast<std::size_t>(bone("b2"));
    SkeletonPose pose = prepare();
    ASSERT_FLOAT_EQ(pose.local[b2].scale_x, -0.84f);
    apply_animation(data, animation("all"), pose, 0, 1.0f, false, nullptr, 0.25f, MixBlend::first, MixDirection::in);
    EXPECT_FLOAT_EQ(pose.local[b2].scale_x, 0.84f + (0.48f - 0.84f) * 0.25f);
    // Mixing out with first blend: sign of the current pose (+ now), magnitude mixed toward |key|.
    pose = prepare();
    apply_animation(data, animation("all"), pose, 0, 1.0f, false, nullptr, 0.25f, MixBlend::first, MixDirection::out);
    EXPECT_FLOAT_EQ(pose.local[b2].scale_x, -0.84f + (-0.48f + 0.84f) * 0.25f);
}

}  // namespace
}  // namespace spinegpu
