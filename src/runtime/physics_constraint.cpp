// Physics constraints: a damped spring per channel (x, y, rotate/shear x, scale x) that lags a bone behind its
// animated pose, integrated at a fixed step from the skeleton's time (Spine 4.2's PhysicsConstraint.update).
//
// The simulation state and all arithmetic are doubles, as in the official runtime: the number of fixed steps a frame
// takes depends on the exact rounding of the accumulated time, and the spring state is carried from frame to frame.
// The official runtime's global Skeleton.yDown (false unless an integration sets it) would flip gravity's sign for
// rotation; spinegpu's world is y-up, so gravity acts as with yDown false. Spine 4.2 has no skeleton-wide wind or
// gravity: SkeletonPose::wind_x/y and gravity_x/y are not read here.
#include <algorithm>
#include <cmath>

#include "constraints.hpp"
#include "../core/fast_trig.hpp"
#include "../core/spine_math.hpp"

namespace spinegpu::detail {
namespace {

constexpr double k_inv_spine_pi2 = 1 / k_spine_pi2;

// The fixed step as the official runtime holds it: 1 / fps in double. The data keeps it as a float; the exports
// store an integer rate, so the double is recovered from it exactly.
double fixed_step(float step) {
    const double fps = 1.0 / static_cast<double>(step);
    // Nearest integer without a libm call (this runs for every constraint every frame): adding 1.5 * 2^52 pushes
    // the fraction out of the mantissa. It rounds halves to even where std::round rounds them away from zero, which
    // cannot matter: a half is 0.5 away and fails the test below either way.
    constexpr double shift = 6755399441055744.0;
    const double rounded = fps < 4.0e15 ? (fps + shift) - shift : fps;
    if (rounded > 0 && std::abs(fps - rounded) < 1e-3) return 1.0 / rounded;
    return step;
}

double clamp_abs(double value, double limit) { return value > limit ? limit : value < -limit ? -limit : value; }

// Spine's PhysicsConstraint.reset: forget the simulation; the next update starts from the bone's current pose.
void reset_state(PhysicsPose& s, double time) {
    s.remaining = 0;
    s.last_time = time;
    s.reset = true;
    s.x_offset = 0;
    s.x_velocity = 0;
    s.y_offset = 0;
    s.y_velocity = 0;
    s.rotate_offset = 0;
    s.rotate_velocity = 0;
    s.scale_offset = 0;
    s.scale_velocity = 0;
}

struct Channels {
    bool x, y, rotate_or_shear_x, scale_x;
};

// Advances the simulation by the time since the last update in fixed steps and moves the bone's world position by
// the x/y offsets (Physics::update and Physics::reset). Rotation and scale are applied by the caller.
void simulate(SkeletonPose& pose, const PhysicsConstraintData& d, PhysicsPose& s, BoneWorld& w, Channels ch,
              double bone_length) {
    const double mix = s.mix;
    const double delta = std::max(pose.time - s.last_time, 0.0);
    s.remaining += delta;
    s.last_time = pose.time;
    const double bx = w.x, by = w.y;
    if (s.reset) {
        s.reset = false;
        s.ux = bx;
        s.uy = by;
    } else {
        double a = s.remaining;
        // A pure function of the data, two divisions: kept with the constraint's state.
        if (s.fixed_step == 0) s.fixed_step = fixed_step(d.step);
        const double inertia = s.inertia, t = s.fixed_step, f = pose.data->reference_scale;
        double damping = -1;  // computed once, when the first channel steps
        double qx = d.limit * delta;
        const double qy = qx * std::abs(static_cast<double>(pose.scale_y));
        qx *= std::abs(static_cast<double>(pose.scale_x));

        if (ch.x || ch.y) {
            if (ch.x) {
                s.x_offset += clamp_abs((s.ux - bx) * inertia, qx);
                s.ux = bx;
            }
            if (ch.y) {
                s.y_offset += clamp_abs((s.uy - by) * inertia, qy);
                s.uy = by;
            }
            if (a >= t) {
                damping = std::pow(static_cast<double>(s.damping), 60 * t);
                const double m = s.mass_inverse * t, e = s.strength;
                const double wind = s.wind * f * pose.scale_x, gravity = s.gravity * f * pose.scale_y;
                do {
                    if (ch.x) {
                        s.x_velocity += (wind - s.x_offset * e) * m;
                        s.x_offset += s.x_velocity * t;
                        s.x_velocity *= damping;
                    }
                    if (ch.y) {
                        s.y_velocity -= (gravity + s.y_offset * e) * m;
                        s.y_offset += s.y_velocity * t;
                        s.y_velocity *= damping;
                    }
                    a -= t;
                } while (a >= t);
            }
            if (ch.x) w.x = static_cast<float>(w.x + s.x_offset * mix * d.x);
            if (ch.y) w.y = static_cast<float>(w.y + s.y_offset * mix * d.y);
        }

        if (ch.rotate_or_shear_x || ch.scale_x) {
            const double ca = fast_atan2(static_cast<double>(w.c), static_cast<double>(w.a));
            double c = 0, sn = 0, mr = 0;
            const double dx = clamp_abs(s.cx - w.x, qx), dy = clamp_abs(s.cy - w.y, qy);
            const double world_length = bone_length * std::sqrt(static_cast<double>(w.a) * w.a +
                                                                static_cast<double>(w.c) * w.c);
            if (ch.rotate_or_shear_x) {
                mr = (static_cast<double>(d.rotate) + d.shear_x) * mix;
                double r = fast_atan2(dy + s.ty, dx + s.tx) - ca - s.rotate_offset * mr;
                s.rotate_offset += (r - std::ceil(r * k_inv_spine_pi2 - 0.5) * k_spine_pi2) * inertia;
                r = s.rotate_offset * mr + ca;
                c = fast_cos(r);
                sn = fast_sin(r);
                if (ch.scale_x && world_length > 0) s.scale_offset += (dx * c + dy * sn) * inertia / world_length;
            } else {
                c = fast_cos(ca);
                sn = fast_sin(ca);
                if (world_length > 0) s.scale_offset += (dx * c + dy * sn) * inertia / world_length;
            }
            a = s.remaining;
            if (a >= t) {
                if (damping == -1) damping = std::pow(static_cast<double>(s.damping), 60 * t);
                // Wind and gravity act on rotation in units of the bone's length relative to the reference scale.
                const double m = s.mass_inverse * t, e = s.strength, wind = s.wind, gravity = s.gravity;
                const double h = bone_length / f;
                while (true) {
                    a -= t;
                    if (ch.scale_x) {
                        s.scale_velocity += (wind * c - gravity * sn - s.scale_offset * e) * m;
                        s.scale_offset += s.scale_velocity * t;
                        s.scale_velocity *= damping;
                    }
                    if (ch.rotate_or_shear_x) {
                        s.rotate_velocity -= ((wind * sn + gravity * c) * h + s.rotate_offset * e) * m;
                        s.rotate_offset += s.rotate_velocity * t;
                        s.rotate_velocity *= damping;
                        if (a < t) break;
                        const double r = s.rotate_offset * mr + ca;
                        c = fast_cos(r);
                        sn = fast_sin(r);
                    } else if (a < t) {
                        break;
                    }
                }
            }
        }
        s.remaining = a;
    }
    s.cx = w.x;
    s.cy = w.y;
}

}  // namespace

void apply_physics_constraint(SkeletonPose& pose, Index constraint, Physics physics, bool update_applied) {
    const SkeletonData& data = *pose.data;
    const PhysicsConstraintData& d = data.physics_constraints[static_cast<std::size_t>(constraint)];
    PhysicsPose& s = pose.physics[static_cast<std::size_t>(constraint)];
    const double mix = s.mix;
    if (mix == 0) return;
    const Channels ch{d.x > 0, d.y > 0, d.rotate > 0 || d.shear_x > 0, d.scale_x > 0};
    BoneWorld& w = pose.world[static_cast<std::size_t>(d.bone)];
    const double bone_length = data.bones[static_cast<std::size_t>(d.bone)].length;

    switch (physics) {
        case Physics::none:
            return;
        case Physics::reset:
            reset_state(s, pose.time);
            [[fallthrough]];
        case Physics::update:
            simulate(pose, d, s, w, ch, bone_length);
            break;
        case Physics::pose:
            if (ch.x) w.x = static_cast<float>(w.x + s.x_offset * mix * d.x);
            if (ch.y) w.y = static_cast<float>(w.y + s.y_offset * mix * d.y);
            break;
    }

    double a = w.a, b = w.b, c = w.c, dd = w.d;
    if (ch.rotate_or_shear_x) {
        const double o = s.rotate_offset * mix;
        if (d.shear_x > 0) {
            // Shear x turns only the x axis; rotation (if any) turns both axes first.
            double r = 0;
            if (d.rotate > 0) {
                r = o * d.rotate;
                const double sn = fast_sin(r), cs = fast_cos(r);
                const double bb = b;
                b = cs * bb - sn * dd;
                dd = sn * bb + cs * dd;
            }
            r += o * d.shear_x;
            const double sn = fast_sin(r), cs = fast_cos(r);
            const double aa = a;
            a = cs * aa - sn * c;
            c = sn * aa + cs * c;
        } else {
            const double r = o * d.rotate;
            const double sn = fast_sin(r), cs = fast_cos(r);
            const double aa = a, bb = b;
            a = cs * aa - sn * c;
            c = sn * aa + cs * c;
            b = cs * bb - sn * dd;
            dd = sn * bb + cs * dd;
        }
    }
    if (ch.scale_x) {
        const double scale = 1 + s.scale_offset * mix * d.scale_x;
        a *= scale;
        c *= scale;
    }
    w.a = static_cast<float>(a);
    w.b = static_cast<float>(b);
    w.c = static_cast<float>(c);
    w.d = static_cast<float>(dd);
    if (physics != Physics::pose) {
        s.tx = bone_length * a;
        s.ty = bone_length * c;
    }
    if (update_applied) update_applied_transform(pose, d.bone);
}

void reset_physics_constraint(SkeletonPose& pose, Index constraint) {
    reset_state(pose.physics[static_cast<std::size_t>(constraint)], pose.time);
}

void translate_physics_constraint(SkeletonPose& pose, Index constraint, float x, float y) {
    PhysicsPose& s = pose.physics[static_cast<std::size_t>(constraint)];
    s.ux -= x;
    s.uy -= y;
    s.cx -= x;
    s.cy -= y;
}

void rotate_physics_constraint(SkeletonPose& pose, Index constraint, float x, float y, float degrees) {
    // The translation that carries the last simulated position around (x, y) by `degrees`.
    const double r = degrees * k_deg_rad, cos = fast_cos(r), sin = fast_sin(r);
    PhysicsPose& s = pose.physics[static_cast<std::size_t>(constraint)];
    const double dx = s.cx - x, dy = s.cy - y;
    const double tx = dx * cos - dy * sin - dx, ty = dx * sin + dy * cos - dy;
    s.ux -= tx;
    s.uy -= ty;
    s.cx -= tx;
    s.cy -= ty;
}

}  // namespace spinegpu::detail
