// Transform constraints, as Spine's TransformConstraint.update and its four apply functions: world-space constraints
// edit the constrained bones' world matrices toward the target's (absolute) or by the target's (relative), then
// recompute their applied poses; local-space ones mix applied poses and recompute world transforms. Offsets and mixes
// exactly as the runtime applies them, including its quirks (the absolute local scale formula divides by the bone's
// own scale; world shear mixes only when positive).
// world_group.cpp's transform_lanes repeats apply_world's translation, and applied_from_world_lanes
// update_applied_transform's normal case, operation for operation on four poses: a change here is a change there.
#include <bit>
#include <cmath>
#include <cstdint>

#include "constraints.hpp"
#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {
namespace {

struct Mixes {
    double rotate, x, y, scale_x, scale_y, shear_y;
};

// Wraps a radian angle into [-pi, pi] with the runtime's pi.
double wrap_radians(double r) {
    if (r > k_spine_pi) return r - k_spine_pi2;
    if (r < -k_spine_pi) return r + k_spine_pi2;
    return r;
}

// The target's (offset_x, offset_y) in world space (Spine's Bone.localToWorld).
void target_point(const BoneWorld& t, double x, double y, double& wx, double& wy) {
    wx = x * t.a + y * t.b + t.x;
    wy = x * t.c + y * t.d + t.y;
}

void apply_world(SkeletonPose& pose, const TransformConstraintData& data, const Mixes& mix, bool relative,
                 bool update_applied) {
    const BoneWorld& target = pose.world[static_cast<std::size_t>(data.target)];
    const double ta = target.a, tb = target.b, tc = target.c, td = target.d;
    // A reflected target turns offsets the other way.
    const double deg_rad_reflect = ta * td - tb * tc > 0 ? k_deg_rad : -k_deg_rad;
    const double offset_rotation = data.offset_rotation * deg_rad_reflect;
    const double offset_shear_y = data.offset_shear_y * deg_rad_reflect;
    const bool translate = mix.x != 0 || mix.y != 0;
    for (Index bone : pose.data->index_span(data.bones)) {
        BoneWorld& w = pose.world[static_cast<std::size_t>(bone)];
        // The whole edit in double, rounded once, as the runtime keeps its world matrices in doubles.
        double a = w.a, b = w.b, c = w.c, d = w.d, wx = w.x, wy = w.y;
        if (mix.rotate != 0) {
            double r = relative ? fast_atan2(tc, ta) + offset_rotation
                                : fast_atan2(tc, ta) - fast_atan2(c, a) + offset_rotation;
            r = wrap_radians(r) * mix.rotate;
            double cos, sin;
            fast_sincos(r, sin, cos);
            const double ra = a, rb = b;
            a = cos * ra - sin * c;
            b = cos * rb - sin * d;
            c = sin * ra + cos * c;
            d = sin * rb + cos * d;
        }
        if (translate) {
            double x, y;
            target_point(target, data.offset_x, data.offset_y, x, y);
            if (relative) {
                wx += x * mix.x;
                wy += y * mix.y;
            } else {
                wx += (x - wx) * mix.x;
                wy += (y - wy) * mix.y;
            }
        }
        if (mix.scale_x != 0) {
            double s;
            if (relative) {
                s = (std::sqrt(ta * ta + tc * tc) - 1 + data.offset_scale_x) * mix.scale_x + 1;
            } else {
                s = std::sqrt(a * a + c * c);
                if (s != 0) s = (s + (std::sqrt(ta * ta + tc * tc) - s + data.offset_scale_x) * mix.scale_x) / s;
            }
            a *= s;
            c *= s;
        }
        if (mix.scale_y != 0) {
            double s;
            if (relative) {
                s = (std::sqrt(tb * tb + td * td) - 1 + data.offset_scale_y) * mix.scale_y + 1;
            } else {
                s = std::sqrt(b * b + d * d);
                if (s != 0) s = (s + (std::sqrt(tb * tb + td * td) - s + data.offset_scale_y) * mix.scale_y) / s;
            }
            b *= s;
            d *= s;
        }
        if (mix.shear_y > 0) {
            const double by = fast_atan2(d, b);
            double r;
            if (relative) {
                r = wrap_radians(fast_atan2(td, tb) - fast_atan2(tc, ta));
                r = by + (r - k_spine_pi / 2 + offset_shear_y) * mix.shear_y;
            } else {
                r = wrap_radians(fast_atan2(td, tb) - fast_atan2(tc, ta) - (by - fast_atan2(c, a)));
                r = by + (r + offset_shear_y) * mix.shear_y;
            }
            const double s = std::sqrt(b * b + d * d);
            double cos, sin;
            fast_sincos(r, sin, cos);
            b = cos * s;
            d = sin * s;
        }
        w.a = static_cast<float>(a);
        w.b = static_cast<float>(b);
        w.c = static_cast<float>(c);
        w.d = static_cast<float>(d);
        w.x = static_cast<float>(wx);
        w.y = static_cast<float>(wy);
        if (update_applied) update_applied_transform(pose, bone);
    }
}

void set_applied_and_pose(SkeletonPose& pose, Index bone, double x, double y, double rotation, double scale_x,
                          double scale_y, double shear_x, double shear_y) {
    pose.applied[static_cast<std::size_t>(bone)] =
        BoneTransform{static_cast<float>(x), static_cast<float>(y), static_cast<float>(rotation),
                      static_cast<float>(scale_x), static_cast<float>(scale_y), static_cast<float>(shear_x),
                      static_cast<float>(shear_y)};
    compute_bone_world(pose, bone);
}

void apply_absolute_local(SkeletonPose& pose, const TransformConstraintData& data, const Mixes& mix) {
    const BoneTransform target = pose.applied[static_cast<std::size_t>(data.target)];
    for (Index bone : pose.data->index_span(data.bones)) {
        const BoneTransform t = pose.applied[static_cast<std::size_t>(bone)];
        double rotation = t.rotation;
        if (mix.rotate != 0) rotation += (target.rotation - rotation + data.offset_rotation) * mix.rotate;
        double x = t.x, y = t.y;
        x += (target.x - x + data.offset_x) * mix.x;
        y += (target.y - y + data.offset_y) * mix.y;
        double scale_x = t.scale_x, scale_y = t.scale_y;
        if (mix.scale_x != 0 && scale_x != 0)
            scale_x = (scale_x + (target.scale_x - scale_x + data.offset_scale_x) * mix.scale_x) / scale_x;
        if (mix.scale_y != 0 && scale_y != 0)
            scale_y = (scale_y + (target.scale_y - scale_y + data.offset_scale_y) * mix.scale_y) / scale_y;
        double shear_y = t.shear_y;
        if (mix.shear_y != 0) shear_y += (target.shear_y - shear_y + data.offset_shear_y) * mix.shear_y;
        set_applied_and_pose(pose, bone, x, y, rotation, scale_x, scale_y, t.shear_x, shear_y);
    }
}

void apply_relative_local(SkeletonPose& pose, const TransformConstraintData& data, const Mixes& mix) {
    const BoneTransform target = pose.applied[static_cast<std::size_t>(data.target)];
    const double offset_rotation = data.offset_rotation, offset_x = data.offset_x, offset_y = data.offset_y;
    const double offset_scale_x = data.offset_scale_x, offset_scale_y = data.offset_scale_y;
    const double offset_shear_y = data.offset_shear_y;
    for (Index bone : pose.data->index_span(data.bones)) {
        const BoneTransform t = pose.applied[static_cast<std::size_t>(bone)];
        const double rotation = t.rotation + (target.rotation + offset_rotation) * mix.rotate;
        const double x = t.x + (target.x + offset_x) * mix.x;
        const double y = t.y + (target.y + offset_y) * mix.y;
        const double scale_x = t.scale_x * ((target.scale_x - 1 + offset_scale_x) * mix.scale_x + 1);
        const double scale_y = t.scale_y * ((target.scale_y - 1 + offset_scale_y) * mix.scale_y + 1);
        const double shear_y = t.shear_y + (target.shear_y + offset_shear_y) * mix.shear_y;
        set_applied_and_pose(pose, bone, x, y, rotation, scale_x, scale_y, t.shear_x, shear_y);
    }
}

// Applies the constraint; at least one of its mixes is not zero. Not inline: inlined, its register saves and stack
// frame came before the caller's test of the mixes, which most constraints of a playing rig fail (zero mixes until an
// animation keys them).
[[gnu::noinline]] void apply_mixes(SkeletonPose& pose, Index constraint, const TransformPose& p, bool update_applied) {
    const TransformConstraintData& data = pose.data->transform_constraints[static_cast<std::size_t>(constraint)];
    const Mixes mix{p.mix_rotate, p.mix_x, p.mix_y, p.mix_scale_x, p.mix_scale_y, p.mix_shear_y};
    if (data.local) {
        if (data.relative)
            apply_relative_local(pose, data, mix);
        else
            apply_absolute_local(pose, data, mix);
    } else {
        apply_world(pose, data, mix, data.relative, update_applied);
    }
}

}  // namespace

void apply_transform_constraint(SkeletonPose& pose, Index constraint, Physics, bool update_applied) {
    const TransformPose& p = pose.transform[static_cast<std::size_t>(constraint)];
    // All six mixes zero (of either sign): their bits without the sign bit are all zero. The same test as six
    // comparisons with 0, in one branch.
    using Bits = std::uint32_t;
    const Bits bits = std::bit_cast<Bits>(p.mix_rotate) | std::bit_cast<Bits>(p.mix_x) | std::bit_cast<Bits>(p.mix_y) |
                      std::bit_cast<Bits>(p.mix_scale_x) | std::bit_cast<Bits>(p.mix_scale_y) |
                      std::bit_cast<Bits>(p.mix_shear_y);
    if ((bits << 1) == 0) return;
    apply_mixes(pose, constraint, p, update_applied);
}

}  // namespace spinegpu::detail
