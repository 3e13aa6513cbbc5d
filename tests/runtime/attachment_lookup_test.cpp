// Attachment lookups by name with the default skin resolved at load (SlotData::default_attachment, and the
// attachments after an attachment timeline's key names): every path that sets an attachment by name must show what
// Spine's Skeleton.getAttachment search shows, the current skin first, then the default skin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../../src/runtime/attachment_lookup.hpp"
#include "pose_test_support.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/animation_state.hpp"

namespace spinegpu {
namespace {

// Slot a: its setup attachment "shared" is in the default skin and overridden by "outfit"; "plain" is in the default
// skin only. Slot b: its setup attachment "skin-only" is in "outfit" only. The keys also name an attachment no skin
// has for the slot ("unknown", "shared" on b, "skin-only" on a) and none at all (null).
constexpr const char* k_rig_json = R"({
"skeleton": { "hash": "attachment-lookup", "spine": "4.2.40" },
"bones": [ { "name": "root" } ],
"slots": [
  { "name": "a", "bone": "root", "attachment": "shared" },
  { "name": "b", "bone": "root", "attachment": "skin-only" }
],
"skins": [
  { "name": "DEFAULT", "attachments": {
    "a": { "shared": { "width": 1, "height": 1 }, "plain": { "width": 2, "height": 2 } } } },
  { "name": "outfit", "attachments": {
    "a": { "shared": { "width": 3, "height": 3 } },
    "b": { "skin-only": { "width": 4, "height": 4 } } } },
  { "name": "empty" }
],
"animations": {
  "swap": { "slots": {
    "a": { "attachment": [ { "name": "plain" }, { "time": 1, "name": "shared" }, { "time": 2, "name": "unknown" },
                           { "time": 3, "name": null }, { "time": 4, "name": "skin-only" } ] },
    "b": { "attachment": [ { "name": "skin-only" }, { "time": 1, "name": "shared" }, { "time": 2, "name": "plain" },
                           { "time": 3, "name": "skin-only" } ] } } },
  "still": { "bones": { "root": { "rotate": [ { "value": 10 } ] } } }
}
})";

constexpr double k_key_times[] = {0, 1, 2, 3, 4};

// The rig with its first skin named `default_name` ("default" makes it the default skin).
SkeletonData load_rig(const std::string& default_name) {
    std::string json = k_rig_json;
    json.replace(json.find("DEFAULT"), 7, default_name);
    Result<SkeletonData> data = load_skeleton_json(json, "attachment-lookup.json");
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data).value() : SkeletonData{};
}

// The skins a pose is tried with: none, each skin of the data, and two combined skins.
std::vector<std::vector<Index>> skin_choices(const SkeletonData& data) {
    std::vector<std::vector<Index>> out = {{}};
    for (std::size_t i = 0; i < data.skins.size(); ++i) out.push_back({static_cast<Index>(i)});
    if (data.skins.size() >= 2) {
        out.push_back({0, 1});
        out.push_back({static_cast<Index>(data.skins.size() - 1), 1});
    }
    return out;
}

void set_skins(SkeletonPose& pose, const std::vector<Index>& skins) {
    if (skins.size() == 1) set_skin(pose, skins[0]);
    if (skins.size() > 1) set_combined_skin(pose, skins);
}

std::string describe(const SkeletonData& data, const std::vector<Index>& skins) {
    std::string out = "skin";
    for (Index s : skins) out += " " + data.skin_names[s];
    return skins.empty() ? "no skin" : out;
}

// What the search shows for (slot, name) on `pose`: Skeleton.getAttachment without any table.
Index searched(const SkeletonPose& pose, Index slot, Index name) { return find_attachment(pose, slot, name); }

// Every attachment key of `data` against the search, on `pose` as it is.
void expect_keys_resolve_as_searched(const SkeletonPose& pose, const std::string& where) {
    const SkeletonData& data = *pose.data;
    for (const TimelineData& t : data.timelines) {
        if (t.type != TimelineType::attachment) continue;
        ASSERT_EQ(t.aux.count, t.frame_count) << where;
        ASSERT_LE(std::size_t{t.aux.offset} + 2 * t.aux.count, data.indices.size()) << where;
        for (std::uint32_t k = t.aux.offset; k < t.aux.offset + t.aux.count; ++k) {
            const Index name = data.indices[k], in_default = data.indices[k + t.aux.count];
            ASSERT_EQ(in_default, data.find_skin_attachment(data.default_skin, t.target, name))
                << where << ", key " << k;
            EXPECT_EQ(detail::find_attachment(pose, t.target, name, in_default), searched(pose, t.target, name))
                << where << ", slot " << data.slot_names[t.target] << ", key " << k;
        }
    }
    for (std::size_t i = 0; i < data.slots.size(); ++i) {
        const auto slot = static_cast<Index>(i);
        const SlotData& s = data.slots[i];
        ASSERT_EQ(s.default_attachment, data.find_skin_attachment(data.default_skin, slot, s.attachment_name))
            << where << ", slot " << data.slot_names[slot];
        EXPECT_EQ(detail::find_attachment(pose, slot, s.attachment_name, s.default_attachment),
                  searched(pose, slot, s.attachment_name))
            << where << ", setup attachment of slot " << data.slot_names[slot];
    }
}

