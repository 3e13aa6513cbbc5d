// Whole setup poses against the official runtime. tests/cli/oracle_setup_pose.sh has the official runtime
// (tests/oracle/setup_pose_dump.mjs) pose many skeletons in many ways and points SPINEGPU_SETUP_POSE_ORACLE at the
// folder of dumps; this test replays each dump's operations on our pose and compares every bone, every slot's
// attachment and world vertices (in draw order) and the update cache, with DESIGN.md's tolerances. Without the
// variable (a plain unit-test run) it is skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pose_test_support.hpp"

namespace spinegpu {
namespace {

struct Dump {
    std::string skeleton, atlas;
    std::vector<std::string> ops;
    struct Bone {
        std::string name;
        double v[6];
    };
    struct Slot {
        std::string name, attachment;
        std::vector<double> vertices;
    };
    std::vector<Bone> bones;
    struct Applied {
        std::string name;
        double v[7];  // x y rotation scale_x scale_y shear_x shear_y
    };
    std::vector<Applied> applied;
    std::vector<Slot> slots;
    std::vector<std::string> cache;  // "kind name"
};

// Undoes the dump's percent-encoding of names (encodeURIComponent).
std::string decode(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

Dump read_dump(const std::filesystem::path& file) {
    Dump dump;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string kind;
        s >> kind;
        if (kind == "args") {
            s >> dump.skeleton >> dump.atlas;
            for (std::string op; s >> op;) dump.ops.push_back(op);
        } else if (kind == "bone") {
            Dump::Bone b;
            s >> b.name;
            b.name = decode(b.name);
            for (double& v : b.v) s >> v;
            dump.bones.push_back(b);
        } else if (kind == "applied") {
            Dump::Applied b;
            s >> b.name;
            b.name = decode(b.name);
            for (double& v : b.v) s >> v;
            dump.applied.push_back(b);
        } else if (kind == "slot") {
            Dump::Slot slot;
            std::size_t count = 0;
            s >> slot.name >> slot.attachment >> count;
            slot.name = decode(slot.name);
            slot.attachment = decode(slot.attachment);
            slot.vertices.resize(count);
            for (double& v : slot.vertices) s >> v;
            dump.slots.push_back(slot);
        } else if (kind == "cache") {
            std::string what, name;
            s >> what >> name;
            dump.cache.push_back(what + " " + decode(name));
        }
    }
    return dump;
}

std::string cache_entry(const SkeletonData& data, const UpdateStep& step) {
    switch (step.kind) {
    case UpdateStep::Kind::bone: return "bone " + data.bone_names[step.index];
    case UpdateStep::Kind::ik: return "ik " + data.ik_names[step.index];
    case UpdateStep::Kind::transform: return "transform " + data.transform_names[step.index];
    case UpdateStep::Kind::path: return "path " + data.path_names[step.index];
    case UpdateStep::Kind::physics: return "physics " + data.physics_names[step.index];
    }
    return "?";
}

struct Deviation {
    double matrix = 0, position = 0, vertex = 0, applied = 0;
};

// Difference of two angles in degrees, modulo 360.
double angle_difference(double a, double b) { return std::fabs(std::remainder(a - b, 360.0)); }

// Compares one dump; adds failures (at most a few per dump) and returns the largest deviations seen.
Deviation compare_dump(const std::filesystem::path& file) {
    Deviation worst;
    const Dump dump = read_dump(file);
    const std::string label = file.filename().string();
    auto loaded = test::load_skeleton_and_atlas(dump.skeleton, dump.atlas);
    if (!loaded) return worst;
    SkeletonData& data = loaded->data;
    const SkeletonPose pose = test::posed(data, dump.ops);
    int failures = 0;
    auto fail = [&](const std::string& what) {
        if (++failures <= 8) ADD_FAILURE() << label << ": " << what;
    };

    if (dump.bones.size() != data.bones.size()) fail("bone count differs");
    for (std::size_t i = 0; i < std::min(dump.bones.size(), data.bones.size()); ++i) {
        const Dump::Bone& expected = dump.bones[i];
        const BoneWorld& w = pose.world[i];
        const double actual[6] = {w.a, w.b, w.c, w.d, w.x, w.y};
        for (int k = 0; k < 6; ++k) {
            const double d = std::fabs(actual[k] - expected.v[k]);
            const bool matrix = k < 4;
            (matrix ? worst.matrix : worst.position) = std::max(matrix ? worst.matrix : worst.position, d);
            if (!(d <= (matrix ? 1e-3 : 0.05)))
                fail("bone " + expected.name + " field " + "abcdxy"[k] + ": expected " +
                     std::to_string(expected.v[k]) + ", got " + std::to_string(actual[k]));
        }
    }

    // Applied poses recovered from the world transforms (the `applied` operation): positions and scales within
    // the position tolerance, angles within 0.01 degree.
    if (!dump.applied.empty()) {
        SkeletonPose recovered = pose;
        if (dump.applied.size() != data.bones.size()) fail("applied pose count differs");
        for (std::size_t i = 0; i < std::min(dump.applied.size(), data.bones.size()); ++i) {
            update_applied_transform(recovered, static_cast<Index>(i));
            const BoneTransform& t = recovered.applied[i];
            const double actual[7] = {t.x, t.y, t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y};
            const double* expected = dump.applied[i].v;
            for (int k = 0; k < 7; ++k) {
                const double want = expected[k];
                const bool angle = k == 2 || k >= 5;
                const double d = angle ? angle_difference(actual[k], want) : std::fabs(actual[k] - want);
                worst.applied = std::max(worst.applied, d);
                if (!(d <= (angle ? 0.01 : 0.05)))
                    fail("applied pose of bone " + dump.applied[i].name + " field " + std::to_string(k) +
                         ": expected " + std::to_string(want) + ", got " + std::to_string(actual[k]));
            }
        }
    }

    std::vector<float> vertices(4096);
    if (dump.slots.size() != pose.draw_order.size()) fail("slot count differs");
    for (std::size_t i = 0; i < std::min(dump.slots.size(), pose.draw_order.size()); ++i) {
        const Dump::Slot& expected = dump.slots[i];
        const Index slot = pose.draw_order[i];
        if (data.slot_names[slot] != expected.name) {
            fail("draw order " + std::to_string(i) + ": expected " + expected.name + ", got " + data.slot_names[slot]);
            continue;
        }
        const std::string attachment = test::attachment_name(pose, slot);
        if (attachment != expected.attachment) {
            fail("slot " + expected.name + ": expected attachment " + expected.attachment + ", got " + attachment);
            continue;
        }
        const std::uint32_t count = compute_world_vertices(pose, loaded->binding, slot, vertices);
        if (count != expected.vertices.size()) {
            fail("slot " + expected.name + ": expected " + std::to_string(expected.vertices.size()) +
                 " vertex floats, got " + std::to_string(count));
            continue;
        }
        for (std::uint32_t k = 0; k < count; ++k) {
            const double d = std::fabs(vertices[k] - expected.vertices[k]);
            worst.vertex = std::max(worst.vertex, d);
            if (!(d <= 0.05))
                fail("slot " + expected.name + " vertex float " + std::to_string(k) + ": expected " +
                     std::to_string(expected.vertices[k]) + ", got " + std::to_string(vertices[k]));
        }
    }

    std::vector<std::string> cache;
    for (const UpdateStep& step : pose.update_cache) cache.push_back(cache_entry(data, step));
    if (cache != dump.cache) {
        std::size_t at = 0;
        while (at < cache.size() && at < dump.cache.size() && cache[at] == dump.cache[at]) ++at;
        fail("update cache differs at step " + std::to_string(at) + ": expected " +
             (at < dump.cache.size() ? dump.cache[at] : "end") + ", got " + (at < cache.size() ? cache[at] : "end"));
    }
    std::printf("%-50s max |abcd| %.3g, |xy| %.3g, vertices %.3g, applied %.3g\n", label.c_str(), worst.matrix,
                worst.position, worst.vertex, worst.applied);
    return worst;
}

TEST(SetupPoseOracle, every_dump_matches_the_official_runtime) {
    const char* dir = std::getenv("SPINEGPU_SETUP_POSE_ORACLE");
    if (dir == nullptr || *dir == 0)
        GTEST_SKIP() << "SPINEGPU_SETUP_POSE_ORACLE not set (tests/cli/oracle_setup_pose.sh sets it)";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".txt") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty()) << "no dumps in " << dir;
    Deviation worst;
    for (const auto& file : files) {
        const Deviation d = compare_dump(file);
        worst.matrix = std::max(worst.matrix, d.matrix);
        worst.position = std::max(worst.position, d.position);
        worst.vertex = std::max(worst.vertex, d.vertex);
        worst.applied = std::max(worst.applied, d.applied);
    }
    std::printf("all %zu dumps: max |abcd| %.3g, |xy| %.3g, vertices %.3g, applied %.3g\n", files.size(),
                worst.matrix, worst.position, worst.vertex, worst.applied);
}

}  // namespace
}  // namespace spinegpu
