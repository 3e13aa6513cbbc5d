// Constraint timelines (Spine's IkConstraintTimeline, TransformConstraintTimeline, PathConstraintPositionTimeline,
// PathConstraintSpacingTimeline, PathConstraintMixTimeline, the PhysicsConstraint*Timelines and
// PhysicsConstraintResetTimeline): they write the constraints' animatable values in the pose.
#include <limits>

#include "constraints.hpp"
#include "timeline_eval.hpp"

namespace spinegpu::detail {

namespace {

// Mixes `count` values of a constraint toward the timeline's, as every multi-value constraint timeline does:
// before the first key setup snaps to and first mixes toward the setup values; after it setup mixes from the
// setup values and the other blends from the current ones (add is not additive for constraint mixes).
// Returns false before the first key, where `frame` is not set.
bool mix_constraint_values(const SkeletonData& data, const TimelineData& timeline, double time, double alpha,
                           MixBlend blend, float* const* current, const float* setup, int count,
                           std::uint32_t& frame) {
    if (time < timeline_rows(data, timeline)[0]) {
        for (int k = 0; k < count; ++k) {
            if (blend == MixBlend::setup) *current[k] = setup[k];
            else if (blend == MixBlend::first)
                *current[k] = static_cast<float>(*current[k] + (static_cast<double>(setup[k]) - *current[k]) * alpha);
        }
        return false;
    }
    double v[7];
    frame = curve_values(data, timeline, time, count, v);
    for (int k = 0; k < count; ++k) {
        double from = blend == MixBlend::setup ? setup[k] : *current[k];
        *current[k] = static_cast<float>(from + (v[k] - from) * alpha);
    }
    return true;
}

void apply_ik(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time, double alpha,
              MixBlend blend, MixDirection direction) {
    auto c = static_cast<std::size_t>(timeline.target);
    IkPose& ik = pose.ik[c];
    if (!ik.active) return;
    const IkConstraintData& setup = data.ik_constraints[c];
    float* current[2] = {&ik.mix, &ik.softness};
    const float setup_values[2] = {setup.mix, setup.softness};
    auto discrete_from_setup = [&] {
        ik.bend_direction = setup.bend_direction;
        ik.compress = setup.compress;
        ik.stretch = setup.stretch;
    };
    std::uint32_t frame = 0;
    if (!mix_constraint_values(data, timeline, time, alpha, blend, current, setup_values, 2, frame)) {
        if (blend == MixBlend::setup || blend == MixBlend::first) discrete_from_setup();
        return;
    }
    // Bend direction, compress and stretch switch at keys: mixing in takes the key's, mixing out under the setup
    // blend restores the setup's, and mixing out otherwise leaves them.
    if (direction == MixDirection::in) {
        const float* row = timeline_rows(data, timeline) + frame * timeline.entries;
        ik.bend_direction = static_cast<std::int8_t>(row[3]);
        ik.compress = row[4] != 0;
        ik.stretch = row[5] != 0;
    } else if (blend == MixBlend::setup) {
        discrete_from_setup();
    }
}

void apply_transform(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                     double alpha, MixBlend blend) {
    auto c = static_cast<std::size_t>(timeline.target);
    TransformPose& p = pose.transform[c];
    if (!p.active) return;
    const TransformConstraintData& s = data.transform_constraints[c];
    float* current[6] = {&p.mix_rotate, &p.mix_x, &p.mix_y, &p.mix_scale_x, &p.mix_scale_y, &p.mix_shear_y};
    const float setup[6] = {s.mix_rotate, s.mix_x, s.mix_y, s.mix_scale_x, s.mix_scale_y, s.mix_shear_y};
    std::uint32_t frame = 0;
    mix_constraint_values(data, timeline, time, alpha, blend, current, setup, 6, frame);
}

void apply_path(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                double alpha, MixBlend blend) {
    auto c = static_cast<std::size_t>(timeline.target);
    PathPose& p = pose.path[c];
    if (!p.active) return;
    const PathConstraintData& s = data.path_constraints[c];
    switch (timeline.type) {
        case TimelineType::path_position:
            p.position = static_cast<float>(absolute_value(data, timeline, time, alpha, blend, p.position, s.position));
            break;
        case TimelineType::path_spacing:
            p.spacing = static_cast<float>(absolute_value(data, timeline, time, alpha, blend, p.spacing, s.spacing));
            break;
        default: {
            float* current[3] = {&p.mix_rotate, &p.mix_x, &p.mix_y};
            const float setup[3] = {s.mix_rotate, s.mix_x, s.mix_y};
            std::uint32_t frame = 0;
            mix_constraint_values(data, timeline, time, alpha, blend, current, setup, 3, frame);
        }
    }
}

// One animatable physics parameter: where it lives in the pose and the data, and the flag that puts it under
// timelines keyed on every constraint. Mass is keyed as a mass but stored inverted.
struct PhysicsParameter {
    float PhysicsPose::*value;
    float PhysicsConstraintData::*setup;
    bool PhysicsConstraintData::*global;
    bool inverted;
};

PhysicsParameter physics_parameter(TimelineType type) {
    using P = PhysicsPose;
    using D = PhysicsConstraintData;
    switch (type) {
        case TimelineType::physics_inertia: return {&P::inertia, &D::inertia, &D::inertia_global, false};
        case TimelineType::physics_strength: return {&P::strength, &D::strength, &D::strength_global, false};
        case TimelineType::physics_damping: return {&P::damping, &D::damping, &D::damping_global, false};
        case TimelineType::physics_mass: return {&P::mass_inverse, &D::mass_inverse, &D::mass_global, true};
        case TimelineType::physics_wind: return {&P::wind, &D::wind, &D::wind_global, false};
        case TimelineType::physics_gravity: return {&P::gravity, &D::gravity, &D::gravity_global, false};
        default: return {&P::mix, &D::mix, &D::mix_global, false};
    }
}

void apply_physics(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                   double alpha, MixBlend blend) {
    const PhysicsParameter param = physics_parameter(timeline.type);
    auto get = [&](double stored) { return param.inverted ? 1 / stored : stored; };
    auto set = [&](PhysicsPose& p, double value) {
        p.*param.value = static_cast<float>(param.inverted ? 1 / value : value);
    };
    if (timeline.target != k_none) {
        auto c = static_cast<std::size_t>(timeline.target);
        PhysicsPose& p = pose.physics[c];
        if (!p.active) return;
        set(p, absolute_value(data, timeline, time, alpha, blend, get(p.*param.value),
                              get(data.physics_constraints[c].*param.setup)));
        return;
    }
    // Keyed on every constraint: the curve is evaluated once, and only constraints whose parameter is global
    // follow it.
    double value = time >= timeline_rows(data, timeline)[0] ? curve_value_d(data, timeline, time) : 0;
    for (std::size_t c = 0; c < pose.physics.size(); ++c) {
        PhysicsPose& p = pose.physics[c];
        const PhysicsConstraintData& d = data.physics_constraints[c];
        if (!p.active || !(d.*param.global)) continue;
        set(p, absolute_value_at(data, timeline, time, alpha, blend, get(p.*param.value), get(d.*param.setup),
                                 value));
    }
}

// PhysicsConstraintResetTimeline: resets the simulation when a key lies in (last_time, time]; with a looped
// animation that wrapped (last_time > time), keys after last_time count too.
void apply_physics_reset(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                         double last_time, double time) {
    if (timeline.target != k_none && !pose.physics[static_cast<std::size_t>(timeline.target)].active) return;
    const float* rows = timeline_rows(data, timeline);
    const std::uint32_t count = timeline.frame_count;
    if (last_time > time) {
        apply_physics_reset(data, timeline, pose, last_time, std::numeric_limits<double>::max());
        last_time = -1;
    } else if (last_time >= rows[count - 1]) {
        return;
    }
    if (time < rows[0]) return;
    bool crossed = last_time < rows[0];
    if (!crossed) {
        std::uint32_t next = search_rows(rows, count, 1, last_time) + 1;
        crossed = next < count && time >= rows[next];
    }
    if (!crossed) return;
    if (timeline.target != k_none) {
        reset_physics_constraint(pose, timeline.target);
        return;
    }
    for (std::size_t c = 0; c < pose.physics.size(); ++c)
        if (pose.physics[c].active) reset_physics_constraint(pose, static_cast<Index>(c));
}

}  // namespace

void apply_constraint_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose,
                               double last_time, double time, double alpha, MixBlend blend, MixDirection direction) {
    switch (timeline.type) {
        case TimelineType::ik: apply_ik(data, timeline, pose, time, alpha, blend, direction); break;
        case TimelineType::transform: apply_transform(data, timeline, pose, time, alpha, blend); break;
        case TimelineType::path_position:
        case TimelineType::path_spacing:
        case TimelineType::path_mix: apply_path(data, timeline, pose, time, alpha, blend); break;
        case TimelineType::physics_inertia:
        case TimelineType::physics_strength:
        case TimelineType::physics_damping:
        case TimelineType::physics_mass:
        case TimelineType::physics_wind:
        case TimelineType::physics_gravity:
        case TimelineType::physics_mix: apply_physics(data, timeline, pose, time, alpha, blend); break;
        case TimelineType::physics_reset: apply_physics_reset(data, timeline, pose, last_time, time); break;
        default: break;
    }
}

}  // namespace spinegpu::detail
