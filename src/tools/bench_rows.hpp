// What the paths of `spinegpu bench` share (bench_command.cpp runs them, bench_render.cpp holds the gpu, cpu and
// gpu-vertex paths): the setup, the crowd, and the measured row (DESIGN.md's "Performance" JSON row).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::tools {

inline constexpr std::uint32_t k_seed = 1234;
inline constexpr double k_dt = 1.0 / 60;
inline constexpr std::uint32_t k_warm_up_frames = 20;

// What every path needs: the loaded skeleton and the options.
struct BenchSetup {
    std::string skeleton_name;  // the skeleton file's name without folder and extension
    const SkeletonData* data = nullptr;
    const Atlas* atlas = nullptr;
    const AtlasBinding* binding = nullptr;
    const std::vector<Image>* pages = nullptr;  // the atlas's page images (render paths only)
    std::uint32_t frames = 120;
    unsigned threads = 1;  // the multi-threaded rows' thread count
    ThreadBackend backend = ThreadBackend::pool;
    std::uint32_t width = 1920, height = 1080;  // the view of the render paths
    std::string device;                         // Vulkan device name filter ("" : any)
    Index skin = k_none;                        // every character's skin (k_none: the default skin alone)
    float character_pixels = 64;                // characters' height on screen (render paths)
    bool update_in_pack = false;  // render paths: the update runs inside the renderer's packing pass (PoseJob)
    std::uint32_t offscreen = 0;  // render paths: characters placed outside the view, besides the N in it
    bool skip_offscreen = false;  // render paths: the update passes over the characters outside the view
    float walk_pixels = 0;        // render paths: how fast characters walk the way they face, pixels a second
    // Render paths, --onto: "unorm" or "srgb", drawn onto an RGBA8 image of that form on a device of the bench's own
    // (bench_host.hpp), or "" (into the renderer's own target).
    std::string onto;
};

// Frame times in milliseconds, summarised.
struct Timing {
    double median = 0, min = 0, max = 0;
};

// One measured row (DESIGN.md's JSON row); empty optionals print as null.
struct BenchRow {
    std::string skeleton;
    std::size_t characters = 0;
    const char* path = "";
    unsigned threads = 1;
    std::uint32_t frames = 0;
    std::optional<Timing> update;  // runtime update of all characters
    std::optional<double> pack_ms, record_ms, gpu_ms, frame_ms, bytes_per_character;
    std::optional<double> skin_ms;  // the part of gpu_ms spent before the draw (the places and skinning passes)
    // The GPU time's floors on an NVIDIA H200 (DESIGN.md): vertices through the rasterizer / 1.07 G/s, shaded
    // pixels / 12.3 G/s.
    std::optional<double> vertex_floor_ms, fill_floor_ms;
    std::optional<std::uint64_t> vertices, triangles, fragments;
    // The CPU path's frame time over this row's, for the renderer's rows of a count the cpu path also ran (DESIGN.md:
    // the ratio CPU path / GPU path).
    std::optional<double> cpu_frame_ratio;
    std::optional<std::string> device;
    const char* backend = nullptr;  // thread back-end of the update, or null
    bool update_in_pack = false;    // the update ran inside packing: pack_ms holds both, update is empty
    std::uint32_t offscreen = 0;    // characters outside the view besides `characters` (updated, culled)
    bool skip_offscreen = false;    // the update passed over the characters outside the view (gpu::OffscreenFilter)
    float walk_pixels = 0;          // characters walked the way they face, this many pixels a second
    std::string onto;               // BenchSetup::onto: the application's image the frames were drawn onto, or ""
    std::optional<std::uint32_t> culled;       // characters culled in the last frame measured
    std::optional<std::uint32_t> passed_over;  // characters the update passed over in that frame
    // The host's steal time over the timed frames, in percent of all CPU time (host_load.hpp); empty off Linux.
    std::optional<double> steal_percent;
};

// Median, min and max of `ms` (sorts it). Precondition: not empty.
Timing summarise(std::vector<double>& ms);

// A crowd of `count` characters of the skeleton, each playing a random animation (looping) from a random phase,
// in skin `skin` (k_none: the default skin alone). The same seed gives the same crowd, so rows with different thread
// counts time the same work.
Crowd make_crowd(const SkeletonData& data, std::size_t count, Index skin);

// Paths gpu, cpu and gpu-vertex: the whole frame of `count` characters through the renderer (bench_render.cpp).
// Appends one row; false with `error` set on failure.
bool bench_render(const BenchSetup& setup, std::size_t count, gpu::RenderPath path, std::vector<BenchRow>& rows,
                  std::string& error);

}  // namespace spinegpu::tools
