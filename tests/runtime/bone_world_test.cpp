// The SSE2 form of the normal-bone world compose against its scalar reference: same bits for every input, random
// poses and parents as well as the values that tell rounding paths apart (signed zeros, unequal shears, huge and tiny
// scales, infinities and NaN). A NaN result only has to be a NaN in both: which operand's NaN an x86 add passes on
// depends on the operand order the compiler picks for the scalar code too, so its sign and payload are not part of
// the contract. Then the form that takes a bone's setup axis against computing its sine and cosine.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "../../src/runtime/bone_world.hpp"

namespace spinegpu {
namespace {

#if SPINEGPU_BONE_WORLD_SSE2
bool same_bits(const BoneWorld& a, const BoneWorld& b) {
    const float fa[] = {a.a, a.b, a.c, a.d, a.x, a.y}, fb[] = {b.a, b.b, b.c, b.d, b.x, b.y};
    for (int k = 0; k < 6; ++k)
        if (std::bit_cast<std::uint32_t>(fa[k]) != std::bit_cast<std::uint32_t>(fb[k]) &&
            !(std::isnan(fa[k]) && std::isnan(fb[k])))
            return false;
    return true;
}

TEST(BoneWorld, sse2_compose_gives_the_scalar_reference_bits) {
    std::mt19937 random(7);
    const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -3e30f, 90.0f, 180.0f, 0.5f,
                              std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
    std::uniform_real_distribution<float> wide(-400.0f, 400.0f), unit(-2.0f, 2.0f);
    const auto pick = [&](std::uniform_real_distribution<float>& d) {
        return random() % 8 == 0 ? specials[random() % std::size(specials)] : d(random);
    };
    int compared = 0;
    for (int n = 0; n < 200000; ++n) {
        BoneTransform t{pick(wide), pick(wide), pick(wide), pick(unit), pick(unit), pick(wide), 0};
        t.shear_y = random() % 2 ? t.shear_x : pick(wide);
        const BoneWorld parent{pick(unit), pick(unit), pick(unit), pick(unit), pick(wide), pick(wide)};
        const double angle = (static_cast<double>(t.rotation) + t.shear_x) * detail::k_deg_rad;
        const double sin_x = std::sin(angle), cos_x = std::cos(angle);
        BoneWorld simd, scalar;
        detail::compose_normal_sse2(sin_x, cos_x, t, parent, simd);
        detail::compose_normal_scalar(sin_x, cos_x, t, parent, scalar);
        ASSERT_TRUE(same_bits(simd, scalar))
            << "case " << n << ": pose " << t.x << " " << t.y << " " << t.rotation << " " << t.scale_x << " "
            << t.scale_y << " " << t.shear_x << " " << t.shear_y << ", parent " << parent.a << " " << parent.b << " "
            << parent.c << " " << parent.d << " " << parent.x << " " << parent.y << "; sse2 " << simd.a << " "
            << simd.b << " " << simd.c << " " << simd.d << " " << simd.x << " " << simd.y << ", scalar " << scalar.a
            << " " << scalar.b << " " << scalar.c << " " << scalar.d << " " << scalar.x << " " << scalar.y;
        ++compared;
    }
    EXPECT_EQ(compared, 200000);
}
#else
TEST(BoneWorld, sse2_compose_gives_the_scalar_reference_bits) {
    GTEST_SKIP() << "scalar build (SPINEGPU_SCALAR or no SSE2): no SIMD form to compare";
}
#endif

// The setup-axis form of normal_bone_world against computing the sine and cosine: the same bits for any pose, since
// it takes the axis only for an angle with the axis's bits. Angles equal in value but not in bits (-0 against +0)
// must compute: under a parent whose c is -0, the sine's zero sign reaches the world c.
TEST(BoneWorld, the_setup_axis_serves_only_an_angle_with_its_bits) {
    const BoneWorld parent{1, 0, -0.0f, 1, 3, 4};
    const BoneSetupAxis zero{0.0, 0.0, 1.0};  // the axis of a bone whose setup angle is +0
    std::mt19937 random(11);
    std::uniform_real_distribution<float> angle(-400.0f, 400.0f);
    for (int n = 0; n < 20000; ++n) {
        const float rotation = n == 0 ? -0.0f : n == 1 ? 0.0f : angle(random);
        const float shear_x = n < 2 ? rotation : n % 3 == 0 ? 0.0f : angle(random);
        const BoneTransform t{2, 1, rotation, 2, 0.5f, shear_x, shear_x};
        // Half the cases take an axis made for this very angle, half the +0 axis.
        BoneSetupAxis own{static_cast<double>(rotation) + shear_x, 0, 0};
        detail::fast_sincos(own.angle * detail::k_deg_rad, own.sin, own.cos);
        BoneWorld expected, with_axis;
        detail::normal_bone_world(t, parent, expected);
        detail::normal_bone_world(t, parent, with_axis, n % 2 == 0 ? zero : own);
        const float fx[] = {with_axis.a, with_axis.b, with_axis.c, with_axis.d, with_axis.x, with_axis.y};
        const float fy[] = {expected.a, expected.b, expected.c, expected.d, expected.x, expected.y};
        for (int v = 0; v < 6; ++v)
            ASSERT_EQ(std::bit_cast<std::uint32_t>(fx[v]), std::bit_cast<std::uint32_t>(fy[v]))
                << "case " << n << " value " << v << ": rotation " << rotation << ", shear x " << shear_x;
    }
    BoneWorld negative_zero;
    detail::normal_bone_world(BoneTransform{0, 0, -0.0f, 2, 1, -0.0f, -0.0f}, parent, negative_zero, zero);
    EXPECT_TRUE(std::signbit(negative_zero.c)) << "sin(-0) is -0, not the +0 axis's sine";
}

}  // namespace
}  // namespace spinegpu
