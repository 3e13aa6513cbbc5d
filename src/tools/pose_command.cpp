// spinegpu pose: the pose dump of DESIGN.md ("Pose dump"), one JSON line per printed step, to compare our runtime
// with the official one step by step.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "cli_args.hpp"
#include "commands.hpp"
#include "usage.hpp"
#include "json_writer.hpp"
#include "schedule_player.hpp"
#include "spinegpu/core/file.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "unknown_name.hpp"

namespace spinegpu::tools {
namespace {

const char* notification_name(StateNotification::Type type) {
    switch (type) {
        case StateNotification::Type::start: return "start";
        case StateNotification::Type::interrupt: return "interrupt";
        case StateNotification::Type::end: return "end";
        case StateNotification::Type::complete: return "complete";
        case StateNotification::Type::dispose: return "dispose";
        case StateNotification::Type::event: return "event";
    }
    return "?";
}

std::string animation_name(const SkeletonData& data, Index animation) {
    return animation == k_empty_animation || animation < 0 ? std::string("<empty>") : data.animation_names[animation];
}

void write_events(JsonWriter& w, const SkeletonData& data, const std::vector<StateNotification>& notifications) {
    w.key("events").begin_array();
    for (const StateNotification& n : notifications) {
        w.begin_object().key("type").value(notification_name(n.type)).key("track").value(n.track);
        w.key("animation").value(animation_name(data, n.animation));
        if (n.type == StateNotification::Type::event && n.event_key != k_none) {
            const EventKey& key = data.event_keys[static_cast<std::size_t>(n.event_key)];
            const EventData& event = data.events[static_cast<std::size_t>(key.event)];
            w.key("name").value(data.event_names[key.event]).key("int").value(key.int_value);
            w.key("float").value(key.float_value);
            w.key("string").value(key.string_value == k_none ? event.string_value : data.strings[key.string_value]);
            w.key("time").value(key.time).key("volume").value(key.volume).key("balance").value(key.balance);
        }
        w.end_object();
    }
    w.end_array();
}

// The attachment's own Spine name (what the official runtime reports), which may differ from its skin key.
const std::string& attachment_spine_name(const SkeletonData& data, Index attachment) {
    const AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
    return data.attachment_names[a.spine_name != k_none ? a.spine_name : a.name];
}

void write_pose_line(JsonWriter& w, std::uint32_t step, double time, const SkeletonPose& pose,
                     const AtlasBinding& binding, const std::vector<StateNotification>& notifications,
                     std::vector<float>& scratch) {
    const SkeletonData& data = *pose.data;
    w.begin_object().key("frame").value(step).key("time").value(time);
    w.key("bones").begin_array();
    for (std::size_t i = 0; i < data.bones.size(); ++i) {
        const BoneWorld& b = pose.world[i];
        w.begin_object().key("name").value(data.bone_names[static_cast<Index>(i)]);
        w.key("a").value(b.a).key("b").value(b.b).key("c").value(b.c).key("d").value(b.d);
        w.key("x").value(b.x).key("y").value(b.y).end_object();
    }
    w.end_array();
    w.key("slots").begin_array();
    for (Index slot : pose.draw_order) {
        const SlotPose& s = pose.slots[static_cast<std::size_t>(slot)];
        w.begin_object().key("name").value(data.slot_names[slot]);
        w.key("attachment");
        if (s.attachment == k_none) w.null(); else w.value(attachment_spine_name(data, s.attachment));
        w.key("color").begin_array().value(s.color.r).value(s.color.g).value(s.color.b).value(s.color.a).end_array();
        w.key("dark");
        if (data.slots[static_cast<std::size_t>(slot)].has_dark)
            w.begin_array().value(s.dark.r).value(s.dark.g).value(s.dark.b).end_array();
        else
            w.null();
        w.key("vertices");
        AttachmentType type = s.attachment == k_none ? AttachmentType::point
                                                     : data.attachments[static_cast<std::size_t>(s.attachment)].type;
        if (type == AttachmentType::region || type == AttachmentType::mesh) {
            std::uint32_t count = compute_world_vertices(pose, binding, slot, scratch);
            w.begin_array();
            for (std::uint32_t i = 0; i < count; ++i) w.value(scratch[i]);
            w.end_array();
        } else {
            w.null();
        }
        w.end_object();
    }
    w.end_array();
    write_events(w, data, notifications);
    w.end_object();
}

}  // namespace

int run_pose(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("pose"), error);
    auto usage = [&](const std::string& why) {
        std::fprintf(stderr, "spinegpu pose: %s\n%s", why.c_str(), command_usage("pose"));
        return 2;
    };
    if (!args) return usage(error);
    if (!args->positional().empty()) return usage("unexpected argument \"" + args->positional()[0] + "\"");
    std::optional<std::string> skeleton_path = args->get("--skeleton"), atlas_path = args->get("--atlas");
    if (!skeleton_path || !atlas_path) return usage("--skeleton and --atlas are required");
    if (args->has("--animation") == args->has("--schedule")) return usage("give one of --animation and --schedule");
    std::optional<std::uint32_t> steps = args->whole("--steps", 0, 4294967295u, 60u);
    std::optional<double> dt = args->has("--dt") ? parse_number(*args->get("--dt")) : 0.016666666666666666;
    std::optional<std::uint32_t> every = args->whole("--every", 1, 4294967295u, 1u);
    if (!steps) return usage("--steps needs a whole number from 0 to 4294967295");
    if (!every) return usage("--every needs a whole number from 1 to 4294967295");
    if (!dt || !(*dt >= 0) || *dt > 3600) return usage("--dt needs a number of seconds from 0 to 3600");
    // (A line is printed after each step whose number --every divides, from 1: none may be, which is allowed but
    // rarely meant.)
    if (*steps == 0)
        std::fprintf(stderr, "spinegpu pose: warning: --steps 0 prints nothing: a line follows a step, and the setup "
                             "pose is not one\n");
    else if (*every > *steps)
        std::fprintf(stderr, "spinegpu pose: warning: nothing is printed: a line follows each step whose number is a "
                             "multiple of --every %u, and --steps %u stops before the first\n", *every, *steps);

