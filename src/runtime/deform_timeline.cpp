// Spine's DeformTimeline: per-vertex offsets (weighted attachments) or positions (unweighted) keyed over time,
// written into the slot's range of SkeletonPose::deform.
#include <cassert>

#include "timeline_eval.hpp"

namespace spinegpu::detail {

namespace {

// DeformTimeline.getCurvePercent: how far `time` is from key `frame` to the next, 0..1 (beyond for overshooting
// curves). A deform bezier always runs from 0 to 1, and the runtime reads its samples with formulas folded for
// those ends (0 and 1 never loaded from a row), in its own operation order; we keep that order to the last ulp.
double curve_percent(const SkeletonData& data, const TimelineData& timeline, double time, std::uint32_t frame) {
    const float* rows = timeline_rows(data, timeline);
    if (frame + 1 >= timeline.frame_count || frame >= timeline.curves.count) return 0;
    const float* c = timeline_curves(data, timeline);
    float type = c[frame];
    if (type == k_curve_linear) {
        double x = rows[frame];
        return (time - x) / (rows[frame + 1] - x);
    }
    if (!(type >= k_curve_bezier)) return 0;  // stepped
    auto i = static_cast<std::uint32_t>(type - k_curve_bezier);
    if (i + static_cast<std::uint32_t>(k_bezier_size) > timeline.curves.count) {
        assert(false && "bezier samples outside the curve table");
        return 0;
    }
    if (c[i] > time) {
        double x = rows[frame];
        return c[i + 1] * (time - x) / (c[i] - x);
    }
    const std::uint32_t end = i + static_cast<std::uint32_t>(k_bezier_size);
    for (i += 2; i < end; i += 2) {
        if (c[i] >= time) {
            double x = c[i - 2], y = c[i - 1];
            return y + (time - x) / (c[i] - x) * (c[i + 1] - y);
        }
    }
    double x = c[end - 2], y = c[end - 1];
    return y + (1 - y) * (time - x) / (rows[frame + 1] - x);
}

// What a deform blends toward when it adds to the pose or mixes from the setup pose: the setup positions of an
// unweighted attachment, zero offsets for a weighted one.
struct SetupVertices {
    const float* positions;  // null for a weighted attachment
    double operator[](std::uint32_t i) const { return positions ? positions[i] : 0.0; }
};

}  // namespace

void apply_deform_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                           double alpha, MixBlend blend) {
    Index s = timeline.target;
    if (!pose.bone_active[static_cast<std::size_t>(data.slots[static_cast<std::size_t>(s)].bone)]) return;
    if (!slot_shows_timeline_attachment(pose, s, timeline.attachment, false)) return;
    if (timeline.frame_count == 0) return;
    SlotPose& slot = pose.slots[static_cast<std::size_t>(s)];
    const AttachmentData& shown = data.attachments[static_cast<std::size_t>(slot.attachment)];
    const std::uint32_t count = timeline.aux.count / timeline.frame_count;
    // The slot reserves room for every attachment its skins hold; an attachment set from elsewhere through the API
    // may not fit, and is then left undeformed rather than written past the slot's range.
    if (count > slot.deform_capacity) return;
    // An empty deform has nothing to mix from: the setup blend rebuilds it whole.
    if (slot.deform_count == 0) blend = MixBlend::setup;
    if (blend == MixBlend::add || !(alpha >= 0 && alpha <= 1)) pose.deform_beyond_keys = true;
    float* deform = pose.deform.data() + slot.deform_offset;
    const SetupVertices setup{shown.bones.count == 0 ? data.floats.data() + shown.vertices.offset : nullptr};
    const float* keys = data.floats.data() + timeline.aux.offset;
    const float* rows = timeline_rows(data, timeline);

    if (time < rows[0]) {
        switch (blend) {
            case MixBlend::setup: slot.deform_count = 0; return;
            case MixBlend::first:
                if (alpha == 1) {
                    slot.deform_count = 0;
                    return;
                }
                slot.deform_count = count;
                if (setup.positions) {
                    for (std::uint32_t i = 0; i < count; ++i)
                        deform[i] = static_cast<float>(deform[i] + (setup[i] - deform[i]) * alpha);
                } else {
                    alpha = 1 - alpha;
                    for (std::uint32_t i = 0; i < count; ++i) deform[i] = static_cast<float>(deform[i] * alpha);
                }
                return;
            default: return;
        }
    }
    slot.deform_count = count;

    // The deform at `time`: the last key's vertices past the last key, else the two keys around it.
    const std::uint32_t last = timeline.frame_count - 1;
    const bool after_last = time >= rows[last];
    const std::uint32_t frame = after_last ? last : search_rows(rows, timeline.frame_count, 1, time);
    const float* prev = keys + static_cast<std::size_t>(frame) * count;
    const float* next = after_last ? prev : prev + count;
    const double percent = after_last ? 0.0 : curve_percent(data, timeline, time, frame);
    // Past the last key the runtime uses the key's values as they are (no interpolation arithmetic).
    auto value = [&](std::uint32_t i) -> double {
        double p = prev[i];
        return after_last ? p : p + (next[i] - p) * percent;
    };

    if (alpha == 1) {
        if (blend == MixBlend::add) {
            for (std::uint32_t i = 0; i < count; ++i)
                deform[i] = static_cast<float>(deform[i] + (value(i) - setup[i]));
        } else {
            for (std::uint32_t i = 0; i < count; ++i) deform[i] = static_cast<float>(value(i));
        }
        return;
    }
    switch (blend) {
        case MixBlend::setup:
            for (std::uint32_t i = 0; i < count; ++i) {
                double base = setup[i];
                deform[i] = static_cast<float>(base + (value(i) - base) * alpha);
            }
            break;
        case MixBlend::first:
        case MixBlend::replace:
            for (std::uint32_t i = 0; i < count; ++i)
                deform[i] = static_cast<float>(deform[i] + (value(i) - deform[i]) * alpha);
            break;
        case MixBlend::add:
            for (std::uint32_t i = 0; i < count; ++i)
                deform[i] = static_cast<float>(deform[i] + (value(i) - setup[i]) * alpha);
            break;
    }
}

}  // namespace spinegpu::detail
