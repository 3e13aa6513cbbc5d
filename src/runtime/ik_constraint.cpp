// IK constraints, as Spine's IkConstraint.update, apply1 and apply2: one bone pointed at the target (with compress
// and stretch), or two bones bent to reach it (law of cosines for uniformly scaled parents, the quadratic for
// non-uniform ones, softness, stretch, bend direction). The official runtime's epsilons and inherit-mode special
// cases are kept as they are. Arithmetic in double, as the runtime does it: near full extension the angles come
// from acos of values close to 1, where float rounding would move a bone visibly.
// world_group.cpp's ik_one_lanes and ik_two_lanes repeat the common branches of solve_ik_one and solve_ik_two
// operation for operation on four poses: a change here is a change there.
#include <algorithm>
#include <cmath>

#include "bone_world.hpp"
#include "constraints.hpp"
#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {
namespace {

// Stores `bone`'s applied pose, each value rounded to float as the official runtime's fields are, and returns it.
inline BoneTransform& set_applied(SkeletonPose& pose, Index bone, double x, double y, double rotation,
                                  double scale_x, double scale_y, double shear_x, double shear_y) {
    BoneTransform& t = pose.applied[static_cast<std::size_t>(bone)];
    t = BoneTransform{static_cast<float>(x), static_cast<float>(y), static_cast<float>(rotation),
                      static_cast<float>(scale_x), static_cast<float>(scale_y), static_cast<float>(shear_x),
                      static_cast<float>(shear_y)};
    return t;
}

// Sets `bone`'s applied pose and computes its world transform (Spine's Bone.updateWorldTransformWith).
void pose_bone(SkeletonPose& pose, Index bone, double x, double y, double rotation, double scale_x, double scale_y,
               double shear_x, double shear_y) {
    set_applied(pose, bone, x, y, rotation, scale_x, scale_y, shear_x, shear_y);
    compute_bone_world(pose, bone);
}

// pose_bone for a bone the caller knows to have parent `parent` and Inherit::normal (every bone of a two-bone
// constraint, most one-bone ones): update_bone_world's normal case, inline, without its call and its look-ups of
// the parent and the inherit mode. Always inline: as a call (GCC's choice once the solvers grew) it costs more than
// the look-ups it saves.
[[gnu::always_inline]] inline void pose_normal_bone(SkeletonPose& pose, Index bone, Index parent, double x, double y,
                                                    double rotation, double scale_x, double scale_y, double shear_x,
                                                    double shear_y) {
    const BoneTransform& t = set_applied(pose, bone, x, y, rotation, scale_x, scale_y, shear_x, shear_y);
    normal_bone_world(t, pose.world[static_cast<std::size_t>(parent)], pose.world[static_cast<std::size_t>(bone)]);
}

double wrap_degrees(double degrees) {
    if (degrees > 180) return degrees - 360;
    if (degrees < -180) return degrees + 360;
    return degrees;
}

}  // namespace

void apply_ik_constraint(SkeletonPose& pose, Index constraint, Physics) {
    const IkPose& ik = pose.ik[static_cast<std::size_t>(constraint)];
    if (ik.mix == 0) return;
    const IkConstraintData& data = pose.data->ik_constraints[static_cast<std::size_t>(constraint)];
    const BoneWorld& target = pose.world[static_cast<std::size_t>(data.target)];
    const std::span<const Index> bones = pose.data->index_span(data.bones);
    if (bones.size() == 1) {
        solve_ik_one(pose, bones[0], target.x, target.y, ik.compress, ik.stretch, data.uniform, ik.mix);
    } else if (bones.size() == 2) {
        solve_ik_two(pose, bones[0], bones[1], target.x, target.y, ik.bend_direction, ik.stretch, data.uniform,
                     ik.softness, ik.mix);
    }
}

