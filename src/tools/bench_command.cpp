// spinegpu bench: DESIGN.md's "Performance" contract. For each character count, characters of one skeleton get a
// random looping animation at a random phase (fixed seed) and each requested path is timed over F frames; a table,
// or with --json one line per row with medians over the frames and null where a figure does not apply.
//
// One function per path (bench_update; gpu and cpu come with the renderer): each appends its rows for one count.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli_args.hpp"
#include "commands.hpp"
#include "usage.hpp"
#include "bench_rows.hpp"
#include "host_load.hpp"
#include "json_writer.hpp"
#include "skeleton_assets.hpp"
#include "unknown_name.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_features.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::tools {

Timing summarise(std::vector<double>& ms) {
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    return Timing{median, ms.front(), ms.back()};
}

Crowd make_crowd(const SkeletonData& data, std::size_t count, Index skin) {
    std::mt19937 random(k_seed);
    Crowd crowd;
    crowd.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const CharacterIndex c = crowd.add(data);
        if (skin != k_none) set_skin(crowd.pose(c), skin);
        set_to_setup_pose(crowd.pose(c));
        if (data.animations.empty()) continue;
        const auto animation = static_cast<Index>(random() % data.animations.size());
        AnimationState& state = crowd.state(c);
        const TrackEntryId id = state.set_animation(0, animation, true);
        const float duration = data.animations[static_cast<std::size_t>(animation)].duration;
        state.entry(id)->track_time = duration * static_cast<double>(random() % 1000) / 1000.0;
        state.notifications.clear();
    }
    return crowd;
}

