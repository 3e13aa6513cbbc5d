// Runtime update cost per character per frame, one thread: AnimationState update + apply, physics time, world
// transforms with Physics::update. 1,000 characters of one skeleton, each playing a random animation (looping) at a
// random phase (fixed seed), as the runtime issue's targets are stated. Reports the time per frame for all
// characters and, as the counter seconds_per_character (printed with an SI prefix, u = microseconds), the time
// per character.
//   build/bench/runtime_update_bench [--benchmark_repetitions=5]
// crowd_in_index_order / crowd_in_update_order: the same crowds as a Crowd, stepped in index order or in the crowd's
// update order (see there).
// Instruction counts of the timed part alone (one call of step_crowd per frame):
//   valgrind --tool=callgrind --toggle-collect='*step_crowd*' build/bench/runtime_update_bench
//       --benchmark_filter=raptor --benchmark_min_time=0 (then divide by the calls of AnimationState::update)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace {

struct Character {
    spinegpu::SkeletonPose pose;
    std::unique_ptr<spinegpu::AnimationState> state;
};

// One frame of one character.
inline void step_character(Character& c, double dt) {
    c.state->update(dt);
    c.state->apply(c.pose);
    spinegpu::update_time(c.pose, dt);
    spinegpu::update_world_transform(c.pose, spinegpu::Physics::update);
    c.state->notifications.clear();
}

// One timed frame of every character. Not inlined (and not used for the warm-up), so that a profiler can count
// exactly the timed part.
[[gnu::noinline]] void step_crowd(std::vector<Character>& crowd, double dt) {
    for (Character& c : crowd) step_character(c, dt);
}

// The example export `relative` (from SPINE_EXAMPLES, or the build's examples folder); on failure the benchmark is
// skipped with the loader's message.
spinegpu::Result<spinegpu::SkeletonData> load_example(benchmark::State& bench, const std::string& relative) {
    const char* env = std::getenv("SPINE_EXAMPLES");
    std::string path = std::string(env && *env ? env : SPINEGPU_EXAMPLES_DIR) + "/" + relative;
    spinegpu::Result<spinegpu::SkeletonData> data = spinegpu::load_skeleton_file(path);
    if (!data) bench.SkipWithError(data.error().message().c_str());
    return data;
}

