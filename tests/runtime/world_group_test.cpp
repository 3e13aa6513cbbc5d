// World transforms of a group of poses at once (src/runtime/world_group.hpp) against one pose at a time: the AVX2
// sine, cosine and atan2 give fast_sincos's and fast_atan2's bits for every range, and groups of 2 to 4 poses of every
// example skeleton, playing different animations with different skins, give update_world_transform's bits, also when
// the lanes disagree (another inherit mode in one lane, both branches of the no-rotation inherit mode, unequal shears,
// angles for libm, NaN, zeros of both signs).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../../src/core/fast_trig.hpp"
#include "../../src/runtime/bone_world.hpp"
#include "../../src/runtime/world_group.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

// The tests compare the lanes with one pose at a time; without the lanes there is nothing to compare.
#define SPINEGPU_REQUIRE_LANES()                                                                                      \
    if (!detail::world_group_simd_available())                                                                        \
    GTEST_SKIP() << "no AVX2 on this CPU, a SPINEGPU_SCALAR build, or SPINEGPU_DIAGNOSE_NO_WORLD_GROUP set: "         \
                    "groups are posed one pose at a time"

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }
std::uint32_t bits(float v) { return std::bit_cast<std::uint32_t>(v); }

// Angles of every kind fast_sincos tells apart: unreduced (|x| <= pi/4, tiny, signed zeros, subnormals), at the
// boundaries of those ranges, near multiples of pi/2 (the reduction's second and third rounds), ordinary pose
// angles, and the largest it reduces itself.
std::vector<double> test_angles() {
    std::vector<double> angles = {0.0, -0.0, 5e-324, -5e-324, 1e-300, 0x1p-28, -0x1p-28, 0x1p-27, 0x1p-26, 0.5, -0.5,
                                  0x1.921fb54442d18p-1, 0x1.921fbffffffffp-1, 0x1.921fc00000000p-1, -0x1.921fcp-1,
                                  std::acos(-1.0), std::acos(-1.0) / 2, 0x1.921fb54442d18p+19, 0x1.921fap+20};
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> pose(-720.0, 720.0), wide(-5e5, 5e5), unit(-1.0, 1.0);
    const double pi_2 = std::acos(-1.0) / 2;
    for (int n = 0; n < 200000; ++n) angles.push_back(pose(random) * (std::acos(-1.0) / 180));
    for (int n = 0; n < 50000; ++n) angles.push_back(wide(random));
    for (int n = 0; n < 50000; ++n) {
        // k * pi/2 to the nearest double and its neighbours: cancellation in the first round.
        const double k = std::floor(unit(random) * 300000);
        double x = k * pi_2;
        const int step = static_cast<int>(random() % 7) - 3;
        for (int s = 0; s < std::abs(step); ++s) x = std::nextafter(x, step > 0 ? 1e300 : -1e300);
        angles.push_back(x);
    }
    for (int n = 0; n < 20000; ++n) angles.push_back(std::ldexp(unit(random), -static_cast<int>(random() % 60)));
    return angles;
}