    auto fail = [](const Error& e) {
        std::fprintf(stderr, "spinegpu pose: %s\n", e.message().c_str());
        return 1;
    };
    Result<SkeletonData> data = load_skeleton_file(*skeleton_path);
    if (!data) return fail(data.error());
    Result<Atlas> atlas = load_atlas_file(*atlas_path);
    if (!atlas) return fail(atlas.error());
    Result<AtlasBinding> binding = bind_atlas(*data, *atlas);
    if (!binding) return fail(binding.error());

    Result<Schedule> schedule = Error{};
    if (std::optional<std::string> animation = args->get("--animation")) {
        schedule = animation_schedule(*animation, *skeleton_path, "--animation", *data);
    } else {
        std::string path = *args->get("--schedule");
        Result<std::string> text = read_file_text(path);
        if (!text) return fail(text.error());
        schedule = parse_schedule(*text, path, *data);
    }
    if (!schedule) return fail(schedule.error());
    Index skin = k_none;
    if (std::optional<std::string> name = args->get("--skin")) {
        skin = data->skin_names.find(*name);
        if (skin == k_none)
            return fail(make_error(*skeleton_path, "--skin", unknown_name("skin", *name, data->skin_names)));
    }

    SchedulePlayer player(*data, *schedule, skin);
    std::uint32_t largest = 8;
    for (const AttachmentData& a : data->attachments) largest = std::max(largest, a.world_vertices_length);
    std::vector<float> scratch(largest);
    std::vector<StateNotification> pending;
    JsonWriter w;
    const std::uint32_t step_count = *steps, stride = *every;
    // (A 32-bit counter would wrap at --steps 4294967295 and never end.)
    for (std::uint64_t step64 = 1; step64 <= step_count; ++step64) {
        const auto step = static_cast<std::uint32_t>(step64);
        player.run_step(step, *dt);
        pending.insert(pending.end(), player.state.notifications.begin(), player.state.notifications.end());
        player.state.notifications.clear();
        if (step % stride != 0) continue;
        write_pose_line(w, step, step * *dt, player.pose, *binding, pending, scratch);
        std::string line = w.take();
        line += '\n';
        // (A dump that cannot be written stops here, with the reason, not after every step has run.)
        if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) {
            std::fprintf(stderr, "spinegpu pose: could not write the standard output: %s\n", std::strerror(errno));
            return 1;
        }
        pending.clear();
    }
    return 0;
}

}  // namespace spinegpu::tools