namespace {

// Times the runtime update of `count` characters with `threads` threads: F frames after a warm-up, each frame the
// batch plus the delivery of its notifications. `steal` gets the host's steal share over those frames.
Timing time_update(const BenchSetup& setup, std::size_t count, unsigned threads, std::optional<double>& steal) {
    Crowd crowd = make_crowd(*setup.data, count, setup.skin);
    BatchUpdater updater(BatchDesc{threads, setup.backend, 0});
    std::size_t notifications = 0;
    auto listener = [&](CharacterIndex, const StateNotification&) { ++notifications; };
    const FrameStep step{k_dt, Physics::update};
    for (std::uint32_t frame = 0; frame < k_warm_up_frames; ++frame) updater.update(crowd, step, listener);
    std::vector<double> ms(setup.frames);
    const std::optional<CpuTicks> before = read_cpu_ticks();
    for (std::uint32_t frame = 0; frame < setup.frames; ++frame) {
        const auto start = std::chrono::steady_clock::now();
        updater.update(crowd, step, listener);
        const auto end = std::chrono::steady_clock::now();
        ms[frame] = std::chrono::duration<double, std::milli>(end - start).count();
    }
    steal = steal_percent(before, read_cpu_ticks());
    return summarise(ms);
}

// Path "update": the runtime alone, single-threaded and with setup.threads threads.
bool bench_update(const BenchSetup& setup, std::size_t count, std::vector<BenchRow>& rows, std::string&) {
    std::vector<unsigned> thread_counts{1};
    if (setup.threads != 1) thread_counts.push_back(setup.threads);
    for (unsigned threads : thread_counts) {
        BenchRow row;
        row.skeleton = setup.skeleton_name;
        row.characters = count;
        row.path = "update";
        row.threads = threads;
        row.frames = setup.frames;
        row.update = time_update(setup, count, threads, row.steal_percent);
        row.backend = thread_backend_name(setup.backend);
        rows.push_back(std::move(row));
    }
    return true;
}

// The paths, in the order they run for each count. A null function: not built yet.
using PathFunction = bool (*)(const BenchSetup&, std::size_t count, std::vector<BenchRow>& rows, std::string& error);
struct PathEntry {
    const char* name;
    PathFunction run;
    const char* missing;  // why it is not available, when run is null
};
bool bench_gpu(const BenchSetup& setup, std::size_t count, std::vector<BenchRow>& rows, std::string& error) {
    return bench_render(setup, count, gpu::RenderPath::gpu, rows, error);
}
bool bench_cpu(const BenchSetup& setup, std::size_t count, std::vector<BenchRow>& rows, std::string& error) {
    return bench_render(setup, count, gpu::RenderPath::cpu, rows, error);
}
bool bench_gpu_vertex(const BenchSetup& setup, std::size_t count, std::vector<BenchRow>& rows, std::string& error) {
    return bench_render(setup, count, gpu::RenderPath::gpu_vertex, rows, error);
}
bool bench_gpu_tiles(const BenchSetup& setup, std::size_t count, std::vector<BenchRow>& rows, std::string& error) {
    return bench_render(setup, count, gpu::RenderPath::gpu_tiles, rows, error);
}

const PathEntry k_paths[] = {
    {"update", &bench_update, nullptr},
    {"gpu", &bench_gpu, nullptr},
    {"cpu", &bench_cpu, nullptr},
    {"gpu-vertex", &bench_gpu_vertex, nullptr},
    {"gpu-tiles", &bench_gpu_tiles, nullptr},
};

std::optional<double> optional_per_character(const BenchRow& row) {
    if (!row.update || row.characters == 0) return std::nullopt;
    return row.update->median * 1000.0 / static_cast<double>(row.characters);
}

// Sets cpu_frame_ratio on the renderer's rows of one count, when the cpu path is among them.
void set_cpu_frame_ratios(std::span<BenchRow> rows) {
    const auto cpu = std::find_if(rows.begin(), rows.end(), [](const BenchRow& row) {
        return std::string_view(row.path) == "cpu" && row.frame_ms;
    });
    if (cpu == rows.end()) return;
    for (BenchRow& row : rows)
        if (row.frame_ms && *row.frame_ms > 0) row.cpu_frame_ratio = *cpu->frame_ms / *row.frame_ms;
}

void print_json_row(const BenchRow& row) {
    JsonWriter w;
    auto number = [&](const char* key, const std::optional<double>& value) {
        w.key(key);
        if (value) w.value(*value); else w.null();
    };
    w.begin_object().key("skeleton").value(row.skeleton).key("characters").value(row.characters);
    w.key("path").value(row.path).key("threads").value(row.threads).key("frames").value(row.frames);
    number("update_ms", row.update ? std::optional<double>(row.update->median) : std::nullopt);
    number("update_ms_min", row.update ? std::optional<double>(row.update->min) : std::nullopt);
    number("update_ms_max", row.update ? std::optional<double>(row.update->max) : std::nullopt);
    number("update_us_per_character", optional_per_character(row));
    number("pack_ms", row.pack_ms);
    number("record_ms", row.record_ms);
    number("gpu_ms", row.gpu_ms);
    number("skin_ms", row.skin_ms);
    number("frame_ms", row.frame_ms);
    number("bytes_per_character", row.bytes_per_character);
    number("vertex_floor_ms", row.vertex_floor_ms);
    number("fill_floor_ms", row.fill_floor_ms);
    number("vertices", row.vertices ? std::optional<double>(static_cast<double>(*row.vertices)) : std::nullopt);
    number("triangles", row.triangles ? std::optional<double>(static_cast<double>(*row.triangles)) : std::nullopt);
    number("fragments", row.fragments ? std::optional<double>(static_cast<double>(*row.fragments)) : std::nullopt);
    number("cpu_frame_ratio", row.cpu_frame_ratio);
    w.key("device");
    if (row.device) w.value(*row.device); else w.null();
    w.key("backend");
    if (row.backend) w.value(row.backend); else w.null();
    w.key("update_in_pack").value(row.update_in_pack);
    w.key("offscreen").value(row.offscreen);
    w.key("skip_offscreen").value(row.skip_offscreen);
    w.key("walk_pixels").value(static_cast<double>(row.walk_pixels));
    w.key("onto");
    if (!row.onto.empty()) w.value(row.onto); else w.null();
    number("culled", row.culled ? std::optional<double>(*row.culled) : std::nullopt);
    number("passed_over", row.passed_over ? std::optional<double>(*row.passed_over) : std::nullopt);
    number("steal_percent", row.steal_percent);
    w.end_object();
    std::printf("%s\n", w.str().c_str());
}

// Prints `value` right-aligned in `width` characters (a space included) with `decimals`, or "-" when not measured;
// returns whether it was not measured.
bool print_cell(const std::optional<double>& value, int width, int decimals) {
    if (value) std::printf("%*.*f", width, decimals, *value); else std::printf("%*s", width, "-");
    return !value;
}

void print_table(const std::vector<BenchRow>& rows) {
    std::printf("%-24s %10s %-10s %7s %-7s %6s %11s %9s %9s %9s %8s\n", "skeleton", "characters", "path", "threads",
                "backend", "frames", "update ms", "min", "max", "us/char", "speedup");
    for (const BenchRow& row : rows) {
        // Speed-up over the single-threaded row of the same count and path.
        std::optional<double> speedup;
        for (const BenchRow& base : rows)
            if (base.characters == row.characters && std::string_view(base.path) == row.path && base.threads == 1 &&
                base.update && row.update && row.update->median > 0)
                speedup = base.update->median / row.update->median;
        std::printf("%-24s %10zu %-10s %7u %-7s %6u", row.skeleton.c_str(), row.characters, row.path, row.threads,
                    row.backend ? row.backend : "-", row.frames);
        if (row.update)
            std::printf(" %11.3f %9.3f %9.3f %9.2f", row.update->median, row.update->min, row.update->max,
                        *optional_per_character(row));
        else
            std::printf(" %11s %9s %9s %9s", "-", "-", "-", "-");
        if (speedup) std::printf(" %7.2fx\n", *speedup); else std::printf(" %8s\n", "-");
    }
    // The renderer's rows: where the frame's time goes, and the GPU time's floors on an H200.
    const char* device = nullptr;
    bool update_in_pack = false, missing = false;
    const BenchRow* offscreen = nullptr;
    const BenchRow* onto = nullptr;
    for (const BenchRow& row : rows) {
        if (!row.frame_ms) continue;
        update_in_pack = update_in_pack || row.update_in_pack;
        if (!row.onto.empty()) onto = &row;
        if (row.offscreen != 0) offscreen = &row;
        if (device == nullptr) {
            std::printf("\n%-24s %10s %-10s %8s %9s %8s %9s %9s %9s %18s %9s\n", "skeleton", "characters", "path",
                        "pack ms", "record ms", "GPU ms", "(skin ms)", "frame ms", "bytes/chr", "floors: vtx, fill",
                        "cpu/this");
            device = row.device ? row.device->c_str() : "";
        }
        std::printf("%-24s %10zu %-10s", row.skeleton.c_str(), row.characters, row.path);
        missing |= print_cell(row.pack_ms, 9, 3);
        missing |= print_cell(row.record_ms, 10, 3);
        missing |= print_cell(row.gpu_ms, 9, 3);
        missing |= print_cell(row.skin_ms, 10, 3);
        missing |= print_cell(row.frame_ms, 10, 3);
        missing |= print_cell(row.bytes_per_character, 10, 0);
        missing |= print_cell(row.vertex_floor_ms, 9, 3);
        std::printf(",");
        missing |= print_cell(row.fill_floor_ms, 9, 3);
        if (row.cpu_frame_ratio) std::printf(" %8.2fx\n", *row.cpu_frame_ratio); else std::printf(" %9s\n", "-");
    }
    if (device != nullptr) std::printf("on %s%s\n", device, missing ? " (-: not measured)" : "");
    if (std::any_of(rows.begin(), rows.end(), [](const BenchRow& row) { return row.cpu_frame_ratio.has_value(); }))
        std::printf("(cpu/this: the cpu path's frame ms over the row's, same characters)\n");
    if (update_in_pack) std::printf("(--update-in-pack: pack ms includes the runtime update)\n");
    if (onto != nullptr)
        std::printf("(--onto %s: drawn onto an RGBA8 %s image of the bench's own device, as an application's)\n",
                    onto->onto.c_str(), onto->onto == "srgb" ? "sRGB" : "UNORM");
    if (offscreen != nullptr)
        std::printf("(--offscreen %u: that many more characters outside the view; the last frame culled %u and the "
                    "update passed over %u)\n",
                    offscreen->offscreen, offscreen->culled.value_or(0), offscreen->passed_over.value_or(0));
    // On a shared virtual machine, the time the host gave to other machines while the rows ran.
    std::optional<double> most_steal;
    for (const BenchRow& row : rows)
        if (row.steal_percent) most_steal = std::max(most_steal.value_or(0.0), *row.steal_percent);
    if (most_steal) std::printf("\nhost steal time: at most %.1f%% of CPU time during a row's frames\n", *most_steal);
}

std::vector<std::string_view> split_commas(std::string_view text) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        parts.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) return parts;
        start = comma + 1;
    }
}

