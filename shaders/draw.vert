#version 450
// The draw: pulls the skinned vertex (written by the skinning pass, or by the CPU path) and maps world
// coordinates to the target with the 2D camera: px = ox + scale * x, py = oy - scale * y.
#extension GL_GOOGLE_include_directive : require
#include "spinegpu/gpu/gpu_layout.h"
#include "camera.glsl"
#include "linear_light.glsl"

layout(std430, set = 0, binding = 9) readonly buffer OutVertices { GpuOutVertex out_vertices[]; };

layout(push_constant) uniform Camera { float scale, ox, oy, width, height; } camera;

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_light;
layout(location = 2) out vec3 v_dark;
layout(location = 3) flat out uint v_material;
layout(location = 4) flat out uint v_clip_first;

void main() {
    GpuOutVertex o = out_vertices[gl_VertexIndex];
    vec2 pixel = camera_pixel(vec2(o.x, o.y), camera.scale, camera.ox, camera.oy);
    gl_Position = vec4(pixel_ndc(pixel, vec2(camera.width, camera.height)), 0.0, 1.0);
    v_uv = vec2(o.u, o.v);
    v_light = shading_light(o.light);
    v_dark = shading_dark(o.dark);
    v_material = o.material;
    v_clip_first = o.clip_first;
}
