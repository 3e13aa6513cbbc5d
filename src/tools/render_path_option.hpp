// The --path option of the commands that draw (render, view): the renderer path by its name.
#pragma once

#include <optional>
#include <string>

#include "spinegpu/gpu/renderer.hpp"

namespace spinegpu::tools {

// What --path accepts, for usage errors.
inline constexpr const char* k_path_choices = "--path is gpu, cpu, gpu-vertex or gpu-tiles";

// The renderer path named by --path ("gpu", "cpu", "gpu-vertex", "gpu-tiles"), or nothing for an unknown name.
std::optional<gpu::RenderPath> parse_render_path(const std::string& name);

}  // namespace spinegpu::tools
