// Spine 4.2 JSON loader: animations. Every 4.2 timeline type, in the order the official loader creates them
// (slots, bones, IK, transform, path, physics, attachments, draw order, events), with its defaults and scaling.
#include <algorithm>
#include <array>

#include "json_timelines.hpp"
#include "timeline_keys.hpp"

namespace spinegpu::detail::json {
namespace {

constexpr std::array<const char*, 7> k_sequence_mode_names = {"hold",        "once",        "loop",
                                                              "pingpong",    "onceReverse", "loopReverse",
                                                              "pingpongReverse"};

CurveTimelineSpec make_spec(TimelineType type, Index target, int entries, int curve_values, double scale = 1) {
    CurveTimelineSpec spec;
    spec.type = type;
    spec.target = target;
    spec.entries = entries;
    spec.curve_values = curve_values;
    spec.curve_scales.fill(scale);
    return spec;
}

// One value per key, "value" (official readTimeline1).
bool read_timeline1(Load& load, Array keys, TimelineType type, Index target, double fallback, double scale) {
    return read_curve_timeline(load, keys, make_spec(type, target, 2, 1, scale),
                               [&](Object key, std::size_t, RowValues& row) {
                                   row[0] = load.r.number(key, "value", fallback) * scale;
                                   return load.r.ok();
                               });
}

// Two values per key, "x" and "y" (official readTimeline2).
bool read_timeline2(Load& load, Array keys, TimelineType type, Index target, double fallback, double scale) {
    return read_curve_timeline(load, keys, make_spec(type, target, 3, 2, scale),
                               [&](Object key, std::size_t, RowValues& row) {
                                   row[0] = load.r.number(key, "x", fallback) * scale;
                                   row[1] = load.r.number(key, "y", fallback) * scale;
                                   return load.r.ok();
                               });
}

// Calls read(name, keys) under the member's path for every member of `map` that holds a non-empty array.
template <class ReadTimeline>
bool for_each_timeline(Load& load, Object map, ReadTimeline read) {
    Reader& r = load.r;
    for (const Member& m : Reader::members(map)) {
        auto scope = r.at(m.key);
        if (m.value.type() == simdjson::dom::element_type::NULL_VALUE) continue;
        std::optional<Array> keys = r.as_array(m.value);
        if (!keys) return false;
        if (keys->size() == 0) continue;
        if (!read(m.key, *keys)) return false;
    }
    return true;
}

// Calls read(index, map) under the member's path for every member of `section`, `index` being the member's key
// looked up in `names` (an error names `kind` when it is unknown).
template <class ReadTarget>
bool for_each_target(Load& load, Object section, const NameTable& names, const char* kind, ReadTarget read) {
    Reader& r = load.r;
    for (const Member& m : Reader::members(section)) {
        auto scope = r.at(m.key);
        Index index = names.find(m.key);
        if (index == k_none) return r.fail(std::string("unknown ") + kind + " " + quote(m.key));
        if (!read(index, m.value)) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Slots

bool read_attachment_timeline(Load& load, Array keys, Index slot) {
    SkeletonData& d = load.data;
    std::size_t n = keys.size();
    if (!load.pool_room(d.indices.size(), n, "index pool")) return false;
    Range aux{static_cast<std::uint32_t>(d.indices.size()), static_cast<std::uint32_t>(n)};
    d.indices.resize(d.indices.size() + n, k_none);
    bool ok = read_plain_timeline(load, keys, TimelineType::attachment, slot, 1,
                                  [&](Object key, std::size_t frame, RowValues&) {
                                      std::optional<std::string_view> name = load.r.string(key, "name");
                                      if (!load.r.ok()) return false;
                                      if (name && !name->empty())
                                          d.indices[aux.offset + frame] = d.attachment_names.intern(*name);
                                      return true;
                                  });
    if (ok) d.timelines.back().aux = aux;
    return ok;
}

// rgba (4 values from "color"), rgb (3), rgba2 (4 from "light" + 3 from "dark"), rgb2 (3 + 3).
bool read_color_timeline(Load& load, Array keys, TimelineType type, Index slot) {
    bool two_color = type == TimelineType::rgba2 || type == TimelineType::rgb2;
    bool alpha = type == TimelineType::rgba || type == TimelineType::rgba2;
    int light = alpha ? 4 : 3;
    int values = light + (two_color ? 3 : 0);
    return read_curve_timeline(load, keys, make_spec(type, slot, values + 1, values),
                               [&](Object key, std::size_t, RowValues& row) {
                                   double c[4] = {1, 1, 1, 1}, dark[4] = {0, 0, 0, 1};
                                   load.r.color_channels(key, two_color ? "light" : "color", c);
                                   if (two_color) load.r.color_channels(key, "dark", dark);
                                   std::copy(c, c + light, row.begin());
                                   if (two_color) std::copy(dark, dark + 3, row.begin() + light);
                                   return load.r.ok();
                               });
}

bool read_slot_timeline(Load& load, Index slot, std::string_view name, Array keys) {
    if (name == "attachment") return read_attachment_timeline(load, keys, slot);
    if (name == "rgba") return read_color_timeline(load, keys, TimelineType::rgba, slot);
    if (name == "rgb") return read_color_timeline(load, keys, TimelineType::rgb, slot);
    if (name == "rgba2") return read_color_timeline(load, keys, TimelineType::rgba2, slot);
    if (name == "rgb2") return read_color_timeline(load, keys, TimelineType::rgb2, slot);
    if (name == "alpha") return read_timeline1(load, keys, TimelineType::alpha, slot, 0, 1);
    return load.r.fail("unknown slot timeline " + quote(name));
}

// ---------------------------------------------------------------------------------------------------------------
// Bones

bool read_bone_timeline(Load& load, Index bone, std::string_view name, Array keys) {
    double scale = load.scale;
    if (name == "rotate") return read_timeline1(load, keys, TimelineType::rotate, bone, 0, 1);
    if (name == "translate") return read_timeline2(load, keys, TimelineType::translate, bone, 0, scale);
    if (name == "translatex") return read_timeline1(load, keys, TimelineType::translate_x, bone, 0, scale);
    if (name == "translatey") return read_timeline1(load, keys, TimelineType::translate_y, bone, 0, scale);
    if (name == "scale") return read_timeline2(load, keys, TimelineType::scale, bone, 1, 1);
    if (name == "scalex") return read_timeline1(load, keys, TimelineType::scale_x, bone, 1, 1);
    if (name == "scaley") return read_timeline1(load, keys, TimelineType::scale_y, bone, 1, 1);
    if (name == "shear") return read_timeline2(load, keys, TimelineType::shear, bone, 0, 1);
    if (name == "shearx") return read_timeline1(load, keys, TimelineType::shear_x, bone, 0, 1);
    if (name == "sheary") return read_timeline1(load, keys, TimelineType::shear_y, bone, 0, 1);
    if (name == "inherit")
        return read_plain_timeline(load, keys, TimelineType::inherit, bone, 2,
                                   [&](Object key, std::size_t, RowValues& row) {
                                       row[0] = load.r.enumeration(key, "inherit", 0, k_inherit_names);
                                       return load.r.ok();
                                   });
    return load.r.fail("unknown bone timeline " + quote(name));
}

// ---------------------------------------------------------------------------------------------------------------
// Constraints

bool read_ik_timeline(Load& load, Index constraint, Array keys) {
    Reader& r = load.r;
    CurveTimelineSpec spec = make_spec(TimelineType::ik, constraint, 6, 2);
    spec.curve_scales[1] = load.scale;  // softness
    return read_curve_timeline(load, keys, spec, [&](Object key, std::size_t, RowValues& row) {
        row[0] = r.number(key, "mix", 1);
        row[1] = r.number(key, "softness", 0) * load.scale;
        row[2] = r.boolean(key, "bendPositive", true) ? 1 : -1;
        row[3] = r.boolean(key, "compress", false) ? 1 : 0;
        row[4] = r.boolean(key, "stretch", false) ? 1 : 0;
        return r.ok();
    });
}

bool read_transform_timeline(Load& load, Index constraint, Array keys) {
    Reader& r = load.r;
    // The official JSON loader (4.2.119, the project's judge) never advances mixShearY past the first key: every
    // key stores the first key's value, and so does the start of every curve, while each curve ends at the next
    // key's own value. Kept so that poses match it (the binary loader has no such quirk).
    CurveTimelineSpec spec = make_spec(TimelineType::transform, constraint, 7, 6);
    spec.first_shear_y_quirk = true;
    double first_shear_y = 1;
    return read_curve_timeline(load, keys, spec, [&](Object key, std::size_t frame, RowValues& row) {
        row[0] = r.number(key, "mixRotate", 1);
        row[1] = r.number(key, "mixX", 1);
        row[2] = r.number(key, "mixY", row[1]);
        row[3] = r.number(key, "mixScaleX", 1);
        row[4] = r.number(key, "mixScaleY", row[3]);
        row[6] = r.number(key, "mixShearY", 1);
        if (frame == 0) first_shear_y = row[6];
        row[5] = first_shear_y;
        return r.ok();
    });
}

bool read_path_timeline(Load& load, Index constraint, std::string_view name, Array keys) {
    Reader& r = load.r;
    const PathConstraintData& c = load.data.path_constraints[static_cast<std::size_t>(constraint)];
    if (name == "position") {
        double scale = c.position_mode == PositionMode::fixed ? load.scale : 1;
        return read_timeline1(load, keys, TimelineType::path_position, constraint, 0, scale);
    }
    if (name == "spacing") {
        bool scaled = c.spacing_mode == SpacingMode::length || c.spacing_mode == SpacingMode::fixed;
        return read_timeline1(load, keys, TimelineType::path_spacing, constraint, 0, scaled ? load.scale : 1);
    }
    if (name == "mix")
        return read_curve_timeline(load, keys, make_spec(TimelineType::path_mix, constraint, 4, 3),
                                   [&](Object key, std::size_t, RowValues& row) {
                                       row[0] = r.number(key, "mixRotate", 1);
                                       row[1] = r.number(key, "mixX", 1);
                                       row[2] = r.number(key, "mixY", row[1]);
                                       return r.ok();
                                   });
    return r.fail("unknown path constraint timeline " + quote(name));
}

bool read_physics_timeline(Load& load, Index constraint, std::string_view name, Array keys) {
    static constexpr std::pair<const char*, TimelineType> k_types[] = {
        {"inertia", TimelineType::physics_inertia}, {"strength", TimelineType::physics_strength},
        {"damping", TimelineType::physics_damping}, {"mass", TimelineType::physics_mass},
        {"wind", TimelineType::physics_wind},       {"gravity", TimelineType::physics_gravity},
        {"mix", TimelineType::physics_mix}};
    if (name == "reset")
        return read_plain_timeline(load, keys, TimelineType::physics_reset, constraint, 1,
                                   [](Object, std::size_t, RowValues&) { return true; });
    for (const auto& [type_name, type] : k_types)
        if (name == type_name) return read_timeline1(load, keys, type, constraint, 0, 1);
    return load.r.fail("unknown physics constraint timeline " + quote(name));
}

bool read_physics_section(Load& load, Object section) {
    Reader& r = load.r;
    for (const Member& m : Reader::members(section)) {
        auto scope = r.at(m.key);
        Index constraint = k_none;  // "" keys the timelines of every physics constraint
        if (!m.key.empty()) {
            constraint = load.data.physics_names.find(m.key);
            if (constraint == k_none) return r.fail("unknown physics constraint " + quote(m.key));
        }
        std::optional<Object> map = r.as_object(m.value);
        if (!map || !for_each_timeline(load, *map, [&](std::string_view name, Array keys) {
                return read_physics_timeline(load, constraint, name, keys);
            }))
            return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Attachments (deform, sequence)

bool read_sequence_timeline(Load& load, Array keys, Index slot, Index attachment) {
    Reader& r = load.r;
    double last_delay = 0;
    bool ok = read_plain_timeline(load, keys, TimelineType::sequence, slot, 3,
                                  [&](Object key, std::size_t, RowValues& row) {
                                      double delay = r.number(key, "delay", last_delay);
                                      int mode = r.enumeration(key, "mode", 0, k_sequence_mode_names);
                                      std::int64_t index = r.integer(key, "index", 0, 0, k_max_sequence_key_index);
                                      row[0] = static_cast<double>(mode | (index << 4));
                                      row[1] = delay;
                                      last_delay = delay;
                                      return r.ok();
                                  });
    if (ok) load.data.timelines.back().attachment = attachment;
    return ok;
}

bool read_attachment_timelines(Load& load, Index slot, Index attachment, std::string_view key, Object map) {
    Reader& r = load.r;
    const AttachmentData& a = load.data.attachments[static_cast<std::size_t>(attachment)];
    return for_each_timeline(load, map, [&](std::string_view name, Array keys) {
        if (name == "deform") {
            if (a.type == AttachmentType::region || a.type == AttachmentType::point)
                return r.fail("attachment " + quote(key) + " is a " + attachment_type_name(a.type) +
                              " attachment; deform needs a vertex attachment");
            return read_deform_timeline(load, keys, slot, attachment);
        }
        if (name == "sequence") {
            if (a.sequence == k_none) return r.fail("attachment " + quote(key) + " has no sequence");
            return read_sequence_timeline(load, keys, slot, attachment);
        }
        return r.fail("unknown attachment timeline " + quote(name));
    });
}

bool read_attachments_section(Load& load, Object section) {
    Reader& r = load.r;
    const SkeletonData& d = load.data;
    return for_each_target(load, section, d.skin_names, "skin", [&](Index skin, Element skin_value) {
        std::optional<Object> slots = r.as_object(skin_value);
        return slots && for_each_target(load, *slots, d.slot_names, "slot", [&](Index slot, Element slot_value) {
            std::optional<Object> attachments = r.as_object(slot_value);
            if (!attachments) return false;
            for (const Member& m : Reader::members(*attachments)) {
                auto scope = r.at(m.key);
                Index name = d.attachment_names.find(m.key);
                Index attachment = name == k_none ? k_none : d.find_skin_attachment(skin, slot, name);
                if (attachment == k_none)
                    return r.fail("unknown attachment " + quote(m.key) + " in skin " + quote(d.skin_names[skin]) +
                                  ", slot " + quote(d.slot_names[slot]));
                std::optional<Object> map = r.as_object(m.value);
                if (!map || !read_attachment_timelines(load, slot, attachment, m.key, *map)) return false;
            }
            return true;
        });
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Draw order and events

// Appends the draw order of one key (every slot index in drawing order) to data.indices and returns its offset,
// or k_none when the key has no "offsets" (back to the setup order).
bool read_draw_order_key(Load& load, Object key, DrawOrderBuilder& builder, Index& out) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    std::optional<Array> offsets = r.array(key, "offsets");
    out = k_none;
    if (!offsets) return r.ok();
    auto scope = r.at("offsets");
    auto slot_count = static_cast<Index>(d.slots.size());
    if (offsets->size() > d.slots.size())
        return r.fail("expected at most " + std::to_string(slot_count) + " offsets (one per slot)");
    if (!load.pool_room(d.indices.size(), d.slots.size(), "index pool")) return false;
    builder.begin();
    std::size_t i = 0;
    for (Element e : *offsets) {
        auto at = r.at(i++);
        std::optional<Object> map = r.as_object(e);
        if (!map) return false;
        std::string_view name = r.required_string(*map, "slot");
        std::int64_t offset = r.integer(*map, "offset", 0, -slot_count, slot_count);
        if (!r.ok()) return false;
        Index slot = d.slot_names.find(name);
        if (slot == k_none) return r.fail_at("slot", "unknown slot " + quote(name));
        switch (builder.move(slot, offset)) {
            case DrawOrderBuilder::Step::ok: break;
            case DrawOrderBuilder::Step::slot_out_of_order:
                return r.fail_at("slot", "offsets must list each slot once, in setup order");
            case DrawOrderBuilder::Step::place_taken:
                return r.fail_at("offset",
                                 "moves slot " + quote(name) + " outside the draw order or onto another slot");
        }
    }
    const std::vector<Index>& order = builder.finish();
    out = static_cast<Index>(d.indices.size());
    d.indices.insert(d.indices.end(), order.begin(), order.end());
    return true;
}

bool read_draw_order_timeline(Load& load, Array keys) {
    SkeletonData& d = load.data;
    std::size_t n = keys.size();
    if (!load.pool_room(d.indices.size(), n, "index pool")) return false;
    Range aux{static_cast<std::uint32_t>(d.indices.size()), static_cast<std::uint32_t>(n)};
    d.indices.resize(d.indices.size() + n, k_none);
    DrawOrderBuilder builder(d.slots.size());
    bool ok = read_plain_timeline(load, keys, TimelineType::draw_order, k_none, 1,
                                  [&](Object key, std::size_t frame, RowValues&) {
                                      Index order = k_none;
                                      if (!read_draw_order_key(load, key, builder, order)) return false;
                                      d.indices[aux.offset + frame] = order;
                                      return true;
                                  });
    if (ok) d.timelines.back().aux = aux;
    return ok;
}

bool read_event_timeline(Load& load, Array keys) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    std::size_t n = keys.size();
    if (!load.pool_room(d.event_keys.size(), n, "event key pool")) return false;
    Range aux{static_cast<std::uint32_t>(d.event_keys.size()), static_cast<std::uint32_t>(n)};
    d.event_keys.resize(d.event_keys.size() + n);
    bool ok = read_plain_timeline(load, keys, TimelineType::event, k_none, 1,
                                  [&](Object key, std::size_t frame, RowValues&) {
                                      std::string_view name = r.required_string(key, "name");
                                      if (!r.ok()) return false;
                                      Index event = d.event_names.find(name);
                                      if (event == k_none) return r.fail_at("name", "unknown event " + quote(name));
                                      const EventData& data = d.events[static_cast<std::size_t>(event)];
                                      EventKey& k = d.event_keys[aux.offset + frame];
                                      k.time = static_cast<float>(r.number(key, "time", 0));
                                      k.event = event;
                                      k.int_value = static_cast<std::int32_t>(
                                          r.integer(key, "int", data.int_value, -k_int_max - 1, k_int_max));
                                      k.float_value = r.number_f(key, "float", data.float_value);
                                      if (std::optional<std::string_view> s = r.string(key, "string"))
                                          k.string_value = d.strings.intern(*s);
                                      // As for the event itself: 0 and unread without audio.
                                      bool audio = !data.audio_path.empty();
                                      k.volume = audio ? r.number_f(key, "volume", 1) : 0;
                                      k.balance = audio ? r.number_f(key, "balance", 0) : 0;
                                      return r.ok();
                                  });
    if (ok) d.timelines.back().aux = aux;
    return ok;
}

// ---------------------------------------------------------------------------------------------------------------

// Reads section `key` of an animation if present, as an object (read_object) or an array (read_array).
template <class Read>
bool with_object(Load& load, Object map, std::string_view key, Read read) {
    std::optional<Object> section = load.r.object(map, key);
    if (!section) return load.r.ok();
    auto scope = load.r.at(key);
    return read(*section);
}

bool read_animation(Load& load, std::string_view name, Object map) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    static constexpr std::string_view k_sections[] = {"slots", "bones",       "ik",        "transform", "path",
                                                      "physics", "attachments", "drawOrder", "events"};
    for (const Member& m : Reader::members(map))
        if (std::find(std::begin(k_sections), std::end(k_sections), m.key) == std::end(k_sections))
            return r.fail_at(m.key, "unknown animation section " + quote(m.key));
    auto start = static_cast<std::uint32_t>(d.timelines.size());
    bool ok =
        with_object(load, map, "slots", [&](Object s) {
            return for_each_target(load, s, d.slot_names, "slot", [&](Index slot, Element value) {
                std::optional<Object> timelines = r.as_object(value);
                return timelines && for_each_timeline(load, *timelines, [&](std::string_view type, Array keys) {
                           return read_slot_timeline(load, slot, type, keys);
                       });
            });
        }) &&
        with_object(load, map, "bones", [&](Object s) {
            return for_each_target(load, s, d.bone_names, "bone", [&](Index bone, Element value) {
                std::optional<Object> timelines = r.as_object(value);
                return timelines && for_each_timeline(load, *timelines, [&](std::string_view type, Array keys) {
                           return read_bone_timeline(load, bone, type, keys);
                       });
            });
        }) &&
        with_object(load, map, "ik", [&](Object s) {
            return for_each_target(load, s, d.ik_names, "IK constraint", [&](Index c, Element value) {
                std::optional<Array> keys = r.as_array(value);
                return keys && (keys->size() == 0 || read_ik_timeline(load, c, *keys));
            });
        }) &&
        with_object(load, map, "transform", [&](Object s) {
            return for_each_target(load, s, d.transform_names, "transform constraint", [&](Index c, Element value) {
                std::optional<Array> keys = r.as_array(value);
                return keys && (keys->size() == 0 || read_transform_timeline(load, c, *keys));
            });
        }) &&
        with_object(load, map, "path", [&](Object s) {
            return for_each_target(load, s, d.path_names, "path constraint", [&](Index c, Element value) {
                std::optional<Object> timelines = r.as_object(value);
                return timelines && for_each_timeline(load, *timelines, [&](std::string_view type, Array keys) {
                           return read_path_timeline(load, c, type, keys);
                       });
            });
        }) &&
        with_object(load, map, "physics", [&](Object s) { return read_physics_section(load, s); }) &&
        with_object(load, map, "attachments", [&](Object s) { return read_attachments_section(load, s); });
    if (!ok) return false;
    for (std::string_view key : {std::string_view("drawOrder"), std::string_view("events")}) {
        std::optional<Array> keys = r.array(map, key);
        if (!r.ok()) return false;
        if (!keys || keys->size() == 0) continue;
        auto scope = r.at(key);
        if (!(key == "events" ? read_event_timeline(load, *keys) : read_draw_order_timeline(load, *keys))) return false;
    }
    AnimationData animation;
    animation.timelines = {start, static_cast<std::uint32_t>(d.timelines.size()) - start};
    for (std::uint32_t i = start; i < d.timelines.size(); ++i)
        animation.duration = std::max(animation.duration, last_key_time(d, d.timelines[i]));
    if (d.animation_names.add(name) == k_none) return r.fail("duplicate animation name " + quote(name));
    d.animations.push_back(animation);
    return true;
}

}  // namespace

bool read_animations(Load& load, Object animations) {
    Reader& r = load.r;
    for (const Member& m : Reader::members(animations)) {
        auto scope = r.at(m.key);
        std::optional<Object> map = r.as_object(m.value);
        if (!map || !read_animation(load, m.key, *map)) return false;
    }
    return true;
}

}  // namespace spinegpu::detail::json
