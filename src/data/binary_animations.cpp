// Animations of a binary (.skel) export: every Spine 4.2 timeline, in the order the format stores them (slots,
// bones, IK, transform, path, physics, deform and sequence, draw order, events). Curves go through the shared
// curve-table builder with the bezier count the file declares, so they match the official runtime's tables.
// Deform, sequence, draw order and event timelines are in binary_keyed_timelines.cpp.
#include <algorithm>
#include <string>

#include "binary_timelines.hpp"

namespace spinegpu::detail {

// Reads the four bezier handle numbers of one value and stores its curve.
bool BinaryTimelineReader::bezier(const TimelineData& t, std::uint32_t& next, std::uint32_t beziers,
                                  std::uint32_t frame, int value_index, double time1, double time2, double value1,
                                  double value2, double scale) {
    std::size_t at = r().offset();
    if (next >= beziers)
        return r().fail_here(at, "more bezier curves than the " + std::to_string(beziers) + " declared");
    float cx1 = 0, cy1 = 0, cx2 = 0, cy2 = 0;
    if (!r().f32(cx1) || !r().f32(cy1) || !r().f32(cx2) || !r().f32(cy2)) return false;
    set_bezier(d().curves, t.curves, t.frame_count, next++, frame, static_cast<std::uint32_t>(value_index), time1,
               value1, cx1, cy1 * scale, cx2, cy2 * scale, time2, value2);
    return true;
}

// A curve timeline whose keys hold `values` numbers after the time: floats times `scale`, or bytes / 255.
bool BinaryTimelineReader::curve_timeline(TimelineType type, Index target, int values, bool bytes, double scale) {
    std::uint32_t frames = 0, beziers = 0;
    if (!frame_count(frames) || !bezier_count(beziers)) return false;
    std::size_t index = d().timelines.size();
    start(type, static_cast<std::uint8_t>(values + 1), target, frames, values, beziers);
    const TimelineData& t = d().timelines[index];
    double a[8] = {}, b[8] = {};
    auto read_key = [&](double& time, double* out) {
        float f = 0;
        if (!r().f32(f)) return false;
        time = f;
        for (int k = 0; k < values; ++k) {
            if (bytes) {
                std::uint8_t c = 0;
                if (!r().byte(c)) return false;
                out[k] = c / 255.0;
            } else {
                if (!r().f32(f)) return false;
                out[k] = f * scale;
            }
        }
        return true;
    };
    double time = 0, time2 = 0;
    if (!read_key(time, a)) return false;
    for (std::uint32_t frame = 0, bezier_index = 0;; ++frame) {
        value(t, frame, 0) = static_cast<float>(time);
        for (int k = 0; k < values; ++k) value(t, frame, k + 1) = static_cast<float>(a[k]);
        if (frame + 1 == frames) {
            finish_curves(bezier_index);
            break;
        }
        std::uint8_t curve = 0;
        if (!read_key(time2, b) || !curve_byte(curve)) return false;
        if (curve == k_curve_byte_stepped) set_stepped(d().curves, t.curves, frame);
        if (curve == k_curve_byte_bezier) {
            for (int k = 0; k < values; ++k)
                if (!bezier(t, bezier_index, beziers, frame, k, time, time2, a[k], b[k], bytes ? 1.0 : scale))
                    return false;
        }
        time = time2;
        std::copy(b, b + values, a);
    }
    return true;
}

bool BinaryTimelineReader::slot_timelines() {
    auto label = [&](Index slot) { return "slot \"" + d().slot_names[slot] + '"'; };
    auto timeline = [&](Index slot, std::uint8_t type, std::size_t at) {
        switch (type) {
        case 0: return attachment_timeline(slot);
        case 1: return curve_timeline(TimelineType::rgba, slot, 4, true, 1);
        case 2: return curve_timeline(TimelineType::rgb, slot, 3, true, 1);
        case 3: return curve_timeline(TimelineType::rgba2, slot, 7, true, 1);
        case 4: return curve_timeline(TimelineType::rgb2, slot, 6, true, 1);
        case 5: return curve_timeline(TimelineType::alpha, slot, 1, true, 1);
        default: return r().fail_here(at, "slot timeline type " + std::to_string(type) + " is not 0..5");
        }
    };
    return timeline_groups("slot timelines", {"slot", "slots", d().slots.size()}, label, timeline);
}

bool BinaryTimelineReader::attachment_timeline(Index slot) {
    std::uint32_t frames = 0;
    if (!frame_count(frames)) return false;
    std::size_t index = d().timelines.size();
    start(TimelineType::attachment, 1, slot, frames, 0, 0);
    std::uint32_t names = static_cast<std::uint32_t>(d().indices.size());
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        float time = 0;
        const std::string* name = nullptr;
        if (!r().f32(time) || !p.string_ref(name)) return false;
        value(d().timelines[index], frame, 0) = time;
        d().indices.push_back(name ? d().attachment_names.intern(*name) : k_none);
    }
    d().timelines[index].aux = Range{names, frames};
    return true;
}

