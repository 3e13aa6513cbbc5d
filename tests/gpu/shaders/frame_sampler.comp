// As frame_reader.comp, with the frame image read as a sampled image (texelFetch, no filtering), as an application
// that composites the frame samples it (renderer_host_device_test.cpp).
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D frame;
layout(binding = 1, std430) writeonly buffer Pixels { uint pixels[]; };

void main() {
    const ivec2 size = textureSize(frame, 0);
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    pixels[p.y * size.x + p.x] = packUnorm4x8(texelFetch(frame, p, 0));
}
