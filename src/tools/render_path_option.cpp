// The --path option: see render_path_option.hpp.
#include "render_path_option.hpp"

namespace spinegpu::tools {

std::optional<gpu::RenderPath> parse_render_path(const std::string& name) {
    if (name == "gpu") return gpu::RenderPath::gpu;
    if (name == "cpu") return gpu::RenderPath::cpu;
    if (name == "gpu-vertex") return gpu::RenderPath::gpu_vertex;
    if (name == "gpu-tiles") return gpu::RenderPath::gpu_tiles;
    return std::nullopt;
}

}  // namespace spinegpu::tools
