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

// Sets the lanes of `sin_x` and `cos_x` where `mask` is set to fast_sincos of `x`'s: sincos_lanes, or lane by lane
// when it declines.
SPINEGPU_AVX2 inline void sincos_where(I4 mask, D4 x, D4& sin_x, D4& cos_x) {
    D4 s, c;
    if (!sincos_lanes(x, s, c)) {
        for (int k = 0; k < 4; ++k) {
            double sin_k, cos_k;
            fast_sincos(x[k], sin_k, cos_k);
            s[k] = sin_k;
            c[k] = cos_k;
        }
    }
    sin_x = select(mask, s, sin_x);
    cos_x = select(mask, c, cos_x);
}

// The per-pose arrays of the group's four lanes (a group of fewer poses repeats its last pose: the repeated lane
// computes and stores the same bits again).
struct Lanes {
    const BoneTransform* applied[4];
    const Inherit* inherit[4];
    BoneWorld* world[4];
    BoneAngleCache* angle[4];
};

// Four floats at `p` (any alignment).
SPINEGPU_AVX2 inline __m128 load4(const float* p) { return _mm_loadu_ps(p); }

// Two floats at `p` in the low half (through an integer load, which may alias anything).
SPINEGPU_AVX2 inline __m128 load2(const float* p) {
    return _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

SPINEGPU_AVX2 inline D4 widen(__m128 v) { return D4(_mm256_cvtps_pd(v)); }

// The layout compose_normal_lanes loads and stores with four-float and two-float moves.
static_assert(offsetof(BoneTransform, x) == 0 && offsetof(BoneTransform, y) == 4 &&
              offsetof(BoneTransform, rotation) == 8 && offsetof(BoneTransform, scale_x) == 12 &&
              offsetof(BoneTransform, scale_y) == 16 && offsetof(BoneTransform, shear_x) == 20 &&
              offsetof(BoneTransform, shear_y) == 24 && sizeof(BoneTransform) == 28);
static_assert(offsetof(BoneWorld, a) == 0 && offsetof(BoneWorld, b) == 4 && offsetof(BoneWorld, c) == 8 &&
              offsetof(BoneWorld, d) == 12 && offsetof(BoneWorld, x) == 16 && offsetof(BoneWorld, y) == 20);

// normal_bone_world (the form with the angle cache) of bone `i` under `parent` in each lane, lane by lane the same
// operations as compose_normal_sse2 and fast_sincos.
SPINEGPU_AVX2 void compose_normal_lanes(const Lanes& lanes, std::size_t i, std::size_t parent) {
    // Applied poses, transposed: (x, y, rotation, scale x) and (scale x, scale y, shear x, shear y) per lane.
    __m128 tx = load4(&lanes.applied[0][i].x), ty = load4(&lanes.applied[1][i].x), rot = load4(&lanes.applied[2][i].x),
           sx = load4(&lanes.applied[3][i].x);
    _MM_TRANSPOSE4_PS(tx, ty, rot, sx);
    __m128 sx2 = load4(&lanes.applied[0][i].scale_x), sy = load4(&lanes.applied[1][i].scale_x),
           shx = load4(&lanes.applied[2][i].scale_x), shy = load4(&lanes.applied[3][i].scale_x);
    _MM_TRANSPOSE4_PS(sx2, sy, shx, shy);

    // The x axis: the cached sine and cosine where the angle is unchanged.
    const D4 rotation = widen(rot), shear_x = widen(shx);
    const D4 angle = rotation + shear_x;
    const BoneAngleCache &c0 = lanes.angle[0][i], &c1 = lanes.angle[1][i], &c2 = lanes.angle[2][i], &c3 = lanes.angle[3][i];
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

    // The y axis: the x axis turned by the runtime's 90 degrees where shear x equals shear y, its own angle elsewhere.
    D4 cos_y = cos_x * k_cos_90 + sin_x * -k_sin_90;
    D4 sin_y = sin_x * k_cos_90 + cos_x * k_sin_90;
    const I4 sheared = ~I4(_mm256_cvtepi32_epi64(_mm_castps_si128(_mm_cmpeq_ps(shx, shy))));
    if (any(sheared)) sincos_where(sheared, (rotation + 90.0 + widen(shy)) * k_deg_rad, sin_y, cos_y);

    const D4 scale_x = widen(sx), scale_y = widen(sy);
    const D4 la = cos_x * scale_x, lb = cos_y * scale_y, lc = sin_x * scale_x, ld = sin_y * scale_y;

    // Parent world transforms, transposed.
    __m128 pa = load4(&lanes.world[0][parent].a), pb = load4(&lanes.world[1][parent].a), pc = load4(&lanes.world[2][parent].a),
           pd = load4(&lanes.world[3][parent].a);
    _MM_TRANSPOSE4_PS(pa, pb, pc, pd);
    const __m128 xy01 = _mm_movelh_ps(load2(&lanes.world[0][parent].x), load2(&lanes.world[1][parent].x));
    const __m128 xy23 = _mm_movelh_ps(load2(&lanes.world[2][parent].x), load2(&lanes.world[3][parent].x));
    const D4 px = widen(_mm_shuffle_ps(xy01, xy23, _MM_SHUFFLE(2, 0, 2, 0)));
    const D4 py = widen(_mm_shuffle_ps(xy01, xy23, _MM_SHUFFLE(3, 1, 3, 1)));
    const D4 a = widen(pa), b = widen(pb), c = widen(pc), d = widen(pd);

    const D4 x = widen(tx), y = widen(ty);
    __m128 wa = _mm256_cvtpd_ps(__m256d(a * la + b * lc));
    __m128 wb = _mm256_cvtpd_ps(__m256d(a * lb + b * ld));
    __m128 wc = _mm256_cvtpd_ps(__m256d(c * la + d * lc));
    __m128 wd = _mm256_cvtpd_ps(__m256d(c * lb + d * ld));
    const __m128 wx = _mm256_cvtpd_ps(__m256d(a * x + b * y + px));
    const __m128 wy = _mm256_cvtpd_ps(__m256d(c * x + d * y + py));
    _MM_TRANSPOSE4_PS(wa, wb, wc, wd);
    _mm_storeu_ps(&lanes.world[0][i].a, wa);
    _mm_storeu_ps(&lanes.world[1][i].a, wb);
    _mm_storeu_ps(&lanes.world[2][i].a, wc);
    _mm_storeu_ps(&lanes.world[3][i].a, wd);
    const __m128 out01 = _mm_unpacklo_ps(wx, wy), out23 = _mm_unpackhi_ps(wx, wy);
    _mm_storel_pi(reinterpret_cast<__m64*>(&lanes.world[0][i].x), out01);
    _mm_storeh_pi(reinterpret_cast<__m64*>(&lanes.world[1][i].x), out01);
    _mm_storel_pi(reinterpret_cast<__m64*>(&lanes.world[2][i].x), out23);
    _mm_storeh_pi(reinterpret_cast<__m64*>(&lanes.world[3][i].x), out23);
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
            const bool normal = lanes.inherit[0][i] == Inherit::normal && lanes.inherit[1][i] == Inherit::normal &&
                                lanes.inherit[2][i] == Inherit::normal && lanes.inherit[3][i] == Inherit::normal;
            if (parent != k_none && normal) {
                compose_normal_lanes(lanes, i, static_cast<std::size_t>(parent));
            } else {
                for (SkeletonPose* pose : poses) pose_bone_run(*pose, step, step + 1);
            }
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

#else

bool world_group_simd_available() { return false; }

bool sincos_4(const double*, double*, double*) { return false; }

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
