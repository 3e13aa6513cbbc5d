// The common case of Bone.updateWorldTransform, inline: a bone with a parent and Inherit::normal (nearly every bone
// of every rig). update_world_transform runs it for each bone of the update cache without a call; the other cases
// (root, the four other inherit modes) go through update_bone_world in bone_transform.cpp, which uses the same
// local_matrix. Arithmetic in double, rounded to float once when stored, as bone_transform.cpp explains.
#pragma once

#include "fast_trig.hpp"
#include "runtime_math.hpp"
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

// The world transform of a bone with Inherit::normal from its applied pose `t` and its parent's world transform `p`
// (the skeleton's scale is already in the parent's matrix).
inline void normal_bone_world(const BoneTransform& t, const BoneWorld& p, BoneWorld& out) {
    compose_world(local_matrix(t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y), t.x, t.y, p, out);
}

// The same, taking the sine and cosine from the bone's cache when its angle is unchanged (and refreshing it if not).
inline void normal_bone_world(const BoneTransform& t, const BoneWorld& p, BoneWorld& out, BoneAngleCache& cache) {
    const double rotation = t.rotation, shear_x = t.shear_x;
    const double angle = rotation + shear_x;
    if (angle != cache.angle) {
        fast_sincos(angle * k_deg_rad, cache.sin, cache.cos);
        cache.angle = angle;
    }
    compose_world(local_matrix_from(cache.sin, cache.cos, rotation, t.scale_x, t.scale_y, shear_x, t.shear_y), t.x,
                  t.y, p, out);
}

}  // namespace spinegpu::detail
