// The common case of Bone.updateWorldTransform, inline: a bone with a parent and Inherit::normal (nearly every bone
// of every rig). update_world_transform runs it for each bone of the update cache without a call; the other cases
// (root, the four other inherit modes) go through update_bone_world in bone_transform.cpp, which uses the same
// local_matrix. Arithmetic in double, rounded to float once when stored, as bone_transform.cpp explains.
// world_group.cpp's compose_normal_lanes repeats normal_bone_world operation for operation on four poses: a change
// here is a change there.
//
// The compose has an SSE2 form (two doubles per operation, the same operations on each value in the same order, so
// the same bits; only a NaN result may carry another NaN's sign or payload, which x86 picks by operand order, an
// order the compiler chooses for the scalar code too) and the scalar reference; -DSPINEGPU_SCALAR=ON, or a target
// without SSE2, builds the reference.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__SSE2__) && !defined(SPINEGPU_SCALAR)
#include <emmintrin.h>
#define SPINEGPU_BONE_WORLD_SSE2 1
#endif

#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::detail {

// cos and sin of the runtime's 90 degrees (its pi is not quite pi, so these are not quite 0 and 1).
extern const double k_cos_90, k_sin_90;

// A local rotation/scale/shear matrix (a b / c d) in double.
struct LocalMatrix {
    double a, b, c, d;
};

// The local matrix of an applied pose (rotation and shear in degrees) from the sine and cosine of rotation + shear x.
inline LocalMatrix local_matrix_from(double sin_x, double cos_x, double rotation, double scale_x, double scale_y,
                                     double shear_x, double shear_y) {
    if (shear_x == shear_y) {
        // The y axis is the x axis turned by the runtime's 90 degrees: the angle-sum identity saves two of the four
        // trigonometric calls per bone and agrees with computing them to about 1e-16.
        return {cos_x * scale_x, (cos_x * k_cos_90 - sin_x * k_sin_90) * scale_y, sin_x * scale_x,
                (sin_x * k_cos_90 + cos_x * k_sin_90) * scale_y};
    }
    double cos_y, sin_y;
    fast_sincos((rotation + 90 + shear_y) * k_deg_rad, sin_y, cos_y);
    return {cos_x * scale_x, cos_y * scale_y, sin_x * scale_x, sin_y * scale_y};
}

// The local matrix of an applied pose (rotation and shear in degrees).
inline LocalMatrix local_matrix(double rotation, double scale_x, double scale_y, double shear_x, double shear_y) {
    double cos_x, sin_x;
    fast_sincos((rotation + shear_x) * k_deg_rad, sin_x, cos_x);
    return local_matrix_from(sin_x, cos_x, rotation, scale_x, scale_y, shear_x, shear_y);
}

// The world transform from a local matrix `l` and translation (tx, ty) under the parent world transform `p`.
inline void compose_world(const LocalMatrix& l, double tx, double ty, const BoneWorld& p, BoneWorld& out) {
    const double pa = p.a, pb = p.b, pc = p.c, pd = p.d, px = p.x, py = p.y;
    out.a = static_cast<float>(pa * l.a + pb * l.c);
    out.b = static_cast<float>(pa * l.b + pb * l.d);
    out.c = static_cast<float>(pc * l.a + pd * l.c);
    out.d = static_cast<float>(pc * l.b + pd * l.d);
    out.x = static_cast<float>(pa * tx + pb * ty + px);
    out.y = static_cast<float>(pc * tx + pd * ty + py);
}

// The world transform of a bone with Inherit::normal from its applied pose `t`, the sine and cosine of its x-axis
// angle (rotation + shear x) and its parent's world transform `p` (the skeleton's scale is already in the parent's
// matrix). The scalar reference: what the SSE2 form below must equal bit for bit.
inline void compose_normal_scalar(double sin_x, double cos_x, const BoneTransform& t, const BoneWorld& p,
                                  BoneWorld& out) {
    compose_world(local_matrix_from(sin_x, cos_x, t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y), t.x, t.y,
                  p, out);
}

#if SPINEGPU_BONE_WORLD_SSE2
static_assert(offsetof(BoneTransform, y) == offsetof(BoneTransform, x) + 4 &&
              offsetof(BoneTransform, scale_y) == offsetof(BoneTransform, scale_x) + 4);
static_assert(offsetof(BoneWorld, b) == 4 && offsetof(BoneWorld, c) == 8 && offsetof(BoneWorld, d) == 12 &&
              offsetof(BoneWorld, x) == 16 && offsetof(BoneWorld, y) == 20);

