// Packing cost per character per frame, one thread, no device: the CPU parts of Renderer::draw's "pack" time for
// the GPU path, written into plain malloc'd arrays instead of mapped memory.
//   pass1...: the first pass over the characters (the renderer's first_pass lambda): prefetch_for_packing for the
//             next ones, character_in_view, pack_character_at at the character's fixed places. Variants: without
//             the prefetch, culling alone, a view that culls most of the crowd, and right after a runtime update
//             on two threads (as in a frame: poses just written, half of them by the other core). As in the
//             renderer, the culling box of a character outside the view is kept while its pose stays: only
//             pass1_after_update poses the crowd between iterations, the others cull unposed characters from their
//             kept boxes after the first iteration (as a crowd update passing over characters outside the view).
//   serial:   the loop the renderer ran after it until the places pass (shaders/places.comp) took its place on the
//             GPU: prefix sums of vertex and index counts over the visible characters, headers copied to the dense
//             array, bytes counted. Kept as the measure of what that move saves.
// The crowd is `spinegpu bench`'s: spineboy-pro characters, each playing a random looping animation at a random
// phase (fixed seed), stepped 20 frames, spread over a 1920 x 1080 view about 64 px tall, facing either way, drawn
// back to front (sorted by height, so consecutive draws touch poses scattered in memory, as in the renderer).
// Reports the time per frame for all characters and, as the counter seconds_per_character (printed with an SI
// prefix, n = nanoseconds), the time per character.
//   build/bench/frame_pack_bench [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
// Instruction counts of the timed part alone (pack_crowd and place_crowd are not inlined; one iteration):
//   valgrind --tool=callgrind --toggle-collect='*pack_crowd*' build/bench/frame_pack_bench
//       --benchmark_filter='^pass1/1000$' --benchmark_min_time=0      (then divide by 1,000 characters)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace {

using namespace spinegpu;
using namespace spinegpu::gpu;

constexpr std::uint32_t k_seed = 1234;
constexpr std::uint32_t k_width = 1920, k_height = 1080;
constexpr float k_character_pixels = 64;
constexpr std::uint32_t k_culled = 0xFFFFFFFFu;  // PackedCounts::vertices of a character outside the view

// A free()-ing deleter: the outputs are plain malloc'd arrays, standing in for the mapped buffers.
struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};
template <class T>
using Malloced = std::unique_ptr<T[], FreeDeleter>;

template <class T>
Malloced<T> malloc_array(std::size_t count) {
    return Malloced<T>(static_cast<T*>(std::malloc(std::max<std::size_t>(count, 1) * sizeof(T))));
}

// One frame's inputs and outputs: the posed crowd, the draws in back-to-front order, each character's fixed places,
// and the arrays packing writes.
struct Scene {
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    StaticSkeleton type;
    std::uint32_t max_words = 0;
    Crowd crowd;
    std::vector<CharacterDraw> draws;
    WorldRect view;
    std::vector<std::uint32_t> bone_offsets, word_offsets;
    std::vector<GpuCharacter> headers;
    std::vector<PackedCounts> counts;
    std::vector<CullingMemo> culling;  // as Renderer::draw keeps them, per place in the draw list
    Malloced<float> bones;
    Malloced<std::uint32_t> words;
    Malloced<GpuCharacter> dense;
    std::string error;
};

std::string example(const std::string& relative) {
    const char* env = std::getenv("SPINE_EXAMPLES");
    return std::string(env && *env ? env : SPINEGPU_EXAMPLES_DIR) + "/" + relative;
}


// Loads the skeleton and builds its bind form; false with scene.error set on failure.
bool load_type(Scene& s) {
    Result<SkeletonData> data = load_skeleton_file(example("spineboy/spineboy-pro.skel"));
    if (!data) return s.error = data.error().message(), false;
    s.data = std::move(*data);
    Result<Atlas> atlas = load_atlas_file(example("spineboy/spineboy-pma.atlas"));
    if (!atlas) return s.error = atlas.error().message(), false;
    s.atlas = std::move(*atlas);
    Result<AtlasBinding> binding = bind_atlas(s.data, s.atlas);
    if (!binding) return s.error = binding.error().message(), false;
    s.binding = std::move(*binding);
    std::vector<PagePlacement> pages;
    for (std::uint32_t i = 0; i < s.atlas.pages.size(); ++i) pages.push_back({i, 1, 1});
    Result<StaticSkeleton> type = build_static_skeleton(s.data, s.atlas, s.binding, pages, "spineboy-pro");
    if (!type) return s.error = type.error().message(), false;
    s.type = std::move(*type);
    s.max_words = max_words_per_character(s.type, s.data);
    return true;
}