TEST(AttachmentLookup, skin_attachment_overrides_the_default_skin_one_of_the_same_name) {
    const SkeletonData data = load_rig("default");
    ASSERT_EQ(data.default_skin, 0);
    const Index a = test::slot_index(data, "a"), b = test::slot_index(data, "b");
    const Index shared = data.attachment_names.find("shared"), skin_only = data.attachment_names.find("skin-only");
    const Index default_shared = data.find_skin_attachment(0, a, shared);
    const Index outfit_shared = data.find_skin_attachment(1, a, shared);
    ASSERT_NE(default_shared, k_none);
    ASSERT_NE(outfit_shared, k_none);
    ASSERT_NE(default_shared, outfit_shared);
    EXPECT_EQ(data.slots[static_cast<std::size_t>(a)].default_attachment, default_shared);
    EXPECT_EQ(data.slots[static_cast<std::size_t>(b)].default_attachment, k_none);  // in "outfit" only

    SkeletonPose pose = create_pose(data);
    EXPECT_EQ(detail::find_attachment(pose, a, shared, default_shared), default_shared);
    EXPECT_EQ(detail::find_attachment(pose, b, skin_only, k_none), k_none);
    set_skin(pose, 1);
    EXPECT_EQ(detail::find_attachment(pose, a, shared, default_shared), outfit_shared);
    EXPECT_EQ(detail::find_attachment(pose, b, skin_only, k_none), data.find_skin_attachment(1, b, skin_only));
    for (const std::vector<Index>& skins : skin_choices(data)) {
        SkeletonPose p = create_pose(data);
        set_skins(p, skins);
        expect_keys_resolve_as_searched(p, describe(data, skins));
    }
}

// Both apply paths (Animation.apply's and AnimationState's) at every key, with every skin choice, with and without
// a default skin: the slots show what the search finds for the key's name.
TEST(AttachmentLookup, attachment_keys_show_what_the_search_finds_with_any_skin) {
    for (const char* first_skin : {"default", "base"}) {
        const SkeletonData data = load_rig(first_skin);
        const Index swap = data.animation_names.find("swap");
        ASSERT_NE(swap, k_none);
        for (const std::vector<Index>& skins : skin_choices(data)) {
            const std::string where = std::string(first_skin) + ", " + describe(data, skins);
            SkeletonPose timeline_pose = create_pose(data), state_pose = create_pose(data);
            set_skins(timeline_pose, skins);
            set_skins(state_pose, skins);
            AnimationState state(data);
            state.set_animation(0, swap, false);
            double played = 0;
            for (double time : k_key_times) {
                apply_animation(data, swap, timeline_pose, time, time, false, nullptr, 1, MixBlend::setup,
                                MixDirection::in);
                state.update(time - played);
                played = time;
                state.apply(state_pose);
                const Range timelines = data.animations[static_cast<std::size_t>(swap)].timelines;
                for (std::uint32_t i = timelines.offset; i < timelines.offset + timelines.count; ++i) {
                    const TimelineData& t = data.timelines[i];
                    // Keys are at 0, 1, 2...: the key at `time`, or the last one.
                    const std::uint32_t key = std::min(static_cast<std::uint32_t>(time), t.frame_count - 1);
                    const Index expected = searched(timeline_pose, t.target, data.indices[t.aux.offset + key]);
                    const auto slot = static_cast<std::size_t>(t.target);
                    EXPECT_EQ(timeline_pose.slots[slot].attachment, expected)
                        << where << ", Animation.apply at " << time << ", slot " << data.slot_names[t.target];
                    EXPECT_EQ(state_pose.slots[slot].attachment, expected)
                        << where << ", AnimationState at " << time << ", slot " << data.slot_names[t.target];
                }
            }
        }
    }
}

