// A bezier curve's value where its samples are not in time order (a malformed file can have them so): the public
// bezier_value and curve_value against a scan written out here, the way the official runtime scans (the first
// sample whose x reaches the time), at times exactly on a sample, at doubles between two floats, and in between.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation.hpp"

namespace spinegpu {
namespace {

// The official scan: 0 before the first sample (its x > time), else the first sample j in 1..8 whose x >= time,
// else 9 (after the last sample). Float samples compared with the double time in double.
std::uint32_t reference_segment(const float* samples, double time) {
    if (static_cast<double>(samples[0]) > time) return 0;
    for (std::uint32_t j = 1; j <= 8; ++j)
        if (static_cast<double>(samples[2 * j]) >= time) return j;
    return 9;
}

// Times that tell comparisons apart for these samples: each sample's x exactly, the doubles just below and above it
// (which no float equals, so a search that rounded the time to float would answer differently), and the extremes.
std::vector<double> probe_times(const float* samples) {
    std::vector<double> times = {0.0, -0.0, 1e-300, -1e-300, 1e300, -1e300, std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
    for (int k = 0; k < 18; k += 2) {
        const double x = samples[k];
        times.push_back(x);
        times.push_back(std::nextafter(x, -std::numeric_limits<double>::infinity()));
        times.push_back(std::nextafter(x, std::numeric_limits<double>::infinity()));
        times.push_back(x - 0.01);
        times.push_back(x + 0.01);
    }
    return times;
}

// The value the official getBezierValue gives for value 1 of a two-float row (time, value) at `key`, the next key
// at key + 2, and the samples: the reference scan's segment, interpolated in double.
double reference_bezier(const float* key, const float* samples, double time) {
    const std::uint32_t j = reference_segment(samples, time);
    double x = 0, y = 0;
    float to_x = 0, to_y = 0;
    if (j == 0) {
        x = key[0], y = key[1], to_x = samples[0], to_y = samples[1];
    } else {
        x = samples[2 * j - 2], y = samples[2 * j - 1];
        to_x = j == 9 ? key[2] : samples[2 * j];
        to_y = j == 9 ? key[3] : samples[2 * j + 1];
    }
    return y + (time - x) / (to_x - x) * (to_y - y);
}

// A one-bone rig whose rotate timeline has a bezier from time 0 to 1, its samples then replaced by `samples`.
SkeletonData rig_with_samples(const std::vector<float>& samples, std::uint32_t& bezier_index) {
    const std::string json = R"({"skeleton": {"spine": "4.2.40"},
        "bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
        "animations": {"a": {"bones": {"b": {"rotate": [
            {"time": 0, "value": 5, "curve": [0.25, 10, 0.75, 90]}, {"time": 1, "value": 100}]}}}}})";
    Result<SkeletonData> loaded = load_skeleton_json(json, "bezier_rig.json");
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message());
    if (!loaded.ok()) return {};
    SkeletonData data = std::move(loaded).value();
    const TimelineData& t = data.timelines.front();
    const float type = data.curves[t.curves.offset];
    EXPECT_GE(type, k_curve_bezier);
    bezier_index = static_cast<std::uint32_t>(type - k_curve_bezier);
    EXPECT_LE(bezier_index + 18, t.curves.count);
    for (std::size_t k = 0; k < 18; ++k) data.curves[t.curves.offset + bezier_index + k] = samples[k];
    return data;
}

TEST(BezierCurve, value_interpolates_the_segment_the_official_scan_picks_for_unsorted_samples) {
    // x goes back and forth, with a repeat and one sample before the key; y differs at every sample, so a wrong
    // segment gives another value.
    const std::vector<float> samples = {0.3f, 7,  0.1f, 13, 0.5f, 2,  0.45f, 40, 0.45f, 31,
                                        0.9f, 55, 0.2f, 60, -0.1f, 71, 0.95f, 80};
    std::uint32_t bezier_index = 0;
    SkeletonData data = rig_with_samples(samples, bezier_index);
    ASSERT_EQ(data.timelines.size(), 1u);
    const TimelineData& t = data.timelines.front();
    const float* key = data.frames.data() + t.frames;
    ASSERT_EQ(key[0], 0.0f);
    ASSERT_EQ(key[2], 1.0f);
    std::vector<double> times = probe_times(samples.data());
    for (int i = 0; i <= 200; ++i) times.push_back(i / 200.0);
    int segments_seen[10] = {};
    for (double time : times) {
        if (!(time >= 0 && time < 1)) continue;  // between the two keys, where the bezier is evaluated
        const float expected = static_cast<float>(reference_bezier(key, samples.data(), time));
        const float value = bezier_value(data, t, time, 0, 1, bezier_index);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(value), std::bit_cast<std::uint32_t>(expected))
            << "time " << time << ": " << value << ", expected " << expected;
        const float through_timeline = curve_value(data, t, time);
        EXPECT_EQ(std::bit_cast<std::uint32_t>(through_timeline), std::bit_cast<std::uint32_t>(expected))
            << "time " << time << ": " << through_timeline << ", expected " << expected;
        ++segments_seen[reference_segment(samples.data(), time)];
    }
    // The probes reach before the first sample (0), after the last (9), and the segments the scan can stop in
    // between: x 0.5 at sample 2 stops it before the repeated 0.45s, 0.9 at sample 5, 0.95 at sample 8.
    for (std::uint32_t j : {0u, 2u, 5u, 8u, 9u}) EXPECT_GT(segments_seen[j], 0) << "segment " << j;
}

}  // namespace
}  // namespace spinegpu