TEST(WorldGroup, sincos_of_four_lanes_gives_fast_sincos_bits_for_every_range_of_angle) {
    SPINEGPU_REQUIRE_LANES();
    const std::vector<double> angles = test_angles();
    std::size_t declined = 0;
    for (std::size_t n = 0; n + 4 <= angles.size(); n += 4) {
        double s[4], c[4];
        ASSERT_TRUE(detail::sincos_4(&angles[n], s, c)) << "angles from " << angles[n];
        for (int k = 0; k < 4; ++k) {
            double es, ec;
            detail::fast_sincos(angles[n + k], es, ec);
            ASSERT_EQ(bits(s[k]), bits(es)) << "sin " << angles[n + k];
            ASSERT_EQ(bits(c[k]), bits(ec)) << "cos " << angles[n + k];
        }
    }
    // Angles for libm (at and past 2^20 pi/2, infinities, NaN) decline, whichever lane holds them.
    for (double outside : {0x1.921fb6p+20, 1e10, std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
        for (int lane = 0; lane < 4; ++lane) {
            double x[4] = {0.1, 0.2, 0.3, 0.4}, s[4], c[4];
            x[lane] = outside;
            if (!detail::sincos_4(x, s, c)) ++declined;
        }
    }
    EXPECT_EQ(declined, 20u);
}

TEST(WorldGroup, atan2_of_four_lanes_gives_fast_atan2_bits_for_every_range) {
    SPINEGPU_REQUIRE_LANES();
    std::mt19937_64 random(13);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    // Quotients in every range of s_atan.c's reduction (below 2^-27, 7/16, 11/16, 19/16, 39/16 and above), both
    // signs of each operand, y zero with x of either sign, and ratios near the boundaries of those ranges.
    const double boundaries[] = {0x1p-27, 0.4375, 0.6875, 1.1875, 2.4375, 1.0, 0.5, 1.5};
    std::size_t compared = 0, declined = 0;
    for (int n = 0; n < 100000; ++n) {
        double y[4], x[4];
        for (int k = 0; k < 4; ++k) {
            x[k] = unit(random) * std::ldexp(1.0, static_cast<int>(random() % 40) - 20);
            const double ratio = random() % 4 == 0
                                     ? std::nextafter(boundaries[random() % std::size(boundaries)],
                                                      random() % 2 ? 1e300 : -1e300)
                                     : std::ldexp(unit(random), static_cast<int>(random() % 80) - 40);
            y[k] = random() % 16 == 0 ? (random() % 2 ? 0.0 : -0.0) : ratio * x[k] * (random() % 2 ? 1 : -1);
        }
        double out[4];
        if (!detail::atan2_4(y, x, out)) {
            ++declined;
            continue;
        }
        for (int k = 0; k < 4; ++k) {
            ASSERT_EQ(bits(out[k]), bits(detail::fast_atan2(y[k], x[k]))) << "atan2(" << y[k] << ", " << x[k] << ")";
            ++compared;
        }
    }
    EXPECT_GT(compared, 300000u);
    // Pairs for libm decline whichever lane holds them; y = +-0 over a finite non-zero x does not.
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& [py, px] : {std::pair{1.0, 0.0}, std::pair{1.0, inf}, std::pair{nan, 1.0}, std::pair{1e-310, 1.0},
                                std::pair{1e30, 1e-30}}) {
        double y[4] = {0.1, 0.2, 0.3, 0.4}, x[4] = {1, 1, 1, 1}, out[4];
        y[2] = py;
        x[2] = px;
        EXPECT_FALSE(detail::atan2_4(y, x, out)) << "atan2(" << py << ", " << px << ")";
    }
    // At the edges of the quotient range, from high words: k = (iy - ix) >> 20 of 60 and -60 are reduced, 61 and -61
    // go to libm.
    const auto with_high_word = [](std::int64_t high) { return std::bit_cast<double>(std::uint64_t(high) << 32); };
    constexpr std::int64_t k_step = std::int64_t{1} << 20;
    const std::pair<std::int64_t, bool> gaps[] = {
        {61 * k_step, true}, {61 * k_step - 1, false}, {-60 * k_step, false}, {-60 * k_step - 1, true}};
    for (const auto& [gap, declines] : gaps) {
        double y[4] = {0.1, 0.2, 0.3, 0.4}, x[4] = {1, 1, 1, 1}, out[4];
        x[1] = with_high_word(0x3ff00000);
        y[1] = with_high_word(0x3ff00000 + gap);
        EXPECT_EQ(detail::atan2_4(y, x, out), !declines) << "gap " << gap;
        if (!declines) {
            EXPECT_EQ(bits(out[1]), bits(detail::fast_atan2(y[1], x[1])));
        }
    }
    double y[4] = {0.0, -0.0, 0.0, -0.0}, x[4] = {2, 2, -2, -1e-310}, out[4];
    ASSERT_TRUE(detail::atan2_4(y, x, out));
    for (int k = 0; k < 4; ++k) EXPECT_EQ(bits(out[k]), bits(detail::fast_atan2(y[k], x[k])));
}