// Setup attachments set again by name: the setup pose, a timeline mixing out under the setup blend, and
// AnimationState's sweep for slots a mixed-out animation keyed: each shows the current skin's attachment first.
TEST(AttachmentLookup, setup_attachment_restores_come_from_the_current_skin_first) {
    for (const char* first_skin : {"default", "base"}) {
        const SkeletonData data = load_rig(first_skin);
        const Index swap = data.animation_names.find("swap"), still = data.animation_names.find("still");
        for (const std::vector<Index>& skins : skin_choices(data)) {
            const std::string where = std::string(first_skin) + ", " + describe(data, skins);
            SkeletonPose pose = create_pose(data);
            set_skins(pose, skins);
            set_to_setup_pose(pose);
            auto expect_setup = [&](const char* after) {
                for (std::size_t i = 0; i < data.slots.size(); ++i)
                    EXPECT_EQ(pose.slots[i].attachment,
                              searched(pose, static_cast<Index>(i), data.slots[i].attachment_name))
                        << where << ", " << after << ", slot " << data.slot_names[static_cast<Index>(i)];
            };
            expect_setup("setup pose");

            apply_animation(data, swap, pose, 2, 2, false, nullptr, 1, MixBlend::setup, MixDirection::in);
            apply_animation(data, swap, pose, 2, 2, false, nullptr, 1, MixBlend::setup, MixDirection::out);
            expect_setup("mixing out");

            AnimationState state(data);
            state.set_animation(0, swap, false);
            state.update(2);
            state.apply(pose);
            state.set_animation(0, still, false);  // mixes from swap, whose keys no longer apply
            state.update(0.05);
            state.apply(pose);
            expect_setup("AnimationState's setup sweep");
        }
    }
}

// finish_skeleton_data gives every attachment timeline a whole block of names and default-skin attachments, even
// for a key range no loader makes (past the pool, shorter than the frames): the runtime reads frame_count of each.
TEST(AttachmentLookup, key_blocks_are_whole_whatever_range_the_keys_had) {
    SkeletonData data = load_rig("default");
    const Index plain = data.attachment_names.find("plain");
    ASSERT_NE(plain, k_none);
    TimelineData broken;
    broken.type = TimelineType::attachment;
    broken.entries = 1;
    broken.target = test::slot_index(data, "a");
    broken.frame_count = 3;
    TimelineData past_pool = broken, short_range = broken;
    past_pool.aux = Range{static_cast<std::uint32_t>(data.indices.size()) + 5, 3};
    data.indices.push_back(plain);
    short_range.aux = Range{static_cast<std::uint32_t>(data.indices.size() - 1), 1};
    data.timelines.push_back(past_pool);
    data.timelines.push_back(short_range);
    finish_skeleton_data(data);

    const TimelineData& a = data.timelines[data.timelines.size() - 2];
    const TimelineData& b = data.timelines.back();
    for (const TimelineData* t : {&a, &b}) {
        ASSERT_EQ(t->aux.count, 3u);
        ASSERT_LE(std::size_t{t->aux.offset} + 6, data.indices.size());
    }
    const Index in_default = data.find_skin_attachment(0, broken.target, plain);
    ASSERT_NE(in_default, k_none);
    const std::vector<Index> expected_a(6, k_none);
    const std::vector<Index> expected_b = {plain, k_none, k_none, in_default, k_none, k_none};
    EXPECT_EQ(std::vector<Index>(data.indices.begin() + a.aux.offset, data.indices.begin() + a.aux.offset + 6),
              expected_a);
    EXPECT_EQ(std::vector<Index>(data.indices.begin() + b.aux.offset, data.indices.begin() + b.aux.offset + 6),
              expected_b);
}

// The tables against the search for every key of every example skeleton (JSON and binary), with no skin and with
// each of its skins.
TEST(AttachmentLookup, resolved_keys_match_the_search_in_every_example_and_skin) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for (const test::ExampleSkeleton& example : test::example_skeletons()) {
        for (const std::filesystem::path& file : {example.json, example.binary}) {
            Result<SkeletonData> loaded = load_skeleton_file(file.string());
            ASSERT_TRUE(loaded.ok()) << loaded.error().message();
            const SkeletonData& data = loaded.value();
            for (Index skin = k_none; skin < static_cast<Index>(data.skins.size()); ++skin) {
                SkeletonPose pose = create_pose(data);
                set_skin(pose, skin);
                expect_keys_resolve_as_searched(pose, file.filename().string() + ", skin " + std::to_string(skin));
            }
        }
    }
}

}  // namespace
}  // namespace spinegpu
