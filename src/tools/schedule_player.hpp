// Plays a schedule on one character with DESIGN.md's fixed stepping, shared by `pose` and `render`: the skeleton
// starts in the setup pose (skin first); for step = 1..N every command with step <= step - 1 runs (in file order),
// then state update(dt), apply, skeleton time update(dt), world transforms with Physics::update. No world
// transform is computed before step 1.
#pragma once

#include <cstdint>
#include <vector>

#include "schedule.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::tools {

class SchedulePlayer {
public:
    // `data` and `schedule` must outlive the player. `skin_override` (k_none for none) replaces the schedule's
    // top-level skin.
    SchedulePlayer(const SkeletonData& data, const Schedule& schedule, Index skin_override);

    // Runs step number `step` (1-based; steps must be run in order).
    void run_step(std::uint32_t step, double dt);

    SkeletonPose pose;
    AnimationState state;

private:
    void run_command(const ScheduleCommand& command);
    void apply_skin(const ScheduleSkin& skin);

    const Schedule* schedule_;
    std::vector<std::uint8_t> done_;
};

}  // namespace spinegpu::tools