// Two identical sets of poses of one skeleton, stepped by one animation state each: `grouped` through
// update_world_transforms in groups of `group_size`, `single` one pose at a time.
struct Twins {
    std::vector<SkeletonPose> grouped, single;
    std::vector<std::unique_ptr<AnimationState>> grouped_states, single_states;
};

Twins make_twins(const SkeletonData& data, std::size_t count, std::mt19937& random) {
    Twins t;
    const auto skin = data.skins.size() > 1 ? static_cast<Index>(random() % data.skins.size()) : k_none;
    for (std::size_t i = 0; i < count; ++i) {
        for (int twin = 0; twin < 2; ++twin) {
            SkeletonPose pose = create_pose(data);
            if (skin != k_none) set_skin(pose, skin);
            set_to_setup_pose(pose);
            (twin == 0 ? t.grouped : t.single).push_back(std::move(pose));
        }
        const auto animation = static_cast<Index>((i * 7 + random()) % data.animations.size());
        const float duration = data.animations[static_cast<std::size_t>(animation)].duration;
        const double phase = duration * static_cast<double>(random() % 1000) / 1000.0;
        for (auto* states : {&t.grouped_states, &t.single_states}) {
            states->push_back(std::make_unique<AnimationState>(data));
            const TrackEntryId id = states->back()->set_animation(0, animation, true);
            states->back()->entry(id)->track_time = phase;
        }
    }
    return t;
}

// The first bone of `a` whose world transform or applied pose differs in any bit from `b`'s (a NaN result only has
// to be a NaN in both), or -1.
int first_different_bone(const SkeletonPose& a, const SkeletonPose& b) {
    for (std::size_t i = 0; i < a.world.size(); ++i) {
        const BoneWorld &x = a.world[i], &y = b.world[i];
        const BoneTransform &p = a.applied[i], &q = b.applied[i];
        const float fx[] = {x.a, x.b, x.c, x.d, x.x, x.y, p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x,
                            p.shear_y};
        const float fy[] = {y.a, y.b, y.c, y.d, y.x, y.y, q.x, q.y, q.rotation, q.scale_x, q.scale_y, q.shear_x,
                            q.shear_y};
        for (std::size_t k = 0; k < std::size(fx); ++k)
            if (bits(fx[k]) != bits(fy[k]) && !(std::isnan(fx[k]) && std::isnan(fy[k]))) return static_cast<int>(i);
    }
    return -1;
}

// Steps both twins `frames` times; `disturb` may change a pose (the same way in both twins) before each world update.
template <class Disturb>
void expect_grouped_equals_single(const std::string& name, Twins& t, std::size_t group_size, int frames,
                                  Disturb disturb) {
    constexpr double k_dt = 1.0 / 60;
    for (int frame = 0; frame < frames; ++frame) {
        for (std::size_t i = 0; i < t.single.size(); ++i) {
            for (int twin = 0; twin < 2; ++twin) {
                SkeletonPose& pose = twin == 0 ? t.grouped[i] : t.single[i];
                AnimationState& state = twin == 0 ? *t.grouped_states[i] : *t.single_states[i];
                state.update(k_dt);
                state.apply(pose);
                update_time(pose, k_dt);
                disturb(pose, i, frame);
            }
            update_world_transform(t.single[i], Physics::update);
        }
        for (std::size_t first = 0; first < t.grouped.size(); first += group_size) {
            std::vector<SkeletonPose*> group;
            for (std::size_t i = first; i < std::min(first + group_size, t.grouped.size()); ++i) {
                ASSERT_TRUE(detail::share_update_cache(t.grouped[first], t.grouped[i]));
                group.push_back(&t.grouped[i]);
            }
            detail::update_world_transforms(group, Physics::update);
        }
        for (std::size_t i = 0; i < t.single.size(); ++i) {
            const int bone = first_different_bone(t.grouped[i], t.single[i]);
            ASSERT_EQ(bone, -1) << name << ", groups of " << group_size << ", pose " << i << ", frame " << frame;
        }
    }
}

std::vector<std::filesystem::path> binary_exports() {
    std::vector<std::filesystem::path> out;
    for (const test::ExampleSkeleton& e : test::example_skeletons()) out.push_back(e.binary);
    return out;
}

