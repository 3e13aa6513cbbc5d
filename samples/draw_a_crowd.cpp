// draw_a_crowd: a crowd of one skeleton in a grid, each character on one looping animation at its own phase, updated
// on all cores and drawn by the renderer for 30 frames of 1/60 s into a 1280x720 image; the last frame is written to
// OUT.png. PATH picks the renderer's path (gpu, the default, cpu or gpu-tiles). The README quotes the lines between
// the README markers; tests/cli/library_samples_match_the_tool.sh checks that the gpu and cpu paths draw the same
// image.
//
// usage: draw_a_crowd SKELETON ATLAS ANIMATION OUT.png [PATH] [CHARACTERS]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

// README: begin headers
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

using namespace spinegpu;
// README: end

namespace {

// Prints `error` and returns the exit code for a file that could not be used.
int fail(const Error& error) {
    std::fprintf(stderr, "%s\n", error.message().c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5 || argc > 7) {
        std::fprintf(stderr,
                     "usage: draw_a_crowd SKELETON ATLAS ANIMATION OUT.png [gpu|cpu|gpu-tiles] [CHARACTERS]\n");
        return 2;
    }
    const std::string path_name = argc > 5 ? argv[5] : "gpu";
    if (path_name != "gpu" && path_name != "cpu" && path_name != "gpu-tiles") {
        std::fprintf(stderr, "draw_a_crowd: the path is gpu, cpu or gpu-tiles, not \"%s\"\n", path_name.c_str());
        return 2;
    }
    const gpu::RenderPath path = path_name == "cpu"         ? gpu::RenderPath::cpu
                                 : path_name == "gpu-tiles" ? gpu::RenderPath::gpu_tiles
                                                            : gpu::RenderPath::gpu;
    char* end = nullptr;
    const long requested = argc > 6 ? std::strtol(argv[6], &end, 10) : 400;
    if (argc > 6 && (*argv[6] == '\0' || *end != '\0' || requested < 1 || requested > 100000)) {
        std::fprintf(stderr, "draw_a_crowd: CHARACTERS is a whole number from 1 to 100000, not \"%s\"\n", argv[6]);
        return 2;
    }
    const int count = static_cast<int>(requested);

    // README: begin crowd
    Result<SkeletonData> skeleton = load_skeleton_file(argv[1]);
    if (!skeleton) return fail(skeleton.error());
    Result<Atlas> atlas = load_atlas_file(argv[2]);
    if (!atlas) return fail(atlas.error());
    Result<AtlasBinding> binding = bind_atlas(*skeleton, *atlas);     // UVs, offsets, pages per attachment
    if (!binding) return fail(binding.error());
    std::vector<Image> pages;                                          // RGBA8, released by the renderer after upload
    for (std::size_t i = 0; i < atlas->pages.size(); ++i) {
        Result<Image> page = load_image_file(atlas_page_path(*atlas, static_cast<Index>(i)));
        if (!page) return fail(page.error());
        pages.push_back(std::move(*page));
    }
    const Index animation = skeleton->animation_names.find(argv[3]);
    if (animation == k_none) { std::fprintf(stderr, "no animation %s\n", argv[3]); return 1; }

    // The crowd: poses and animation states of any skeleton types, in a grid of cells as large as the skeleton's
    // setup bounds, each character at a random phase of the animation.
    const float cell_w = skeleton->width > 0 ? skeleton->width : 100;
    const float cell_h = skeleton->height > 0 ? skeleton->height : 100;
    const int columns = static_cast<int>(std::ceil(std::sqrt(count * 16.0 / 9.0 * cell_h / cell_w)));
    const int rows = (count + columns - 1) / columns;
    std::mt19937 random(1);
    std::uniform_real_distribution<double> phase(0, skeleton->animations[static_cast<std::size_t>(animation)].duration);
    Crowd crowd;
    crowd.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        CharacterIndex c = crowd.add(*skeleton);
        crowd.pose(c).x = cell_w * static_cast<float>(i % columns) - skeleton->x;   // setup bounds in the cell
        crowd.pose(c).y = cell_h * static_cast<float>(i / columns) - skeleton->y;
        const TrackEntryId entry = crowd.state(c).set_animation(0, animation, /*loop=*/true);
        crowd.state(c).entry(entry)->track_time = phase(random);
    }

    BatchUpdater updater;                              // one thread per core; the same bits for any count
    Result<std::unique_ptr<gpu::Renderer>> renderer = gpu::Renderer::create({});   // a GPU if any, else lavapipe
    if (!renderer) return fail(renderer.error());
    Result<std::uint32_t> type = (*renderer)->add_skeleton_type(*skeleton, *atlas, *binding, std::move(pages), "hero");
    if (!type) return fail(type.error());

    // Back to front: the top row (largest y, farthest away) first.
    std::vector<gpu::CharacterDraw> draws;
    for (auto c = static_cast<CharacterIndex>(crowd.size()); c-- > 0;)
        draws.push_back({&crowd.pose(c), *type, Color{}});
    // The camera: px = ox + scale * x, py = oy - scale * y; the grid fills a 1280 x 720 image.
    const float grid_w = cell_w * static_cast<float>(columns), grid_h = cell_h * static_cast<float>(rows);
    const float scale = std::min(1280 / grid_w, 720 / grid_h);
    const gpu::Camera2D camera{scale, (1280 - scale * grid_w) / 2, 720 - (720 - scale * grid_h) / 2};
    // Characters outside the view are neither posed nor packed: the update passes over those draw() would cull.
    const std::vector<std::uint32_t> types(crowd.size(), *type);   // each character's type, by crowd index
    Result<gpu::OffscreenFilter> offscreen = gpu::OffscreenFilter::create(**renderer, types);   // (finalizes)
    if (!offscreen) return fail(offscreen.error());
    offscreen->set_view(camera, 1280, 720);                        // as the frames are drawn

    for (int frame = 0; frame < 30; ++frame) {
        updater.update(crowd, FrameStep{1.0 / 60, Physics::update, offscreen->filter()},
                       [](CharacterIndex, const StateNotification&) { /* events, after the batch */ });
        Result<gpu::FrameStats> stats = (*renderer)->draw(draws, camera, 1280, 720, Color{0.09f, 0.09f, 0.11f, 1},
                                                          path);
        if (!stats) return fail(stats.error());
    }
    Result<Image> image = (*renderer)->read_back();   // straight-alpha RGBA8
    if (!image) return fail(image.error());
    if (Result<void> written = write_png_file(argv[4], *image); !written) return fail(written.error());
    // README: end
    std::printf("%d characters through the %s path on %s: %s\n", count, path_name.c_str(),
                (*renderer)->device_name().c_str(), argv[4]);
    return 0;
}
