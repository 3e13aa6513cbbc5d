// The tile rasterizer's coverage arithmetic, shared by the triangle setup (triangles.comp) and the rasterizer
// (raster.comp). Needs GL_ARB_gpu_shader_int64.

// Edge function of the edge a -> b at p (all on the raster's 1/256-pixel grid): positive on the side of a
// positively oriented triangle's interior, zero on the edge.
int64_t edge_at(ivec2 a, ivec2 b, ivec2 p) {
    return int64_t(b.x - a.x) * int64_t(p.y - a.y) - int64_t(b.y - a.y) * int64_t(p.x - a.x);
}
