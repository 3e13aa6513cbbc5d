// Keyframe search and curve evaluation: first-principles checks on hand-made timelines, and the official runtime's
// values for curves of the example skeletons (printed by curve_expected.mjs beside this file, which runs
// @esotericsoftware/spine-core 4.2.119 on the same exports).
#include <gtest/gtest.h>

#include <iterator>
#include <string>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

// A one-bone skeleton whose animation "a" holds one rotate timeline with `keys` (JSON key objects).
SkeletonData rotate_rig(const std::string& keys) {
    std::string json = R"({"skeleton": {"spine": "4.2.40"},
        "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
        "animations": {"a": {"bones": {"b": {"rotate": [)" + keys + "]}}}}}";
    Result<SkeletonData> data = load_skeleton_json(json, "rotate_rig.json");
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data).value() : SkeletonData{};
}

const TimelineData& only_timeline(const SkeletonData& data) {
    EXPECT_EQ(data.timelines.size(), 1u);
    return data.timelines.front();
}

SkeletonData load_example(const std::string& relative) {
    Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / relative).string());
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data).value() : SkeletonData{};
}

// The timeline of `animation` with `type` and `target`.
const TimelineData* find_timeline(const SkeletonData& data, const std::string& animation, TimelineType type,
                                  Index target) {
    Index a = data.animation_names.find(animation);
    if (a == k_none) return nullptr;
    Range r = data.animations[static_cast<std::size_t>(a)].timelines;
    for (std::uint32_t i = r.offset; i < r.offset + r.count; ++i)
        if (data.timelines[i].type == type && data.timelines[i].target == target) return &data.timelines[i];
    return nullptr;
}

TEST(CurveTest, search_frame_returns_last_key_at_or_before_time) {
    SkeletonData data = rotate_rig(R"({"time": 0.25, "value": 1}, {"time": 0.5, "value": 2},
                                      {"time": 0.5, "value": 3}, {"time": 1, "value": 4})");
    const TimelineData& t = only_timeline(data);
    EXPECT_EQ(search_frame(data, t, 0.0f), 0u);   // before the first key
    EXPECT_EQ(search_frame(data, t, 0.25f), 0u);
    EXPECT_EQ(search_frame(data, t, 0.49f), 0u);
    EXPECT_EQ(search_frame(data, t, 0.5f), 2u);   // two keys at one time: the later one
    EXPECT_EQ(search_frame(data, t, 0.99f), 2u);
    EXPECT_EQ(search_frame(data, t, 1.0f), 3u);
    EXPECT_EQ(search_frame(data, t, 7.0f), 3u);
}

TEST(CurveTest, curve_value_interpolates_linear_keys_and_holds_stepped_keys) {
    SkeletonData data = rotate_rig(R"({"time": 0, "value": 10}, {"time": 1, "value": 30, "curve": "stepped"},
                                      {"time": 2, "value": -10})");
    const TimelineData& t = only_timeline(data);
    EXPECT_FLOAT_EQ(curve_value(data, t, 0.25f), 15.0f);
    EXPECT_FLOAT_EQ(curve_value(data, t, 1.0f), 30.0f);
    EXPECT_FLOAT_EQ(curve_value(data, t, 1.75f), 30.0f);  // stepped: held until the next key
    EXPECT_FLOAT_EQ(curve_value(data, t, 2.0f), -10.0f);
    EXPECT_FLOAT_EQ(curve_value(data, t, 5.0f), -10.0f);  // past the last key: its value
}

TEST(CurveTest, bezier_with_handles_on_the_chord_is_linear) {
    // Handles at 1/3 and 2/3 of the straight line make the cubic the line itself, whatever the sampling.
    SkeletonData data = rotate_rig(R"({"time": 0, "value": 0, "curve": [0.3333333, 20, 0.6666667, 40]},
                                      {"time": 1, "value": 60})");
    const TimelineData& t = only_timeline(data);
    for (float time : {0.0f, 0.01f, 0.05f, 0.2f, 0.5f, 0.77f, 0.95f, 0.999f, 1.0f})
        EXPECT_NEAR(curve_value(data, t, time), 60 * time, 2e-4) << "time " << time;
}

