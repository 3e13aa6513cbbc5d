// Schedules for `spinegpu pose` and `render`: which animations to set, add, empty or clear on which track at which
// step, skin changes, and mix durations (DESIGN.md, "Schedule file"). Parsed from JSON and checked against a
// skeleton's names, with errors naming the file and the place ("commands[3].set: unknown animation \"wlak\"").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation.hpp"

namespace spinegpu::tools {

// A skin value: one skin, or several combined in order into a skin named "custom".
struct ScheduleSkin {
    std::vector<Index> skins;
    bool combined = false;  // an array was given (even of one name)
};

struct ScheduleCommand {
    enum class Action : std::uint8_t { set, add, empty, add_empty, clear, skin };
    Action action = Action::set;
    std::uint32_t step = 0;
    std::int32_t track = 0;
    Index animation = k_none;  // set, add
    bool loop = false;
    double delay = 0;          // add, add_empty
    double mix = 0;            // empty, add_empty
    ScheduleSkin skin;         // skin
    // Optional entry fields (set, add), applied to the returned entry.
    std::optional<double> alpha, mix_duration, time_scale, track_time;  // double, as the official entry fields
    std::optional<MixBlend> mix_blend;
    std::optional<bool> reverse, hold_previous, shortest_rotation;
    std::optional<double> event_threshold, mix_attachment_threshold, alpha_attachment_threshold,
        mix_draw_order_threshold;
};

struct Schedule {
    std::optional<ScheduleSkin> skin;  // applied before the first step, followed by the setup pose
    double default_mix = 0;
    struct Mix {
        Index from = 0, to = 0;
        double duration = 0;
    };
    std::vector<Mix> mixes;
    std::vector<ScheduleCommand> commands;  // in file order
};

// Parses schedule JSON and resolves names against `data`. `file` names the source in errors.
Result<Schedule> parse_schedule(const std::string& json, const std::string& file, const SkeletonData& data);

// The schedule `--animation NAME` stands for: set NAME on track 0 at step 0, looping. An unknown name is an error
// at `file`: `place` (the skeleton and "--animation", or a scene file and its character's "animation").
Result<Schedule> animation_schedule(const std::string& animation, const std::string& file, const std::string& place,
                                    const SkeletonData& data);

}  // namespace spinegpu::tools
