// The renderer tests' stand-in for an application reading a frame in a shader (renderer_host_device_test.cpp): each
// pixel of the frame image, loaded as a storage image, written to a buffer as the RGBA8 bytes it holds.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba8) uniform readonly image2D frame;
layout(binding = 1, std430) writeonly buffer Pixels { uint pixels[]; };

void main() {
    const ivec2 size = imageSize(frame);
    const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    pixels[p.y * size.x + p.x] = packUnorm4x8(imageLoad(frame, p));
}
