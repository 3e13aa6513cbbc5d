// Bone world transforms from applied poses and back (Spine's Bone.updateWorldTransformWith and
// Bone.updateAppliedTransform), for all five inherit modes. The arithmetic is done in double, as the official
// runtime does it, and rounded to float once when stored: chains of bones then lose no more than one float rounding
// per level.
// world_group.cpp's applied_from_world_lanes repeats update_applied_transform's normal case operation for operation on
// four poses: a change here is a change there.
#include <cmath>

#include "bone_world.hpp"
#include "constraints.hpp"
#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {

namespace detail {
const double k_cos_90 = std::cos(90 * k_deg_rad);
const double k_sin_90 = std::sin(90 * k_deg_rad);
}  // namespace detail

using detail::fast_atan2;
using detail::fast_sincos;
using detail::k_deg_rad;
using detail::k_rad_deg;

namespace {

using Matrix = detail::LocalMatrix;
using detail::local_matrix;

struct WorldD {
    double a, b, c, d, x, y;
};

// The cases of bone_world_from_applied, each on its own: as one function with the shared set-up hoisted above the
// switch, the compiler vectorised the set-up for every case and spilled most of it.

// The root takes the skeleton's position and scale (flip is a negative scale).
WorldD root_world(const SkeletonPose& pose, const BoneTransform& t) {
    const double sx = pose.scale_x, sy = pose.scale_y;
    const Matrix l = local_matrix(t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y);
    return {l.a * sx, l.b * sx, l.c * sy, l.d * sy, t.x * sx + pose.x, t.y * sy + pose.y};
}

// The bone's world position under its parent (every case with a parent).
void world_position(const BoneWorld& p, const BoneTransform& t, double& x, double& y) {
    const double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    x = pa * t.x + pb * t.y + p.x;
    y = pc * t.x + pd * t.y + p.y;
}

// The matrix (before the skeleton's scale) of Inherit::no_rotation_or_reflection: the parent's rotation is removed,
// keeping its scale; the skeleton's scale is divided out first so that a flipped skeleton does not count as a parent
// reflection. world_group.cpp's compose_no_rotation_lanes repeats it operation for operation on four poses:
// a change here is a change there.
Matrix no_rotation_matrix(const SkeletonPose& pose, const BoneWorld& p, const BoneTransform& t) {
    const double sx = pose.scale_x, sy = pose.scale_y;
    double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    const double isx = 1 / sx, isy = 1 / sy;
    pa *= isx;
    pc *= isy;
    double s = pa * pa + pc * pc;
    double prx;
    if (s > 0.0001) {
        s = std::abs(pa * pd * isy - pb * isx * pc) / s;
        pb = pc * s;
        pd = pa * s;
        prx = fast_atan2(pc, pa) * k_rad_deg;
    } else {
        pa = 0;
        pc = 0;
        prx = 90 - fast_atan2(pd, pb) * k_rad_deg;
    }
    const Matrix l = local_matrix(t.rotation - prx, t.scale_x, t.scale_y, t.shear_x, t.shear_y);
    return {pa * l.a - pb * l.c, pa * l.b - pb * l.d, pc * l.a + pd * l.c, pc * l.b + pd * l.d};
}

// The matrix (before the skeleton's scale) of Inherit::no_scale and no_scale_or_reflection: the parent's rotation
// applied to a unit x axis, renormalised: rotation inherited, scale not.
Matrix no_scale_matrix(const SkeletonPose& pose, const BoneWorld& p, const BoneTransform& t, Inherit inherit) {
    const double sx = pose.scale_x, sy = pose.scale_y;
    const double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    const double r = t.rotation * k_deg_rad;
    double cos, sin;
    fast_sincos(r, sin, cos);
    double za = (pa * cos + pb * sin) / sx;
    double zc = (pc * cos + pd * sin) / sy;
    double s = std::sqrt(za * za + zc * zc);
    if (s > 0.00001) s = 1 / s;
    za *= s;
    zc *= s;
    s = std::sqrt(za * za + zc * zc);
    if (inherit == Inherit::no_scale && (pa * pd - pb * pc < 0) != ((sx < 0) != (sy < 0))) s = -s;
    // Math.PI here, not the runtime's own pi: this is what the official formula uses.
    const double zr = detail::k_true_pi / 2 + fast_atan2(zc, za);
    double cos_zr, sin_zr;
    fast_sincos(zr, sin_zr, cos_zr);
    const double zb = cos_zr * s;
    const double zd = sin_zr * s;
    const Matrix l = local_matrix(0, t.scale_x, t.scale_y, t.shear_x, t.shear_y);
    return {za * l.a + zb * l.c, za * l.b + zb * l.d, zc * l.a + zd * l.c, zc * l.b + zd * l.d};
}

// The world transform bone `bone` gets from its applied pose and its parent's world transform, unrounded.
WorldD bone_world_from_applied(const SkeletonPose& pose, Index bone) {
    const auto i = static_cast<std::size_t>(bone);
    const BoneTransform& t = pose.applied[i];
    const Index parent = pose.data->bones[i].parent;
    if (parent == k_none) return root_world(pose, t);

    const BoneWorld& p = pose.world[static_cast<std::size_t>(parent)];
    double x, y;
    world_position(p, t, x, y);
    Matrix m{};
    switch (pose.inherit[i]) {
    case Inherit::normal: {
        // The skeleton's scale is already in the parent's matrix: no extra factor here.
        const double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
        const Matrix l = local_matrix(t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y);
        return {pa * l.a + pb * l.c, pa * l.b + pb * l.d, pc * l.a + pd * l.c, pc * l.b + pd * l.d, x, y};
    }
    case Inherit::only_translation: m = local_matrix(t.rotation, t.scale_x, t.scale_y, t.shear_x, t.shear_y); break;
    case Inherit::no_rotation_or_reflection: m = no_rotation_matrix(pose, p, t); break;
    case Inherit::no_scale:
    case Inherit::no_scale_or_reflection: m = no_scale_matrix(pose, p, t, pose.inherit[i]); break;
    }
    const double sx = pose.scale_x, sy = pose.scale_y;
    return {m.a * sx, m.b * sx, m.c * sy, m.d * sy, x, y};
}

}  // namespace

