// The 2D camera (DESIGN.md, "Render"): world to pixels (y down), and pixels to normalised device coordinates.
// Every pass that places vertices goes through these (draw.vert, collapse.vert, the tile rasterizer's setup and the
// clipping test), so that the raster pipeline and the tile rasterizer see the same positions.

// px = ox + scale * x, py = oy - scale * y.
vec2 camera_pixel(vec2 world, float scale, float ox, float oy) {
    return vec2(ox + scale * world.x, oy - scale * world.y);
}

// The pixel position as normalised device coordinates of a `size` target (what the vertex shaders output).
vec2 pixel_ndc(vec2 pixel, vec2 size) { return pixel / size * 2.0 - 1.0; }
