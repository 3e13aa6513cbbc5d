// The SPIR-V of the renderer's shaders, compiled from shaders/ by glslc at build time and embedded, so that the
// binary runs anywhere without shader files beside it.
#pragma once

#include <cstdint>
#include <span>

namespace spinegpu::gpu {

std::span<const std::uint32_t> skin_comp_spirv();
std::span<const std::uint32_t> draw_vert_spirv();
std::span<const std::uint32_t> draw_frag_spirv();
std::span<const std::uint32_t> collapse_vert_spirv();
std::span<const std::uint32_t> raster_comp_spirv();
// raster.comp drawing onto the application's image (SPINEGPU_RASTER_ONTO: each pixel starts from the image's).
std::span<const std::uint32_t> raster_onto_comp_spirv();
// raster_onto for the application's BGRA8 images: its target read and written without a format
// (SPINEGPU_RASTER_ONTO_UNFORMATTED; the device needs them: VkContext::bgra_tiles_missing).
std::span<const std::uint32_t> raster_onto_unformatted_comp_spirv();
std::span<const std::uint32_t> triangles_comp_spirv();
std::span<const std::uint32_t> places_comp_spirv();

}  // namespace spinegpu::gpu
