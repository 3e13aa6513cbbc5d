// Helpers for the renderer tests: see renderer_test_support.hpp.
#include "renderer_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu::test {

using namespace spinegpu::gpu;

std::unique_ptr<Renderer> create_renderer(std::string& skip_reason) {
    RendererDesc desc;
    desc.validation = true;
    return create_renderer(desc, skip_reason);
}

std::unique_ptr<Renderer> create_renderer(const RendererDesc& desc, std::string& skip_reason) {
    Result<std::unique_ptr<Renderer>> r = Renderer::create(desc);
    if (r) return std::move(*r);
    const Error& e = r.error();
    if (e.file == "vulkan" && (e.where == "instance" || e.where == "devices" || e.where == "vkCreateInstance"))
        skip_reason = e.message();
    else
        ADD_FAILURE() << e.message();
    return nullptr;
}

std::unique_ptr<Renderer> create_renderer_with(const char* name, const char* value, std::string& skip_reason) {
    setenv(name, value, 1);
    std::unique_ptr<Renderer> renderer = create_renderer(skip_reason);
    unsetenv(name);
    return renderer;
}

std::unique_ptr<DrawableType> load_drawable(const std::string& skeleton, const std::string& atlas) {
    auto out = std::make_unique<DrawableType>();
    out->loaded = load_skeleton_and_atlas(skeleton, atlas);
    if (!out->loaded) return nullptr;
    for (std::size_t i = 0; i < out->loaded->atlas.pages.size(); ++i) {
        Result<Image> image = load_image_file(atlas_page_path(out->loaded->atlas, static_cast<Index>(i)));
        if (!image) {
            ADD_FAILURE() << image.error().message();
            return nullptr;
        }
        out->pages.push_back(std::move(*image));
    }
    return out;
}

Result<std::uint32_t> add_type(Renderer& renderer, DrawableType& drawable, const std::string& name) {
    return renderer.add_skeleton_type(drawable.loaded->data, drawable.loaded->atlas, drawable.loaded->binding,
                                      std::move(drawable.pages), name);
}

std::optional<AddedType> load_type(Renderer& renderer, const std::string& skeleton, const std::string& atlas,
                                   const std::string& name) {
    AddedType out{load_drawable(skeleton, atlas)};
    if (!out.drawable) {
        ADD_FAILURE() << "cannot load " << skeleton;
        return std::nullopt;
    }
    Result<std::uint32_t> type = add_type(renderer, *out.drawable, name);
    if (!type) {
        ADD_FAILURE() << type.error().message();
        return std::nullopt;
    }
    out.type = *type;
    return out;
}

Camera2D fit(const SkeletonPose& pose, const AtlasBinding& binding) {
    float x = 0, y = 0, w = 0, h = 0;
    if (!skeleton_bounds(pose, binding, x, y, w, h)) return {1, k_width / 2.0f, k_height / 2.0f};
    const float scale = 0.9f * std::min(k_width / std::max(w, 1.0f), k_height / std::max(h, 1.0f));
    return {scale, k_width / 2.0f - scale * (x + w / 2), k_height / 2.0f + scale * (y + h / 2)};
}

bool off_background(const Image& image, std::size_t index) {
    const float bg[4] = {k_background.r, k_background.g, k_background.b, k_background.a};
    for (std::size_t k = 0; k < 4; ++k)
        if (std::abs(static_cast<float>(image.rgba[index * 4 + k]) - bg[k] * 255.0f) > 1.5f) return true;
    return false;
}

std::uint32_t pixels_off_background(const Image& image) {
    std::uint32_t count = 0;
    for (std::size_t p = 0; p < image.rgba.size() / 4; ++p) count += off_background(image, p) ? 1 : 0;
    return count;
}

void expect_no_validation_messages(const Renderer& renderer) {
    EXPECT_EQ(renderer.validation_messages(), 0u) << renderer.first_validation_message();
}

std::uint32_t path_differences(Renderer& renderer, std::span<const CharacterDraw> characters, const Camera2D& camera,
                               RenderPath other, std::uint32_t& drawn, std::uint64_t& shaded) {
    std::vector<Image> images;
    for (RenderPath path : {RenderPath::gpu, other}) {
        Result<FrameStats> frame = renderer.draw(characters, camera, k_width, k_height, k_background, path);
        EXPECT_TRUE(frame.ok()) << frame.error().message();
        if (!frame) return ~0u;
        Result<FrameStats> done = renderer.finish();
        if (path == other && done) shaded = done->fragments;
        Result<Image> image = renderer.read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        if (!image) return ~0u;
        images.push_back(std::move(*image));
    }
    drawn = pixels_off_background(images[0]);
    std::uint32_t differing = 0;
    for (std::size_t i = 0; i < images[0].rgba.size(); ++i)
        if (std::abs(int(images[0].rgba[i]) - int(images[1].rgba[i])) > 2) ++differing;
    return differing;
}

