#version 450
// The seed's way, kept to be measured against the skinning pass (RenderPath::gpu_vertex): one instanced draw per
// skeleton type over every attachment of every skin in setup order; the vertex shader skins each vertex from the
// bones and collapses the vertices of attachments its slot does not show (they still cost a vertex shader run).
// It reads the draw list as a per-slot list, so it serves only types without draw-order timelines, and it does not
// clip. Outputs match draw.vert's, for the same fragment shader.
#extension GL_GOOGLE_include_directive : require
#include "bindings.glsl"
#include "skinning.glsl"
#include "camera.glsl"
#include "linear_light.glsl"

layout(std430, set = 0, binding = 12) readonly buffer VertexOwners { uint vertex_owner[]; };

layout(push_constant) uniform Camera { float scale, ox, oy, width, height; } camera;

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_light;
layout(location = 2) out vec3 v_dark;
layout(location = 3) flat out uint v_material;
layout(location = 4) flat out uint v_clip_first;


void main() {
    GpuCharacter ch = characters[gl_InstanceIndex];
    GpuSkeletonType type = types[ch.type];
    uint a = vertex_owner[gl_VertexIndex];
    GpuAttachment att = attachments[a];
    uint slot = att.slot_and_end & 0xFFFFu;
    uint shown = draw_list_entry(ch, type, slot);
    v_clip_first = 0u;
    if (shown == k_no_attachment || type.attachment_first + shown != a) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // collapsed: every vertex of the triangle lands on one clipped point
        v_uv = vec2(0.0);
        v_light = vec4(0.0);
        v_dark = vec3(0.0);
        v_material = 0u;
        return;
    }
    GpuBindVertex bv = bind_vertices[gl_VertexIndex];
    uint local = gl_VertexIndex - att.vertex_first;
    vec2 world = skin_vertex(ch, att, bv, local, slot_deform(ch, type, slot));
    uint light, dark;
    slot_colors(ch, type, slot, light, dark);
    vec2 pixel = camera_pixel(world, camera.scale, camera.ox, camera.oy);
    gl_Position = vec4(pixel_ndc(pixel, vec2(camera.width, camera.height)), 0.0, 1.0);
    v_uv = vec2(bv.u, bv.v);
    v_light = shading_light(mul_rgba8(mul_rgba8(ch.tint, light), att.color));
    v_dark = shading_dark(dark);
    v_material = att.material & 0xFFFFu;
}