void solve_ik_one(SkeletonPose& pose, Index bone, float target_x, float target_y, bool compress, bool stretch,
                  bool uniform, float alpha) {
    const auto i = static_cast<std::size_t>(bone);
    const Index parent = pose.data->bones[i].parent;
    if (parent == k_none) return;  // the runtime refuses IK on the root; loaders never produce it
    const BoneWorld& p = pose.world[static_cast<std::size_t>(parent)];
    const BoneWorld& w = pose.world[i];
    const BoneTransform t = pose.applied[i];
    const double sx_skeleton = pose.scale_x, sy_skeleton = pose.scale_y;
    const double tx_world = target_x, ty_world = target_y;
    double pa = p.a, pb = p.b, pc = p.c, pd = p.d;
    double rotation_ik = -static_cast<double>(t.shear_x) - t.rotation, tx = 0, ty = 0;

    const Inherit inherit = pose.inherit[i];
    if (inherit == Inherit::only_translation) {
        tx = (tx_world - w.x) * signum(sx_skeleton);
        ty = (ty_world - w.y) * signum(sy_skeleton);
    } else {
        if (inherit == Inherit::no_rotation_or_reflection) {
            // The parent's rotation does not reach this bone: aim in a parent space with the rotation removed.
            const double s = std::abs(pa * pd - pb * pc) / std::max(0.0001, pa * pa + pc * pc);
            const double sa = pa / sx_skeleton, sc = pc / sy_skeleton;
            pb = -sc * s * sx_skeleton;
            pd = sa * s * sy_skeleton;
            rotation_ik += fast_atan2(sc, sa) * k_rad_deg;
        }
        const double x = tx_world - p.x, y = ty_world - p.y;
        const double d = pa * pd - pb * pc;
        if (std::abs(d) <= 0.0001) {
            tx = 0;
            ty = 0;
        } else {
            tx = (x * pd - y * pb) / d - t.x;
            ty = (y * pa - x * pc) / d - t.y;
        }
    }
    rotation_ik += fast_atan2(ty, tx) * k_rad_deg;
    if (t.scale_x < 0) rotation_ik += 180;
    rotation_ik = wrap_degrees(rotation_ik);

    double sx = t.scale_x, sy = t.scale_y;
    if (compress || stretch) {
        if (inherit == Inherit::no_scale || inherit == Inherit::no_scale_or_reflection) {
            tx = tx_world - w.x;
            ty = ty_world - w.y;
        }
        const double b = pose.data->bones[i].length * sx;
        if (b > 0.0001) {
            const double dd = tx * tx + ty * ty;
            if ((compress && dd < b * b) || (stretch && dd > b * b)) {
                const double s = (std::sqrt(dd) / b - 1) * alpha + 1;
                sx *= s;
                if (uniform) sy *= s;
            }
        }
    }
    const double rotation = t.rotation + rotation_ik * alpha;
    if (inherit == Inherit::normal)
        pose_normal_bone(pose, bone, parent, t.x, t.y, rotation, sx, sy, t.shear_x, t.shear_y);
    else
        pose_bone(pose, bone, t.x, t.y, rotation, sx, sy, t.shear_x, t.shear_y);
}

