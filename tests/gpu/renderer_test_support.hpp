// Helpers for the tests that draw through the renderer on a real device (renderer_test.cpp,
// tile_rasterizer_test.cpp): a renderer with validation (or the test's skip when there is no device), example
// skeletons added as types, a crowd of spineboys, and image comparisons against the background and between paths.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {

// The target every renderer test draws into, and its background.
inline constexpr std::uint32_t k_width = 160, k_height = 160;
inline const Color k_background{0.2f, 0.4f, 0.6f, 1.0f};

// Creates a renderer with validation; null (the caller skips) when there is no Vulkan device or loader. Any other
// failure fails the test.
std::unique_ptr<gpu::Renderer> create_renderer(std::string& skip_reason);
// The same for a renderer made from `desc` (its validation as it says).
std::unique_ptr<gpu::Renderer> create_renderer(const gpu::RendererDesc& desc, std::string& skip_reason);

// Declares `name`, a renderer from create_renderer, or skips (no device) or returns (failed) from the test.
#define SPINEGPU_REQUIRE_RENDERER(name)                                    \
    std::string skip_reason;                                               \
    std::unique_ptr<gpu::Renderer> name = create_renderer(skip_reason);    \
    if (!name) {                                                           \
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;             \
        return;                                                            \
    }

// A renderer as create_renderer's, built with environment variable `name` set to `value` (a diagnostic switch read
// when the renderer is created; unset again at once).
std::unique_ptr<gpu::Renderer> create_renderer_with(const char* name, const char* value, std::string& skip_reason);

// Declares `renderer`, built with the diagnostic switch `name`=`value`, or skips or returns as
// SPINEGPU_REQUIRE_RENDERER does.
#define SPINEGPU_REQUIRE_DIAGNOSTIC_RENDERER(renderer, name, value)                              \
    std::string skip_reason;                                                                     \
    std::unique_ptr<gpu::Renderer> renderer = create_renderer_with(name, value, skip_reason);    \
    if (!renderer) {                                                                             \
        if (!skip_reason.empty()) GTEST_SKIP() << skip_reason;                                   \
        return;                                                                                  \
    }

// An example skeleton with its page images, ready for add_skeleton_type.
struct DrawableType {
    std::unique_ptr<LoadedSkeleton> loaded;
    std::vector<Image> pages;
};

// Loads an example skeleton, its atlas and page images; null after recording a failure.
std::unique_ptr<DrawableType> load_drawable(const std::string& skeleton, const std::string& atlas);

// Adds an example skeleton to the renderer as a skeleton type (its page images move into the renderer).
Result<std::uint32_t> add_type(gpu::Renderer& renderer, DrawableType& drawable, const std::string& name);

// An example skeleton loaded and added to a renderer as a skeleton type.
struct AddedType {
    std::unique_ptr<DrawableType> drawable;  // keeps the skeleton data the renderer reads alive
    std::uint32_t type = 0;
    const SkeletonData& data() const { return drawable->loaded->data; }
    const AtlasBinding& binding() const { return drawable->loaded->binding; }
};

// Loads an example skeleton and adds it to `renderer` as a type named `name`; nothing after recording a failure.
std::optional<AddedType> load_type(gpu::Renderer& renderer, const std::string& skeleton, const std::string& atlas,
                                   const std::string& name);

// A camera that fits the pose's bounds into the target with a margin.
gpu::Camera2D fit(const SkeletonPose& pose, const AtlasBinding& binding);

// Whether pixel `index` differs from the background by more than a rounding step.
bool off_background(const Image& image, std::size_t index);

// How many pixels differ from the background by more than a rounding step.
std::uint32_t pixels_off_background(const Image& image);

// Expects that the validation layer reported nothing.
void expect_no_validation_messages(const gpu::Renderer& renderer);

// Draws `characters` through the gpu path and through `other` and returns how many channels differ by more than
// 2/255; `drawn` gets the gpu path's pixels off the background and `shaded` the other path's fragment count.
std::uint32_t path_differences(gpu::Renderer& renderer, std::span<const gpu::CharacterDraw> characters,
                               const gpu::Camera2D& camera, gpu::RenderPath other, std::uint32_t& drawn,
                               std::uint64_t& shaded);

// Forty overlapping spineboys in different animations and phases, some tinted and translucent: many characters
// per tile, whose order must hold. `players` owns the poses that `characters` points at.
void spineboy_crowd(const AddedType& spineboy, std::vector<std::unique_ptr<Player>>& players,
                    std::vector<gpu::CharacterDraw>& characters);

// Spineboy-pro added to a renderer, and the forty of spineboy_crowd.
struct SpineboyCrowd {
    AddedType spineboy;
    std::vector<std::unique_ptr<Player>> players;  // owns the poses
    std::vector<gpu::CharacterDraw> characters;
};

// Loads spineboy-pro into `renderer` and makes the crowd; nothing after recording a failure.
std::optional<SpineboyCrowd> load_spineboy_crowd(gpu::Renderer& renderer);

// A skeleton a test writes (JSON text) with its atlas (text) and binding, and its setup pose, world transforms done.
struct TextSkeleton {
    SkeletonData data;
    Atlas atlas;
    AtlasBinding binding;
    SkeletonPose pose;
};

// An atlas of one 4 x 4 page, "white.png", with the region "white" over all of it.
inline constexpr const char* k_white_atlas = "white.png\nsize: 4, 4\nwhite\n  bounds: 0, 0, 4, 4\n";

// Loads a TextSkeleton from `json` (named `file`) and `atlas_text` (named `atlas_file`), held by pointer (the pose
// points at the data); null after recording a failure.
std::unique_ptr<TextSkeleton> load_text_skeleton(const std::string& json, const std::string& file,
                                                 const std::string& atlas_text, const std::string& atlas_file);

// `count` white page images of `size` x `size` pixels.
std::vector<Image> white_pages(std::size_t count, std::uint32_t size);

// How far a skinned coordinate of a GPU path may be from the CPU path's, in skeleton units: the skinning pass sums the
// same products in float, in its own order and with fused multiply-adds, so the two differ by a few roundings of the
// largest term (bone translations reach some thousands of units in the examples: an ulp there is about 1e-4).
inline constexpr float k_skinned_position_tolerance = 2e-3f;

// What the renderer's last frame drew (Renderer::read_back_geometry), or nothing after recording the failure.
gpu::DrawnGeometry read_geometry(gpu::Renderer& renderer, const std::string& where);

// Expects `got` (a GPU path's geometry) to be `want` (the CPU path's): the same indices, and vertices the same but for
// positions within k_skinned_position_tolerance; reports the first few vertices that differ. Returns the largest
// position difference.
float expect_same_geometry(const gpu::DrawnGeometry& got, const gpu::DrawnGeometry& want, const std::string& where);

}  // namespace spinegpu::test
