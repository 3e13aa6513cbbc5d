// The application's frame around its render pass in the tests of drawing in it (Renderer::record_for_pass,
// record_in_pass and record_in_secondary): its image, larger than the characters' area, which lies at an offset in it;
// the pass's clear; its draws before the characters (the two backgrounds in the area's halves) and after them (a box
// over them); and the image that frame must copy out.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "app_render_pass.hpp"
#include "host_image_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/core/color.hpp"
#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::test {

// The application's image: larger than the characters' area (k_width x k_height), which lies at an offset in it.
inline constexpr std::uint32_t k_image_width = k_width + 24, k_image_height = k_height + 16;
// Opaque straight colours whose bytes are exact: the pass's clear, and the application's box drawn after the
// characters.
inline constexpr Color k_outside{0.0f, 0.6f, 0.2f, 1.0f};
inline constexpr Color k_box{1.0f, 0.8f, 0.0f, 1.0f};

// The box the application draws over the characters, in the middle of the area (where the crowd stands).
VkRect2D box_in(VkRect2D area);

// Writes opaque `c` into `rect` of the straight RGBA8 image `pixels`, `width` wide.
void paint(std::vector<std::uint8_t>& pixels, std::uint32_t width, VkRect2D rect, Color c);

// How many pixels in `rect` of two straight RGBA8 images k_width wide differ.
std::uint32_t pixels_differing_in(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                                  VkRect2D rect);

// What `own` draws of `characters` in the k_width x k_height area at `offset`, over the two backgrounds in the
// area's halves (drawn_over_two_backgrounds).
std::vector<std::uint8_t> drawn_in_area(gpu::Renderer& own, std::span<const gpu::CharacterDraw> characters,
                                        const gpu::Camera2D& camera, VkOffset2D offset, gpu::RenderPath path);

// The application's image after its pass: k_outside, the area holding `area_pixels` (k_width x k_height), the box
// painted over it.
std::vector<std::uint8_t> composed(const std::vector<std::uint8_t>& area_pixels, VkRect2D area);

// Words naming a frame in the application's pass, for failures: "path 1, scene 0, format 44, depth, dynamic rendering,
// area at (13, 7), subpass 1" (depth, dynamic rendering and the subpass only where they are so).
std::string pass_case_words(gpu::RenderPath path, int scene, VkFormat format, bool depth, bool dynamic,
                            VkOffset2D offset, bool second_subpass);

// Records the application's frame into `cb` around the renderer's: the frame's work before the pass, then the pass
// (the two backgrounds in the area's halves, the characters, the box), then the copy out. With no `secondaries`, the
// pass's draws are recorded inline (record_in_pass); with one, all of them go into it; with three, the backgrounds
// into the first, the characters into the second (recorded before the other two) and the box into the third
// (record_in_secondary), executed in that order in a pass whose contents are secondary command buffers. False after
// recording a failure.
bool record_pass_frame(gpu::Renderer& lent, VkCommandBuffer cb, const AppRenderPass& pass, AppImage& image,
                       VkRect2D area, std::span<const gpu::CharacterDraw> characters, const gpu::Camera2D& camera,
                       gpu::RenderPath path, gpu::RecordedFrame& recorded,
                       std::span<const VkCommandBuffer> secondaries = {});

}  // namespace spinegpu::test