// The crowd as `spinegpu bench` makes and places it (make_crowd, bench_render), stepped 20 frames.
void pose_crowd(Scene& s, std::size_t count) {
    std::mt19937 random(k_seed);
    s.crowd.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const CharacterIndex c = s.crowd.add(s.data);
        set_to_setup_pose(s.crowd.pose(c));
        const auto animation = static_cast<Index>(random() % s.data.animations.size());
        AnimationState& state = s.crowd.state(c);
        const TrackEntryId id = state.set_animation(0, animation, true);
        const float duration = s.data.animations[static_cast<std::size_t>(animation)].duration;
        state.entry(id)->track_time = duration * static_cast<double>(random() % 1000) / 1000.0;
        state.notifications.clear();
    }
    const float scale = k_character_pixels / setup_pose_height(s.data, s.binding);
    std::mt19937 place(k_seed + 1);
    for (SkeletonPose& pose : s.crowd.poses()) {
        pose.x = static_cast<float>(place() % k_width) / scale;
        pose.y = static_cast<float>(place() % static_cast<std::uint32_t>(k_height - k_character_pixels)) / scale;
        if (place() % 2) pose.scale_x = -1;
    }
    BatchUpdater updater(BatchDesc{1, ThreadBackend::pool, 0});
    for (int frame = 0; frame < 20; ++frame)
        updater.update(s.crowd, FrameStep{1.0 / 60, Physics::update}, [](CharacterIndex, const StateNotification&) {});
    for (SkeletonPose& pose : s.crowd.poses()) s.draws.push_back({&pose, 0, Color{}});
    std::stable_sort(s.draws.begin(), s.draws.end(),
                     [](const CharacterDraw& a, const CharacterDraw& b) { return a.pose->y > b.pose->y; });
    // The renderer's view for camera {scale, 0, height}.
    s.view = {0, 0, static_cast<float>(k_width) / scale, static_cast<float>(k_height) / scale};
}

// Fixed places (as Renderer::draw assigns them) and the output arrays.
void allocate_outputs(Scene& s) {
    const std::size_t n = s.draws.size();
    for (std::size_t i = 0; i < n; ++i) {
        s.bone_offsets.push_back(static_cast<std::uint32_t>(i * s.type.drawn_bones.size()));
        s.word_offsets.push_back(static_cast<std::uint32_t>(i * s.max_words));
    }
    s.headers.resize(n);
    s.counts.resize(n);
    s.culling.resize(n);
    s.bones = malloc_array<float>(n * s.type.drawn_bones.size() * 6);
    s.words = malloc_array<std::uint32_t>(n * s.max_words);
    s.dense = malloc_array<GpuCharacter>(n);
}

// The scene of `count` characters, built on first use and kept (building 8,000 characters takes a while).
Scene& scene(std::size_t count) {
    static std::vector<std::pair<std::size_t, std::unique_ptr<Scene>>> scenes;
    for (auto& [n, s] : scenes)
        if (n == count) return *s;
    auto s = std::make_unique<Scene>();
    if (load_type(*s)) {
        pose_crowd(*s, count);
        allocate_outputs(*s);
    }
    scenes.emplace_back(count, std::move(s));
    return *scenes.back().second;
}

// What a timed pass does per character: everything Renderer::draw's pass 1 does, the same without prefetching, or
// culling alone (without prefetching: it reads little of each pose).
enum class Part { pass1, no_prefetch, cull };

// Pass 1 of Renderer::draw for the GPU path over every character, on one thread (its first_pass lambda).
template <Part part>
[[gnu::noinline]] void pack_crowd(Scene& s, const WorldRect& view) {
    const std::size_t n = s.draws.size();
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (part == Part::pass1)
            if (i + 1 < n) {
                const SkeletonPose* next = s.draws[i + 1].pose;
                prefetch_for_packing(memo_applies(s.culling[i + 1], s.type, *next) ? nullptr : next,
                                     i + 2 < n ? s.draws[i + 2].pose : nullptr);
            }
        const CharacterDraw& d = s.draws[i];
        if (!character_in_view(s.type, *d.pose, view, s.culling[i])) {
            s.counts[i] = PackedCounts{0, k_culled, 0};
            continue;
        }
        if constexpr (part != Part::cull)
            s.counts[i] = pack_character_at(s.type, d.type, *d.pose, d.tint, s.headers[i], s.bones.get(),
                                            s.bone_offsets[i], s.words.get(), s.word_offsets[i]);
    }
}

