#version 450
// The draw's fragments: clipping, sampling and shading (shading.glsl), blended by dual-source blending.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(set = 0, binding = 11) uniform sampler2DArray pages;
layout(set = 0, binding = 23) uniform sampler2DArray pages_nearest;
layout(set = 0, binding = 26) uniform sampler2DArray pages_srgb;
layout(set = 0, binding = 27) uniform sampler2DArray pages_srgb_nearest;
layout(std430, set = 0, binding = 24) readonly buffer PageFilters { uint page_filters[]; };

#include "camera.glsl"
#include "shading.glsl"

layout(push_constant) uniform Camera { float scale, ox, oy, width, height; } camera;

layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_light;
layout(location = 2) in vec3 v_dark;
layout(location = 3) flat in uint v_material;
layout(location = 4) flat in uint v_clip_first;

// Diagnostics (SPINEGPU_DIAGNOSE_FLAT=1): no texture fetch, every covered pixel takes the vertex colour; to tell
// the cost of sampling from the rest of the fragment work when profiling. Off in every normal run.
layout(constant_id = 0) const bool k_flat = false;

layout(location = 0, index = 0) out vec4 out_color;
layout(location = 0, index = 1) out vec4 out_factor;

void main() {
    // The UV steps per pixel, before any fragment of the quad is discarded (the triangle maps UV affinely, so they
    // are its steps, as the tile rasterizer computes them).
    vec2 uv_x = dFdx(v_uv), uv_y = dFdy(v_uv);
    uint clip_count = v_material >> k_material_clip_count_shift;
    if (clip_count != 0u &&
        !inside_clip(v_clip_first, clip_count, gl_FragCoord.xy, camera.scale, camera.ox, camera.oy))
        discard;
    vec4 t = k_flat ? vec4(1.0) : page_texel(v_uv, uv_x, uv_y, v_material);
    shade(t, v_light, v_dark, v_material, out_color, out_factor);
}
