#include "schedule.hpp"

#include <simdjson.h>

#include <cmath>
#include <string_view>

#include "json_values.hpp"
#include "spinegpu/core/json_syntax.hpp"
#include "unknown_name.hpp"

namespace spinegpu::tools {
namespace {

using simdjson::dom::element;
using json::array_of;
using json::object_of;
using json::is_number;
using json::number;
using json::repeated_key;
using simdjson::dom::object;

// Errors carry the place as text; this small context keeps the file name.
struct Context {
    const std::string& file;
    const SkeletonData& data;
    Error fail(const std::string& where, const std::string& what) const { return make_error(file, where, what); }
};

std::optional<Error> read_skin(const Context& c, element e, const std::string& where, ScheduleSkin& out) {
    out = {};
    if (e.is_string()) {
        std::string_view name = e.get_string().value_unsafe();
        Index skin = c.data.skin_names.find(name);
        if (skin == k_none) return c.fail(where, unknown_name("skin", name, c.data.skin_names));
        out.skins.push_back(skin);
        return std::nullopt;
    }
    if (!e.is_array()) return c.fail(where, "a skin is a name or an array of names");
    out.combined = true;
    std::size_t i = 0;
    for (element item : array_of(e)) {
        std::string place = where + "[" + std::to_string(i++) + "]";
        if (!item.is_string()) return c.fail(place, "expected a skin name");
        std::string_view name = item.get_string().value_unsafe();
        Index skin = c.data.skin_names.find(name);
        if (skin == k_none) return c.fail(place, unknown_name("skin", name, c.data.skin_names));
        out.skins.push_back(skin);
    }
    if (out.skins.empty()) return c.fail(where, "an empty skin list");
    return std::nullopt;
}

std::optional<Error> read_animation(const Context& c, element e, const std::string& where, Index& out) {
    if (!e.is_string()) return c.fail(where, "an animation name must be a string");
    std::string_view name = e.get_string().value_unsafe();
    out = c.data.animation_names.find(name);
    if (out == k_none) return c.fail(where, unknown_name("animation", name, c.data.animation_names));
    return std::nullopt;
}

std::optional<Error> read_mix(const Context& c, element e, Schedule& out) {
    if (!e.is_object()) return c.fail("mix", "must be an object");
    if (auto twice = repeated_key(object_of(e))) return c.fail("mix." + std::string(*twice), "appears twice");
    for (auto [key, value] : object_of(e)) {
        if (key == "default") {
            if (!is_number(value) || number(value) < 0) return c.fail("mix.default", "must be a number >= 0");
            out.default_mix = number(value);
        } else if (key == "pairs") {
            if (!value.is_array()) return c.fail("mix.pairs", "must be an array");
            std::size_t i = 0;
            for (element pair : array_of(value)) {
                std::string where = "mix.pairs[" + std::to_string(i++) + "]";
                if (!pair.is_object()) return c.fail(where, "must be an object");
                Schedule::Mix mix;
                bool has_from = false, has_to = false, has_duration = false;
                if (auto twice = repeated_key(object_of(pair)))
                    return c.fail(where + "." + std::string(*twice), "appears twice");
                for (auto [k, v] : object_of(pair)) {
                    if (k == "from") {
                        if (auto err = read_animation(c, v, where + ".from", mix.from)) return err;
                        has_from = true;
                    } else if (k == "to") {
                        if (auto err = read_animation(c, v, where + ".to", mix.to)) return err;
                        has_to = true;
                    } else if (k == "duration") {
                        if (!is_number(v) || number(v) < 0) return c.fail(where + ".duration", "must be a number >= 0");
                        mix.duration = number(v);
                        has_duration = true;
                    } else {
                        return c.fail(where + "." + std::string(k), "unknown key");
                    }
                }
                if (!has_from || !has_to || !has_duration) return c.fail(where, "needs from, to and duration");
                out.mixes.push_back(mix);
            }
        } else {
            return c.fail("mix." + std::string(key), "unknown key");
        }
    }
    return std::nullopt;
}

std::optional<MixBlend> parse_blend(std::string_view s) {
    if (s == "setup") return MixBlend::setup;
    if (s == "first") return MixBlend::first;
    if (s == "replace") return MixBlend::replace;
    if (s == "add") return MixBlend::add;
    return std::nullopt;
}

std::optional<Error> read_command(const Context& c, element e, const std::string& where, ScheduleCommand& out) {
    if (!e.is_object()) return c.fail(where, "must be an object");
    object o = object_of(e);
    if (auto twice = repeated_key(o)) return c.fail(where + "." + std::string(*twice), "appears twice");
    int actions = 0;
    bool has_step = false, has_track = false;
    for (auto field : o) {
        // Named copies, not structured bindings: the lambdas below capture them (which clang 14, the fuzz build's
        // compiler, does not allow for bindings).
        const std::string_view key = field.key;
        const element value = field.value;
        std::string place = where + "." + std::string(key);
        auto take_number = [&](double& target) -> std::optional<Error> {
            if (!is_number(value) || !std::isfinite(number(value))) return c.fail(place, "must be a number");
            target = number(value);
            return std::nullopt;
        };
        auto take_optional = [&](std::optional<double>& target) -> std::optional<Error> {
            double v = 0;
            if (auto err = take_number(v)) return err;
            target = v;
            return std::nullopt;
        };
        auto take_flag = [&](bool& target) -> std::optional<Error> {
            if (!value.is_bool()) return c.fail(place, "must be true or false");
            target = value.get_bool().value_unsafe();
            return std::nullopt;
        };
        std::optional<Error> err;
        if (key == "step") {
            if (!value.is_int64() && !value.is_uint64()) return c.fail(place, "must be a non-negative integer");
            double step = number(value);
            if (step < 0 || step > 1e9) return c.fail(place, "must be an integer in 0..1000000000");
            out.step = static_cast<std::uint32_t>(step);
            has_step = true;
        } else if (key == "track") {
            if (!value.is_int64() && !value.is_uint64()) return c.fail(place, "must be a non-negative integer");
            double track = number(value);
            if (track < 0 || track > 1000) return c.fail(place, "must be an integer in 0..1000");
            out.track = static_cast<std::int32_t>(track);
            has_track = true;
        } else if (key == "set" || key == "add") {
            out.action = key == "set" ? ScheduleCommand::Action::set : ScheduleCommand::Action::add;
            ++actions;
            err = read_animation(c, value, place, out.animation);
        } else if (key == "empty" || key == "addEmpty" || key == "clear") {
            out.action = key == "empty"      ? ScheduleCommand::Action::empty
                         : key == "addEmpty" ? ScheduleCommand::Action::add_empty
                                             : ScheduleCommand::Action::clear;
            ++actions;
            if (!value.is_bool() || !value.get_bool().value_unsafe()) err = c.fail(place, "must be true");
        } else if (key == "skin") {
            out.action = ScheduleCommand::Action::skin;
            ++actions;
            err = read_skin(c, value, place, out.skin);
        } else if (key == "loop") {
            err = take_flag(out.loop);
        } else if (key == "delay") {
            err = take_number(out.delay);
        } else if (key == "mix") {
            err = take_number(out.mix);
        } else if (key == "alpha") {
            err = take_optional(out.alpha);
        } else if (key == "mixDuration") {
            err = take_optional(out.mix_duration);
        } else if (key == "timeScale") {
            err = take_optional(out.time_scale);
        } else if (key == "trackTime") {
            err = take_optional(out.track_time);
        } else if (key == "mixBlend") {
            std::optional<MixBlend> blend;
            if (value.is_string()) blend = parse_blend(value.get_string().value_unsafe());
            if (!blend) return c.fail(place, "must be one of setup, first, replace, add");
            out.mix_blend = blend;
        } else if (key == "reverse" || key == "holdPrevious" || key == "shortestRotation") {
            bool flag = false;
            err = take_flag(flag);
            (key == "reverse" ? out.reverse : key == "holdPrevious" ? out.hold_previous : out.shortest_rotation) = flag;
        } else if (key == "eventThreshold") {
            err = take_optional(out.event_threshold);
        } else if (key == "mixAttachmentThreshold") {
            err = take_optional(out.mix_attachment_threshold);
        } else if (key == "alphaAttachmentThreshold") {
            err = take_optional(out.alpha_attachment_threshold);
        } else if (key == "mixDrawOrderThreshold") {
            err = take_optional(out.mix_draw_order_threshold);
        } else if (key == "comment") {
            // free text
        } else {
            return c.fail(place, "unknown key");
        }
        if (err) return err;
    }
    if (!has_step) return c.fail(where, "needs a \"step\"");
    if (actions != 1) return c.fail(where, "needs exactly one of set, add, empty, addEmpty, clear, skin");
    bool is_skin = out.action == ScheduleCommand::Action::skin;
    if (!is_skin && !has_track) return c.fail(where, "needs a \"track\"");
    bool entry_command = out.action == ScheduleCommand::Action::set || out.action == ScheduleCommand::Action::add;
    if (!entry_command && (out.alpha || out.mix_duration || out.time_scale || out.track_time || out.mix_blend ||
                           out.reverse || out.hold_previous || out.shortest_rotation || out.event_threshold ||
                           out.mix_attachment_threshold || out.alpha_attachment_threshold ||
                           out.mix_draw_order_threshold))
        return c.fail(where, "entry fields are allowed on set and add commands only");
    return std::nullopt;
}

}  // namespace

Result<Schedule> parse_schedule(const std::string& json, const std::string& file, const SkeletonData& data) {
    Context c{file, data};
    simdjson::dom::parser parser;
    const std::string_view text = without_byte_order_mark(json);
    simdjson::padded_string padded(text);
    element root;
    if (auto error = parser.parse(padded).get(root))
        return c.fail(json_error_place(text, ""), std::string("invalid JSON: ") + simdjson::error_message(error));
    if (!root.is_object()) return c.fail("", "the schedule must be a JSON object");
    if (auto twice = repeated_key(object_of(root))) return c.fail(std::string(*twice), "appears twice");
    Schedule out;
    bool has_commands = false;
    for (auto [key, value] : object_of(root)) {
        if (key == "skin") {
            ScheduleSkin skin;
            if (auto err = read_skin(c, value, "skin", skin)) return *err;
            out.skin = std::move(skin);
        } else if (key == "mix") {
            if (auto err = read_mix(c, value, out)) return *err;
        } else if (key == "commands") {
            if (!value.is_array()) return c.fail("commands", "must be an array");
            std::size_t i = 0;
            for (element command : array_of(value)) {
                ScheduleCommand parsed;
                if (auto err = read_command(c, command, "commands[" + std::to_string(i++) + "]", parsed)) return *err;
                out.commands.push_back(std::move(parsed));
            }
            has_commands = true;
        } else if (key != "comment") {
            return c.fail("", "unknown top-level key \"" + std::string(key) + "\"");
        }
    }
    if (!has_commands) return c.fail("", "needs a \"commands\" array");
    return out;
}

Result<Schedule> animation_schedule(const std::string& animation, const std::string& file, const std::string& place,
                                    const SkeletonData& data) {
    Index index = data.animation_names.find(animation);
    if (index == k_none) return make_error(file, place, unknown_name("animation", animation, data.animation_names));
    Schedule out;
    ScheduleCommand set;
    set.action = ScheduleCommand::Action::set;
    set.animation = index;
    set.loop = true;
    out.commands.push_back(set);
    return out;
}

}  // namespace spinegpu::tools
