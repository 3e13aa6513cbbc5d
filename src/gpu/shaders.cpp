// Embedded SPIR-V: see shaders.hpp. The .inc files are glslc's `-mfmt=num` output (comma-separated words).
#include "shaders.hpp"

namespace spinegpu::gpu {
namespace {
const std::uint32_t k_skin_comp[] = {
#include "skin.comp.inc"
};
const std::uint32_t k_draw_vert[] = {
#include "draw.vert.inc"
};
const std::uint32_t k_draw_frag[] = {
#include "draw.frag.inc"
};
const std::uint32_t k_collapse_vert[] = {
#include "collapse.vert.inc"
};
const std::uint32_t k_raster_comp[] = {
#include "raster.comp.inc"
};
const std::uint32_t k_raster_onto_comp[] = {
#include "raster_onto.comp.inc"
};
const std::uint32_t k_raster_onto_unformatted_comp[] = {
#include "raster_onto_unformatted.comp.inc"
};
const std::uint32_t k_triangles_comp[] = {
#include "triangles.comp.inc"
};
const std::uint32_t k_places_comp[] = {
#include "places.comp.inc"
};
}  // namespace

std::span<const std::uint32_t> raster_comp_spirv() { return k_raster_comp; }
std::span<const std::uint32_t> raster_onto_comp_spirv() { return k_raster_onto_comp; }
std::span<const std::uint32_t> raster_onto_unformatted_comp_spirv() { return k_raster_onto_unformatted_comp; }
std::span<const std::uint32_t> triangles_comp_spirv() { return k_triangles_comp; }
std::span<const std::uint32_t> places_comp_spirv() { return k_places_comp; }
std::span<const std::uint32_t> collapse_vert_spirv() { return k_collapse_vert; }
std::span<const std::uint32_t> skin_comp_spirv() { return k_skin_comp; }
std::span<const std::uint32_t> draw_vert_spirv() { return k_draw_vert; }
std::span<const std::uint32_t> draw_frag_spirv() { return k_draw_frag; }

}  // namespace spinegpu::gpu