bool BinaryTimelineReader::bone_timelines() {
    auto label = [&](Index bone) { return "bone \"" + d().bone_names[bone] + '"'; };
    auto timeline = [&](Index bone, std::uint8_t type, std::size_t at) {
        double s = p.scale;
        switch (type) {
        case 0: return curve_timeline(TimelineType::rotate, bone, 1, false, 1);
        case 1: return curve_timeline(TimelineType::translate, bone, 2, false, s);
        case 2: return curve_timeline(TimelineType::translate_x, bone, 1, false, s);
        case 3: return curve_timeline(TimelineType::translate_y, bone, 1, false, s);
        case 4: return curve_timeline(TimelineType::scale, bone, 2, false, 1);
        case 5: return curve_timeline(TimelineType::scale_x, bone, 1, false, 1);
        case 6: return curve_timeline(TimelineType::scale_y, bone, 1, false, 1);
        case 7: return curve_timeline(TimelineType::shear, bone, 2, false, 1);
        case 8: return curve_timeline(TimelineType::shear_x, bone, 1, false, 1);
        case 9: return curve_timeline(TimelineType::shear_y, bone, 1, false, 1);
        case 10: return inherit_timeline(bone);
        default: return r().fail_here(at, "bone timeline type " + std::to_string(type) + " is not 0..10");
        }
    };
    return timeline_groups("bone timelines", {"bone", "bones", d().bones.size()}, label, timeline);
}

bool BinaryTimelineReader::inherit_timeline(Index bone) {
    std::uint32_t frames = 0;
    if (!frame_count(frames)) return false;
    std::size_t index = d().timelines.size();
    start(TimelineType::inherit, 2, bone, frames, 0, 0);
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        float time = 0;
        std::uint8_t inherit = 0;
        if (!r().f32(time)) return false;
        std::size_t at = r().offset();
        if (!r().byte(inherit)) return false;
        if (inherit > static_cast<std::uint8_t>(Inherit::no_scale_or_reflection))
            return r().fail_here(at, "inherit mode " + std::to_string(inherit) + " is not one of 0..4");
        value(d().timelines[index], frame, 0) = time;
        value(d().timelines[index], frame, 1) = inherit;
    }
    return true;
}

bool BinaryTimelineReader::ik_timelines() {
    std::uint32_t n = 0;
    set_section("IK constraint timelines");
    if (!r().count(n, 8, "IK constraint timeline")) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
        Index ik = 0;
        std::uint32_t frames = 0, beziers = 0;
        set_section("IK constraint timelines");
        if (!r().index(ik, d().ik_constraints.size(), "IK constraint", "IK constraints")) return false;
        set_section("IK constraint \"" + d().ik_names[ik] + '"');
        if (!frame_count(frames) || !bezier_count(beziers)) return false;
        std::size_t index = d().timelines.size();
        start(TimelineType::ik, 6, ik, frames, 2, beziers);
        const TimelineData& t = d().timelines[index];
        std::uint8_t flags = 0;
        float f = 0;
        double time = 0, mix = 0, softness = 0;
        auto read_key = [&](double& time_out, double& mix_out, double& softness_out) {
            if (!r().f32(f)) return false;
            time_out = f;
            mix_out = 0;
            if ((flags & 1) != 0) {
                mix_out = 1;
                if ((flags & 2) != 0) {
                    if (!r().f32(f)) return false;
                    mix_out = f;
                }
            }
            softness_out = 0;
            if ((flags & 4) != 0) {
                if (!r().f32(f)) return false;
                softness_out = f * p.scale;
            }
            return true;
        };
        if (!r().byte(flags) || !read_key(time, mix, softness)) return false;
        for (std::uint32_t frame = 0, bezier_index = 0;; ++frame) {
            value(t, frame, 0) = static_cast<float>(time);
            value(t, frame, 1) = static_cast<float>(mix);
            value(t, frame, 2) = static_cast<float>(softness);
            value(t, frame, 3) = (flags & 8) != 0 ? 1.0f : -1.0f;
            value(t, frame, 4) = (flags & 16) != 0 ? 1.0f : 0.0f;
            value(t, frame, 5) = (flags & 32) != 0 ? 1.0f : 0.0f;
            if (frame + 1 == frames) {
                finish_curves(bezier_index);
                break;
            }
            double time2 = 0, mix2 = 0, softness2 = 0;
            if (!r().byte(flags) || !read_key(time2, mix2, softness2)) return false;
            if ((flags & 64) != 0) {
                set_stepped(d().curves, t.curves, frame);
            } else if ((flags & 128) != 0) {
                if (!bezier(t, bezier_index, beziers, frame, 0, time, time2, mix, mix2, 1) ||
                    !bezier(t, bezier_index, beziers, frame, 1, time, time2, softness, softness2, p.scale))
                    return false;
            }
            time = time2;
            mix = mix2;
            softness = softness2;
        }
    }
    return true;
}