void detail::compute_bone_world(SkeletonPose& pose, Index bone) {
    const auto i = static_cast<std::size_t>(bone);
    const Index parent = pose.data->bones[i].parent;
    if (parent != k_none && pose.inherit[i] == Inherit::normal) {
        detail::normal_bone_world(pose.applied[i], pose.world[static_cast<std::size_t>(parent)], pose.world[i]);
        return;
    }
    const WorldD w = bone_world_from_applied(pose, bone);
    pose.world[static_cast<std::size_t>(bone)] =
        BoneWorld{static_cast<float>(w.a), static_cast<float>(w.b), static_cast<float>(w.c),
                  static_cast<float>(w.d), static_cast<float>(w.x), static_cast<float>(w.y)};
}

void update_bone_world(SkeletonPose& pose, Index bone) {
    detail::compute_bone_world(pose, bone);
    renew_world_stamps(pose);
}

void update_applied_transform(SkeletonPose& pose, Index bone) {
    const auto i = static_cast<std::size_t>(bone);
    BoneTransform& t = pose.applied[i];
    const BoneWorld& w = pose.world[i];
    const double a = w.a, b = w.b, c = w.c, d = w.d;
    const double sx = pose.scale_x, sy = pose.scale_y;

    const Index parent = pose.data->bones[i].parent;
    if (parent == k_none) {
        t.x = static_cast<float>(w.x - static_cast<double>(pose.x));
        t.y = static_cast<float>(w.y - static_cast<double>(pose.y));
        t.rotation = static_cast<float>(fast_atan2(c, a) * k_rad_deg);
        t.scale_x = static_cast<float>(std::sqrt(a * a + c * c));
        t.scale_y = static_cast<float>(std::sqrt(b * b + d * d));
        t.shear_x = 0;
        t.shear_y = static_cast<float>(fast_atan2(a * b + c * d, a * d - b * c) * k_rad_deg);
        return;
    }

    const BoneWorld& p = pose.world[static_cast<std::size_t>(parent)];
    double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    double pid = 1 / (pa * pd - pb * pc);
    double ia = pd * pid, ib = pb * pid, ic = pc * pid, id = pa * pid;
    const double dx = static_cast<double>(w.x) - p.x, dy = static_cast<double>(w.y) - p.y;
    t.x = static_cast<float>(dx * ia - dy * ib);
    t.y = static_cast<float>(dy * id - dx * ic);

    double ra, rb, rc, rd;
    const Inherit inherit = pose.inherit[i];
    if (inherit == Inherit::only_translation) {
        ra = a;
        rb = b;
        rc = c;
        rd = d;
    } else {
        switch (inherit) {
        case Inherit::no_rotation_or_reflection: {
            const double s = std::abs(pa * pd - pb * pc) / (pa * pa + pc * pc);
            pb = -pc * sx * s / sy;
            pd = pa * sy * s / sx;
            pid = 1 / (pa * pd - pb * pc);
            ia = pd * pid;
            ib = pb * pid;
            break;
        }
        case Inherit::no_scale:
        case Inherit::no_scale_or_reflection: {
            // The official runtime uses the bone's local (not applied) rotation here.
            const double r = static_cast<double>(pose.local[i].rotation) * k_deg_rad;
            double cos, sin;
            fast_sincos(r, sin, cos);
            pa = (pa * cos + pb * sin) / sx;
            pc = (pc * cos + pd * sin) / sy;
            double s = std::sqrt(pa * pa + pc * pc);
            if (s > 0.00001) s = 1 / s;
            pa *= s;
            pc *= s;
            s = std::sqrt(pa * pa + pc * pc);
            if (inherit == Inherit::no_scale && (pid < 0) != ((sx < 0) != (sy < 0))) s = -s;
            // The runtime's own pi here (unlike update_bone_world's Math.PI).
            const double zr = detail::k_spine_pi / 2 + fast_atan2(pc, pa);
            double cos_zr, sin_zr;
            fast_sincos(zr, sin_zr, cos_zr);
            pb = cos_zr * s;
            pd = sin_zr * s;
            pid = 1 / (pa * pd - pb * pc);
            ia = pd * pid;
            ib = pb * pid;
            ic = pc * pid;
            id = pa * pid;
            break;
        }
        default:
            break;
        }
        ra = ia * a - ib * c;
        rb = ia * b - ib * d;
        rc = id * c - ic * a;
        rd = id * d - ic * b;
    }

    t.shear_x = 0;
    const double scale_x = std::sqrt(ra * ra + rc * rc);
    if (scale_x > 0.0001) {
        const double det = ra * rd - rb * rc;
        t.scale_x = static_cast<float>(scale_x);
        t.scale_y = static_cast<float>(det / scale_x);
        t.shear_y = static_cast<float>(-fast_atan2(ra * rb + rc * rd, det) * k_rad_deg);
        t.rotation = static_cast<float>(fast_atan2(rc, ra) * k_rad_deg);
    } else {
        t.scale_x = 0;
        t.scale_y = static_cast<float>(std::sqrt(rb * rb + rd * rd));
        t.shear_y = 0;
        t.rotation = static_cast<float>(90 - fast_atan2(rd, rb) * k_rad_deg);
    }
}

}  // namespace spinegpu
