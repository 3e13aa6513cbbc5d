#include "schedule_player.hpp"

namespace spinegpu::tools {
namespace {

MixTable mix_table(const Schedule& schedule) {
    MixTable mixes;
    mixes.default_mix = schedule.default_mix;
    for (const Schedule::Mix& mix : schedule.mixes) mixes.set(mix.from, mix.to, mix.duration);
    return mixes;
}

}  // namespace

SchedulePlayer::SchedulePlayer(const SkeletonData& data, const Schedule& schedule, Index skin_override)
    : pose(create_pose(data)), state(data, mix_table(schedule)), schedule_(&schedule),
      done_(schedule.commands.size(), 0) {
    if (skin_override != k_none) {
        set_skin(pose, skin_override);
    } else if (schedule.skin) {
        apply_skin(*schedule.skin);
    }
    set_to_setup_pose(pose);
}

void SchedulePlayer::apply_skin(const ScheduleSkin& skin) {
    if (skin.combined) set_combined_skin(pose, skin.skins);
    else set_skin(pose, skin.skins.front());
}

void SchedulePlayer::run_command(const ScheduleCommand& c) {
    TrackEntryId id;
    switch (c.action) {
        case ScheduleCommand::Action::skin: apply_skin(c.skin); return;
        case ScheduleCommand::Action::set: id = state.set_animation(c.track, c.animation, c.loop); break;
        case ScheduleCommand::Action::add: id = state.add_animation(c.track, c.animation, c.loop, c.delay); break;
        case ScheduleCommand::Action::empty: state.set_empty_animation(c.track, c.mix); return;
        case ScheduleCommand::Action::add_empty: state.add_empty_animation(c.track, c.mix, c.delay); return;
        case ScheduleCommand::Action::clear: state.clear_track(c.track); return;
    }
    TrackEntry* entry = state.entry(id);
    if (!entry) return;
    // Plain assignments, as the official API's fields are (mixDuration does not recompute an add's delay).
    if (c.alpha) entry->alpha = *c.alpha;
    if (c.mix_duration) entry->mix_duration = *c.mix_duration;
    if (c.time_scale) entry->time_scale = *c.time_scale;
    if (c.track_time) entry->track_time = *c.track_time;
    if (c.mix_blend) entry->mix_blend = *c.mix_blend;
    if (c.reverse) entry->reverse = *c.reverse;
    if (c.hold_previous) entry->hold_previous = *c.hold_previous;
    if (c.shortest_rotation) entry->shortest_rotation = *c.shortest_rotation;
    if (c.event_threshold) entry->event_threshold = *c.event_threshold;
    if (c.mix_attachment_threshold) entry->mix_attachment_threshold = *c.mix_attachment_threshold;
    if (c.alpha_attachment_threshold) entry->alpha_attachment_threshold = *c.alpha_attachment_threshold;
    if (c.mix_draw_order_threshold) entry->mix_draw_order_threshold = *c.mix_draw_order_threshold;
}

void SchedulePlayer::run_step(std::uint32_t step, double dt) {
    for (std::size_t i = 0; i < schedule_->commands.size(); ++i) {
        if (done_[i] || schedule_->commands[i].step > step - 1) continue;
        done_[i] = 1;
        run_command(schedule_->commands[i]);
    }
    state.update(dt);
    state.apply(pose);
    update_time(pose, dt);
    update_world_transform(pose, Physics::update);
}

}  // namespace spinegpu::tools