bool BinaryTimelineReader::transform_timelines() {
    std::uint32_t n = 0;
    set_section("transform constraint timelines");
    if (!r().count(n, 8, "transform constraint timeline")) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
        Index c = 0;
        set_section("transform constraint timelines");
        if (!r().index(c, d().transform_constraints.size(), "transform constraint", "transform constraints"))
            return false;
        set_section("transform constraint \"" + d().transform_names[c] + '"');
        if (!curve_timeline(TimelineType::transform, c, 6, false, 1)) return false;
    }
    return true;
}

bool BinaryTimelineReader::path_timelines() {
    auto label = [&](Index c) { return "path constraint \"" + d().path_names[c] + '"'; };
    auto timeline = [&](Index c, std::uint8_t type, std::size_t at) {
        const PathConstraintData& data = d().path_constraints[static_cast<std::size_t>(c)];
        double position_scale = data.position_mode == PositionMode::fixed ? p.scale : 1;
        bool spacing_scaled = data.spacing_mode == SpacingMode::length || data.spacing_mode == SpacingMode::fixed;
        double spacing_scale = spacing_scaled ? p.scale : 1;
        switch (type) {
        case 0: return curve_timeline(TimelineType::path_position, c, 1, false, position_scale);
        case 1: return curve_timeline(TimelineType::path_spacing, c, 1, false, spacing_scale);
        case 2: return curve_timeline(TimelineType::path_mix, c, 3, false, 1);
        default: return r().fail_here(at, "path timeline type " + std::to_string(type) + " is not 0..2");
        }
    };
    GroupTargets targets{"path constraint", "path constraints", d().path_constraints.size()};
    return timeline_groups("path constraint timelines", targets, label, timeline);
}

bool BinaryTimelineReader::physics_timelines() {
    // Index 0 means every physics constraint, i + 1 the i-th one.
    auto label = [&](Index index) {
        return index == 0 ? std::string("all physics constraints")
                          : "physics constraint \"" + d().physics_names[index - 1] + '"';
    };
    auto timeline = [&](Index index, std::uint8_t type, std::size_t at) {
        Index c = index - 1;  // k_none for every constraint
        switch (type) {
        case 0: return curve_timeline(TimelineType::physics_inertia, c, 1, false, 1);
        case 1: return curve_timeline(TimelineType::physics_strength, c, 1, false, 1);
        case 2: return curve_timeline(TimelineType::physics_damping, c, 1, false, 1);
        case 4: return curve_timeline(TimelineType::physics_mass, c, 1, false, 1);
        case 5: return curve_timeline(TimelineType::physics_wind, c, 1, false, 1);
        case 6: return curve_timeline(TimelineType::physics_gravity, c, 1, false, 1);
        case 7: return curve_timeline(TimelineType::physics_mix, c, 1, false, 1);
        case 8: return reset_timeline(c);
        default:
            return r().fail_here(at, "physics timeline type " + std::to_string(type) +
                                         " is not one of 0, 1, 2, 4, 5, 6, 7, 8");
        }
    };
    GroupTargets targets{"physics constraint", "physics constraints + 1", d().physics_constraints.size() + 1};
    return timeline_groups("physics constraint timelines", targets, label, timeline);
}

bool BinaryTimelineReader::reset_timeline(Index constraint) {
    std::uint32_t frames = 0;
    if (!frame_count(frames)) return false;
    std::size_t index = d().timelines.size();
    start(TimelineType::physics_reset, 1, constraint, frames, 0, 0);
    for (std::uint32_t frame = 0; frame < frames; ++frame)
        if (!r().f32(value(d().timelines[index], frame, 0))) return false;
    return true;
}

bool read_binary_animation(BinaryParse& p, const std::string& name) {
    BinaryTimelineReader a{p, quoted("animation", name)};
    std::uint32_t ignored = 0;  // the number of timelines, which the official loader ignores too
    if (!p.r.varint(ignored)) return false;
    AnimationData animation;
    auto first = static_cast<std::uint32_t>(p.data.timelines.size());
    if (!a.slot_timelines() || !a.bone_timelines() || !a.ik_timelines() || !a.transform_timelines() ||
        !a.path_timelines() || !a.physics_timelines() || !a.attachment_timelines() || !a.draw_order_timeline() ||
        !a.event_timeline())
        return false;
    animation.timelines = Range{first, static_cast<std::uint32_t>(p.data.timelines.size()) - first};
    for (std::uint32_t i = first; i < first + animation.timelines.count; ++i) {
        const TimelineData& t = p.data.timelines[i];
        float last = p.data.frames[t.frames + (t.frame_count - 1) * std::size_t{t.entries}];
        animation.duration = std::max(animation.duration, last);
    }
    p.data.animations.push_back(animation);
    return true;
}

}  // namespace spinegpu::detail