void spineboy_crowd(const AddedType& spineboy, std::vector<std::unique_ptr<Player>>& players,
                    std::vector<CharacterDraw>& characters) {
    const SkeletonData& data = spineboy.data();
    const char* animations[] = {"run", "shoot", "walk", "portal"};
    for (int i = 0; i < 40; ++i) {
        players.push_back(std::make_unique<Player>(data, k_none, data.animation_names.find(animations[i % 4])));
        for (int s = 0; s <= i % 7; ++s) players.back()->step(1.0 / 30);
        players.back()->pose.x = static_cast<float>((i % 8) * 90 - 320);
        players.back()->pose.y = static_cast<float>((i / 8) * 60 - 120);
        update_world_transform(players.back()->pose, Physics::pose);
        const float shade = 0.5f + 0.5f * static_cast<float>(i % 3) / 2.0f;
        characters.push_back(
            {&players.back()->pose, spineboy.type, Color{1, shade, shade, i % 5 == 0 ? 0.6f : 1.0f}});
    }
}

std::optional<SpineboyCrowd> load_spineboy_crowd(Renderer& renderer) {
    std::optional<AddedType> spineboy =
        load_type(renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    if (!spineboy) return std::nullopt;
    SpineboyCrowd crowd;
    crowd.spineboy = std::move(*spineboy);
    spineboy_crowd(crowd.spineboy, crowd.players, crowd.characters);
    return crowd;
}

std::unique_ptr<TextSkeleton> load_text_skeleton(const std::string& json, const std::string& file,
                                                 const std::string& atlas_text, const std::string& atlas_file) {
    Result<SkeletonData> data = load_skeleton_json(json, file);
    Result<Atlas> atlas = parse_atlas(atlas_text, atlas_file);
    EXPECT_TRUE(data.ok()) << data.error().message();
    EXPECT_TRUE(atlas.ok()) << atlas.error().message();
    if (!data || !atlas) return nullptr;
    auto loaded = std::make_unique<TextSkeleton>(TextSkeleton{std::move(*data), std::move(*atlas), {}, {}});
    Result<AtlasBinding> binding = bind_atlas(loaded->data, loaded->atlas);
    EXPECT_TRUE(binding.ok()) << binding.error().message();
    if (!binding) return nullptr;
    loaded->binding = std::move(*binding);
    loaded->pose = create_pose(loaded->data);
    update_world_transform(loaded->pose, Physics::none);
    return loaded;
}

std::vector<Image> white_pages(std::size_t count, std::uint32_t size) {
    std::vector<Image> pages(count);
    for (Image& page : pages) {
        page.width = page.height = size;
        page.rgba.assign(std::size_t{size} * size * 4, 255);
    }
    return pages;
}

DrawnGeometry read_geometry(Renderer& renderer, const std::string& where) {
    Result<DrawnGeometry> read = renderer.read_back_geometry();
    EXPECT_TRUE(read.ok()) << where << ": " << read.error().message();
    return read.ok() ? std::move(*read) : DrawnGeometry{};
}

float expect_same_geometry(const DrawnGeometry& got, const DrawnGeometry& want, const std::string& where) {
    EXPECT_EQ(got.vertices.size(), want.vertices.size()) << where;
    EXPECT_EQ(got.indices.size(), want.indices.size()) << where;
    if (got.indices != want.indices) {
        const auto at = std::mismatch(got.indices.begin(), got.indices.end(), want.indices.begin(), want.indices.end());
        ADD_FAILURE() << where << ": index " << (at.first - got.indices.begin()) << " differs";
    }
    float most = 0;
    int reported = 0;
    const std::size_t n = std::min(got.vertices.size(), want.vertices.size());
    for (std::size_t v = 0; v < n && reported < 3; ++v) {
        const GpuOutVertex& g = got.vertices[v];
        const GpuOutVertex& w = want.vertices[v];
        const float off = std::max(std::fabs(g.x - w.x), std::fabs(g.y - w.y));
        most = std::max(most, off);
        const bool same_rest = std::memcmp(&g.u, &w.u, sizeof(GpuOutVertex) - offsetof(GpuOutVertex, u)) == 0;
        if (!(off <= k_skinned_position_tolerance) || !same_rest) {
            ++reported;
            ADD_FAILURE() << where << ": vertex " << v << " is (" << g.x << ", " << g.y << ") uv (" << g.u << ", "
                          << g.v << ") light " << std::hex << g.light << " dark " << g.dark << " material "
                          << g.material << std::dec << " clip " << g.clip_first << "; the CPU path's (" << w.x << ", "
                          << w.y << ") uv (" << w.u << ", " << w.v << ") light " << std::hex << w.light << " dark "
                          << w.dark << " material " << w.material << std::dec << " clip " << w.clip_first;
        }
    }
    return most;
}

}  // namespace spinegpu::test
