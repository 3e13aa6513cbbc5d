// Load time of skeleton exports (parsing from memory into SkeletonData), JSON and binary, for the skeletons the
// foundation issue names. Run: build/bench/load_bench [--benchmark_repetitions=10]
// Reads the Spine example exports from $SPINE_EXAMPLES or ../shared/spine-examples.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace {

std::string example_path(const std::string& relative) {
    const char* env = std::getenv("SPINE_EXAMPLES");
    return std::string(env && *env ? env : SPINEGPU_EXAMPLES_DIR) + "/" + relative;
}

void load_json(benchmark::State& state, const std::string& relative) {
    spinegpu::Result<std::string> text = spinegpu::read_file_text(example_path(relative));
    if (!text) {
        state.SkipWithError(text.error().message().c_str());
        return;
    }
    for (auto _ : state) {
        spinegpu::Result<spinegpu::SkeletonData> data = spinegpu::load_skeleton_json(*text, relative);
        if (!data) state.SkipWithError(data.error().message().c_str());
        benchmark::DoNotOptimize(data);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text->size()));
}

void load_binary(benchmark::State& state, const std::string& relative) {
    spinegpu::Result<std::vector<std::uint8_t>> bytes = spinegpu::read_file_bytes(example_path(relative));
    if (!bytes) {
        state.SkipWithError(bytes.error().message().c_str());
        return;
    }
    for (auto _ : state) {
        spinegpu::Result<spinegpu::SkeletonData> data = spinegpu::load_skeleton_binary(*bytes, relative);
        if (!data) state.SkipWithError(data.error().message().c_str());
        benchmark::DoNotOptimize(data);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes->size()));
}

// Atlas parsing plus binding every attachment (what an official loader does while it reads the skeleton).
void load_atlas_and_bind(benchmark::State& state, const std::string& skeleton, const std::string& atlas) {
    spinegpu::Result<spinegpu::SkeletonData> data = spinegpu::load_skeleton_file(example_path(skeleton));
    spinegpu::Result<std::string> text = spinegpu::read_file_text(example_path(atlas));
    if (!data || !text) {
        state.SkipWithError("cannot read inputs");
        return;
    }
    for (auto _ : state) {
        spinegpu::Result<spinegpu::Atlas> parsed = spinegpu::parse_atlas(*text, example_path(atlas));
        if (!parsed) {
            state.SkipWithError(parsed.error().message().c_str());
            break;
        }
        spinegpu::Result<spinegpu::AtlasBinding> binding = spinegpu::bind_atlas(*data, *parsed);
        benchmark::DoNotOptimize(binding);
    }
}

BENCHMARK_CAPTURE(load_binary, spineboy_pro, "spineboy/spineboy-pro.skel")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load_json, spineboy_pro, "spineboy/spineboy-pro.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load_binary, mix_and_match_pro, "mix-and-match/mix-and-match-pro.skel")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load_json, mix_and_match_pro, "mix-and-match/mix-and-match-pro.json")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load_atlas_and_bind, spineboy_pro, "spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(load_atlas_and_bind, mix_and_match_pro, "mix-and-match/mix-and-match-pro.skel",
                  "mix-and-match/mix-and-match.atlas")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
