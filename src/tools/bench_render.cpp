// spinegpu bench, paths gpu, cpu, gpu-vertex and gpu-tiles: the whole frame of a crowd, as a game would run it.
// Characters of one skeleton are spread over a width x height view, `character_pixels` tall (64 by default; the camera
// scales the world, skeletons keep scale 1, so IK and physics pose as authored), each with a random looping animation
// at a random phase (make_crowd's seed). Per frame: the runtime update on all threads, then the renderer draws the
// crowd through one path (packing and the CPU path's vertex building on the same threads; with --update-in-pack the
// update runs inside the packing pass, range by range, as a PoseJob), with frames in flight overlapping CPU and GPU.
// Reported per frame (medians): update, pack, record, GPU (timestamps) and frame time, bytes per character, and next
// to the GPU time its two floors on an NVIDIA H200 (DESIGN.md): visible vertices / 1.07 G/s and shaded pixels / 12.3
// G/s.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

#include "bench_host.hpp"
#include "bench_rows.hpp"
#include "host_load.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::tools {
namespace {

// The H200's measured raster limits (DESIGN.md): unique vertices per second and blended pixels per second.
constexpr double k_vertex_rate = 1.07e9;
constexpr double k_fill_rate = 12.3e9;


}  // namespace

bool bench_render(const BenchSetup& setup, std::size_t count, gpu::RenderPath path, std::vector<BenchRow>& rows,
                  std::string& error) {
    gpu::RendererDesc desc;
    desc.device = setup.device;
    // --onto: the renderer is lent a device of the bench's own, on the GPU it would choose itself, and draws onto an
    // image there (made first: it outlives the renderer).
    const Color background{0.1f, 0.1f, 0.12f, 1};
    std::unique_ptr<BenchHost> host;
    if (!setup.onto.empty()) {
        Result<std::unique_ptr<gpu::Renderer>> probe = gpu::Renderer::create(desc);
        if (!probe) {
            error = probe.error().message();
            return false;
        }
        // (The same background bytes as the renderer's own target holds: decoded for an sRGB image, which encodes
        // the clear colour.)
        const bool srgb = setup.onto == "srgb";
        const auto stored = [srgb](float c) {
            return srgb ? (c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f)) : c;
        };
        const VkClearColorValue clear{{stored(background.r), stored(background.g), stored(background.b), background.a}};
        Result<std::unique_ptr<BenchHost>> made_host =
            BenchHost::create((*probe)->device_name(), srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM,
                              setup.width, setup.height, clear);
        if (!made_host) {
            error = made_host.error().message();
            return false;
        }
        host = std::move(*made_host);
        desc = gpu::RendererDesc{};
        desc.host = &host->device();
    }
    Result<std::unique_ptr<gpu::Renderer>> made = gpu::Renderer::create(desc);
    if (!made) {
        error = made.error().message();
        return false;
    }
    gpu::Renderer& renderer = **made;
    std::vector<Image> pages = *setup.pages;  // a copy: the renderer takes the pixels
    Result<std::uint32_t> type = renderer.add_skeleton_type(*setup.data, *setup.atlas, *setup.binding,
                                                            std::move(pages), setup.skeleton_name);
    if (!type) {
        error = type.error().message();
        return false;
    }

    // The view: world units scaled so that a character is about 64 px tall; characters placed with their origin
    // anywhere in it (the lowest 64 px left free), facing either way. --offscreen M more to the right of the view,
    // their origins 20 to 20 + W/P character heights past its right edge (P: --character-pixels), beyond what the
    // culling's bounds reach for the examples (which take in every attachment of the skeleton at its bone's reach).
    const float height = setup_pose_height(*setup.data, *setup.binding, setup.skin);
    const gpu::Camera2D camera{setup.character_pixels / height, 0, static_cast<float>(setup.height)};
    // Back to front: characters higher up the view are farther away. The places are sorted before they are handed
    // out, so that the crowd's order is the draw order (a pose job's ranges are then ranges of the crowd).
    const std::size_t total = count + setup.offscreen;
    Crowd crowd = make_crowd(*setup.data, total, setup.skin);
    std::mt19937 random(k_seed + 1);
    struct Place {
        float x, y;
        float band;  // where its band of width W starts (world x): the view, or the band outside it
        bool flip;
    };
    std::vector<Place> places(total);
    const auto free_height =
        static_cast<std::uint32_t>(std::max(1.0f, static_cast<float>(setup.height) - setup.character_pixels));
    for (std::size_t i = 0; i < total; ++i) {
        Place& place = places[i];
        const float off = i < count ? 0.0f : static_cast<float>(setup.width) + 20 * setup.character_pixels;
        place.x = (off + static_cast<float>(random() % setup.width)) / camera.scale;
        place.band = off / camera.scale;
        place.y = static_cast<float>(random() % free_height) / camera.scale;
        place.flip = random() % 2 != 0;
    }
    std::stable_sort(places.begin(), places.end(), [](const Place& a, const Place& b) { return a.y > b.y; });
    std::vector<gpu::CharacterDraw> draws;
    draws.reserve(total);
    for (std::size_t i = 0; i < total; ++i) {
        SkeletonPose& pose = crowd.poses()[i];
        pose.x = places[i].x;
        pose.y = places[i].y;
        if (places[i].flip) pose.scale_x = -1;
        draws.push_back({&pose, *type, Color{}});
    }

    BatchUpdater updater(BatchDesc{setup.threads, setup.backend, 0});
    // One set of threads for the update and the renderer, as an application would have: the updater's pool, or (with
    // oneTBB, whose threads the renderer cannot use, or one thread) a pool of the renderer's own.
    std::unique_ptr<WorkerPool> own_pool;
    if (updater.worker_pool() == nullptr) own_pool = std::make_unique<WorkerPool>(setup.threads);
    renderer.set_worker_pool(own_pool ? own_pool.get() : updater.worker_pool());
    // --skip-offscreen: the update passes over what the draw culls (every character is of this one type).
    const std::vector<std::uint32_t> types(total, *type);
    Result<gpu::OffscreenFilter> offscreen = gpu::OffscreenFilter::create(renderer, types);
    if (!offscreen) {
        error = offscreen.error().message();
        return false;
    }
    offscreen->set_view(camera, setup.width, setup.height);
    const FrameStep step{k_dt, Physics::update, setup.skip_offscreen ? offscreen->filter() : PoseFilter{}};
    auto ignore = [](CharacterIndex, const StateNotification&) {};
    // --update-in-pack: the renderer updates each range of characters just before packing it.
    struct PoseContext {
        Crowd* crowd;
        FrameStep step;
        std::span<const CharacterIndex> order;  // the PoseJob's order: the same span
    } pose_context{&crowd, step, {}};
    // The job follows the crowd's update order (the draw list is in crowd order), refreshed before each draw.
    const gpu::PoseJob pose_job{[](void* raw, std::size_t begin, std::size_t end) {
                                    auto& x = *static_cast<PoseContext*>(raw);
                                    update_in_order(*x.crowd, x.order, begin, end, x.step);
                                },
                                &pose_context, {}};
    gpu::PoseJob poses = setup.update_in_pack ? pose_job : gpu::PoseJob{};
    auto refresh_order = [&] {
        if (!setup.update_in_pack) return;
        crowd.update_order().refresh(crowd.size());
        poses.order = pose_context.order = crowd.update_order().characters();
    };
    // --walk P: before each frame's update, every character steps the way it faces (scale_x -1: left), P pixels a
    // second, and comes back in at the other end of its band as it leaves it. Not timed.
    const float band_width = static_cast<float>(setup.width) / camera.scale;
    const float stride = setup.walk_pixels * static_cast<float>(k_dt) / camera.scale;
    auto walk = [&] {
        if (stride == 0) return;
        for (std::size_t i = 0; i < total; ++i) {
            SkeletonPose& pose = crowd.poses()[i];
            float x = std::fmod(pose.x + (pose.scale_x < 0 ? -stride : stride) - places[i].band, band_width);
            if (x < 0) x += band_width;
            pose.x = places[i].band + x;
        }
    };
    // One frame into the renderer's target, or onto the image of --onto.
    const auto draw_frame = [&] {
        return host ? renderer.draw_onto(host->image(), draws, camera, path, poses)
                    : renderer.draw(draws, camera, setup.width, setup.height, background, path, poses);
    };
    std::vector<double> update_ms, pack_ms, record_ms, gpu_ms, skin_ms, frame_ms;
    double bytes_per_character = 0, vertices = 0, triangles = 0, pixels = 0;
    std::uint32_t culled = 0, passed_over = 0;
    const std::uint32_t frames = k_warm_up_frames + setup.frames;
    auto frame_start = std::chrono::steady_clock::now();
    std::optional<CpuTicks> ticks_before;
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        if (frame == k_warm_up_frames) ticks_before = read_cpu_ticks();
        walk();
        const auto start = std::chrono::steady_clock::now();
        if (!setup.update_in_pack) updater.update(crowd, step, ignore);
        refresh_order();
        const double update =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        Result<gpu::FrameStats> stats = draw_frame();
        if (setup.update_in_pack) deliver_events(crowd, ignore);  // (the batch updater delivers them itself)
        if (!stats) {
            error = stats.error().message();
            return false;
        }
        const auto now = std::chrono::steady_clock::now();
        if (frame >= k_warm_up_frames) {
            update_ms.push_back(update);
            pack_ms.push_back(stats->pack_ms);
            record_ms.push_back(stats->record_ms);
            frame_ms.push_back(std::chrono::duration<double, std::milli>(now - frame_start).count());
        }
        frame_start = now;
    }
    const std::optional<double> steal = steal_percent(ticks_before, read_cpu_ticks());
    // GPU time: frames waited for one at a time, so that each one's timestamps are read (the frames above overlap).
    for (std::uint32_t frame = 0; frame < std::min<std::uint32_t>(setup.frames, 30); ++frame) {
        walk();
        if (!setup.update_in_pack) updater.update(crowd, step, ignore);
        refresh_order();
        Result<gpu::FrameStats> drawn = draw_frame();
        if (setup.update_in_pack) deliver_events(crowd, ignore);
        Result<gpu::FrameStats> stats = drawn ? renderer.finish() : drawn;
        if (!stats) {
            error = stats.error().message();
            return false;
        }
        if (stats->gpu_ms >= 0) gpu_ms.push_back(stats->gpu_ms);
        if (stats->skin_ms >= 0) skin_ms.push_back(stats->skin_ms);
        bytes_per_character = stats->characters ? static_cast<double>(stats->bytes_uploaded) / stats->characters : 0;
        vertices = stats->vertices;
        triangles = stats->triangles;
        culled = stats->culled;
        passed_over = static_cast<std::uint32_t>(std::count_if(
            crowd.poses().begin(), crowd.poses().end(), [](const SkeletonPose& p) { return p.posed_at.skipped; }));
        pixels = static_cast<double>(stats->fragments);
    }
    if (renderer.validation_messages() != 0) {
        error = "validation: " + renderer.first_validation_message();
        return false;
    }

    BenchRow row;
    row.skeleton = setup.skeleton_name;
    row.characters = count;
    row.path = path == gpu::RenderPath::gpu         ? "gpu"
               : path == gpu::RenderPath::cpu       ? "cpu"
               : path == gpu::RenderPath::gpu_tiles ? "gpu-tiles"
                                                    : "gpu-vertex";
    row.threads = setup.threads;
    row.frames = setup.frames;
    if (!setup.update_in_pack) row.update = summarise(update_ms);
    row.update_in_pack = setup.update_in_pack;
    row.offscreen = setup.offscreen;
    row.skip_offscreen = setup.skip_offscreen;
    row.walk_pixels = setup.walk_pixels;
    row.onto = setup.onto;
    row.culled = culled;
    row.passed_over = passed_over;
    row.pack_ms = summarise(pack_ms).median;
    row.record_ms = summarise(record_ms).median;
    if (!gpu_ms.empty()) row.gpu_ms = summarise(gpu_ms).median;
    if (!skin_ms.empty()) row.skin_ms = summarise(skin_ms).median;
    row.frame_ms = summarise(frame_ms).median;
    row.bytes_per_character = bytes_per_character;
    row.device = renderer.device_name();
    row.steal_percent = steal;
    // (With the update in the packing pass, it runs on the renderer's worker pool, whatever --backend says.)
    row.backend = thread_backend_name(setup.update_in_pack ? ThreadBackend::pool : setup.backend);
    row.vertex_floor_ms = vertices / k_vertex_rate * 1e3;
    row.vertices = static_cast<std::uint64_t>(vertices);
    row.triangles = static_cast<std::uint64_t>(triangles);
    if (pixels > 0) {
        row.fill_floor_ms = pixels / k_fill_rate * 1e3;
        row.fragments = static_cast<std::uint64_t>(pixels);
    }
    rows.push_back(std::move(row));
    return true;
}

}  // namespace spinegpu::tools
