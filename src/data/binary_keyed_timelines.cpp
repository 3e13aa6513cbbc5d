// Deform, sequence, draw order and event timelines of a binary (.skel) export: the timelines whose keys carry
// more than numbers (vertex arrays, attachments, slot orders, events).
#include <span>
#include <string>
#include <vector>

#include "binary_timelines.hpp"
#include "timeline_keys.hpp"

namespace spinegpu::detail {

// A deform key's curve: its value runs from 0 to 1, sampled with the official deform timeline's constants.
bool BinaryTimelineReader::deform_bezier(const TimelineData& t, std::uint32_t& next, std::uint32_t beziers,
                                   std::uint32_t frame, double time1, double time2) {
    std::size_t at = r().offset();
    if (next >= beziers)
        return r().fail_here(at, "more bezier curves than the " + std::to_string(beziers) + " declared");
    float cx1 = 0, cy1 = 0, cx2 = 0, cy2 = 0;
    if (!r().f32(cx1) || !r().f32(cy1) || !r().f32(cx2) || !r().f32(cy2)) return false;
    set_deform_bezier(d().curves, t.curves, t.frame_count, next++, frame, time1, cx1, cy1, cx2, cy2, time2);
    return true;
}

bool BinaryTimelineReader::attachment_timelines() {
    std::uint32_t n = 0;
    set_section("attachment timelines");
    if (!r().count(n, 2, "attachment timeline skin")) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
        Index skin = 0;
        std::uint32_t nn = 0;
        set_section("attachment timelines");
        if (!r().index(skin, d().skins.size(), "skin", "skins")) return false;
        std::string skin_label = "skin \"" + d().skin_names[skin] + '"';
        set_section(skin_label);
        if (!r().count(nn, 2, "attachment timeline slot")) return false;
        for (std::uint32_t ii = 0; ii < nn; ++ii) {
            Index slot = 0;
            std::uint32_t nnn = 0;
            set_section(skin_label);
            if (!r().index(slot, d().slots.size(), "slot", "slots")) return false;
            std::string slot_label = skin_label + ", slot \"" + d().slot_names[slot] + '"';
            set_section(slot_label);
            if (!r().count(nnn, 3, "attachment timeline")) return false;
            for (std::uint32_t iii = 0; iii < nnn; ++iii) {
                set_section(slot_label);
                std::size_t at = r().offset();
                const std::string* name = nullptr;
                if (!p.required_string_ref(name, "attachment name")) return false;
                set_section(slot_label + ", attachment \"" + *name + '"');
                Index key = d().attachment_names.find(*name);
                Index attachment = key == k_none ? k_none : d().find_skin_attachment(skin, slot, key);
                if (attachment == k_none) return r().fail_here(at, "no such attachment in the skin");
                std::size_t type_at = r().offset();
                std::uint8_t type = 0;
                if (!r().byte(type)) return false;
                bool ok = true;
                switch (type) {
                case 0: ok = deform_timeline(slot, attachment); break;
                case 1: ok = sequence_timeline(slot, attachment); break;
                default:
                    return r().fail_here(type_at, "attachment timeline type " + std::to_string(type) + " is not 0..1");
                }
                if (!ok) return false;
            }
        }
    }
    return true;
}

bool BinaryTimelineReader::deform_timeline(Index slot, Index attachment) {
    const AttachmentData& a = d().attachments[static_cast<std::size_t>(attachment)];
    std::size_t at = r().offset();
    if (a.type == AttachmentType::region || a.type == AttachmentType::point)
        return r().fail_here(at - 1, std::string("deform timeline on a ") + attachment_type_name(a.type) +
                                         " attachment (expected mesh, bounding box, path or clipping)");
    std::uint32_t frames = 0, beziers = 0;
    if (!frame_count(frames) || !bezier_count(beziers)) return false;
    // A key holds one (x, y) per vertex when unweighted, one offset per bone influence when weighted.
    bool weighted = a.bones.count > 0;
    std::uint32_t length = weighted ? a.vertices.count / 3 * 2 : a.vertices.count;
    Range setup = a.vertices;
    std::size_t total = std::size_t{frames} * length;
    if (!p.pool_room(d().floats.size(), total, at, "deform keys")) return false;
    std::size_t index = d().timelines.size();
    start(TimelineType::deform, 1, slot, frames, 1, beziers);
    d().timelines[index].attachment = attachment;
    auto keys = static_cast<std::uint32_t>(d().floats.size());
    d().timelines[index].aux = Range{keys, static_cast<std::uint32_t>(total)};
    d().floats.resize(d().floats.size() + total, 0.0f);
    const TimelineData& t = d().timelines[index];
    float time = 0;
    if (!r().f32(time)) return false;
    for (std::uint32_t frame = 0, bezier_index = 0;; ++frame) {
        std::size_t key = keys + std::size_t{frame} * length;
        std::size_t end_at = r().offset();
        std::uint32_t end = 0, start_index = 0;
        if (!r().varint(end) || (end != 0 && !r().varint(start_index))) return false;
        if (start_index > length || end > length - start_index)
            return r().fail_here(end_at, "deform key of " + std::to_string(end) + " values at " +
                                             std::to_string(start_index) + " does not fit " + std::to_string(length) +
                                             " vertex values");
        for (std::uint32_t v = start_index; v < start_index + end; ++v) {
            float f = 0;
            if (!r().f32(f)) return false;
            d().floats[key + v] = static_cast<float>(f * p.scale);
        }
        std::span<const float> setup_vertices;
        if (!weighted) setup_vertices = d().float_span(setup);
        complete_deform_key(std::span<float>(d().floats.data() + key, length), setup_vertices, end != 0);
        value(t, frame, 0) = time;
        if (frame + 1 == frames) {
            finish_curves(bezier_index);
            break;
        }
        float time2 = 0;
        std::uint8_t curve = 0;
        if (!r().f32(time2) || !curve_byte(curve)) return false;
        if (curve == k_curve_byte_stepped) set_stepped(d().curves, t.curves, frame);
        if (curve == k_curve_byte_bezier && !deform_bezier(t, bezier_index, beziers, frame, time, time2))
            return false;
        time = time2;
    }
    return true;
}

