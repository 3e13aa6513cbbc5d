#version 450
// Colour pipeline: pages are sampled as UNORM, so texels are filtered and blended in sRGB-encoded values, as the
// official renderers do; premultiplied pages are un-premultiplied, so both kinds give straight texels. (DESIGN.md
// asks for straight pages to be sampled as sRGB; filtering in linear light moved 2.4% of mix-and-match's pixels
// past the official-renderer tolerance at 0.4x scale, against 0.15% in encoded values. Linear light belongs with
// a linear target, in the lit 3D pipeline.) Tint (skeleton x slot x attachment) is applied straight, with
// two-color tint as the official runtimes define it (rgb = t * light + (1 - t) * dark), and the result is
// premultiplied once. All four Spine blend modes come from one pipeline with dual-source blending:
// dst = src0 + dst * src1 (colour and alpha), which expresses the official premultiplied tables (normal ONE/1-sa,
// additive ONE/ONE, multiply DST_COLOR/1-sa, screen ONE/1-sc).
// Clipping: a fragment of a clipped attachment is kept when its pixel centre lies inside the clipping polygon
// (even-odd), which is what rasterizing the official runtime's clipped triangles covers.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"

layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };
layout(set = 0, binding = 11) uniform sampler2DArray pages;

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

bool inside_clip(uint first, uint count, vec2 p) {
    bool inside = false;
    GpuOutVertex last = out_vertices[first + count - 1u];
    vec2 b = vec2(camera.ox + camera.scale * last.x, camera.oy - camera.scale * last.y);
    for (uint i = 0u; i < count; ++i) {
        GpuOutVertex o = out_vertices[first + i];
        vec2 a = vec2(camera.ox + camera.scale * o.x, camera.oy - camera.scale * o.y);
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
        b = a;
    }
    return inside;
}

void main() {
    uint clip_count = v_material >> k_material_clip_count_shift;
    if (clip_count != 0u && !inside_clip(v_clip_first, clip_count, gl_FragCoord.xy)) discard;

    vec3 coord = vec3(v_uv, float(v_material & k_material_layer_mask));
    vec4 t = k_flat ? vec4(1.0) : texture(pages, coord);
    if ((v_material & k_material_pma_bit) != 0u) t.rgb = t.a > 0.0 ? min(t.rgb / t.a, vec3(1.0)) : vec3(0.0);
    vec3 rgb = t.rgb * v_light.rgb;
    if ((v_material & k_material_dark_bit) != 0u) rgb += (1.0 - t.rgb) * v_dark;
    float a = t.a * v_light.a;
    vec3 premultiplied = rgb * a;

    uint blend = (v_material >> k_material_blend_shift) & 3u;
    if (blend == k_blend_additive) {
        out_color = vec4(premultiplied, a);
        out_factor = vec4(1.0);
    } else if (blend == k_blend_multiply) {
        out_color = vec4(0.0, 0.0, 0.0, a);
        out_factor = vec4(premultiplied + (1.0 - a), 1.0 - a);
    } else if (blend == k_blend_screen) {
        out_color = vec4(premultiplied, a);
        out_factor = vec4(1.0 - premultiplied, 1.0 - a);
    } else {
        out_color = vec4(premultiplied, a);
        out_factor = vec4(1.0 - a);
    }
}
