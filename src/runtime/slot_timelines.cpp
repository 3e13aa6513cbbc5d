// Slot timelines (Spine's RGBATimeline, RGBTimeline, AlphaTimeline, RGBA2Timeline, RGB2Timeline,
// AttachmentTimeline, SequenceTimeline) and set_attachment_by_name. Deform lives in deform_timeline.cpp.
#include <algorithm>

#include "timeline_eval.hpp"

namespace spinegpu {
namespace detail {

namespace {

// Which colour a colour timeline keys. The official runtime clamps the light colour only where it goes through
// Color.set/add (rgba and rgba2, whose keys have alpha); rgb, rgb2 and every dark colour are stored unclamped.
struct ColorKeys {
    int light;  // 3 (rgb) or 4 (rgba)
    bool dark;  // rgb2 values follow the light ones
};

double clamp01(double value) { return value < 0 ? 0 : value > 1 ? 1 : value; }

void store(Color& color, const double* values, int count, bool clamp) {
    float* out[4] = {&color.r, &color.g, &color.b, &color.a};
    for (int k = 0; k < count; ++k) *out[k] = static_cast<float>(clamp ? clamp01(values[k]) : values[k]);
}

void load(const Color& color, double* values) {
    values[0] = color.r;
    values[1] = color.g;
    values[2] = color.b;
    values[3] = color.a;
}

void apply_color(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                 double alpha, MixBlend blend, ColorKeys keys) {
    auto s = static_cast<std::size_t>(timeline.target);
    SlotPose& slot = pose.slots[s];
    const SlotData& setup = data.slots[s];
    const bool clamp = keys.light == 4;
    double light[4], dark[4], setup_light[4], setup_dark[4];
    load(slot.color, light);
    load(slot.dark, dark);
    load(setup.color, setup_light);
    load(setup.dark, setup_dark);
    if (time < timeline_rows(data, timeline)[0]) {
        switch (blend) {
            case MixBlend::setup:
                // Color.setFromColor: a copy, not clamped.
                store(slot.color, setup_light, keys.light, false);
                if (keys.dark) store(slot.dark, setup_dark, 3, false);
                return;
            case MixBlend::first:
                for (int k = 0; k < keys.light; ++k) light[k] += (setup_light[k] - light[k]) * alpha;
                for (int k = 0; k < 3; ++k) dark[k] += (setup_dark[k] - dark[k]) * alpha;
                store(slot.color, light, keys.light, clamp);
                if (keys.dark) store(slot.dark, dark, 3, false);
                return;
            default: return;
        }
    }
    double v[7];
    curve_values(data, timeline, time, keys.light + (keys.dark ? 3 : 0), v);
    const double* v2 = v + keys.light;
    if (alpha == 1) {
        store(slot.color, v, keys.light, clamp);
        if (keys.dark) store(slot.dark, v2, 3, false);
        return;
    }
    if (blend == MixBlend::setup) {
        std::copy(setup_light, setup_light + keys.light, light);
        std::copy(setup_dark, setup_dark + 3, dark);
    }
    for (int k = 0; k < keys.light; ++k) light[k] += (v[k] - light[k]) * alpha;
    store(slot.color, light, keys.light, clamp);
    if (keys.dark) {
        for (int k = 0; k < 3; ++k) dark[k] += (v2[k] - dark[k]) * alpha;
        store(slot.dark, dark, 3, false);
    }
}

void apply_alpha(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                 double alpha, MixBlend blend) {
    auto s = static_cast<std::size_t>(timeline.target);
    float& a = pose.slots[s].color.a;
    const double setup = data.slots[s].color.a;
    if (time < timeline_rows(data, timeline)[0]) {
        switch (blend) {
            case MixBlend::setup: a = static_cast<float>(setup); return;
            case MixBlend::first: a = static_cast<float>(a + (setup - a) * alpha); return;
            default: return;
        }
    }
    double value = curve_value_d(data, timeline, time);
    if (alpha == 1) {
        a = static_cast<float>(value);
        return;
    }
    double current = blend == MixBlend::setup ? setup : static_cast<double>(a);
    a = static_cast<float>(current + (value - current) * alpha);
}

void apply_attachment(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                      MixBlend blend, MixDirection direction) {
    Index slot = timeline.target;
    const SlotData& setup = data.slots[static_cast<std::size_t>(slot)];
    // Attachment changes are instant: mixing out only restores the setup attachment under the setup blend.
    if (direction == MixDirection::out) {
        if (blend == MixBlend::setup)
            set_attachment_by_name(pose, slot, setup.attachment_name, setup.default_attachment);
        return;
    }
    const float* rows = timeline_rows(data, timeline);
    if (time < rows[0]) {
        if (blend == MixBlend::setup || blend == MixBlend::first)
            set_attachment_by_name(pose, slot, setup.attachment_name, setup.default_attachment);
        return;
    }
    const std::size_t key = timeline.aux.offset + search_rows(rows, timeline.frame_count, 1, time);
    set_attachment_by_name(pose, slot, data.indices[key], data.indices[key + timeline.aux.count]);
}

// The frame a sequence shows `elapsed` delays after its key, for each SequenceMode (same order as Spine's
// SequenceModeValues). An unknown mode keeps the key's index, as the official switch falls through.
std::int32_t sequence_index(std::int32_t index, int mode, std::int32_t count, double elapsed_delays) {
    if (mode == static_cast<int>(SequenceMode::hold)) return index;
    index += to_int32(elapsed_delays + 0.00001);
    if (count <= 0) return index;  // a sequence always has regions; guard the divisions all the same
    const std::int32_t n = count * 2 - 2;  // one ping-pong cycle
    switch (static_cast<SequenceMode>(mode)) {
        case SequenceMode::once: return std::min(count - 1, index);
        case SequenceMode::loop: return index % count;
        case SequenceMode::pingpong:
            index = n == 0 ? 0 : index % n;
            return index >= count ? n - index : index;
        case SequenceMode::once_reverse: return std::max(count - 1 - index, 0);
        case SequenceMode::loop_reverse: return count - 1 - index % count;
        case SequenceMode::pingpong_reverse:
            index = n == 0 ? 0 : (index + count - 1) % n;
            return index >= count ? n - index : index;
        default: return index;
    }
}

void apply_sequence(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                    MixBlend blend, MixDirection direction) {
    Index s = timeline.target;
    if (!slot_shows_timeline_attachment(pose, s, timeline.attachment, true)) return;
    SlotPose& slot = pose.slots[static_cast<std::size_t>(s)];
    if (direction == MixDirection::out) {
        if (blend == MixBlend::setup) slot.sequence_index = -1;
        return;
    }
    const float* rows = timeline_rows(data, timeline);
    if (time < rows[0]) {
        if (blend == MixBlend::setup || blend == MixBlend::first) slot.sequence_index = -1;
        return;
    }
    const float* row = rows + search_rows(rows, timeline.frame_count, 3, time) * 3;
    Index sequence = data.attachments[static_cast<std::size_t>(timeline.attachment)].sequence;
    if (sequence == k_none) return;
    std::int32_t mode_and_index = to_int32(row[1]);
    double delay = row[2];
    slot.sequence_index = sequence_index(mode_and_index >> 4, mode_and_index & 0xf,
                                         data.sequences[static_cast<std::size_t>(sequence)].count,
                                         (time - row[0]) / delay);
}

}  // namespace

bool slot_shows_timeline_attachment(const SkeletonPose& pose, Index slot, Index attachment, bool accept_same) {
    Index current = pose.slots[static_cast<std::size_t>(slot)].attachment;
    if (current == k_none) return false;
    if (accept_same && current == attachment) return true;
    const AttachmentData& shown = pose.data->attachments[static_cast<std::size_t>(current)];
    return is_vertex_attachment(shown) && shown.timeline_attachment == attachment;
}

void apply_slot_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double time,
                         double alpha, MixBlend blend, MixDirection direction) {
    Index bone = data.slots[static_cast<std::size_t>(timeline.target)].bone;
    if (!pose.bone_active[static_cast<std::size_t>(bone)]) return;
    switch (timeline.type) {
        case TimelineType::rgba: apply_color(data, timeline, pose, time, alpha, blend, {4, false}); break;
        case TimelineType::rgb: apply_color(data, timeline, pose, time, alpha, blend, {3, false}); break;
        case TimelineType::alpha: apply_alpha(data, timeline, pose, time, alpha, blend); break;
        case TimelineType::rgba2: apply_color(data, timeline, pose, time, alpha, blend, {4, true}); break;
        case TimelineType::rgb2: apply_color(data, timeline, pose, time, alpha, blend, {3, true}); break;
        case TimelineType::attachment: apply_attachment(data, timeline, pose, time, blend, direction); break;
        case TimelineType::sequence: apply_sequence(data, timeline, pose, time, blend, direction); break;
        default: break;
    }
}

}  // namespace detail

void set_attachment_by_name(SkeletonPose& pose, Index slot, Index attachment_name) {
    set_slot_attachment(pose, slot,
                        attachment_name == k_none ? k_none : find_attachment(pose, slot, attachment_name));
}

}  // namespace spinegpu