// Two adjacent floats widened to a pair of doubles.
inline __m128d load_float_pair(const float* p) {
    return _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

// compose_normal_scalar with pairs: the local matrix's rows (la, lb) and (lc, ld) from the x axis (cos, sin) and the y
// axis, then the rows (a, b), (c, d) and the position (x, y) of the world transform, each product and sum the
// scalar code's own.
inline void compose_normal_sse2(double sin_x, double cos_x, const BoneTransform& t, const BoneWorld& p,
                                BoneWorld& out) {
    const __m128d x_axis = _mm_set_pd(sin_x, cos_x);
    __m128d y_axis;
    if (t.shear_x == t.shear_y) {
        // (cos·cos90 − sin·sin90, sin·cos90 + cos·sin90): a − b is a + (−b) exactly.
        const __m128d swapped = _mm_shuffle_pd(x_axis, x_axis, 1);
        y_axis = _mm_add_pd(_mm_mul_pd(x_axis, _mm_set1_pd(k_cos_90)),
                            _mm_mul_pd(swapped, _mm_set_pd(k_sin_90, -k_sin_90)));
    } else {
        double cos_y, sin_y;
        fast_sincos((static_cast<double>(t.rotation) + 90 + t.shear_y) * k_deg_rad, sin_y, cos_y);
        y_axis = _mm_set_pd(sin_y, cos_y);
    }
    const __m128d scale = load_float_pair(&t.scale_x);
    const __m128d top = _mm_mul_pd(_mm_unpacklo_pd(x_axis, y_axis), scale);     // (la, lb)
    const __m128d bottom = _mm_mul_pd(_mm_unpackhi_pd(x_axis, y_axis), scale);  // (lc, ld)

    const __m128 pm = _mm_loadu_ps(&p.a);
    const __m128d pab = _mm_cvtps_pd(pm), pcd = _mm_cvtps_pd(_mm_movehl_ps(pm, pm));
    const __m128d ab =
        _mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(pab, pab), top), _mm_mul_pd(_mm_unpackhi_pd(pab, pab), bottom));
    const __m128d cd =
        _mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(pcd, pcd), top), _mm_mul_pd(_mm_unpackhi_pd(pcd, pcd), bottom));
    const __m128d txy = load_float_pair(&t.x);
    const __m128d xy = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_unpacklo_pd(pab, pcd), _mm_unpacklo_pd(txy, txy)),
                                             _mm_mul_pd(_mm_unpackhi_pd(pab, pcd), _mm_unpackhi_pd(txy, txy))),
                                  load_float_pair(&p.x));
    _mm_storeu_ps(&out.a, _mm_movelh_ps(_mm_cvtpd_ps(ab), _mm_cvtpd_ps(cd)));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(&out.x), _mm_castps_si128(_mm_cvtpd_ps(xy)));
}
#endif

// compose_normal_scalar, in its SSE2 form where the build has it.
inline void compose_normal(double sin_x, double cos_x, const BoneTransform& t, const BoneWorld& p, BoneWorld& out) {
#if SPINEGPU_BONE_WORLD_SSE2
    compose_normal_sse2(sin_x, cos_x, t, p, out);
#else
    compose_normal_scalar(sin_x, cos_x, t, p, out);
#endif
}

// The world transform of a bone with Inherit::normal from its applied pose `t` and its parent's world transform `p`.
// Always inline: IK poses two bones per constraint through it, and GCC's size heuristics otherwise leave one of
// them as a call that spills the caller's doubles around it.
[[gnu::always_inline]] inline void normal_bone_world(const BoneTransform& t, const BoneWorld& p, BoneWorld& out) {
    double cos_x, sin_x;
    fast_sincos((static_cast<double>(t.rotation) + t.shear_x) * k_deg_rad, sin_x, cos_x);
    compose_normal(sin_x, cos_x, t, p, out);
}

// The same, taking the sine and cosine from the bone's setup axis when its angle has exactly the setup angle's bits
// (so they are the values the computation would give), which is the case for most bones in most frames.
inline void normal_bone_world(const BoneTransform& t, const BoneWorld& p, BoneWorld& out, const BoneSetupAxis& setup) {
    const double angle = static_cast<double>(t.rotation) + t.shear_x;
    double sin_x = setup.sin, cos_x = setup.cos;
    if (std::bit_cast<std::uint64_t>(angle) != std::bit_cast<std::uint64_t>(setup.angle))
        fast_sincos(angle * k_deg_rad, sin_x, cos_x);
    compose_normal(sin_x, cos_x, t, p, out);
}

// The setup axes of `pose`'s bones (SkeletonData::bone_setup_axes), or null when the data's do not cover every bone
// (data changed after finish_skeleton_data): its bones then compute their own sine and cosine.
inline const BoneSetupAxis* setup_axes(const SkeletonPose& pose) {
    const std::vector<BoneSetupAxis>& axes = pose.data->bone_setup_axes;
    return axes.size() == pose.world.size() ? axes.data() : nullptr;
}

}  // namespace spinegpu::detail