bool BinaryTimelineReader::sequence_timeline(Index slot, Index attachment) {
    const AttachmentData& a = d().attachments[static_cast<std::size_t>(attachment)];
    std::size_t at = r().offset();
    if (a.sequence == k_none) return r().fail_here(at - 1, "sequence timeline on an attachment without a sequence");
    std::uint32_t frames = 0;
    if (!frame_count(frames)) return false;
    std::size_t index = d().timelines.size();
    start(TimelineType::sequence, 3, slot, frames, 0, 0);
    d().timelines[index].attachment = attachment;
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        float time = 0, delay = 0;
        std::int32_t mode_and_index = 0;
        if (!r().f32(time)) return false;
        std::size_t mode_at = r().offset();
        if (!r().i32(mode_and_index) || !r().f32(delay)) return false;
        if ((mode_and_index & 0xf) > static_cast<int>(SequenceMode::pingpong_reverse))
            return r().fail_here(mode_at, "sequence mode " + std::to_string(mode_and_index & 0xf) + " is not 0..6");
        if (mode_and_index < 0 || (mode_and_index >> 4) > k_max_sequence_key_index)
            return r().fail_here(mode_at, "sequence frame index " + std::to_string(mode_and_index >> 4) +
                                              " is not 0.." + std::to_string(k_max_sequence_key_index));
        const TimelineData& t = d().timelines[index];
        value(t, frame, 0) = time;
        value(t, frame, 1) = static_cast<float>(mode_and_index);  // mode | index << 4, as the runtime stores it
        value(t, frame, 2) = delay;
    }
    return true;
}

bool BinaryTimelineReader::draw_order_timeline() {
    std::uint32_t frames = 0;
    set_section("draw order timeline");
    if (!r().count(frames, 5, "draw order key")) return false;
    if (frames == 0) return true;
    std::size_t slot_count = d().slots.size();
    std::size_t index = d().timelines.size();
    start(TimelineType::draw_order, 1, k_none, frames, 0, 0);
    std::vector<Index> keys(frames, k_none);  // offset of each key's order in indices, k_none for the setup order
    DrawOrderBuilder builder(slot_count);
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        float time = 0;
        std::uint32_t offsets = 0;
        if (!r().f32(time)) return false;
        std::size_t offsets_at = r().offset();
        if (!r().count(offsets, 2, "draw order offset")) return false;
        value(d().timelines[index], frame, 0) = time;
        if (offsets > slot_count)
            return r().fail_here(offsets_at, std::to_string(offsets) + " draw order offsets for " +
                                                   std::to_string(slot_count) + " slots");
        if (offsets == 0) continue;
        builder.begin();
        for (std::uint32_t i = 0; i < offsets; ++i) {
            std::size_t at = r().offset();
            std::uint32_t slot = 0, shift = 0;
            if (!r().varint(slot) || !r().varint(shift)) return false;
            // The official loader adds the shift as a 32-bit int, so large values are negative shifts.
            std::int64_t offset = static_cast<std::int32_t>(shift);
            switch (builder.move(slot, offset)) {
            case DrawOrderBuilder::Step::ok: break;
            case DrawOrderBuilder::Step::slot_out_of_order:
                return r().fail_here(at, "draw order slot " + std::to_string(slot) + " out of order or range (" +
                                             std::to_string(slot_count) + " slots)");
            case DrawOrderBuilder::Step::place_taken:
                return r().fail_here(at, "draw order offset moves slot " + std::to_string(slot) + " to position " +
                                             std::to_string(std::int64_t{slot} + offset) +
                                             ", which is out of range or taken");
            }
        }
        const std::vector<Index>& order = builder.finish();
        if (!p.pool_room(d().indices.size(), slot_count, r().offset(), "draw order keys")) return false;
        keys[frame] = static_cast<Index>(d().indices.size());
        d().indices.insert(d().indices.end(), order.begin(), order.end());
    }
    d().timelines[index].aux = Range{static_cast<std::uint32_t>(d().indices.size()), frames};
    d().indices.insert(d().indices.end(), keys.begin(), keys.end());
    return true;
}

bool BinaryTimelineReader::event_timeline() {
    std::uint32_t frames = 0;
    set_section("event timeline");
    if (!r().count(frames, 11, "event key")) return false;
    if (frames == 0) return true;
    std::size_t index = d().timelines.size();
    start(TimelineType::event, 1, k_none, frames, 0, 0);
    d().timelines[index].aux = Range{static_cast<std::uint32_t>(d().event_keys.size()), frames};
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        EventKey key;
        std::string text;
        bool present = false;
        if (!r().f32(key.time) || !r().index(key.event, d().events.size(), "event", "events") ||
            !r().signed_varint(key.int_value) || !r().f32(key.float_value) || !r().string(text, present))
            return false;
        if (present) key.string_value = d().strings.intern(text);
        // Keys of events without audio keep the official runtime's volume and balance of 0.
        key.volume = 0;
        key.balance = 0;
        if (!d().events[static_cast<std::size_t>(key.event)].audio_path.empty() &&
            (!r().f32(key.volume) || !r().f32(key.balance)))
            return false;
        value(d().timelines[index], frame, 0) = key.time;
        d().event_keys.push_back(key);
    }
    return true;
}

}  // namespace spinegpu::detail