TEST(WorldGroup, groups_of_poses_get_the_bits_of_one_pose_at_a_time_for_every_example) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_LANES();
    std::mt19937 random(5);
    std::size_t compared = 0;
    for (const std::filesystem::path& file : binary_exports()) {
        Result<SkeletonData> data = load_skeleton_file(file.string());
        ASSERT_TRUE(data) << data.error().message();
        for (std::size_t group_size : {2u, 3u, 4u}) {
            Twins t = make_twins(*data, 12, random);
            expect_grouped_equals_single(file.filename().string(), t, group_size, 40,
                                         [](SkeletonPose&, std::size_t, int) {});
            compared += t.single.size();
        }
    }
    EXPECT_GT(compared, 0u);
}

TEST(WorldGroup, lanes_that_disagree_get_the_bits_of_one_pose_at_a_time) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_LANES();
    Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / "spineboy/spineboy-pro.skel").string());
    ASSERT_TRUE(data) << data.error().message();
    std::mt19937 random(9);
    Twins t = make_twins(*data, 8, random);
    const std::size_t bones = data->bones.size();
    // Per pose and frame, one change to one bone: another inherit mode, unequal shears, an angle beyond what
    // fast_sincos reduces or one of many turns, a NaN shear, a tiny angle; and bone 1's angle at +0 and -0 in turn
    // (equal angles for the cache, different bits for its key).
    // Skeleton scales differ per pose (flips included), and the parents of the bones that inherit no rotation have a
    // zero scale in every third pose and frame (the degenerate branch of that inherit mode, next to the other one in
    // the same group).
    std::vector<std::size_t> no_rotation_parents;
    for (const BoneData& bone : data->bones)
        if (bone.inherit == Inherit::no_rotation_or_reflection && bone.parent != k_none)
            no_rotation_parents.push_back(static_cast<std::size_t>(bone.parent));
    ASSERT_FALSE(no_rotation_parents.empty());
    const auto disturb = [&](SkeletonPose& pose, std::size_t i, int frame) {
        pose.scale_x = i % 3 == 0 ? -1.0f : 1.5f;
        pose.scale_y = i % 2 == 0 ? 0.75f : -2.0f;
        for (std::size_t parent : no_rotation_parents)
            pose.local[parent].scale_x = (i + static_cast<std::size_t>(frame)) % 3 == 0 ? 0.0f : 1.0f;
        const float zero = (i + static_cast<std::size_t>(frame)) % 2 ? -0.0f : 0.0f;
        pose.local[1].rotation = zero;
        pose.local[1].shear_x = zero;
        const std::size_t bone = 1 + (i * 13 + static_cast<std::size_t>(frame) * 7) % (bones - 1);
        BoneTransform& local = pose.local[bone];
        switch ((i + static_cast<std::size_t>(frame)) % 7) {
        case 0: pose.inherit[bone] = frame % 2 ? Inherit::no_scale : Inherit::no_rotation_or_reflection; break;
        case 1: local.shear_y = local.shear_x + 3.5f; break;
        case 2: local.rotation = 4e9f; break;  // beyond 2^20 pi/2 radians: libm
        case 3: local.shear_x = std::numeric_limits<float>::quiet_NaN(); break;
        case 4: local.shear_y = local.shear_x + 1e-7f; break;
        case 5: local.rotation = 4e7f; break;  // reduced, with many turns
        case 6: local.rotation = 1e-30f; break;
        }
    };
    expect_grouped_equals_single("spineboy-pro, disturbed", t, 4, 30, disturb);
}

// Sets `bone`'s local pose and inherit mode back to its setup values (nothing for k_none).
void reset_bone(SkeletonPose& pose, Index bone) {
    if (bone == k_none) return;
    const BoneData& setup = pose.data->bones[static_cast<std::size_t>(bone)];
    pose.local[static_cast<std::size_t>(bone)] =
        BoneTransform{setup.x, setup.y, setup.rotation, setup.scale_x, setup.scale_y, setup.shear_x, setup.shear_y};
    pose.inherit[static_cast<std::size_t>(bone)] = setup.inherit;
}