TEST(CurveTest, bezier_ease_in_stays_below_linear_and_reaches_the_keys) {
    // An ease-in curve (both handles low) from first principles: monotonic, under the chord, exact at the keys.
    SkeletonData data = rotate_rig(R"({"time": 0, "value": 0, "curve": [0.5, 0, 1, 0]}, {"time": 1, "value": 100})");
    const TimelineData& t = only_timeline(data);
    float previous = -1;
    for (int i = 0; i <= 100; ++i) {
        float time = static_cast<float>(i) / 100;
        float value = curve_value(data, t, time);
        EXPECT_LE(value, 100 * time + 1e-3f) << "time " << time;
        EXPECT_GE(value, previous) << "time " << time;
        previous = value;
    }
    EXPECT_FLOAT_EQ(curve_value(data, t, 0.0f), 0.0f);
    EXPECT_FLOAT_EQ(curve_value(data, t, 1.0f), 100.0f);
}

// spineboy-pro `run`, bone torso: a rotate timeline of 7 keys, 6 of them bezier. Official values from
// RotateTimeline.getCurveValue (curve_expected.mjs) at these times.
const std::vector<float> k_rotate_times = {0, 0.0004f, 0.004f, 0.05f, 0.1f, 0.133f, 0.2f,
                                           0.25f, 0.3f, 0.4f, 0.5f, 0.6f, 0.66f, 0.7f};

void expect_rotate_curve(const std::string& file, const std::vector<double>& expected) {
    SkeletonData data = load_example(file);
    const TimelineData* t = find_timeline(data, "run", TimelineType::rotate, data.bone_names.find("torso"));
    ASSERT_NE(t, nullptr);
    for (std::size_t i = 0; i < k_rotate_times.size(); ++i)
        EXPECT_FLOAT_EQ(curve_value(data, *t, k_rotate_times[i]), static_cast<float>(expected[i]))
            << file << " at time " << k_rotate_times[i];
}

TEST(CurveTest, rotate_bezier_matches_official_runtime_json) {
    SPINEGPU_REQUIRE_EXAMPLES();
    expect_rotate_curve("spineboy/spineboy-pro.json",
                        {-37.6599998, -37.6540815, -37.6008161, -36.976006, -36.419202, -36.2108647, -38.0557404,
                         -38.7143441, -38.1698296, -36.4589685, -37.5319275, -38.5677972, -37.7638448, -37.6599998});
}

TEST(CurveTest, rotate_bezier_matches_official_runtime_binary) {
    SPINEGPU_REQUIRE_EXAMPLES();
    expect_rotate_curve("spineboy/spineboy-pro.skel",
                        {-37.6589203, -37.6530529, -37.6002461, -36.9763941, -36.4185365, -36.2124367, -38.0618433,
                         -38.7155628, -38.1715613, -36.4621325, -37.5282651, -38.5648985, -37.7608496, -37.6589203});
}

// spineboy-pro `run`, bone hip: a two-value (translate) bezier timeline applied alone with the setup blend.
void expect_hip_translate(const std::string& file, const std::vector<double>& expected_xy) {
    SkeletonData data = load_example(file);
    Index hip = data.bone_names.find("hip");
    const TimelineData* t = find_timeline(data, "run", TimelineType::translate, hip);
    ASSERT_NE(t, nullptr);
    const float times[] = {0.05f, 0.2f, 0.3f, 0.45f, 0.6f};
    for (std::size_t i = 0; i < 5; ++i) {
        SkeletonPose pose = create_pose(data);
        apply_timeline(data, *t, pose, 0, times[i], nullptr, 1, MixBlend::setup, MixDirection::in);
        const BoneTransform& local = pose.local[static_cast<std::size_t>(hip)];
        EXPECT_FLOAT_EQ(local.x, static_cast<float>(expected_xy[2 * i])) << file << " at time " << times[i];
        EXPECT_FLOAT_EQ(local.y, static_cast<float>(expected_xy[2 * i + 1])) << file << " at time " << times[i];
    }
}