// The counter seconds_per_character: the time per frame over `characters`.
void report_per_character(benchmark::State& bench, int characters) {
    bench.counters["seconds_per_character"] = benchmark::Counter(
        static_cast<double>(characters) * static_cast<double>(bench.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void update_characters(benchmark::State& bench, const std::string& relative) {
    spinegpu::Result<spinegpu::SkeletonData> data = load_example(bench, relative);
    if (!data) return;
    constexpr int k_characters = 1000;
    constexpr double k_dt = 1.0 / 60;
    std::mt19937 random(1234);
    std::vector<Character> crowd;
    crowd.reserve(k_characters);
    for (int i = 0; i < k_characters; ++i) {
        Character c{spinegpu::create_pose(*data), std::make_unique<spinegpu::AnimationState>(*data)};
        spinegpu::set_to_setup_pose(c.pose);
        auto animation = static_cast<spinegpu::Index>(random() % data->animations.size());
        spinegpu::TrackEntryId id = c.state->set_animation(0, animation, true);
        float duration = data->animations[static_cast<std::size_t>(animation)].duration;
        c.state->entry(id)->track_time = duration * static_cast<double>(random() % 1000) / 1000.0;
        crowd.push_back(std::move(c));
    }
    // Warm up: let every character reach its steady state (entries allocated, caches built).
    for (int frame = 0; frame < 10; ++frame)
        for (Character& c : crowd) step_character(c, k_dt);
    for (auto _ : bench) {
        step_crowd(crowd, k_dt);
        benchmark::ClobberMemory();
    }
    report_per_character(bench, k_characters);
}

// The same crowds as a Crowd (batch_update.hpp), stepped in index order (update_characters over the whole crowd) or
// in the crowd's update order (update_order.hpp: grouped by animation, in phase order within a group; refreshed
// every frame, as BatchUpdater does). Same characters, animations and phases, so the same runtime instructions (the
// update-order variant adds the refresh and a key record per character); the difference is how well consecutive
// characters predict each other's branches and share cached keys.
void advance_in_index_order(spinegpu::Crowd& crowd, const spinegpu::FrameStep& step) {
    spinegpu::update_characters(crowd.poses(), crowd.states(), step);
    for (spinegpu::AnimationState& state : crowd.states()) state.notifications.clear();
}

void advance_in_update_order(spinegpu::Crowd& crowd, const spinegpu::FrameStep& step) {
    crowd.update_order().refresh(crowd.size());
    spinegpu::update_in_order(crowd, crowd.update_order().characters(), 0, crowd.size(), step);
    for (spinegpu::AnimationState& state : crowd.states()) state.notifications.clear();
}

// The timed frames alone, so that callgrind can collect them without the warm-up (which sets up the animations'
// hold tables and sorts): --toggle-collect='*step_crowd_in_update_order*'.
[[gnu::noinline]] void step_crowd_in_index_order(spinegpu::Crowd& crowd, const spinegpu::FrameStep& step) {
    advance_in_index_order(crowd, step);
}

[[gnu::noinline]] void step_crowd_in_update_order(spinegpu::Crowd& crowd, const spinegpu::FrameStep& step) {
    advance_in_update_order(crowd, step);
}

void update_crowd(benchmark::State& bench, const std::string& relative, bool in_update_order) {
    spinegpu::Result<spinegpu::SkeletonData> data = load_example(bench, relative);
    if (!data) return;
    const int k_characters = static_cast<int>(bench.range(0));
    const spinegpu::FrameStep step{1.0 / 60, spinegpu::Physics::update};
    std::mt19937 random(1234);  // the same animations and phases as update_characters
    spinegpu::Crowd crowd;
    crowd.reserve(k_characters);
    for (int i = 0; i < k_characters; ++i) {
        const spinegpu::CharacterIndex c = crowd.add(*data);
        spinegpu::set_to_setup_pose(crowd.pose(c));
        auto animation = static_cast<spinegpu::Index>(random() % data->animations.size());
        spinegpu::TrackEntryId id = crowd.state(c).set_animation(0, animation, true);
        float duration = data->animations[static_cast<std::size_t>(animation)].duration;
        crowd.state(c).entry(id)->track_time = duration * static_cast<double>(random() % 1000) / 1000.0;
    }
    auto advance = in_update_order ? &advance_in_update_order : &advance_in_index_order;
    for (int frame = 0; frame < 10; ++frame) advance(crowd, step);  // warm up (and sort)
    auto step_crowd = in_update_order ? &step_crowd_in_update_order : &step_crowd_in_index_order;
    for (auto _ : bench) {
        step_crowd(crowd, step);
        benchmark::ClobberMemory();
    }
    report_per_character(bench, k_characters);
}

void crowd_in_index_order(benchmark::State& bench, const std::string& relative) {
    update_crowd(bench, relative, false);
}

void crowd_in_update_order(benchmark::State& bench, const std::string& relative) {
    update_crowd(bench, relative, true);
}

BENCHMARK_CAPTURE(update_characters, spineboy_pro, "spineboy/spineboy-pro.skel")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(update_characters, raptor_pro, "raptor/raptor-pro.skel")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(update_characters, celestial_circus_pro, "celestial-circus/celestial-circus-pro.skel")
    ->Unit(benchmark::kMillisecond);

// Crowd sizes: 1,000 as above; spineboy-pro also from a crowd whose poses fit one core's L2 (32 characters, about
// 0.6 MB) to 8,000 (about 150 MB), to show what memory costs per character.
BENCHMARK_CAPTURE(crowd_in_index_order, spineboy_pro, "spineboy/spineboy-pro.skel")
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crowd_in_update_order, spineboy_pro, "spineboy/spineboy-pro.skel")
    ->Arg(32)
    ->Arg(128)
    ->Arg(1000)
    ->Arg(8000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crowd_in_index_order, raptor_pro, "raptor/raptor-pro.skel")->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crowd_in_update_order, raptor_pro, "raptor/raptor-pro.skel")
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crowd_in_index_order, celestial_circus_pro, "celestial-circus/celestial-circus-pro.skel")
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(crowd_in_update_order, celestial_circus_pro, "celestial-circus/celestial-circus-pro.skel")
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