// IK constraints whose lanes take different branches: per pose and frame, each constraint gets its own mix (0 in some
// lanes only, or in all), softness (none, pulling in, far beyond), stretch, compress and bend direction, and its bones
// flipped (-1, and -0) or non-uniform scales, a child on its parent's origin or longer than its parent, another
// inherit mode, a shear, a parent space without area, or a target out of reach.
TEST(WorldGroup, ik_constraints_whose_lanes_disagree_get_the_bits_of_one_pose_at_a_time) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_LANES();
    for (const char* file : {"spineboy/spineboy-pro.skel", "raptor/raptor-pro.skel"}) {
        Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / file).string());
        ASSERT_TRUE(data) << data.error().message();
        ASSERT_FALSE(data->ik_constraints.empty());
        // Half the constraints scale uniformly (none of these rigs does): a stretched bone then scales y too.
        for (std::size_t c = 0; c < data->ik_constraints.size(); c += 2) data->ik_constraints[c].uniform = true;
        std::mt19937 random(11);
        Twins t = make_twins(*data, 8, random);
        // Frames in turn: three with lanes that differ only in what the lanes handle themselves, two with what sends
        // a group back to one pose at a time (a mix of 0 in some lanes only, next to sheared bones that lanes with a
        // mix of 0 would unshear; a non-uniform scale, a child on its parent's origin, another inherit mode,
        // compress), one with a mix of 0 in every lane. The bones involved start
        // each frame from their setup pose, so that one frame's changes do not pile up on the next's.
        const auto disturb = [&](SkeletonPose& pose, std::size_t i, int frame) {
            const int scenario = frame % 6;
            for (std::size_t c = 0; c < data->ik_constraints.size(); ++c) {
                const IkConstraintData& constraint = data->ik_constraints[c];
                const std::span<const Index> bones = data->index_span(constraint.bones);
                const auto first_bone = static_cast<std::size_t>(bones[0]);
                const auto last_bone = static_cast<std::size_t>(bones.back());
                const Index above = data->bones[first_bone].parent;
                for (Index bone : {bones[0], bones.back(), constraint.target, above}) reset_bone(pose, bone);
                BoneTransform& first = pose.local[first_bone];
                BoneTransform& last = pose.local[last_bone];
                BoneTransform& target = pose.local[static_cast<std::size_t>(constraint.target)];
                const std::size_t h = i * 5 + static_cast<std::size_t>(frame) * 3 + c;
                IkPose& ik = pose.ik[c];
                const float mixes[] = {1, 0.5f, 0.75f};
                ik.mix = scenario == 5 ? 0.0f : scenario == 3 && h % 3 == 0 ? 0.0f : mixes[h % 3];
                const float softness[] = {0, 10, 0, 200, 1e-3f, std::numeric_limits<float>::quiet_NaN()};
                ik.softness = softness[(i + c + static_cast<std::size_t>(frame) / 6) % 6];  // not tied to the cases
                ik.bend_direction = h % 2 ? 1 : -1;
                ik.stretch = scenario != 0 && h % 3 == 1;  // per lane for two bones; one bone leaves the lanes
                ik.compress = scenario == 4 && h % 4 == 1;
                if (scenario == 3 && h % 3 != 2) first.shear_x = first.shear_y = 5;
                if (scenario == 4) {
                    switch (h % 4) {
                    case 0: first.scale_y = first.scale_x * 1.5f; break;  // non-uniform
                    case 1: last.x = 0; last.y = 0; break;  // a two-bone child on its parent's origin
                    case 2: pose.inherit[last_bone] = Inherit::no_scale; break;
                    default: break;
                    }
                    continue;
                }
                if (scenario >= 3) continue;
                switch (h % 9) {
                case 0: first.scale_x = -1; break;
                case 1: first.scale_y = -1.25f; first.scale_x = 1.25f; break;
                case 2:  // -0 and a tiny scale (still uniform), the child off the parent's axis so that it can reach
                    first.scale_x = -0.0f;
                    first.scale_y = 1e-4f;
                    last.y = 50;
                    break;
                case 3: last.scale_x = -last.scale_x; break;
                case 4: target.x += 1e4f; break;  // out of reach
                case 5: last.scale_x = 8; break;  // a long child: a target within its reach folds the bones
                case 6: first.shear_x = first.shear_y = 5; break;
                case 7:  // a parent space without area (one bone: an aim of exactly 180 degrees, not wrapped)
                    if (above != k_none) pose.local[static_cast<std::size_t>(above)].scale_x = 0;
                    if (above != k_none) pose.local[static_cast<std::size_t>(above)].scale_y = 0;
                    first.rotation = -180;
                    first.shear_x = 0;
                    break;
                default: break;
                }
            }
        };
        for (std::size_t group_size : {2u, 3u, 4u}) expect_grouped_equals_single(file, t, group_size, 40, disturb);
    }
}

