// The timelines of one animation in a binary (.skel) export, read by binary_animations.cpp (curve timelines of
// slots, bones and constraints) and binary_keyed_timelines.cpp (deform, sequence, draw order and event timelines).
// Private to the binary loader.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "binary_parser.hpp"
#include "curve_builder.hpp"

namespace spinegpu::detail {

// The curve byte after a key: 0 linear, 1 stepped, 2 bezier (handles follow).
inline constexpr std::uint8_t k_curve_byte_stepped = 1, k_curve_byte_bezier = 2;

// Reads the timelines of one animation into SkeletonData::timelines and its pools. Each function returns false
// after recording an error in the reader; `section` names the animation in messages.
struct BinaryTimelineReader {
    BinaryParse& p;
    std::string section;  // `animation "walk"`

    BinaryReader& r() { return p.r; }
    SkeletonData& d() { return p.data; }

    // Sets the reader's section to `animation "walk", <detail>`.
    void set_section(std::string_view detail) { p.r.set_section(section + ", " + std::string(detail)); }

    bool frame_count(std::uint32_t& n) {
        std::size_t at = r().offset();
        if (!r().count(n, 4, "frame")) return false;
        if (n == 0) return r().fail_here(at, "timeline has no frames");
        return true;
    }

    bool bezier_count(std::uint32_t& n) { return r().count(n, 16, "bezier curve"); }

    // Appends a timeline with room for its frames and, when it has `curve_values` > 0 curves per key, a curve table
    // for the `beziers` the file declares. The table never holds more than the keys can use ((frames - 1) x
    // curve_values), so that a corrupt count costs no memory; finish_curves() trims it to the beziers read.
    void start(TimelineType type, std::uint8_t entries, Index target, std::uint32_t frames, int curve_values,
               std::uint32_t beziers) {
        TimelineData t;
        t.type = type;
        t.entries = entries;
        t.target = target;
        t.frame_count = frames;
        t.frames = static_cast<std::uint32_t>(d().frames.size());
        d().frames.resize(d().frames.size() + std::size_t{frames} * entries, 0.0f);
        if (curve_values > 0) {
            std::uint64_t usable = std::uint64_t{frames - 1} * static_cast<std::uint64_t>(curve_values);
            t.curves = append_curve_table(d().curves, frames,
                                          static_cast<std::uint32_t>(std::min<std::uint64_t>(beziers, usable)));
        }
        d().timelines.push_back(t);
    }

    // Trims the curve table of the last timeline to the `used` beziers its keys stored.
    void finish_curves(std::uint32_t used) {
        TimelineData& t = d().timelines.back();
        shrink_curve_table(d().curves, t.curves, t.frame_count, used);
    }

    float& value(const TimelineData& t, std::uint32_t frame, int k) {
        return d().frames[t.frames + std::size_t{frame} * t.entries + static_cast<std::size_t>(k)];
    }

    // Reads the four bezier handle numbers of one value and stores its curve.
    bool bezier(const TimelineData& t, std::uint32_t& next, std::uint32_t beziers, std::uint32_t frame, int value_index,
                double time1, double time2, double value1, double value2, double scale);

    // A deform key's curve: its value runs from 0 to 1, sampled with the official deform timeline's constants.
    bool deform_bezier(const TimelineData& t, std::uint32_t& next, std::uint32_t beziers, std::uint32_t frame,
                       double time1, double time2);

    bool curve_byte(std::uint8_t& out) {
        std::size_t at = r().offset();
        if (!r().byte(out)) return false;
        if (out > k_curve_byte_bezier) return r().fail_here(at, "curve type " + std::to_string(out) + " is not 0..2");
        return true;
    }

    // A curve timeline whose keys hold `values` numbers after the time: floats times `scale`, or bytes / 255.
    bool curve_timeline(TimelineType type, Index target, int values, bool bytes, double scale);

    // The targets one section of timeline groups names ("slot", "slots") and how many an index may name.
    struct GroupTargets {
        std::string_view one, many;
        std::size_t count;
    };

    // Reads one section of timeline groups (`what`: "slot timelines"): a count of groups, each a target index below
    // `targets.count`, then a count of timelines, each a type byte. `label(target)` names the target in messages;
    // `timeline(target, type, at)` reads the rest of one timeline, `at` being its type byte's offset.
    template <class Label, class Timeline>
    bool timeline_groups(std::string_view what, GroupTargets targets, Label label, Timeline timeline) {
        std::uint32_t groups = 0;
        set_section(what);
        if (!r().count(groups, 2, std::string(targets.one) + " timeline group")) return false;
        for (std::uint32_t i = 0; i < groups; ++i) {
            Index target = 0;
            std::uint32_t timelines = 0;
            set_section(what);
            if (!r().index(target, targets.count, targets.one, targets.many)) return false;
            set_section(label(target));
            if (!r().count(timelines, 2, "timeline")) return false;
            for (std::uint32_t k = 0; k < timelines; ++k) {
                std::size_t at = r().offset();
                std::uint8_t type = 0;
                if (!r().byte(type) || !timeline(target, type, at)) return false;
            }
        }
        return true;
    }

    // The sections of an animation, in file order (binary_animations.cpp).
    bool slot_timelines();
    bool attachment_timeline(Index slot);
    bool bone_timelines();
    bool inherit_timeline(Index bone);
    bool ik_timelines();
    bool transform_timelines();
    bool path_timelines();
    bool physics_timelines();
    bool reset_timeline(Index constraint);

    // The sections whose keys carry more than numbers (binary_keyed_timelines.cpp).
    bool attachment_timelines();
    bool deform_timeline(Index slot, Index attachment);
    bool sequence_timeline(Index slot, Index attachment);
    bool draw_order_timeline();
    bool event_timeline();
};

}  // namespace spinegpu::detail
