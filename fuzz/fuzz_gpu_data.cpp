// libFuzzer target: whatever the skeleton loaders accept, the GPU layer's CPU side must handle without a crash, an
// out-of-bounds access, undefined behaviour or a leak: binding to an atlas, the bind form (build_static_skeleton),
// culling, frame packing and the CPU path's vertices, for the setup pose and a few frames of two animations. The
// atlas is made here from the skeleton's own region names (every frame of every sequence), on one page, every
// third region rotated, so that binding succeeds and what follows runs. No Vulkan device is opened.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_skeleton_input.hpp"

#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/core/name_table.hpp"
#include "spinegpu/gpu/cpu_path.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/runtime/animation_state.hpp"

namespace {

using namespace spinegpu;

constexpr std::size_t k_most_regions = 2048;  // inputs needing more are skipped, so that one input stays fast

// The entry of `table` at `index`, or "" when there is none.
std::string_view name_at(const NameTable& table, Index index) {
    if (index < 0 || static_cast<std::size_t>(index) >= table.size()) return {};
    return table[index];
}

// Atlas text with an 8x8 region for every name binding will look up (sequence_frame_path for the frames of a
// sequence), or "" when there would be too many or binding would refuse the skeleton anyway.
std::string atlas_for(const SkeletonData& data) {
    std::set<std::string> names;
    for (const AttachmentData& a : data.attachments) {
        if (a.type != AttachmentType::region && a.type != AttachmentType::mesh) continue;
        const Index name = a.spine_name != k_none ? a.spine_name : a.name;
        std::string path(a.path != k_none ? name_at(data.attachment_paths, a.path)
                                          : name_at(data.attachment_names, name));
        std::int32_t frames = 1;
        const SequenceData* sequence = nullptr;
        if (a.sequence >= 0 && static_cast<std::size_t>(a.sequence) < data.sequences.size()) {
            sequence = &data.sequences[static_cast<std::size_t>(a.sequence)];
            if (sequence->digits > 255) return "";  // binding refuses it
            frames = std::clamp(sequence->count, 1, static_cast<std::int32_t>(k_most_regions));
        }
        for (std::int32_t f = 0; f < frames; ++f) {
            std::string name = sequence ? sequence_frame_path(path, *sequence, f) : path;
            // The atlas format has one name per line with no leading spaces: other names cannot be written.
            if (name.empty() || name.find_first_of("\n\r:") != std::string::npos || name.front() == ' ') return "";
            names.insert(std::move(name));
            if (names.size() > k_most_regions) return "";
        }
    }
    std::string text = "page.png\nsize: 512, 512\nfilter: Linear, Linear\n";
    std::size_t i = 0;
    for (const std::string& name : names) {
        const std::size_t x = (i % 64) * 8, y = (i / 64) * 8;
        text += name + "\nbounds: " + std::to_string(x) + ", " + std::to_string(y) + ", 8, 8\n";
        if (i % 3 == 2) text += "rotate: 90\n";
        ++i;
    }
    return text;
}

// Culls, packs and builds the CPU path's vertices for `pose`.
void draw_on_the_cpu(const gpu::StaticSkeleton& type, const AtlasBinding& binding, const SkeletonPose& pose,
                     std::uint32_t max_words, std::vector<float>& bones, std::vector<std::uint32_t>& words,
                     std::vector<gpu::GpuOutVertex>& vertices, std::vector<std::uint32_t>& indices,
                     std::vector<float>& scratch) {
    (void)gpu::character_in_view(type, pose, gpu::WorldRect{-100, -100, 100, 100});
    gpu::GpuCharacter header{};
    bones.assign(std::max<std::size_t>(type.drawn_bones.size() * 6, 1), 0.0f);
    words.assign(std::max<std::uint32_t>(max_words, 1), 0u);
    (void)gpu::pack_character_at(type, 0, pose, Color{}, header, bones.data(), 0, words.data(), 0);
    const gpu::CpuPathCounts counts = gpu::count_cpu_vertices(type, pose);
    vertices.resize(std::max<std::uint32_t>(counts.vertices, 1));
    indices.resize(std::max<std::uint32_t>(counts.indices, 1));
    scratch.resize(std::max<std::uint32_t>(type.max_vertex_floats, 1));
    (void)gpu::build_cpu_vertices(type, binding, pose, Color{}, 0, vertices.data(), indices.data(), scratch);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    Result<SkeletonData> loaded = load_fuzz_skeleton(bytes, size);
    if (!loaded) return 0;
    const SkeletonData& data = *loaded;
    const std::string atlas_text = atlas_for(data);
    if (atlas_text.empty()) return 0;
    Result<Atlas> atlas = parse_atlas(atlas_text, "fuzz.atlas");
    if (!atlas) return 0;
    Result<AtlasBinding> binding = bind_atlas(data, *atlas);
    if (!binding) return 0;
    const gpu::PagePlacement page{0, 1, 1};
    Result<gpu::StaticSkeleton> type = gpu::build_static_skeleton(data, *atlas, *binding, {&page, 1}, "fuzz");
    if (!type) return 0;
    const std::uint32_t max_words = gpu::max_words_per_character(*type, data);
    (void)gpu::packed_bytes_per_character(*type, data);

    std::vector<float> bones, scratch;
    std::vector<std::uint32_t> words, indices;
    std::vector<gpu::GpuOutVertex> vertices;
    SkeletonPose pose = create_pose(data);
    if (!data.skins.empty()) set_skin(pose, static_cast<Index>(data.skins.size() - 1));
    set_to_setup_pose(pose);
    update_world_transform(pose, Physics::update);
    draw_on_the_cpu(*type, *binding, pose, max_words, bones, words, vertices, indices, scratch);
    for (std::size_t animation = 0; animation < std::min<std::size_t>(data.animations.size(), 2); ++animation) {
        AnimationState state(data);
        state.set_animation(0, static_cast<Index>(animation), true);
        for (int frame = 0; frame < 4; ++frame) {
            state.update(1.0 / 20);
            state.apply(pose);
            update_time(pose, 1.0 / 20);
            update_world_transform(pose, Physics::update);
            draw_on_the_cpu(*type, *binding, pose, max_words, bones, words, vertices, indices, scratch);
        }
    }
    return 0;
}
