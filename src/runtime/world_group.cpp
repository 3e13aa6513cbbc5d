// World transforms of a group of poses with one update cache (world_group.hpp). The AVX2 functions carry a target
// attribute instead of the file being built with -mavx2, so that nothing else compiled here (inline functions of
// headers, emitted once for the whole program) can contain AVX2 code that a CPU without it would reach.
#include "world_group.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

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
    const BoneTransform* applied[4];
    const Inherit* inherit[4];
    BoneWorld* world[4];
    BoneAngleCache* angle[4];
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

// normal_bone_world (the form with the angle cache) of bone `i` under `parent` in each lane, lane by lane the same
// operations as compose_normal_sse2 and fast_sincos.
SPINEGPU_AVX2 void compose_normal_lanes(const Lanes& lanes, std::size_t i, std::size_t parent) {
    const AppliedLanes t = load_applied(lanes, i);

    // The x axis: the cached sine and cosine where the angle is unchanged.
    const D4 angle = t.rotation + t.shear_x;
    const BoneAngleCache &c0 = lanes.angle[0][i], &c1 = lanes.angle[1][i], &c2 = lanes.angle[2][i],
                         &c3 = lanes.angle[3][i];
    D4 sin_x = {c0.sin, c1.sin, c2.sin, c3.sin};
    D4 cos_x = {c0.cos, c1.cos, c2.cos, c3.cos};
    const D4 cached = {c0.angle, c1.angle, c2.angle, c3.angle};
    const I4 changed = angle != cached;
    if (any(changed)) {
        sincos_where(changed, angle * k_deg_rad, sin_x, cos_x);
        // Only changed lanes store: an unchanged lane's key may differ in the sign of a zero, as in the scalar test.
        for (int k = 0; k < 4; ++k)
            if (changed[k] != 0) lanes.angle[k][i] = BoneAngleCache{angle[k], sin_x[k], cos_x[k]};
    }
    D4 la, lb, lc, ld;
    local_matrix_lanes(sin_x, cos_x, t.rotation, t, la, lb, lc, ld);

    const WorldLanes p = load_world(lanes, parent);
    store_world(lanes, i,
                {p.a * la + p.b * lc, p.a * lb + p.b * ld, p.c * la + p.d * lc, p.c * lb + p.d * ld,
                 p.a * t.x + p.b * t.y + p.x, p.c * t.x + p.d * t.y + p.y});
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

// update_each's result for 2 to 4 poses, walking their shared cache once.
SPINEGPU_AVX2 void update_lanes(std::span<SkeletonPose* const> poses, Physics physics) {
    Lanes lanes;
    for (std::size_t k = 0; k < 4; ++k) {
        SkeletonPose& pose = *poses[std::min(k, poses.size() - 1)];
        lanes.applied[k] = pose.applied.data();
        lanes.inherit[k] = pose.inherit.data();
        lanes.world[k] = pose.world.data();
        lanes.angle[k] = pose.bone_angle.data();
        lanes.scale_x[k] = pose.scale_x;
        lanes.scale_y[k] = pose.scale_y;
    }
    for (SkeletonPose* pose : poses) std::copy(pose->local.begin(), pose->local.end(), pose->applied.begin());
    const UpdateStep* step = poses[0]->update_cache.data();
    const UpdateStep* const end = step + poses[0]->update_cache.size();
    while (step != end) {
        if (step->kind != UpdateStep::Kind::bone) {
            for (SkeletonPose* pose : poses) apply_constraint_step(*pose, *step, physics);
            ++step;
            continue;
        }
        do {
            const auto i = static_cast<std::size_t>(step->index);
            const Index parent = step->parent;
            const Inherit inherit = lanes.inherit[0][i];
            const bool same = lanes.inherit[1][i] == inherit && lanes.inherit[2][i] == inherit &&
                              lanes.inherit[3][i] == inherit;
            if (parent != k_none && same && inherit == Inherit::normal)
                compose_normal_lanes(lanes, i, static_cast<std::size_t>(parent));
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
        return;
    }
#endif
    update_each(poses, physics);
}

}  // namespace spinegpu::detail