// Transform constraints whose lanes take different branches: per pose and frame, each constraint's mixes translate
// in x, y or both (negative, NaN), carry a shear mix that does nothing (negative) or something, rotate or scale in some
// lanes only, or are 0 in some lanes or in all; half the constraints are relative, one local; the constrained bones
// inherit another way, collapse (scale 0) or have a parent space without area.
TEST(WorldGroup, transform_constraints_whose_lanes_disagree_get_the_bits_of_one_pose_at_a_time) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_LANES();
    for (const char* file : {"spineboy/spineboy-pro.skel", "celestial-circus/celestial-circus-pro.skel"}) {
        Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / file).string());
        ASSERT_TRUE(data) << data.error().message();
        ASSERT_FALSE(data->transform_constraints.empty());
        for (std::size_t c = 0; c < data->transform_constraints.size(); ++c)
            data->transform_constraints[c].relative = c % 2 == 1;
        data->transform_constraints.back().local = true;
        std::mt19937 random(13);
        Twins t = make_twins(*data, 8, random);
        // Frames in turn: three with lanes that only translate (mixes and bones differing per lane), one with rotate,
        // scale or shear mixes or all-zero mixes in some lanes only, one with every lane's mixes 0. The constrained
        // bones and their parents start each frame from their setup pose.
        const auto disturb = [&](SkeletonPose& pose, std::size_t i, int frame) {
            const int scenario = frame % 5;
            const float nan = std::numeric_limits<float>::quiet_NaN();
            for (std::size_t c = 0; c < data->transform_constraints.size(); ++c) {
                const TransformConstraintData& constraint = data->transform_constraints[c];
                const std::size_t h = i * 5 + static_cast<std::size_t>(frame) * 3 + c;
                TransformPose& mix = pose.transform[c];
                mix = TransformPose{0, 0, 0, 0, 0, 0, mix.active};
                const float moves[] = {1, -1, 0.5f, 0, nan, 0.25f};
                mix.mix_x = moves[h % 6];
                mix.mix_y = moves[(h / 2 + i) % 6];
                mix.mix_shear_y = h % 4 == 1 ? -0.5f : 0.0f;
                if (scenario == 3) {
                    switch (h % 4) {
                    case 0: mix.mix_rotate = 0.5f; break;
                    case 1: mix.mix_scale_x = 1; break;
                    case 2: mix.mix_shear_y = 0.5f; break;
                    default: mix = TransformPose{0, 0, 0, 0, 0, 0, mix.active}; break;
                    }
                }
                if (scenario == 4) mix = TransformPose{0, 0, 0, 0, 0, 0, mix.active};
                for (Index bone : data->index_span(constraint.bones)) {
                    reset_bone(pose, bone);
                    reset_bone(pose, data->bones[static_cast<std::size_t>(bone)].parent);
                    const auto b = static_cast<std::size_t>(bone);
                    const BoneData& setup = data->bones[b];
                    if (scenario >= 3) continue;
                    switch ((h + b) % 7) {
                    case 0: pose.inherit[b] = Inherit::no_scale; break;
                    case 1:  // collapsed, or nearly: the applied pose's other branch, and its edge
                        pose.local[b].scale_x = (h / 7) % 2 ? 0.0f : 5e-5f;
                        break;
                    case 2: pose.local[b].shear_x = 20; break;
                    case 3:  // a parent space without area
                        if (setup.parent != k_none) pose.local[static_cast<std::size_t>(setup.parent)].scale_y = 0;
                        break;
                    default: break;
                    }
                }
            }
        };
        for (std::size_t group_size : {2u, 3u, 4u}) expect_grouped_equals_single(file, t, group_size, 40, disturb);
    }
}