void solve_ik_two(SkeletonPose& pose, Index parent, Index child, float target_x, float target_y, int bend_direction,
                  bool stretch, bool uniform, float softness_in, float alpha) {
    const auto pi = static_cast<std::size_t>(parent), ci = static_cast<std::size_t>(child);
    // Only bones that inherit everything can be solved in their parent's space.
    if (pose.inherit[pi] != Inherit::normal || pose.inherit[ci] != Inherit::normal) return;
    const Index grandparent = pose.data->bones[pi].parent;
    if (grandparent == k_none) return;  // the runtime refuses this; loaders never produce it
    const BoneTransform pt = pose.applied[pi];
    const BoneTransform ct = pose.applied[ci];
    const double bend = bend_direction;
    double px = pt.x, py = pt.y, psx = pt.scale_x, psy = pt.scale_y, sx = psx, sy = psy, csx = ct.scale_x;
    double os1, os2, s2;
    if (psx < 0) {
        psx = -psx;
        os1 = 180;
        s2 = -1;
    } else {
        os1 = 0;
        s2 = 1;
    }
    if (psy < 0) {
        psy = -psy;
        s2 = -s2;
    }
    if (csx < 0) {
        csx = -csx;
        os2 = 180;
    } else {
        os2 = 0;
    }

    const BoneWorld& pw = pose.world[pi];
    double cx = ct.x, cy, cwx, cwy;
    double a = pw.a, b = pw.b, c = pw.c, d = pw.d;
    const bool u = std::abs(psx - psy) <= 0.0001;
    if (!u || stretch) {
        // Non-uniform (or stretching) parents place the child on the parent's x axis.
        cy = 0;
        cwx = a * cx + pw.x;
        cwy = c * cx + pw.y;
    } else {
        cy = ct.y;
        cwx = a * cx + b * cy + pw.x;
        cwy = c * cx + d * cy + pw.y;
    }
    const BoneWorld& pp = pose.world[static_cast<std::size_t>(grandparent)];
    a = pp.a;
    b = pp.b;
    c = pp.c;
    d = pp.d;
    double id = a * d - b * c, x = cwx - pp.x, y = cwy - pp.y;
    id = std::abs(id) <= 0.0001 ? 0 : 1 / id;
    const double dx = (x * d - y * b) * id - px, dy = (y * a - x * c) * id - py;
    double l1 = std::sqrt(dx * dx + dy * dy), l2 = pose.data->bones[ci].length * csx, a1, a2;
    if (l1 < 0.0001) {
        // The child sits on the parent's origin: only the parent can aim.
        solve_ik_one(pose, parent, target_x, target_y, false, stretch, false, alpha);
        pose_bone(pose, child, cx, cy, 0, ct.scale_x, ct.scale_y, ct.shear_x, ct.shear_y);
        return;
    }
    x = static_cast<double>(target_x) - pp.x;
    y = static_cast<double>(target_y) - pp.y;
    double tx = (x * d - y * b) * id - px, ty = (y * a - x * c) * id - py;
    double dd = tx * tx + ty * ty;
    double softness = softness_in;
    if (softness != 0) {
        // Near full extension the target is pulled in along a curve so that the bones straighten smoothly.
        softness *= psx * (csx + 1) * 0.5;
        const double td = std::sqrt(dd), sd = td - l1 - l2 * psx + softness;
        if (sd > 0) {
            double p = std::min(1.0, sd / (softness * 2)) - 1;
            p = (sd - softness * (1 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    if (u) {
        l2 *= psx;
        double cos = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2);
        if (cos < -1) {
            cos = -1;
            a2 = k_true_pi * bend;  // Math.PI in the official formula
        } else if (cos > 1) {
            cos = 1;
            a2 = 0;
            if (stretch) {
                a = (std::sqrt(dd) / (l1 + l2) - 1) * alpha + 1;
                sx *= a;
                if (uniform) sy *= a;
            }
        } else {
            a2 = std::acos(cos) * bend;
        }
        a = l1 + l2 * cos;
        b = l2 * fast_sin(a2);
        a1 = fast_atan2(ty * a - tx * b, tx * a + ty * b);
    } else {
        // Non-uniform parent scale: the child's reach is an ellipse; intersect it with the circle through the
        // target, or take the closest or farthest point of the ellipse when they do not meet.
        a = psx * l2;
        b = psy * l2;
        const double aa = a * a, bb = b * b, ta = fast_atan2(ty, tx);
        c = bb * l1 * l1 + aa * dd - aa * bb;
        const double c1 = -2 * bb * l1, c2 = bb - aa;
        d = c1 * c1 - 4 * c2 * c;
        bool solved = false;
        if (d >= 0) {
            double q = std::sqrt(d);
            if (c1 < 0) q = -q;
            q = -(c1 + q) * 0.5;
            const double r0 = q / c2, r1 = c / q;
            const double r = std::abs(r0) < std::abs(r1) ? r0 : r1;
            const double rr = dd - r * r;
            if (rr >= 0) {
                y = std::sqrt(rr) * bend;
                a1 = ta - fast_atan2(y, r);
                a2 = fast_atan2(y / psy, (r - l1) / psx);
                solved = true;
            }
        }
        if (!solved) {
            double min_angle = k_spine_pi, min_x = l1 - a, min_dist = min_x * min_x, min_y = 0;
            double max_angle = 0, max_x = l1 + a, max_dist = max_x * max_x, max_y = 0;
            c = -a * l1 / (aa - bb);
            if (c >= -1 && c <= 1) {
                c = std::acos(c);
                double cos_c, sin_c;
                fast_sincos(c, sin_c, cos_c);
                x = a * cos_c + l1;
                y = b * sin_c;
                d = x * x + y * y;
                if (d < min_dist) {
                    min_angle = c;
                    min_dist = d;
                    min_x = x;
                    min_y = y;
                }
                if (d > max_dist) {
                    max_angle = c;
                    max_dist = d;
                    max_x = x;
                    max_y = y;
                }
            }
            if (dd <= (min_dist + max_dist) * 0.5) {
                a1 = ta - fast_atan2(min_y * bend, min_x);
                a2 = min_angle * bend;
            } else {
                a1 = ta - fast_atan2(max_y * bend, max_x);
                a2 = max_angle * bend;
            }
        }
    }
    const double os = fast_atan2(cy, cx) * s2;
    double rotation = pt.rotation;
    a1 = wrap_degrees((a1 - os) * k_rad_deg + os1 - rotation);
    pose_normal_bone(pose, parent, grandparent, px, py, rotation + a1 * alpha, sx, sy, 0, 0);
    rotation = ct.rotation;
    a2 = wrap_degrees(((a2 + os) * k_rad_deg - ct.shear_x) * s2 + os2 - rotation);
    rotation += a2 * alpha;
    const Index child_parent = pose.data->bones[ci].parent;
    if (child_parent != k_none)
        pose_normal_bone(pose, child, child_parent, cx, cy, rotation, ct.scale_x, ct.scale_y, ct.shear_x, ct.shear_y);
    else
        pose_bone(pose, child, cx, cy, rotation, ct.scale_x, ct.scale_y, ct.shear_x, ct.shear_y);
}

}  // namespace spinegpu::detail
