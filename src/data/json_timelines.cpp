#include "json_timelines.hpp"

#include <algorithm>
#include <cassert>

#include "curve_builder.hpp"
#include "timeline_keys.hpp"

namespace spinegpu::detail::json {
namespace {

bool begin_timeline(Load& load, TimelineType type, Index target, int entries, std::size_t frame_count,
                    TimelineData& t) {
    SkeletonData& d = load.data;
    std::size_t size = frame_count * static_cast<std::size_t>(entries);
    if (!load.pool_room(d.frames.size(), size, "keyframe pool") ||
        !load.pool_room(d.timelines.size(), 1, "timeline list"))
        return false;
    t = TimelineData{};
    t.type = type;
    t.entries = static_cast<std::uint8_t>(entries);
    t.target = target;
    t.frame_count = static_cast<std::uint32_t>(frame_count);
    t.frames = static_cast<std::uint32_t>(d.frames.size());
    d.frames.resize(d.frames.size() + size);
    return true;
}

// Appends a curve table for `frame_count` keys with room for `values` Beziers between each pair of keys.
bool begin_curves(Load& load, std::size_t frame_count, int values, TimelineData& t) {
    std::size_t beziers = (frame_count - 1) * static_cast<std::size_t>(values);
    if (!load.pool_room(load.data.curves.size(), frame_count + beziers * k_bezier_size, "curve pool")) return false;
    t.curves = append_curve_table(load.data.curves, static_cast<std::uint32_t>(frame_count),
                                  static_cast<std::uint32_t>(beziers));
    return true;
}

// The curve of key `frame` (from its values v1 to the next key's v2), read from the key's "curve" field. Runs with
// the reader's path at the key.
struct CurveSegment {
    std::uint32_t frame_count = 0, frame = 0;
    double time1 = 0, time2 = 0;
    const RowValues* v1 = nullptr;
    const RowValues* v2 = nullptr;
};

bool read_curve(Load& load, Object key, const CurveTimelineSpec& spec, const CurveSegment& s, Range table,
                std::uint32_t& bezier, bool deform) {
    Reader& r = load.r;
    std::optional<Element> curve = Reader::find(key, "curve");
    if (!curve) return true;
    auto scope = r.at("curve");
    const char* expected = "expected \"stepped\" or an array of Bezier handles (cx1, cy1, cx2, cy2 per value)";
    switch (curve->type()) {
        case simdjson::dom::element_type::NULL_VALUE: return true;
        case simdjson::dom::element_type::STRING: {
            std::string_view text = r.as_string(*curve).value_or("");
            if (text.empty()) return true;  // the official loader treats "" as no curve
            if (text != "stepped") return r.fail(std::string(expected) + ", found " + quote(text));
            set_stepped(load.data.curves, table, s.frame);
            return true;
        }
        case simdjson::dom::element_type::ARRAY: break;
        default: return r.fail(expected);
    }
    std::vector<double>& c = load.curve_scratch;
    if (!r.numbers(r.as_array(*curve).value(), c)) return false;
    std::size_t needed = static_cast<std::size_t>(spec.curve_values) * 4;
    if (c.size() < needed)
        return r.fail("expected " + std::to_string(needed) + " numbers (cx1, cy1, cx2, cy2 per value), found " +
                      std::to_string(c.size()));
    for (int v = 0; v < spec.curve_values; ++v) {
        std::size_t i = static_cast<std::size_t>(v) * 4;
        double scale = spec.curve_scales[static_cast<std::size_t>(v)];
        if (deform) {
            set_deform_bezier(load.data.curves, table, s.frame_count, bezier, s.frame, s.time1, c[i], c[i + 1],
                              c[i + 2], c[i + 3], s.time2);
        } else {
            auto value = static_cast<std::size_t>(v);
            double end = spec.first_shear_y_quirk && value == 5 ? (*s.v2)[6] : (*s.v2)[value];
            set_bezier(load.data.curves, table, s.frame_count, bezier, s.frame, static_cast<std::uint32_t>(v), s.time1,
                       (*s.v1)[value], c[i], c[i + 1] * scale, c[i + 2], c[i + 3] * scale, s.time2, end);
        }
        ++bezier;
    }
    return true;
}

// Walks `keys`, calling read(key, frame, time) under the key's path and then curve(previous key, frame - 1,
// previous time, time) under the previous key's path. Stops at the first failure.
template <class ReadKey, class ReadCurve>
bool walk_keys(Load& load, Array keys, ReadKey read, ReadCurve curve) {
    Reader& r = load.r;
    std::size_t frame = 0;
    Object previous;
    double previous_time = 0;
    for (Element e : keys) {
        std::optional<Object> key;
        double time = 0;
        {
            auto scope = r.at(frame);
            key = r.as_object(e);
            if (!key) return false;
            time = r.number(*key, "time", 0);
            if (!r.ok() || !read(*key, frame, time) || !r.ok()) return false;
        }
        if (frame > 0) {
            auto scope = r.at(frame - 1);
            if (!curve(previous, frame - 1, previous_time, time)) return false;
        }
        previous = *key;
        previous_time = time;
        ++frame;
    }
    return true;
}

}  // namespace

bool read_curve_timeline(Load& load, Array keys, const CurveTimelineSpec& spec, const KeyReader& reader) {
    SkeletonData& d = load.data;
    std::size_t n = keys.size();
    assert(n > 0 && spec.curve_values <= spec.entries - 1);
    TimelineData t;
    if (!begin_timeline(load, spec.type, spec.target, spec.entries, n, t) ||
        !begin_curves(load, n, spec.curve_values, t))
        return false;
    std::uint32_t bezier = 0;
    RowValues previous{}, row{};
    auto read = [&](Object key, std::size_t frame, double time) {
        previous = row;
        row.fill(0);
        if (!reader(key, frame, row)) return false;
        float* out = d.frames.data() + t.frames + frame * static_cast<std::size_t>(spec.entries);
        out[0] = static_cast<float>(time);
        for (int i = 1; i < spec.entries; ++i) out[i] = static_cast<float>(row[static_cast<std::size_t>(i - 1)]);
        return true;
    };
    auto curve = [&](Object key, std::size_t frame, double time1, double time2) {
        CurveSegment s{static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(frame), time1, time2, &previous, &row};
        return read_curve(load, key, spec, s, t.curves, bezier, false);
    };
    if (!walk_keys(load, keys, read, curve)) return false;
    shrink_curve_table(d.curves, t.curves, static_cast<std::uint32_t>(n), bezier);
    d.timelines.push_back(t);
    return true;
}

bool read_plain_timeline(Load& load, Array keys, TimelineType type, Index target, int entries,
                         const KeyReader& reader) {
    SkeletonData& d = load.data;
    TimelineData t;
    if (!begin_timeline(load, type, target, entries, keys.size(), t)) return false;
    auto read = [&](Object key, std::size_t frame, double time) {
        RowValues row{};
        if (!reader(key, frame, row)) return false;
        float* out = d.frames.data() + t.frames + frame * static_cast<std::size_t>(entries);
        out[0] = static_cast<float>(time);
        for (int i = 1; i < entries; ++i) out[i] = static_cast<float>(row[static_cast<std::size_t>(i - 1)]);
        return true;
    };
    auto no_curve = [](Object, std::size_t, double, double) { return true; };
    if (!walk_keys(load, keys, read, no_curve)) return false;
    d.timelines.push_back(t);
    return true;
}

namespace {

// Fills one deform key: `out` gets deform_length values, the key's "vertices" placed at "offset" and scaled, plus
// the setup vertices for an unweighted attachment; with no "vertices", the setup vertices (unweighted) or zeros.
// Float arithmetic in the official order, so that the stored values are the same to the bit.
bool read_deform_key(Load& load, Object key, const AttachmentData& a, std::size_t deform_length, float* out) {
    Reader& r = load.r;
    bool weighted = a.bones.count > 0;
    std::optional<Array> vertices = r.array(key, "vertices");
    if (!r.ok()) return false;
    std::span<float> values(out, deform_length);
    std::span<const float> setup;
    if (!weighted) setup = load.data.float_span(a.vertices);
    std::fill(values.begin(), values.end(), 0.0f);
    if (!vertices) {
        complete_deform_key(values, setup, false);
        return true;
    }
    auto start = static_cast<std::size_t>(r.integer(key, "offset", 0, 0, static_cast<std::int64_t>(deform_length)));
    {
        auto scope = r.at("vertices");
        if (!r.numbers(*vertices, load.scratch)) return false;
    }
    if (load.scratch.size() > deform_length - start)
        return r.fail_at("vertices", "expected at most " + std::to_string(deform_length - start) +
                                         " values after offset " + std::to_string(start) + " (the attachment has " +
                                         std::to_string(deform_length) + "), found " +
                                         std::to_string(load.scratch.size()));
    for (std::size_t i = 0; i < load.scratch.size(); ++i) {
        float v = static_cast<float>(load.scratch[i]);
        if (load.scale != 1) v = static_cast<float>(static_cast<double>(v) * load.scale);
        values[start + i] = v;
    }
    complete_deform_key(values, setup, true);
    return true;
}

}  // namespace

bool read_deform_timeline(Load& load, Array keys, Index slot, Index attachment) {
    SkeletonData& d = load.data;
    const AttachmentData a = d.attachments[static_cast<std::size_t>(attachment)];
    // The official runtime keeps one offset per vertex for unweighted attachments, and one per bone influence
    // (x, y of each weighted position) for weighted ones.
    std::size_t deform_length = a.bones.count > 0 ? a.vertices.count / 3 * 2 : a.vertices.count;
    std::size_t n = keys.size();
    TimelineData t;
    if (!begin_timeline(load, TimelineType::deform, slot, 1, n, t) || !begin_curves(load, n, 1, t)) return false;
    t.attachment = attachment;
    if (!load.pool_room(d.floats.size(), n * deform_length, "float pool")) return false;
    t.aux = {static_cast<std::uint32_t>(d.floats.size()), static_cast<std::uint32_t>(n * deform_length)};
    d.floats.resize(d.floats.size() + n * deform_length);
    std::uint32_t bezier = 0;
    CurveTimelineSpec spec;
    spec.type = TimelineType::deform;
    auto read = [&](Object key, std::size_t frame, double time) {
        d.frames[t.frames + frame] = static_cast<float>(time);
        return read_deform_key(load, key, a, deform_length, d.floats.data() + t.aux.offset + frame * deform_length);
    };
    auto curve = [&](Object key, std::size_t frame, double time1, double time2) {
        CurveSegment s{static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(frame), time1, time2, nullptr,
                       nullptr};
        return read_curve(load, key, spec, s, t.curves, bezier, true);
    };
    if (!walk_keys(load, keys, read, curve)) return false;
    shrink_curve_table(d.curves, t.curves, static_cast<std::uint32_t>(n), bezier);
    d.timelines.push_back(t);
    return true;
}

float last_key_time(const SkeletonData& data, const TimelineData& t) {
    if (t.frame_count == 0) return 0;
    return data.frames[t.frames + (t.frame_count - 1) * t.entries];
}

}  // namespace spinegpu::detail::json