std::string file_stem(const std::string& path) {
    const std::size_t slash = path.find_last_of("/\\");
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.find_last_of('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

int usage(const std::string& message) {
    std::fprintf(stderr, "spinegpu bench: %s\n%s", message.c_str(), command_usage("bench"));
    return 2;
}

}  // namespace

int run_bench(int argc, char** argv) {
    std::string error;
    std::optional<CliArgs> args = CliArgs::parse(argc, argv, 2, *command_options("bench"), error);
    if (!args) return usage(error);
    if (!args->positional().empty()) return usage("unexpected argument \"" + args->positional()[0] + "\"");
    const std::optional<std::string> skeleton_path = args->get("--skeleton");
    const std::optional<std::string> atlas_path = args->get("--atlas");
    const std::optional<std::string> counts_text = args->get("--characters");
    if (!skeleton_path || !atlas_path || !counts_text)
        return usage("--skeleton, --atlas and --characters are required");

    std::vector<std::size_t> counts;
    for (std::string_view part : split_commas(*counts_text)) {
        const std::optional<std::uint32_t> n = parse_whole(std::string(part), 1, 10'000'000);
        if (!n)
            return usage("--characters needs whole numbers from 1 to 10000000 separated by commas, got \"" +
                         *counts_text + "\"");
        counts.push_back(*n);
    }

    BenchSetup setup;
    setup.skeleton_name = file_stem(*skeleton_path);
    if (std::optional<std::string> text = args->get("--frames")) {
        const std::optional<std::uint32_t> n = parse_whole(text, 1, 1'000'000);
        if (!n) return usage("--frames needs a positive integer, got \"" + *text + "\"");
        setup.frames = *n;
    }
    setup.threads = std::max(1u, std::thread::hardware_concurrency());
    if (std::optional<std::string> text = args->get("--threads")) {
        const std::optional<std::uint32_t> n = parse_whole(text, 1, 1024);
        if (!n) return usage("--threads needs an integer from 1 to 1024, got \"" + *text + "\"");
        setup.threads = *n;
    }
    if (std::optional<std::string> text = args->get("--backend")) {
        if (*text == "pool") setup.backend = ThreadBackend::pool;
        else if (*text == "tbb") setup.backend = ThreadBackend::tbb;
        else return usage("--backend is pool or tbb, got \"" + *text + "\"");
        if (!has_thread_backend(setup.backend)) return usage("--backend " + *text + ": this build has no oneTBB");
    }
    if (args->has("--width") != args->has("--height")) return usage("--width and --height go together");
    for (const char* flag : {"--width", "--height"}) {
        if (std::optional<std::string> text = args->get(flag)) {
            const std::optional<std::uint32_t> n = parse_whole(text, 1, 16384);
            if (!n) return usage(std::string(flag) + " needs an integer from 1 to 16384, got \"" + *text + "\"");
            (std::string_view(flag) == "--width" ? setup.width : setup.height) = *n;
        }
    }
    if (std::optional<std::string> text = args->get("--character-pixels")) {
        const std::optional<std::uint32_t> n = parse_whole(text, 1, 4096);
        if (!n) return usage("--character-pixels needs an integer from 1 to 4096, got \"" + *text + "\"");
        setup.character_pixels = static_cast<float>(*n);
    }
    if (std::optional<std::string> text = args->get("--offscreen")) {
        const std::optional<std::uint32_t> n = parse_whole(text, 0, 10'000'000);
        if (!n) return usage("--offscreen needs an integer from 0 to 10000000, got \"" + *text + "\"");
        setup.offscreen = *n;
    }
    if (std::optional<std::string> text = args->get("--walk")) {
        const std::optional<std::uint32_t> n = parse_whole(text, 0, 100'000);
        if (!n) return usage("--walk needs an integer from 0 to 100000 (pixels a second), got \"" + *text + "\"");
        setup.walk_pixels = static_cast<float>(*n);
    }
    if (std::optional<std::string> text = args->get("--onto")) {
        if (*text != "unorm" && *text != "srgb") return usage("--onto is unorm or srgb, got \"" + *text + "\"");
        setup.onto = *text;
    }

    // The paths asked for, in the table's order; each must be known and built.
    std::vector<const PathEntry*> paths;
    const std::string paths_text = args->get("--paths").value_or("update");
    for (std::string_view name : split_commas(paths_text)) {
        const PathEntry* found = nullptr;
        for (const PathEntry& entry : k_paths)
            if (name == entry.name) found = &entry;
        if (!found)
            return usage("unknown path \"" + std::string(name) +
                         "\" in --paths (paths: update, gpu, cpu, gpu-vertex, gpu-tiles)");
        if (!found->run) return usage("path " + std::string(name) + ": " + found->missing);
        if (std::find(paths.begin(), paths.end(), found) == paths.end()) paths.push_back(found);
    }
    // The renderer's options mean nothing to the runtime update alone: say so (a warning, since the contract's
    // grammar allows them) rather than ignore them silently.
    if (paths.size() == 1 && paths[0] == &k_paths[0])
        for (const char* flag : {"--width", "--device", "--character-pixels", "--update-in-pack", "--offscreen",
                                 "--skip-offscreen", "--walk", "--onto"})
            if (args->has(flag))
                std::fprintf(stderr, "spinegpu bench: warning: %s is ignored: it is for the renderer's paths (gpu, "
                                     "cpu, gpu-vertex, gpu-tiles), and --paths update times the runtime alone\n", flag);

    setup.device = args->get("--device").value_or("");
    PageBudget budget;
    Result<SkeletonAssets> assets = load_skeleton_assets(*skeleton_path, *atlas_path, budget);
    if (!assets) {
        std::fprintf(stderr, "spinegpu bench: %s\n", assets.error().message().c_str());
        return 1;
    }
    setup.data = &assets->data;
    if (std::optional<std::string> name = args->get("--skin")) {
        setup.skin = assets->data.skin_names.find(*name);
        if (setup.skin == k_none) {
            std::fprintf(stderr, "spinegpu bench: %s: --skin: %s\n", skeleton_path->c_str(),
                         unknown_name("skin", *name, assets->data.skin_names).c_str());
            return 1;
        }
    }
    for (const PathEntry* path : paths)
        if (path->name == std::string_view("gpu-vertex")) {
            // (Refused before any path is timed, not after the others have run.)
            if (analyze_features(assets->data).draw_order) {
                std::fprintf(stderr, "spinegpu bench: %s: path gpu-vertex: the vertex-shader path cannot follow "
                                     "draw-order timelines; leave it out of --paths\n", skeleton_path->c_str());
                return 1;
            }
            warn_if_drawn_unclipped("bench", *skeleton_path, assets->data, gpu::RenderPath::gpu_vertex);
        }
    setup.atlas = &assets->atlas;
    setup.binding = &assets->binding;
    setup.pages = &assets->pages;

    const bool json = args->has("--json");
    setup.update_in_pack = args->has("--update-in-pack");
    setup.skip_offscreen = args->has("--skip-offscreen");
    std::vector<BenchRow> rows;
    for (std::size_t count : counts) {
        const std::size_t first = rows.size();
        for (const PathEntry* path : paths) {
            if (!path->run(setup, count, rows, error)) {
                // The rows measured so far are printed first: a later path's failure does not waste them.
                set_cpu_frame_ratios(std::span(rows).subspan(first));
                if (json)
                    for (std::size_t i = first; i < rows.size(); ++i) print_json_row(rows[i]);
                else if (!rows.empty())
                    print_table(rows);
                std::fflush(stdout);
                std::fprintf(stderr, "spinegpu bench: path %s, %zu characters: %s\n", path->name, count, error.c_str());
                return 1;
            }
        }
        set_cpu_frame_ratios(std::span(rows).subspan(first));
        if (json)
            for (std::size_t i = first; i < rows.size(); ++i) print_json_row(rows[i]);
        std::fflush(stdout);
        // A crowd that draws nothing times nothing worth timing (mix-and-match in its default skin, which is empty).
        if (first == 0 &&
            std::any_of(rows.begin(), rows.end(), [](const BenchRow& r) { return r.triangles == std::uint64_t{0}; }))
            std::fprintf(stderr, "spinegpu bench: warning: %s: the characters draw no triangle (no attachment shows in "
                                 "%s); --skin names another\n", skeleton_path->c_str(),
                         args->has("--skin") ? "that skin" : "the default skin");
    }
    if (!json) print_table(rows);
    return 0;
}

}  // namespace spinegpu::tools