// The serial loop after pass 1 in Renderer::draw (GPU path): output places by prefix sums over the visible
// characters, headers compacted into the dense array. Returns the visible count.
[[gnu::noinline]] std::uint32_t place_crowd(Scene& s, std::uint64_t& bytes_uploaded) {
    std::uint32_t vertex_total = 0, index_total = 0, visible = 0;
    bytes_uploaded = 0;
    GpuCharacter* dense = s.dense.get();
    for (std::size_t i = 0; i < s.draws.size(); ++i) {
        const PackedCounts& counts = s.counts[i];
        if (counts.vertices == k_culled) continue;
        GpuCharacter h = s.headers[i];
        h.out_vertex_first = vertex_total;
        h.out_index_first = index_total;
        dense[visible] = h;
        bytes_uploaded +=
            sizeof(GpuCharacter) + s.type.drawn_bones.size() * k_bone_bytes + std::uint64_t{counts.words} * 4;
        vertex_total += counts.vertices;
        index_total += counts.indices;
        ++visible;
    }
    return visible;
}

void report(benchmark::State& bench, const Scene& s) {
    bench.counters["seconds_per_character"] =
        benchmark::Counter(static_cast<double>(s.draws.size()) * static_cast<double>(bench.iterations()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    const auto culled = std::count_if(s.counts.begin(), s.counts.end(),
                                      [](const PackedCounts& c) { return c.vertices == k_culled; });
    bench.counters["culled"] = static_cast<double>(culled);
}

// Pass 1 with the poses as a warm loop leaves them (whatever of them the caches hold).
template <Part part>
void pass1(benchmark::State& bench) {
    Scene& s = scene(static_cast<std::size_t>(bench.range(0)));
    if (!s.error.empty()) return bench.SkipWithError(s.error.c_str());
    for (auto _ : bench) {
        pack_crowd<part>(s, s.view);
        benchmark::ClobberMemory();
    }
    report(bench, s);
}

// Pass 1 with a view of the left quarter of the crowd's area: most characters are culled (culling's slow case).
template <Part part>
void pass1_quarter_view(benchmark::State& bench) {
    Scene& s = scene(static_cast<std::size_t>(bench.range(0)));
    if (!s.error.empty()) return bench.SkipWithError(s.error.c_str());
    const WorldRect view{s.view.min_x, s.view.min_y, s.view.min_x + (s.view.max_x - s.view.min_x) / 4, s.view.max_y};
    for (auto _ : bench) {
        pack_crowd<part>(s, view);
        benchmark::ClobberMemory();
    }
    report(bench, s);
    pack_crowd<Part::pass1>(s, s.view);  // the other benchmarks' counts
}

// Pass 1 right after a runtime update of the crowd on two threads (untimed), as in a frame: half the poses were
// just written by the other core.
template <Part part>
void pass1_after_update(benchmark::State& bench) {
    Scene& s = scene(static_cast<std::size_t>(bench.range(0)));
    if (!s.error.empty()) return bench.SkipWithError(s.error.c_str());
    BatchUpdater updater(BatchDesc{2, ThreadBackend::pool, 0});
    for (auto _ : bench) {
        bench.PauseTiming();
        updater.update(s.crowd, FrameStep{1.0 / 60, Physics::update}, [](CharacterIndex, const StateNotification&) {});
        bench.ResumeTiming();
        pack_crowd<part>(s, s.view);
        benchmark::ClobberMemory();
    }
    report(bench, s);
}

void serial(benchmark::State& bench) {
    Scene& s = scene(static_cast<std::size_t>(bench.range(0)));
    if (!s.error.empty()) return bench.SkipWithError(s.error.c_str());
    pack_crowd<Part::pass1>(s, s.view);
    std::uint64_t bytes = 0;
    std::uint32_t visible = 0;
    for (auto _ : bench) {
        visible = place_crowd(s, bytes);
        benchmark::DoNotOptimize(bytes);
        benchmark::ClobberMemory();
    }
    report(bench, s);
    bench.counters["bytes_per_character"] = visible ? static_cast<double>(bytes) / visible : 0;
}

BENCHMARK(pass1<Part::pass1>)->Name("pass1")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1<Part::no_prefetch>)->Name("pass1_no_prefetch")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1<Part::cull>)->Name("pass1_cull")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1_quarter_view<Part::pass1>)
    ->Name("pass1_quarter_view")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1_quarter_view<Part::no_prefetch>)
    ->Name("pass1_quarter_view_no_prefetch")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1_after_update<Part::pass1>)
    ->Name("pass1_after_update")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(pass1_after_update<Part::no_prefetch>)
    ->Name("pass1_after_update_no_prefetch")->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);
BENCHMARK(serial)->Arg(1000)->Arg(8000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