// A skeleton without bones (the loaders accept one; fuzz_pose found the group reading its empty arrays through null
// pointers, which the sanitizer build of this test catches): grouped or not, nothing to pose, no fault.
TEST(WorldGroup, a_group_of_poses_without_bones_updates_without_a_fault) {
    Result<SkeletonData> data = load_skeleton_json(R"({"skeleton": {"spine": "4.2.22"}})", "boneless.json");
    ASSERT_TRUE(data) << data.error().message();
    ASSERT_TRUE(data->bones.empty());
    std::vector<SkeletonPose> poses;
    for (int i = 0; i < 4; ++i) poses.push_back(create_pose(*data));
    for (std::size_t size : {1u, 2u, 4u}) {
        std::vector<SkeletonPose*> group;
        for (std::size_t i = 0; i < size; ++i) group.push_back(&poses[i]);
        detail::update_world_transforms(group, Physics::update);
    }
    for (const SkeletonPose& pose : poses) EXPECT_TRUE(pose.world.empty());
}

// Each bone's setup axis (SkeletonData::bone_setup_axes) is fast_sincos of its setup angle, and a bone takes it only
// for an angle with exactly the setup angle's bits: one pose at a time and in the lanes, every bone poses as it would
// with its own sine and cosine. Lane 1 holds a root and a bone at -0 degrees where the setup says +0 (the sine of -0
// is -0, and the root's -0 keeps it in the child's world c); lane 2 rotates a bone. Then the same after the data
// changed without being finished again: a rotated setup bone (its axis is stale) and a bone more than there are axes.
TEST(WorldGroup, setup_axes_serve_only_angles_with_the_setup_bits_one_pose_at_a_time_and_in_the_lanes) {
    Result<SkeletonData> data = load_skeleton_json(R"({"skeleton": {"spine": "4.2.22"}, "bones": [
        {"name": "root"},
        {"name": "a", "parent": "root", "length": 10, "rotation": 33.5, "shearX": -4},
        {"name": "b", "parent": "a", "x": 10, "scaleX": 2},
        {"name": "c", "parent": "b", "x": 3, "rotation": -180},
        {"name": "z", "parent": "root", "x": 5, "scaleX": 2}]})", "axes.json");
    ASSERT_TRUE(data) << data.error().message();
    ASSERT_EQ(data->bone_setup_axes.size(), data->bones.size());
    for (std::size_t i = 0; i < data->bones.size(); ++i) {
        const BoneSetupAxis& axis = data->bone_setup_axes[i];
        const double angle = static_cast<double>(data->bones[i].rotation) + data->bones[i].shear_x;
        double sin_x, cos_x;
        detail::fast_sincos(angle * detail::k_deg_rad, sin_x, cos_x);
        EXPECT_EQ(bits(axis.angle), bits(angle)) << "bone " << i;
        EXPECT_EQ(bits(axis.sin), bits(sin_x)) << "bone " << i;
        EXPECT_EQ(bits(axis.cos), bits(cos_x)) << "bone " << i;
    }
    const std::size_t z = 4;

    // Poses `poses` as set up per lane, one at a time or as one group, and checks every bone's world transform
    // against its own sine and cosine (normal_bone_world without the axis; every bone but the root inherits
    // normally and follows its parent).
    const auto check = [&](const SkeletonData& skeleton, bool grouped, const char* what) {
        std::vector<SkeletonPose> poses;
        for (int k = 0; k < 4; ++k) poses.push_back(create_pose(skeleton));
        for (SkeletonPose& pose : poses) set_to_setup_pose(pose);
        poses[1].local[0].rotation = -0.0f;
        poses[1].local[0].shear_x = -0.0f;
        poses[1].local[z].rotation = -0.0f;
        poses[1].local[z].shear_x = -0.0f;
        poses[2].local[2].rotation = 71.25f;
        if (grouped) {
            std::vector<SkeletonPose*> group;
            for (SkeletonPose& pose : poses) group.push_back(&pose);
            detail::update_world_transforms(group, Physics::update);
        } else {
            for (SkeletonPose& pose : poses) update_world_transform(pose, Physics::update);
        }
        for (std::size_t k = 0; k < poses.size(); ++k) {
            const SkeletonPose& pose = poses[k];
            std::vector<BoneWorld> expected(pose.world.size());
            expected[0] = pose.world[0];
            for (std::size_t i = 1; i < expected.size(); ++i)
                detail::normal_bone_world(pose.applied[i],
                                          expected[static_cast<std::size_t>(skeleton.bones[i].parent)], expected[i]);
            for (std::size_t i = 0; i < expected.size(); ++i) {
                const BoneWorld &x = pose.world[i], &y = expected[i];
                const float fx[] = {x.a, x.b, x.c, x.d, x.x, x.y}, fy[] = {y.a, y.b, y.c, y.d, y.x, y.y};
                for (int v = 0; v < 6; ++v)
                    EXPECT_EQ(bits(fx[v]), bits(fy[v])) << what << (grouped ? ", grouped" : ", one at a time")
                                                        << ": lane " << k << " bone " << i << " value " << v;
            }
        }
        EXPECT_TRUE(std::signbit(poses[1].world[z].c)) << what << ": the -0 degree bone's world c";
    };
    const bool lanes = detail::world_group_simd_available();
    for (bool grouped : {false, true})
        if (!grouped || lanes) check(*data, grouped, "as loaded");

    SkeletonData stale = *data;
    stale.bones[2].rotation = 12;
    for (bool grouped : {false, true})
        if (!grouped || lanes) check(stale, grouped, "a setup rotation changed after finishing");
    BoneData extra;
    extra.parent = 3;
    extra.x = 1;
    stale.bones.push_back(extra);
    for (bool grouped : {false, true})
        if (!grouped || lanes) check(stale, grouped, "a bone added after finishing");
}