TEST(CurveTest, translate_beziers_match_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    expect_hip_translate("spineboy/spineboy-pro.json", {-0.873808009, 227.682608, 6.04814568, 257.851708, -5.18727785,
                                                        213.497888, 3.89749104, 255.846041, -2.5573747, 219.207593});
    expect_hip_translate("spineboy/spineboy-pro.skel", {-0.850774759, 227.766563, 6.06713014, 257.818592, -5.19467343,
                                                        213.489137, 3.89693581, 255.785438, -2.56561642, 219.217549});
}

// hero-pro `attack`: deform timelines whose curves are stored with the deform timeline's own folded sampling and
// read back as DeformTimeline.getCurvePercent does. Applied alone with the setup blend; the official deform
// values (slot.deform) at 0.01 (before the first bezier sample), 0.02 and 0.1 (between samples), 0.19 (after the
// last sample), 0.2 (on a key) and 0.3 (the next bezier).
void expect_deform(const SkeletonData& data, const std::string& slot_name, std::uint32_t start,
                   const std::vector<std::vector<double>>& expected) {
    Index slot = data.slot_names.find(slot_name);
    const TimelineData* t = find_timeline(data, "attack", TimelineType::deform, slot);
    ASSERT_NE(t, nullptr);
    const float times[] = {0.01f, 0.02f, 0.1f, 0.19f, 0.2f, 0.3f};
    ASSERT_EQ(expected.size(), std::size(times));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        SkeletonPose pose = create_pose(data);
        apply_timeline(data, *t, pose, 0, times[i], nullptr, 1, MixBlend::setup, MixDirection::in);
        const SlotPose& s = pose.slots[static_cast<std::size_t>(slot)];
        ASSERT_EQ(s.deform_count, t->aux.count / t->frame_count) << slot_name;
        for (std::size_t k = 0; k < expected[i].size(); ++k)
            EXPECT_FLOAT_EQ(pose.deform[s.deform_offset + start + k], static_cast<float>(expected[i][k]))
                << slot_name << " at time " << times[i] << ", float " << start + k;
    }
}

TEST(CurveTest, deform_curves_match_official_runtime) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SkeletonData data = load_example("hero/hero-pro.json");
    // Unweighted: positions.
    expect_deform(data, "mouth", 0,
                  {{43.9818546, 4.12756854, -14.540003, 4.1276756, -14.5901507, 17.1247707, 43.9316951, 17.1246612},
                   {45.1417081, 3.95887939, -11.3150759, 4.06740675, -11.3820122, 17.0620804, 45.0747484, 16.9535493},
                   {50.0162494, 3.24992587, 2.23839522, 3.81411351, 2.1009005, 16.7986103, 49.8786831, 16.2344136},
                   {51.8005413, 2.99041836, 7.19954894, 3.72139728, 7.03622682, 16.7021689, 51.6371299, 15.971179},
                   {51.8391724, 2.98479986, 7.30696106, 3.71938992, 7.14307976, 16.7000809, 51.6752014, 15.9654799},
                   {48.7148837, 3.43919656, -1.38000115, 3.88173569, -1.49865876, 16.8689494, 48.5961674, 16.4264027}});
    // Weighted: offsets.
    expect_deform(data, "head", 20,
                  {{0.169482857, 0.207665209, -2.5578258, 0.628477581, 0.326036095, 0.112229627, -0.639795736,
                    -0.0000210677914},
                   {0.310715497, 0.380715784, 0.71619821, 0.721473561, 0.597726929, 0.205752281, -1.17294725,
                    -0.0000386239021},
                   {0.904276972, 1.10799918, 14.4760098, 1.11230978, 1.73956787, 0.598801962, -3.41363463,
                    -0.000112407348},
                   {1.12154602, 1.3742162, 19.512693, 1.25537266, 2.1575308, 0.742675061, -4.23382265,
                    -0.000139415265},
                   {1.12625003, 1.37997997, 19.6217403, 1.25847006, 2.16657996, 0.745790005, -4.25158024,
                    -0.000140000004},
                   {0.735951859, 0.901754096, 10.5739316, 1.00147625, 1.41575905, 0.487340115, -2.77820547,
                    -0.0000879956881}});
}

}  // namespace
}  // namespace spinegpu
