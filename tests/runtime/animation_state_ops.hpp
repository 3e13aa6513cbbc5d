// Plays the small AnimationState scripts of tests/oracle/animation_state_ops.mjs on our AnimationState and writes
// the same log, so that a test can compare it with the log the official runtime printed for the same script. The
// script language and the log format are described in that .mjs file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "pose_test_support.hpp"
#include "spinegpu/runtime/animation_state.hpp"

namespace spinegpu::test {

inline std::vector<std::string> split_tokens(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string token; in >> token;) out.push_back(token);
    return out;
}

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(" \t") != std::string::npos) out.push_back(line.substr(line.find_first_not_of(" \t")));
    return out;
}

inline std::string number(double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

// Runs an ops script on a skeleton and collects the log.
class OpsRunner {
public:
    // `posing` false: every step applies the state without posing (AnimationState::apply_without_pose) and the
    // operations that read the pose (bones, slots, drawOrder) log nothing.
    explicit OpsRunner(const SkeletonData& data, bool posing = true)
        : data_(data), pose_(create_pose(data)), state_(data), posing_(posing) {}

    std::vector<std::string> run(const std::string& script) {
        for (const std::string& line : split_lines(script)) {
            const std::vector<std::string> t = split_tokens(line.substr(0, line.find('#')));
            if (!t.empty()) op(t);
        }
        return log_;
    }

    AnimationState& state() { return state_; }

private:
    Index animation(const std::string& name) const {
        const Index i = data_.animation_names.find(name);
        EXPECT_NE(i, k_none) << "no animation " << name;
        return i;
    }
    std::string animation_name(Index a) const { return a == k_empty_animation ? "<empty>" : data_.animation_names[a]; }
    std::string prefix() const { return std::to_string(steps_) + " "; }

    void collect_notifications() {
        static const char* const names[] = {"start", "interrupt", "end", "complete", "dispose", "event"};
        for (const StateNotification& n : state_.notifications) {
            std::string line = prefix() + "note " + names[static_cast<int>(n.type)] + " " + std::to_string(n.track) +
                               " " + animation_name(n.animation);
            if (n.type == StateNotification::Type::event)
                line += " " + data_.event_names[data_.event_keys[static_cast<std::size_t>(n.event_key)].event];
            log_.push_back(line);
        }
        state_.notifications.clear();
    }

    // TrackEntry.getAnimationTime and getTrackComplete through the state's API (by handle).
    double time_of(const TrackEntry& e) const { return state_.animation_time(handle_of(e)); }
    double complete_of(const TrackEntry& e) const { return state_.track_complete(handle_of(e)); }
    TrackEntryId handle_of(const TrackEntry& e) const { return handles_.at(&e); }

    void op(const std::vector<std::string>& t) {
        const std::string& o = t[0];
        auto num = [&](std::size_t i) { return std::strtod(t.at(i).c_str(), nullptr); };
        auto track = [&](std::size_t i) { return static_cast<std::int32_t>(num(i)); };
        if (o == "mix") state_.mixes.default_mix = num(1);
        else if (o == "pair") state_.mixes.set(animation(t[1]), animation(t[2]), num(3));
        else if (o == "set") last_ = state_.set_animation(track(1), animation(t[2]), t[3] == "loop");
        else if (o == "add") last_ = state_.add_animation(track(1), animation(t[2]), t[3] == "loop", num(4));
        else if (o == "empty") last_ = state_.set_empty_animation(track(1), num(2));
        else if (o == "addEmpty") last_ = state_.add_empty_animation(track(1), num(2), num(3));
        else if (o == "emptyAll") state_.set_empty_animations(num(1));
        else if (o == "clear") state_.clear_track(track(1));
        else if (o == "clearAll") state_.clear_tracks();
        else if (o == "timeScale") state_.time_scale = num(1);
        else if (o == "field") set_field(t[1], t[2]);
        else if (o == "mixWithDelay") state_.set_mix_duration(last_, num(1), num(2));
        else if (o == "steps") steps(static_cast<int>(num(1)), t.size() > 2 ? num(2) : 1.0 / 60);
        else if (o == "probe") probe_track(track(1));
        else if (!posing_ && (o == "bones" || o == "slots" || o == "drawOrder")) {}
        else if (o == "bones") bones(t);
        else if (o == "slots") slots(t);
        else if (o == "drawOrder") draw_order();
        else ADD_FAILURE() << "unknown operation " << o;
        collect_notifications();
    }

    void set_field(const std::string& name, const std::string& value) {
        TrackEntry* e = state_.entry(last_);
        ASSERT_NE(e, nullptr) << "field " << name << ": the last entry is gone";
        const double v = std::strtod(value.c_str(), nullptr);
        if (name == "mixBlend")
            e->mix_blend = value == "setup" ? MixBlend::setup : value == "first" ? MixBlend::first
                         : value == "add"   ? MixBlend::add   : MixBlend::replace;
        else if (name == "alpha") e->alpha = v;
        else if (name == "mixDuration") e->mix_duration = v;
        else if (name == "timeScale") e->time_scale = v;
        else if (name == "trackTime") e->track_time = v;
        else if (name == "trackEnd") e->track_end = v;
        else if (name == "reverse") e->reverse = v != 0;
        else if (name == "holdPrevious") e->hold_previous = v != 0;
        else if (name == "shortestRotation") e->shortest_rotation = v != 0;
        else if (name == "eventThreshold") e->event_threshold = v;
        else if (name == "mixAttachmentThreshold") e->mix_attachment_threshold = v;
        else if (name == "alphaAttachmentThreshold") e->alpha_attachment_threshold = v;
        else if (name == "mixDrawOrderThreshold") e->mix_draw_order_threshold = v;
        else if (name == "animationStart") e->animation_start = v;
        else if (name == "animationEnd") e->animation_end = v;
        else ADD_FAILURE() << "unknown field " << name;
    }

    // The pose dump's step: update, apply, skeleton time, world transforms with physics.
    void steps(int count, double dt) {
        for (int i = 0; i < count; i++) {
            steps_++;
            state_.update(dt);
            if (!posing_) {
                state_.apply_without_pose();
                collect_notifications();
                continue;
            }
            state_.apply(pose_);
            update_time(pose_, dt);
            update_world_transform(pose_, Physics::update);
            collect_notifications();
        }
    }

    void probe_track(std::int32_t track) {
        const TrackEntryId current = state_.current(track);
        if (!current.valid()) {
            log_.push_back(prefix() + "probe " + std::to_string(track) + " none");
            return;
        }
        handles_.clear();
        auto remember = [&](TrackEntryId id) -> const TrackEntry& {
            const TrackEntry* e = state_.entry(id);
            handles_[e] = id;
            return *e;
        };
        const TrackEntry& c = remember(current);
        log_probe("current", c);
        for (TrackEntryId id = state_.handle(c.mixing_from); id.valid(); id = state_.handle(state_.entry(id)->mixing_from))
            log_probe("from", remember(id));
        for (TrackEntryId id = state_.handle(c.next); id.valid(); id = state_.handle(state_.entry(id)->next))
            log_probe("next", remember(id));
    }

    void log_probe(const char* role, const TrackEntry& e) {
        log_.push_back(prefix() + "probe " + role + " " + animation_name(e.animation) + " trackTime=" +
                       number(e.track_time) + " delay=" + number(e.delay) + " mixTime=" + number(e.mix_time) +
                       " mixDuration=" + number(e.mix_duration) + " trackLast=" + number(e.track_last) +
                       " animationLast=" + number(e.animation_last) + " animationTime=" + number(time_of(e)) +
                       " trackComplete=" + number(complete_of(e)) + " interruptAlpha=" + number(e.interrupt_alpha) +
                       " totalAlpha=" + number(e.total_alpha));
    }

    void bones(const std::vector<std::string>& t) {
        for (std::size_t i = 1; i < t.size(); i++) {
            const BoneWorld& w = pose_.world[static_cast<std::size_t>(bone_index(data_, t[i]))];
            log_.push_back(prefix() + "bone " + t[i] + " a=" + number(w.a) + " b=" + number(w.b) + " c=" +
                           number(w.c) + " d=" + number(w.d) + " x=" + number(w.x) + " y=" + number(w.y));
        }
    }

    void slots(const std::vector<std::string>& t) {
        for (std::size_t i = 1; i < t.size(); i++)
            log_.push_back(prefix() + "slot " + t[i] + " " + attachment_name(pose_, slot_index(data_, t[i])));
    }

    void draw_order() {
        std::string line = prefix() + "drawOrder ";
        for (std::size_t i = 0; i < pose_.draw_order.size(); i++)
            line += (i ? "," : "") + data_.slot_names[pose_.draw_order[i]];
        log_.push_back(line);
    }

    const SkeletonData& data_;
    SkeletonPose pose_;
    AnimationState state_;
    TrackEntryId last_;
    bool posing_ = true;
    int steps_ = 0;
    std::vector<std::string> log_;
    std::map<const TrackEntry*, TrackEntryId> handles_;
};

// Compares our log with the official one: the same lines, words equal, numbers (key=value) within tolerance:
// world a b c d within 1e-3 and x y within 0.05 (DESIGN.md's pose tolerances), entry fields within 1e-9 (we
// compute them in doubles as the official runtime does).
inline void expect_same_log(const std::vector<std::string>& actual, const std::string& expected_text) {
    const std::vector<std::string> expected = split_lines(expected_text);
    std::size_t failures = 0;
    for (std::size_t i = 0; i < std::max(actual.size(), expected.size()) && failures < 10; i++) {
        const std::string a = i < actual.size() ? actual[i] : "(missing)";
        const std::string e = i < expected.size() ? expected[i] : "(missing)";
        const std::vector<std::string> at = split_tokens(a), et = split_tokens(e);
        bool same = at.size() == et.size();
        const bool bone = et.size() > 1 && et[1] == "bone";
        for (std::size_t k = 0; same && k < at.size(); k++) {
            const std::size_t eq = et[k].find('=');
            if (eq == std::string::npos || at[k].compare(0, eq + 1, et[k], 0, eq + 1) != 0) {
                same = at[k] == et[k];
                continue;
            }
            const double av = std::strtod(at[k].c_str() + eq + 1, nullptr);
            const double ev = std::strtod(et[k].c_str() + eq + 1, nullptr);
            const char key = et[k][0];
            const double tolerance = !bone ? 1e-9 * std::max(1.0, std::abs(ev)) : (key == 'x' || key == 'y') ? 0.05 : 1e-3;
            same = std::abs(av - ev) <= tolerance;
        }
        if (!same) {
            failures++;
            ADD_FAILURE() << "log line " << i + 1 << "\n  official: " << e << "\n  ours:     " << a;
        }
    }
}

// An example skeleton (paths relative to the examples folder), loaded once per path; null (with a test failure)
// when it does not load.
inline const SkeletonData* ops_skeleton(const std::string& skeleton, const std::string& atlas) {
    static std::map<std::string, std::unique_ptr<LoadedSkeleton>> loaded;
    std::unique_ptr<LoadedSkeleton>& slot = loaded[skeleton];
    if (!slot) slot = load_skeleton_and_atlas(skeleton, atlas);
    return slot ? &slot->data : nullptr;
}

// The lines of a log that do not read the pose (notifications and entry probes), as one text.
inline std::string lines_without_pose(const std::string& log) {
    std::string out;
    for (const std::string& line : split_lines(log)) {
        const std::vector<std::string> t = split_tokens(line);
        if (t.size() > 1 && (t[1] == "bone" || t[1] == "slot" || t[1] == "drawOrder")) continue;
        out += line + "\n";
    }
    return out;
}

// Plays `ops` on the skeleton (spineboy-pro unless given) and compares the log with `expected`, the official
// runtime's log of the same script; then plays it again applying without posing, whose notifications and entry
// probes must be the same.
inline void play_and_compare(const char* ops, const char* expected,
                             const std::string& skeleton = "spineboy/spineboy-pro.json",
                             const std::string& atlas = "spineboy/spineboy.atlas") {
    const SkeletonData* data = ops_skeleton(skeleton, atlas);
    ASSERT_NE(data, nullptr);
    OpsRunner runner(*data);
    expect_same_log(runner.run(ops), expected);
    SCOPED_TRACE("applied without posing (AnimationState::apply_without_pose)");
    OpsRunner unposed(*data, false);
    expect_same_log(unposed.run(ops), lines_without_pose(expected));
}

}  // namespace spinegpu::test