TEST(WorldGroup, poses_share_an_update_cache_only_with_the_same_skeleton_and_skin) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const std::filesystem::path dir = test::examples_dir();
    Result<SkeletonData> a = load_skeleton_file((dir / "mix-and-match/mix-and-match-pro.skel").string());
    Result<SkeletonData> b = load_skeleton_file((dir / "spineboy/spineboy-pro.skel").string());
    ASSERT_TRUE(a && b);
    SkeletonPose p = create_pose(*a), q = create_pose(*a), other = create_pose(*b);
    EXPECT_TRUE(detail::share_update_cache(p, q));
    EXPECT_FALSE(detail::share_update_cache(p, other));
    set_skin(q, 1);
    EXPECT_FALSE(detail::share_update_cache(p, q));
    set_skin(p, 1);
    EXPECT_TRUE(detail::share_update_cache(p, q));
    const Index skins[] = {1, 2};
    set_combined_skin(p, skins);
    set_combined_skin(q, skins);
    EXPECT_FALSE(detail::share_update_cache(p, q));  // each combined skin is the pose's own

    // With path constraints the caches themselves are compared (the path attachments shown sort bones too).
    Result<SkeletonData> path = load_skeleton_file((dir / "vine/vine-pro.skel").string());
    ASSERT_TRUE(path && !path->path_constraints.empty());
    SkeletonPose r = create_pose(*path), s = create_pose(*path);
    EXPECT_TRUE(detail::share_update_cache(r, s));
    auto step = std::find_if(s.update_cache.begin() + 1, s.update_cache.end(),
                             [&](const UpdateStep& x) { return x.index != s.update_cache[0].index; });
    ASSERT_NE(step, s.update_cache.end());
    std::iter_swap(s.update_cache.begin(), step);
    EXPECT_FALSE(detail::share_update_cache(r, s));
}

}  // namespace
}  // namespace spinegpu
