// World transforms of a group of poses with one update cache (world_group.hpp). The AVX2 functions carry a target
// attribute instead of the file being built with -mavx2, so that nothing else compiled here (inline functions of
// headers, emitted once for the whole program) can contain AVX2 code that a CPU without it would reach.
#include "world_group.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "update_steps.hpp"

// x86-64 only: on 32-bit x86 the scalar reference may compute in x87 registers with more precision than the lanes.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SPINEGPU_SCALAR)
#include <immintrin.h>
#define SPINEGPU_WORLD_GROUP_AVX2 1
#endif

namespace spinegpu::detail {

bool share_update_cache(const SkeletonPose& a, const SkeletonPose& b) {
    if (a.data != b.data || a.skin != b.skin || a.skin == SkeletonPose::k_custom_skin ||
        a.update_cache.size() != b.update_cache.size())
        return false;
    // Path constraints also sort the bones of the path attachment their slot shows when the cache is built: only
    // there can two poses with one skin have different caches.
    if (a.data->path_constraints.empty()) return true;
    return std::equal(a.update_cache.begin(), a.update_cache.end(), b.update_cache.begin(),
                      [](const UpdateStep& x, const UpdateStep& y) {
                          return x.kind == y.kind && x.update_applied == y.update_applied && x.index == y.index &&
                                 x.parent == y.parent;
                      });
}

namespace {

// The group pose by pose: the reference, and the path without AVX2.
void update_each(std::span<SkeletonPose* const> poses, Physics physics) {
    for (SkeletonPose* pose : poses) update_world_transform(*pose, physics);
}

}  // namespace

#if SPINEGPU_WORLD_GROUP_AVX2

namespace {

#define SPINEGPU_AVX2 __attribute__((target("avx2")))

// Four doubles and four 64-bit integers, as GCC vectors (clang has them too): arithmetic on them is the scalar
// operation lane by lane, so trig::kernel_sin and kernel_cos run on them unchanged.
using D4 = double __attribute__((vector_size(32)));
using I4 = std::int64_t __attribute__((vector_size(32)));
using U4 = std::uint64_t __attribute__((vector_size(32)));

SPINEGPU_AVX2 inline bool any(I4 mask) { return _mm256_movemask_pd(_mm256_castsi256_pd(__m256i(mask))) != 0; }

// Lanes of `yes` where `mask` is set, of `no` elsewhere (mask lanes all ones or all zeros).
SPINEGPU_AVX2 inline D4 select(I4 mask, D4 yes, D4 no) {
    return D4(_mm256_blendv_pd(__m256d(no), __m256d(yes), _mm256_castsi256_pd(__m256i(mask))));
}

// The biased exponent of each lane (fdlibm's (GET_HIGH_WORD(x) >> 20) & 0x7ff).
SPINEGPU_AVX2 inline I4 exponent(D4 x) { return I4((U4(x) >> 52) & 0x7ff); }

// fast_sincos on four lanes: the medium reduction (rem_pio2) for every lane, its second and third rounds where a
// lane needs them, then the lanes that fast_sincos does not reduce (|x| ~<= pi/4) take x itself, and those below
// 2^-27 take (x, 1). False when a lane is for libm (|x| >= 2^20 pi/2 or not finite).
SPINEGPU_AVX2 bool sincos_lanes(D4 x, D4& sin_x, D4& cos_x) {
    const U4 bits = U4(x);
    const I4 ix = I4((bits >> 32) & 0x7fffffff);
    if (any(ix >= 0x413921fb)) return false;
    const I4 unreduced = ix <= 0x3fe921fb;
    const I4 tiny = ix < 0x3e400000;

    const D4 shifted = x * trig::k_invpio2 + trig::k_round_shift;
    const D4 fn = shifted - trig::k_round_shift;
    // n's low bits are the shifted sum's low mantissa bits (1.5 * 2^52 + n; 2^51 is a multiple of 4).
    I4 n = I4(shifted) & 3;
    D4 r = x - fn * trig::k_pio2_1;
    D4 w = fn * trig::k_pio2_1t;
    D4 y0 = r - w;
    const I4 j = exponent(x);
    const I4 second = (j - exponent(y0)) > 16;
    if (any(second)) {
        D4 t = r;
        D4 w2 = fn * trig::k_pio2_2;
        D4 r2 = t - w2;
        w2 = fn * trig::k_pio2_2t - ((t - r2) - w2);
        D4 y2 = r2 - w2;
        const I4 third = second & ((j - exponent(y2)) > 49);
        if (any(third)) {
            t = r2;
            D4 w3 = fn * trig::k_pio2_3;
            const D4 r3 = t - w3;
            w3 = fn * trig::k_pio2_3t - ((t - r3) - w3);
            r2 = select(third, r3, r2);
            w2 = select(third, w3, w2);
            y2 = select(third, r3 - w3, y2);
        }
        r = select(second, r2, r);
        w = select(second, w2, w);
        y0 = select(second, y2, y0);
    }
    D4 y1 = (r - y0) - w;
    const D4 zero = {0, 0, 0, 0};
    y0 = select(unreduced, x, y0);
    y1 = select(unreduced, zero, y1);
    n &= ~unreduced;

    D4 s, c;
    trig::kernel_sin(y0, y1, s);
    trig::kernel_cos(y0, y1, c);
    const I4 odd = (n & 1) != 0;
    const I4 sign = I4(((n & 2) != 0) & I4(U4{1, 1, 1, 1} << 63));  // the sign bit where n & 2
    const D4 sin_n = D4(I4(select(odd, c, s)) ^ sign);
    const D4 cos_n = D4(I4(select(odd, -s, c)) ^ sign);
    const D4 one = {1, 1, 1, 1};
    sin_x = select(tiny, x, sin_n);
    cos_x = select(tiny, one, cos_n);
    return true;
}

// fast_sincos of every lane of `x`: sincos_lanes, or lane by lane when it declines.
SPINEGPU_AVX2 inline void sincos_each(D4 x, D4& sin_x, D4& cos_x) {
    if (sincos_lanes(x, sin_x, cos_x)) return;
    for (int k = 0; k < 4; ++k) {
        double sin_k, cos_k;
        fast_sincos(x[k], sin_k, cos_k);
        sin_x[k] = sin_k;
        cos_x[k] = cos_k;
    }
}

// Sets the lanes of `sin_x` and `cos_x` where `mask` is set to fast_sincos of `x`'s.
SPINEGPU_AVX2 inline void sincos_where(I4 mask, D4 x, D4& sin_x, D4& cos_x) {
    D4 s, c;
    sincos_each(x, s, c);
    sin_x = select(mask, s, sin_x);
    cos_x = select(mask, c, cos_x);
}

// `v` in every lane.
SPINEGPU_AVX2 inline D4 splat(double v) { return D4{v, v, v, v}; }

// One of four values per lane: v[0] where m0, v[1] where m1, v[2] where m2, v[3] elsewhere.
SPINEGPU_AVX2 inline D4 pick(I4 m0, I4 m1, I4 m2, const double (&v)[4]) {
    return select(m0, splat(v[0]), select(m1, splat(v[1]), select(m2, splat(v[2]), splat(v[3]))));
}

// s_atan.c's atan_finite on four lanes of a >= 0 (finite, below 2^66): each lane's range picks its reduction, which
// becomes one division (the unreduced range divides by 1, exactly).
SPINEGPU_AVX2 D4 atan_lanes(D4 a) {
    const I4 ia = I4((U4(a) >> 32) & 0x7fffffff);
    const I4 unreduced = ia < 0x3fdc0000;
    const I4 id0 = ~unreduced & (ia < 0x3fe60000);
    const I4 id1 = (ia >= 0x3fe60000) & (ia < 0x3ff30000);
    const I4 id2 = (ia >= 0x3ff30000) & (ia < 0x40038000);
    const I4 id3 = ia >= 0x40038000;
    const D4 num = select(id0, 2.0 * a - 1.0, select(id1, a - 1.0, select(id2, a - 1.5, select(id3, splat(-1), a))));
    const D4 den = select(id0, 2.0 + a, select(id1, a + 1.0, select(id2, 1.0 + 1.5 * a, select(id3, a, splat(1)))));
    const D4 t = num / den;
    D4 s1, s2;
    trig::atan_series(t, s1, s2);
    const D4 reduced =
        pick(id0, id1, id2, trig::k_atanhi) - ((t * (s1 + s2) - pick(id0, id1, id2, trig::k_atanlo)) - t);
    const D4 r = select(unreduced, t - t * (s1 + s2), reduced);
    return select(ia < 0x3e400000, a, r);
}

// fast_atan2 on four lanes. False, with `out` unset, when a lane is for libm (zeros, subnormals, infinities, NaN,
// quotients beyond 2^+-60, unless y is zero).
SPINEGPU_AVX2 bool atan2_lanes(D4 y, D4 x, D4& out) {
    const U4 xb = U4(x), yb = U4(y);
    const I4 ix = I4((xb >> 32) & 0x7fffffff), iy = I4((yb >> 32) & 0x7fffffff);
    const I4 x_negative = I4(xb >> 63) != 0, y_negative = I4(yb >> 63) != 0;
    const D4 pi = splat(trig::k_atan2_pi), pi_lo = splat(trig::k_atan2_pi_lo);
    // atan2(+-0, x) for x neither zero nor NaN nor infinite: +-0 for x > 0, +-pi for x < 0.
    const I4 zero_y = I4(y == 0.0) & I4(x != 0.0) & (ix < 0x7ff00000);
    // (iy - ix) >> 20 outside [-60, 60], without a 64-bit arithmetic shift.
    const I4 gap = iy - ix;
    const I4 libm = (ix < 0x00100000) | (ix >= 0x7ff00000) | (iy < 0x00100000) | (iy >= 0x7ff00000) |
                    (gap < -(60 << 20)) | (gap >= (61 << 20));
    if (any(libm & ~zero_y)) return false;
    const D4 z = atan_lanes(D4(I4(y / x) & 0x7fffffffffffffff));
    const D4 left = select(y_negative, (z - pi_lo) - pi, pi - (z - pi_lo));
    const D4 r = select(x_negative, left, select(y_negative, -z, z));
    out = select(zero_y, select(x_negative, select(y_negative, -pi, pi), y), r);
    return true;
}

// The per-pose arrays of the group's four lanes and the skeletons' scales (a group of fewer poses repeats its last
// pose: the repeated lane computes and stores the same bits again).
struct Lanes {
    SkeletonPose* pose[4];
    BoneTransform* applied[4];
    const Inherit* inherit[4];
    BoneWorld* world[4];
    const BoneSetupAxis* setup;  // the poses' data's setup axes, or null (see setup_axes)
    D4 scale_x, scale_y;
};

// Four floats at `p` (any alignment).
SPINEGPU_AVX2 inline __m128 load4(const float* p) { return _mm_loadu_ps(p); }

// Two floats at `p` in the low half (through an integer load, which may alias anything).
SPINEGPU_AVX2 inline __m128 load2(const float* p) {
    return _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

SPINEGPU_AVX2 inline D4 widen(__m128 v) { return D4(_mm256_cvtps_pd(v)); }

// The layout the lanes load and store with four-float and two-float moves.
static_assert(offsetof(BoneTransform, x) == 0 && offsetof(BoneTransform, y) == 4 &&
              offsetof(BoneTransform, rotation) == 8 && offsetof(BoneTransform, scale_x) == 12 &&
              offsetof(BoneTransform, scale_y) == 16 && offsetof(BoneTransform, shear_x) == 20 &&
              offsetof(BoneTransform, shear_y) == 24 && sizeof(BoneTransform) == 28);
static_assert(offsetof(BoneWorld, a) == 0 && offsetof(BoneWorld, b) == 4 && offsetof(BoneWorld, c) == 8 &&
              offsetof(BoneWorld, d) == 12 && offsetof(BoneWorld, x) == 16 && offsetof(BoneWorld, y) == 20);

// A bone's applied pose in the four lanes, widened to double; the shears also as floats (their equality test).
struct AppliedLanes {
    D4 x, y, rotation, scale_x, scale_y, shear_x, shear_y;
    __m128 shear_x_f, shear_y_f;
};

// Bone `i`'s applied pose in each lane.
SPINEGPU_AVX2 inline AppliedLanes load_applied(const Lanes& lanes, std::size_t i) {
    // Transposed: (x, y, rotation, scale x) and (scale x, scale y, shear x, shear y) per lane.
    __m128 x = load4(&lanes.applied[0][i].x), y = load4(&lanes.applied[1][i].x),
           rotation = load4(&lanes.applied[2][i].x), scale_x = load4(&lanes.applied[3][i].x);
    _MM_TRANSPOSE4_PS(x, y, rotation, scale_x);
    __m128 unused = load4(&lanes.applied[0][i].scale_x), scale_y = load4(&lanes.applied[1][i].scale_x),
           shear_x = load4(&lanes.applied[2][i].scale_x), shear_y = load4(&lanes.applied[3][i].scale_x);
    _MM_TRANSPOSE4_PS(unused, scale_y, shear_x, shear_y);
    return {widen(x),       widen(y),       widen(rotation), widen(scale_x), widen(scale_y),
            widen(shear_x), widen(shear_y), shear_x,         shear_y};
}

// A world transform in the four lanes, in double.
struct WorldLanes {
    D4 a, b, c, d, x, y;
};

// Bone `bone`'s world transform in each lane, widened to double.
SPINEGPU_AVX2 inline WorldLanes load_world(const Lanes& lanes, std::size_t bone) {
    __m128 a = load4(&lanes.world[0][bone].a), b = load4(&lanes.world[1][bone].a), c = load4(&lanes.world[2][bone].a),
           d = load4(&lanes.world[3][bone].a);
    _MM_TRANSPOSE4_PS(a, b, c, d);
    const __m128 xy01 = _mm_movelh_ps(load2(&lanes.world[0][bone].x), load2(&lanes.world[1][bone].x));
    const __m128 xy23 = _mm_movelh_ps(load2(&lanes.world[2][bone].x), load2(&lanes.world[3][bone].x));
    return {widen(a), widen(b), widen(c), widen(d), widen(_mm_shuffle_ps(xy01, xy23, _MM_SHUFFLE(2, 0, 2, 0))),
            widen(_mm_shuffle_ps(xy01, xy23, _MM_SHUFFLE(3, 1, 3, 1)))};
}

// Stores `w`, each value rounded to float, as bone `bone`'s world transform in each lane.
SPINEGPU_AVX2 inline void store_world(const Lanes& lanes, std::size_t bone, const WorldLanes& w) {
    __m128 a = _mm256_cvtpd_ps(__m256d(w.a)), b = _mm256_cvtpd_ps(__m256d(w.b)), c = _mm256_cvtpd_ps(__m256d(w.c)),
           d = _mm256_cvtpd_ps(__m256d(w.d));
    const __m128 x = _mm256_cvtpd_ps(__m256d(w.x)), y = _mm256_cvtpd_ps(__m256d(w.y));
    _MM_TRANSPOSE4_PS(a, b, c, d);
    _mm_storeu_ps(&lanes.world[0][bone].a, a);
    _mm_storeu_ps(&lanes.world[1][bone].a, b);
    _mm_storeu_ps(&lanes.world[2][bone].a, c);
    _mm_storeu_ps(&lanes.world[3][bone].a, d);
    const __m128 xy01 = _mm_unpacklo_ps(x, y), xy23 = _mm_unpackhi_ps(x, y);
    _mm_storel_pi(reinterpret_cast<__m64*>(&lanes.world[0][bone].x), xy01);
    _mm_storeh_pi(reinterpret_cast<__m64*>(&lanes.world[1][bone].x), xy01);
    _mm_storel_pi(reinterpret_cast<__m64*>(&lanes.world[2][bone].x), xy23);
    _mm_storeh_pi(reinterpret_cast<__m64*>(&lanes.world[3][bone].x), xy23);
}

// local_matrix_from on four lanes: (la, lb, lc, ld) from the x axis's sine and cosine, the rotation (degrees, double)
// and the applied pose's scales and shears.
SPINEGPU_AVX2 inline void local_matrix_lanes(D4 sin_x, D4 cos_x, D4 rotation, const AppliedLanes& t, D4& la, D4& lb,
                                             D4& lc, D4& ld) {
    // The y axis: the x axis turned by the runtime's 90 degrees where shear x equals shear y, its own angle elsewhere.
    D4 cos_y = cos_x * k_cos_90 + sin_x * -k_sin_90;
    D4 sin_y = sin_x * k_cos_90 + cos_x * k_sin_90;
    const I4 sheared = ~I4(_mm256_cvtepi32_epi64(_mm_castps_si128(_mm_cmpeq_ps(t.shear_x_f, t.shear_y_f))));
    if (any(sheared)) sincos_where(sheared, (rotation + 90.0 + t.shear_y) * k_deg_rad, sin_y, cos_y);
    la = cos_x * t.scale_x;
    lb = cos_y * t.scale_y;
    lc = sin_x * t.scale_x;
    ld = sin_y * t.scale_y;
}

// compose_normal of bone `i` under `parent` in each lane, from its applied pose `t` and the sine and cosine of its x
// axis.
SPINEGPU_AVX2 inline void compose_lanes(const Lanes& lanes, std::size_t i, std::size_t parent, const AppliedLanes& t,
                                        D4 sin_x, D4 cos_x) {
    D4 la, lb, lc, ld;
    local_matrix_lanes(sin_x, cos_x, t.rotation, t, la, lb, lc, ld);
    const WorldLanes p = load_world(lanes, parent);
    store_world(lanes, i,
                {p.a * la + p.b * lc, p.a * lb + p.b * ld, p.c * la + p.d * lc, p.c * lb + p.d * ld,
                 p.a * t.x + p.b * t.y + p.x, p.c * t.x + p.d * t.y + p.y});
}

// normal_bone_world (the form with the setup axis) of bone `i` under `parent` in each lane, lane by lane the same
// operations as compose_normal_sse2 and fast_sincos. Precondition: lanes.setup is not null.
SPINEGPU_AVX2 void compose_normal_lanes(const Lanes& lanes, std::size_t i, std::size_t parent) {
    const AppliedLanes t = load_applied(lanes, i);

    // The x axis: the setup axis's sine and cosine where the angle has the setup angle's bits.
    const D4 angle = t.rotation + t.shear_x;
    const BoneSetupAxis& setup = lanes.setup[i];
    D4 sin_x = splat(setup.sin), cos_x = splat(setup.cos);
    const I4 other = I4(angle) != std::bit_cast<std::int64_t>(setup.angle);
    if (any(other)) sincos_where(other, angle * k_deg_rad, sin_x, cos_x);
    compose_lanes(lanes, i, parent, t, sin_x, cos_x);
}

// normal_bone_world without the setup axis (the form IK constraints pose their bones with, and normal bones when the
// data has no setup axes for them) of bone `i` under `parent` in each lane.
SPINEGPU_AVX2 void compose_applied_lanes(const Lanes& lanes, std::size_t i, std::size_t parent) {
    const AppliedLanes t = load_applied(lanes, i);
    D4 sin_x, cos_x;
    sincos_each((t.rotation + t.shear_x) * k_deg_rad, sin_x, cos_x);
    compose_lanes(lanes, i, parent, t, sin_x, cos_x);
}

// The Inherit::no_rotation_or_reflection world transform of bone `i` under `parent` in each lane (bone_transform.cpp's
// world_position, no_rotation_matrix, then the skeleton's scale), lane by lane the same operations: a change to one
// is a change to the other.
SPINEGPU_AVX2 void compose_no_rotation_lanes(const Lanes& lanes, std::size_t i, std::size_t parent) {
    const AppliedLanes t = load_applied(lanes, i);
    const WorldLanes p = load_world(lanes, parent);
    const D4 sx = lanes.scale_x, sy = lanes.scale_y;
    const D4 isx = 1.0 / sx, isy = 1.0 / sy;
    D4 pa = p.a * isx, pb = p.b, pc = p.c * isy, pd = p.d;
    const D4 s = pa * pa + pc * pc;
    // Where s > 0.0001 the parent's rotation is atan2(pc, pa), elsewhere 90 degrees less atan2(pd, pb).
    const I4 rotated = s > 0.0001;
    const D4 ys = select(rotated, pc, pd), xs = select(rotated, pa, pb);
    D4 angle;
    if (!atan2_lanes(ys, xs, angle)) {
        for (int k = 0; k < 4; ++k) angle[k] = fast_atan2(ys[k], xs[k]);
    }
    const D4 prx = select(rotated, angle * k_rad_deg, 90.0 - angle * k_rad_deg);
    const D4 scale = D4(I4(pa * pd * isy - pb * isx * pc) & 0x7fffffffffffffff) / s;
    pb = select(rotated, pc * scale, pb);
    pd = select(rotated, pa * scale, pd);
    const D4 zero = {0, 0, 0, 0};
    pa = select(rotated, pa, zero);
    pc = select(rotated, pc, zero);

    const D4 rotation = t.rotation - prx;
    D4 sin_x, cos_x;
    sincos_each((rotation + t.shear_x) * k_deg_rad, sin_x, cos_x);
    D4 la, lb, lc, ld;
    local_matrix_lanes(sin_x, cos_x, rotation, t, la, lb, lc, ld);
    store_world(lanes, i,
                {(pa * la - pb * lc) * sx, (pa * lb - pb * ld) * sx, (pc * la + pd * lc) * sy,
                 (pc * lb + pd * ld) * sy, p.a * t.x + p.b * t.y + p.x, p.c * t.x + p.d * t.y + p.y});
}

// fast_atan2 of every lane: atan2_lanes, or lane by lane when it declines.
SPINEGPU_AVX2 inline void atan2_each(D4 y, D4 x, D4& out) {
    if (atan2_lanes(y, x, out)) return;
    for (int k = 0; k < 4; ++k) out[k] = fast_atan2(y[k], x[k]);
}

// Whether every lane of `mask` is set.
SPINEGPU_AVX2 inline bool all(I4 mask) { return _mm256_movemask_pd(_mm256_castsi256_pd(__m256i(mask))) == 0xf; }

// The square root of each lane (IEEE, as std::sqrt).
SPINEGPU_AVX2 inline D4 sqrt_lanes(D4 x) { return D4(_mm256_sqrt_pd(__m256d(x))); }

// |x| <= limit in each lane.
SPINEGPU_AVX2 inline I4 within(D4 x, double limit) { return D4(I4(x) & 0x7fffffffffffffff) <= limit; }

// ik_constraint.cpp's wrap_degrees in each lane.
SPINEGPU_AVX2 inline D4 wrap_degrees_lanes(D4 degrees) {
    return select(degrees > 180.0, degrees - 360.0, select(degrees < -180.0, degrees + 360.0, degrees));
}

// ik_constraint.cpp's set_applied in each lane: each value rounded to float.
SPINEGPU_AVX2 inline void store_applied(const Lanes& lanes, std::size_t i, D4 x, D4 y, D4 rotation, D4 scale_x,
                                        D4 scale_y, D4 shear_x, D4 shear_y) {
    for (int k = 0; k < 4; ++k)
        lanes.applied[k][i] = BoneTransform{static_cast<float>(x[k]),       static_cast<float>(y[k]),
                                            static_cast<float>(rotation[k]), static_cast<float>(scale_x[k]),
                                            static_cast<float>(scale_y[k]),  static_cast<float>(shear_x[k]),
                                            static_cast<float>(shear_y[k])};
}

// solve_ik_one in each lane for a bone that inherits normally in every lane, without compress or stretch in any:
// lane by lane solve_ik_one's operations. False, with nothing changed, for any other lane.
SPINEGPU_AVX2 bool ik_one_lanes(const Lanes& lanes, const IkPose* const (&ik)[4], std::size_t i, D4 target_x,
                                D4 target_y, D4 alpha) {
    const Index parent = lanes.pose[0]->data->bones[i].parent;
    if (parent == k_none) return true;  // solve_ik_one does nothing
    for (int k = 0; k < 4; ++k)
        if (lanes.inherit[k][i] != Inherit::normal || ik[k]->compress || ik[k]->stretch) return false;
    const AppliedLanes t = load_applied(lanes, i);
    const WorldLanes p = load_world(lanes, static_cast<std::size_t>(parent));
    const D4 x = target_x - p.x, y = target_y - p.y;
    const D4 d = p.a * p.d - p.b * p.c;
    const I4 degenerate = within(d, 0.0001);
    const D4 zero = {0, 0, 0, 0};
    const D4 tx = select(degenerate, zero, (x * p.d - y * p.b) / d - t.x);
    const D4 ty = select(degenerate, zero, (y * p.a - x * p.c) / d - t.y);
    D4 angle;
    atan2_each(ty, tx, angle);
    D4 rotation_ik = (-t.shear_x - t.rotation) + angle * k_rad_deg;
    rotation_ik = wrap_degrees_lanes(select(t.scale_x < 0.0, rotation_ik + 180.0, rotation_ik));
    store_applied(lanes, i, t.x, t.y, t.rotation + rotation_ik * alpha, t.scale_x, t.scale_y, t.shear_x, t.shear_y);
    compose_applied_lanes(lanes, i, static_cast<std::size_t>(parent));
    return true;
}

// solve_ik_two in each lane where every lane takes the uniform-scale branch (stretch and softness per lane): lane by
// lane solve_ik_two's operations. False, with nothing changed, for any other lane (an inherit mode other than normal,
// a non-uniform parent scale, the child on the parent's origin).
SPINEGPU_AVX2 bool ik_two_lanes(const Lanes& lanes, const IkPose* const (&ik)[4], bool uniform, std::size_t pi,
                                std::size_t ci, D4 target_x, D4 target_y, D4 alpha) {
    const SkeletonData& data = *lanes.pose[0]->data;
    const Index grandparent = data.bones[pi].parent, child_parent = data.bones[ci].parent;
    if (grandparent == k_none || child_parent == k_none) return false;
    D4 bend, softness_in;
    I4 stretch;
    for (int k = 0; k < 4; ++k) {
        if (lanes.inherit[k][pi] != Inherit::normal || lanes.inherit[k][ci] != Inherit::normal) return false;
        bend[k] = ik[k]->bend_direction;
        softness_in[k] = ik[k]->softness;
        stretch[k] = ik[k]->stretch ? -1 : 0;
    }
    const AppliedLanes pt = load_applied(lanes, pi), ct = load_applied(lanes, ci);
    const D4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1}, half_turn = splat(180);
    // Flipped scales: negated by a test on the sign (a -0 stays -0, as in solve_ik_two).
    const I4 parent_flip_x = pt.scale_x < 0.0, parent_flip_y = pt.scale_y < 0.0, child_flip = ct.scale_x < 0.0;
    const D4 psx = select(parent_flip_x, -pt.scale_x, pt.scale_x), psy = select(parent_flip_y, -pt.scale_y, pt.scale_y);
    const D4 csx = select(child_flip, -ct.scale_x, ct.scale_x);
    const D4 os1 = select(parent_flip_x, half_turn, zero), os2 = select(child_flip, half_turn, zero);
    D4 s2 = select(parent_flip_x, -one, one);
    s2 = select(parent_flip_y, -s2, s2);
    if (!all(within(psx - psy, 0.0001))) return false;

    const WorldLanes pw = load_world(lanes, pi);
    const D4 cx = ct.x, cy = select(stretch, zero, ct.y);
    const D4 cwx = select(stretch, pw.a * cx + pw.x, pw.a * cx + pw.b * cy + pw.x);
    const D4 cwy = select(stretch, pw.c * cx + pw.y, pw.c * cx + pw.d * cy + pw.y);
    const WorldLanes pp = load_world(lanes, static_cast<std::size_t>(grandparent));
    const D4 det = pp.a * pp.d - pp.b * pp.c;
    const D4 id = select(within(det, 0.0001), zero, 1.0 / det);
    D4 x = cwx - pp.x, y = cwy - pp.y;
    const D4 dx = (x * pp.d - y * pp.b) * id - pt.x, dy = (y * pp.a - x * pp.c) * id - pt.y;
    const D4 l1 = sqrt_lanes(dx * dx + dy * dy);
    if (any(l1 < 0.0001)) return false;
    D4 l2 = static_cast<double>(data.bones[ci].length) * csx;
    x = target_x - pp.x;
    y = target_y - pp.y;
    D4 tx = (x * pp.d - y * pp.b) * id - pt.x, ty = (y * pp.a - x * pp.c) * id - pt.y;
    D4 dd = tx * tx + ty * ty;
    const I4 soft = softness_in != 0.0;
    if (any(soft)) {
        const D4 softness = softness_in * (psx * (csx + 1.0) * 0.5);
        const D4 td = sqrt_lanes(dd), sd = td - l1 - l2 * psx + softness;
        const I4 pull = soft & (sd > 0.0);
        if (any(pull)) {
            D4 p = sd / (softness * 2.0);
            p = select(p < 1.0, p, one) - 1.0;  // std::min(1.0, p) - 1
            p = (sd - softness * (1.0 - p * p)) / td;
            tx = select(pull, tx - p * tx, tx);
            ty = select(pull, ty - p * ty, ty);
            dd = select(pull, tx * tx + ty * ty, dd);
        }
    }
    l2 = l2 * psx;
    D4 cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
    const I4 folded = cos < -1.0, straight = cos > 1.0;
    D4 a2;
    for (int k = 0; k < 4; ++k)
        a2[k] = folded[k] ? k_true_pi * bend[k] : straight[k] ? 0.0 : std::acos(cos[k]) * bend[k];
    D4 sx = pt.scale_x, sy = pt.scale_y;
    const I4 stretching = straight & stretch;
    if (any(stretching)) {
        const D4 s = (sqrt_lanes(dd) / (l1 + l2) - 1.0) * alpha + 1.0;
        sx = select(stretching, sx * s, sx);
        if (uniform) sy = select(stretching, sy * s, sy);
    }
    cos = select(folded, -one, select(straight, one, cos));
    const D4 a = l1 + l2 * cos;
    D4 sin_a2, cos_a2;
    sincos_each(a2, sin_a2, cos_a2);
    const D4 b = l2 * sin_a2;
    D4 a1, os;
    atan2_each(ty * a - tx * b, tx * a + ty * b, a1);
    atan2_each(cy, cx, os);
    os = os * s2;
    a1 = wrap_degrees_lanes((a1 - os) * k_rad_deg + os1 - pt.rotation);
    store_applied(lanes, pi, pt.x, pt.y, pt.rotation + a1 * alpha, sx, sy, zero, zero);
    compose_applied_lanes(lanes, pi, static_cast<std::size_t>(grandparent));
    a2 = wrap_degrees_lanes(((a2 + os) * k_rad_deg - ct.shear_x) * s2 + os2 - ct.rotation);
    store_applied(lanes, ci, cx, cy, ct.rotation + a2 * alpha, ct.scale_x, ct.scale_y, ct.shear_x, ct.shear_y);
    compose_applied_lanes(lanes, ci, static_cast<std::size_t>(child_parent));
    return true;
}

// apply_ik_constraint of constraint `constraint` in each lane, through ik_one_lanes or ik_two_lanes. False, with
// nothing changed, when a lane needs the per-pose code (also when the mix is 0 in some lanes and not in others).
SPINEGPU_AVX2 bool ik_lanes(const Lanes& lanes, Index constraint) {
    const auto c = static_cast<std::size_t>(constraint);
    const IkPose* ik[4];
    D4 alpha;
    int still = 0;
    for (int k = 0; k < 4; ++k) {
        ik[k] = &lanes.pose[k]->ik[c];
        alpha[k] = ik[k]->mix;
        still += ik[k]->mix == 0;
    }
    if (still == 4) return true;  // apply_ik_constraint does nothing
    if (still != 0) return false;
    const SkeletonData& data = *lanes.pose[0]->data;
    const IkConstraintData& constraint_data = data.ik_constraints[c];
    const auto target = static_cast<std::size_t>(constraint_data.target);
    D4 target_x, target_y;
    for (int k = 0; k < 4; ++k) {
        target_x[k] = lanes.world[k][target].x;
        target_y[k] = lanes.world[k][target].y;
    }
    const std::span<const Index> bones = data.index_span(constraint_data.bones);
    if (bones.size() == 1)
        return ik_one_lanes(lanes, ik, static_cast<std::size_t>(bones[0]), target_x, target_y, alpha);
    if (bones.size() == 2)
        return ik_two_lanes(lanes, ik, constraint_data.uniform, static_cast<std::size_t>(bones[0]),
                            static_cast<std::size_t>(bones[1]), target_x, target_y, alpha);
    return true;  // neither: apply_ik_constraint does nothing
}

// update_applied_transform of bone `i` in each lane (bone_transform.cpp): lane by lane its operations where the bone
// has a parent and inherits normally in every lane, its own call per lane otherwise.
SPINEGPU_AVX2 void applied_from_world_lanes(const Lanes& lanes, std::size_t i) {
    const Index parent = lanes.pose[0]->data->bones[i].parent;
    bool normal = parent != k_none;
    for (int k = 0; k < 4 && normal; ++k) normal = lanes.inherit[k][i] == Inherit::normal;
    if (!normal) {
        for (int k = 0; k < 4; ++k) update_applied_transform(*lanes.pose[k], static_cast<Index>(i));
        return;
    }
    const WorldLanes w = load_world(lanes, i), p = load_world(lanes, static_cast<std::size_t>(parent));
    const D4 pid = 1.0 / (p.a * p.d - p.b * p.c);
    const D4 ia = p.d * pid, ib = p.b * pid, ic = p.c * pid, id = p.a * pid;
    const D4 dx = w.x - p.x, dy = w.y - p.y;
    const D4 x = dx * ia - dy * ib, y = dy * id - dx * ic;
    const D4 ra = ia * w.a - ib * w.c, rb = ia * w.b - ib * w.d, rc = id * w.c - ic * w.a, rd = id * w.d - ic * w.b;
    const D4 scale_x = sqrt_lanes(ra * ra + rc * rc);
    const I4 scaled = scale_x > 0.0001;
    const D4 zero = {0, 0, 0, 0};
    // Each branch's values, computed only when some lane takes it.
    D4 rotation = zero, scale_y = zero, shear_y = zero;
    if (any(scaled)) {
        const D4 det = ra * rd - rb * rc;
        D4 shear, angle;
        atan2_each(ra * rb + rc * rd, det, shear);
        atan2_each(rc, ra, angle);
        rotation = angle * k_rad_deg;
        scale_y = det / scale_x;
        shear_y = -shear * k_rad_deg;
    }
    if (any(~scaled)) {
        D4 angle;
        atan2_each(rd, rb, angle);
        rotation = select(scaled, rotation, 90.0 - angle * k_rad_deg);
        scale_y = select(scaled, scale_y, sqrt_lanes(rb * rb + rd * rd));
        shear_y = select(scaled, shear_y, zero);
    }
    store_applied(lanes, i, x, y, rotation, select(scaled, scale_x, zero), scale_y, zero, shear_y);
}

// apply_transform_constraint in each lane for a world-space constraint that only translates: the rotate and scale
// mixes 0 and the shear mix not above 0 in every lane (apply_world's other branches off), some mix not 0 in every
// lane. False, with nothing changed, for any other constraint or lane; true without work when every lane's mixes are 0.
SPINEGPU_AVX2 bool transform_lanes(const Lanes& lanes, Index constraint, bool update_applied) {
    const auto c = static_cast<std::size_t>(constraint);
    D4 mix_x, mix_y;
    int still = 0;
    bool translate_only = true;
    for (int k = 0; k < 4; ++k) {
        const TransformPose& p = lanes.pose[k]->transform[c];
        const bool zero = p.mix_rotate == 0 && p.mix_x == 0 && p.mix_y == 0 && p.mix_scale_x == 0 &&
                          p.mix_scale_y == 0 && p.mix_shear_y == 0;
        still += zero;
        translate_only = translate_only && p.mix_rotate == 0 && p.mix_scale_x == 0 && p.mix_scale_y == 0 &&
                         !(p.mix_shear_y > 0);
        mix_x[k] = p.mix_x;
        mix_y[k] = p.mix_y;
    }
    if (still == 4) return true;  // apply_transform_constraint does nothing
    const SkeletonData& data = *lanes.pose[0]->data;
    const TransformConstraintData& constraint_data = data.transform_constraints[c];
    if (still != 0 || !translate_only || constraint_data.local) return false;
    const I4 translate = (mix_x != 0.0) | (mix_y != 0.0);
    const auto target = static_cast<std::size_t>(constraint_data.target);
    const double offset_x = constraint_data.offset_x, offset_y = constraint_data.offset_y;
    for (const Index bone : data.index_span(constraint_data.bones)) {
        const auto i = static_cast<std::size_t>(bone);
        const WorldLanes t = load_world(lanes, target);  // per bone: a constrained bone may be the target
        WorldLanes w = load_world(lanes, i);
        const D4 x = offset_x * t.a + offset_y * t.b + t.x, y = offset_x * t.c + offset_y * t.d + t.y;
        const D4 moved_x = constraint_data.relative ? w.x + x * mix_x : w.x + (x - w.x) * mix_x;
        const D4 moved_y = constraint_data.relative ? w.y + y * mix_y : w.y + (y - w.y) * mix_y;
        w.x = select(translate, moved_x, w.x);
        w.y = select(translate, moved_y, w.y);
        store_world(lanes, i, w);
        if (update_applied) applied_from_world_lanes(lanes, i);
    }
    return true;
}

// update_each's result for 2 to 4 poses, walking their shared cache once.
SPINEGPU_AVX2 void update_lanes(std::span<SkeletonPose* const> poses, Physics physics) {
    Lanes lanes;
    for (std::size_t k = 0; k < 4; ++k) {
        SkeletonPose& pose = *poses[std::min(k, poses.size() - 1)];
        lanes.pose[k] = &pose;
        lanes.applied[k] = pose.applied.data();
        lanes.inherit[k] = pose.inherit.data();
        lanes.world[k] = pose.world.data();
        lanes.scale_x[k] = pose.scale_x;
        lanes.scale_y[k] = pose.scale_y;
    }
    lanes.setup = setup_axes(*poses[0]);
    for (SkeletonPose* pose : poses) std::copy(pose->local.begin(), pose->local.end(), pose->applied.begin());
    // Whether every lane's bones inherit as lane 0's (inherit timelines can change them per pose): then a bone step
    // reads lane 0's mode alone. (A group of fewer poses repeats its last one, which agrees with itself.) A skeleton
    // without bones has no arrays to compare (their pointers may be null, which memcmp must not see).
    const std::size_t bones = poses[0]->inherit.size();
    bool same_inherit = true;
    for (std::size_t k = 1; k < 4 && bones != 0; ++k)
        same_inherit = same_inherit && std::memcmp(lanes.inherit[k], lanes.inherit[0], bones * sizeof(Inherit)) == 0;
    const UpdateStep* step = poses[0]->update_cache.data();
    const UpdateStep* const end = step + poses[0]->update_cache.size();
    while (step != end) {
        if (step->kind != UpdateStep::Kind::bone) {
            bool done = false;
            switch (step->kind) {
            case UpdateStep::Kind::ik: done = ik_lanes(lanes, step->index); break;
            case UpdateStep::Kind::transform: done = transform_lanes(lanes, step->index, step->update_applied); break;
            default: break;
            }
            if (!done)
                for (SkeletonPose* pose : poses) apply_constraint_step(*pose, *step, physics);
            ++step;
            continue;
        }
        do {
            const auto i = static_cast<std::size_t>(step->index);
            const Index parent = step->parent;
            const Inherit inherit = lanes.inherit[0][i];
            const bool same = same_inherit || (lanes.inherit[1][i] == inherit && lanes.inherit[2][i] == inherit &&
                                               lanes.inherit[3][i] == inherit);
            if (parent != k_none && same && inherit == Inherit::normal && lanes.setup != nullptr)
                compose_normal_lanes(lanes, i, static_cast<std::size_t>(parent));
            else if (parent != k_none && same && inherit == Inherit::normal)
                compose_applied_lanes(lanes, i, static_cast<std::size_t>(parent));
            else if (parent != k_none && same && inherit == Inherit::no_rotation_or_reflection)
                compose_no_rotation_lanes(lanes, i, static_cast<std::size_t>(parent));
            else
                for (SkeletonPose* pose : poses) pose_bone_run(*pose, step, step + 1);
        } while (++step != end && step->kind == UpdateStep::Kind::bone);
    }
}

// sincos_4 where AVX2 is known to be present.
SPINEGPU_AVX2 bool sincos_4_avx2(const double x[4], double sin_x[4], double cos_x[4]) {
    D4 s, c;
    if (!sincos_lanes(D4{x[0], x[1], x[2], x[3]}, s, c)) return false;
    for (int k = 0; k < 4; ++k) {
        sin_x[k] = s[k];
        cos_x[k] = c[k];
    }
    return true;
}

// atan2_4 where AVX2 is known to be present.
SPINEGPU_AVX2 bool atan2_4_avx2(const double y[4], const double x[4], double out[4]) {
    D4 r;
    if (!atan2_lanes(D4{y[0], y[1], y[2], y[3]}, D4{x[0], x[1], x[2], x[3]}, r)) return false;
    for (int k = 0; k < 4; ++k) out[k] = r[k];
    return true;
}

// Whether the group path is switched off for a measurement (SPINEGPU_DIAGNOSE_NO_WORLD_GROUP=1).
bool switched_off() {
    const char* value = std::getenv("SPINEGPU_DIAGNOSE_NO_WORLD_GROUP");
    return value != nullptr && value[0] == '1';
}

}  // namespace

bool world_group_simd_available() {
    static const bool available = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && !switched_off();
    }();
    return available;
}

bool sincos_4(const double x[4], double sin_x[4], double cos_x[4]) {
    if (!world_group_simd_available()) return false;
    return sincos_4_avx2(x, sin_x, cos_x);
}

bool atan2_4(const double y[4], const double x[4], double out[4]) {
    if (!world_group_simd_available()) return false;
    return atan2_4_avx2(y, x, out);
}

#else

bool world_group_simd_available() { return false; }

bool sincos_4(const double*, double*, double*) { return false; }

bool atan2_4(const double*, const double*, double*) { return false; }

#endif

void update_world_transforms(std::span<SkeletonPose* const> poses, Physics physics) {
    assert(!poses.empty() && poses.size() <= k_world_group_size);
#if SPINEGPU_WORLD_GROUP_AVX2
    if (poses.size() > 1 && world_group_simd_available()) {
        update_lanes(poses, physics);
        for (SkeletonPose* pose : poses) renew_world_stamps(*pose);
        return;
    }
#endif
    update_each(poses, physics);
}

}  // namespace spinegpu::detail
