// The tile rasterizer's placing and coverage arithmetic, shared by the triangle setup (triangles.comp) and the
// rasterizer (raster.comp). Needs GL_ARB_gpu_shader_int64, camera.glsl, and the push block `push` (GpuTilePush).

// How far from the target's corner, in pixels, a vertex's place on the raster's 1/256-pixel grid fits 32 bits.
const float k_grid_limit = 2097152.0;

// A vertex's position in pixels as draw.vert and the viewport transform place it. The viewport transform rounds its
// product before the sum, as NVIDIA's raster pipeline does (lavapipe's gave the same bits either way for the
// draw_a_crowd sample): `precise` keeps the compiler from fusing them into an fma, whose vertices sometimes snapped
// one grid step away. With the fma, a crowd of 15-pixel spineboys on the H200 had 0.07% of its pixels off the raster
// pipeline's by more than 2/255; without it, none.
vec2 placed(GpuOutVertex o) {
    vec2 size = vec2(push.width, push.height);
    vec2 ndc = pixel_ndc(camera_pixel(vec2(o.x, o.y), push.scale, push.ox, push.oy), size);
    precise vec2 product = ndc * (size * 0.5);
    precise vec2 pixel = product + size * 0.5;
    return pixel;
}

// Whether both coordinates are finite numbers, read from their bits (a shader compiler may assume that floats are
// never infinite or NaN, and fold isinf and isnan away).
bool finite(vec2 v) { return all(notEqual(floatBitsToUint(v) & 0x7F800000u, uvec2(0x7F800000u))); }

// Whether a placed vertex lies beyond k_grid_limit on either axis, or is not finite.
bool beyond_grid(vec2 pixel) { return !finite(pixel) || any(greaterThan(abs(pixel), vec2(k_grid_limit))); }

// A placed vertex on the raster's 1/256-pixel grid, clamped to k_grid_limit.
ivec2 snapped(vec2 pixel) { return ivec2(roundEven(clamp(pixel, -k_grid_limit, k_grid_limit) * 256.0)); }

// Edge function of the edge a -> b at p (all on the raster's 1/256-pixel grid): positive on the side of a
// positively oriented triangle's interior, zero on the edge.
int64_t edge_at(ivec2 a, ivec2 b, ivec2 p) {
    return int64_t(b.x - a.x) * int64_t(p.y - a.y) - int64_t(b.y - a.y) * int64_t(p.x - a.x);
}

// Top-left rule (y down) for the edge a -> b of a positively oriented triangle: a pixel centre exactly on it is
// covered only for a left edge or a top edge.
bool top_left(ivec2 a, ivec2 b) {
    int dx = b.x - a.x, dy = b.y - a.y;
    return dy < 0 || (dy == 0 && dx > 0);
}

// The edge a -> b of a positively oriented triangle (places in pixels, one end at least beyond the grid) set up for
// the tile whose first pixel centre is `centre` (pixels), on the grid's scale as edge_at: its value there, biased by
// the top-left rule (covered: >= 0), and its steps per pixel in x and y (the rasterizer's form for every edge).
// In 64-bit floats, the edge keeps its direction, scaled by a power of two to at most 2^36 per axis (so that across
// a tile it turns by under 2^-30 pixel), and passes through the point of its line nearest the centre, found from the
// end nearer the target's corner: the value stays small near the tile, and the line is within 2^-28 pixel of the
// exact one while that end lies within 2^21 pixels (the other anywhere), within about 2^-52 times its distance
// beyond. A line some hundreds of pixels from the tile keeps only its side (the value is held within 2^52, beyond any
// step across a tile). It is computed from the ends in a fixed order, `precise`, and negated for the other, so the
// triangle across the edge gets exactly the negated function, and a pixel centre on the line is covered by one of
// the two.
void far_edge(dvec2 a, dvec2 b, dvec2 centre, out int64_t value, out int64_t step_x, out int64_t step_y) {
    double reach_a = max(abs(a.x), abs(a.y)), reach_b = max(abs(b.x), abs(b.y));
    bool flip = reach_a > reach_b || (reach_a == reach_b && (a.x > b.x || (a.x == b.x && a.y > b.y)));
    dvec2 from = flip ? b : a;
    precise dvec2 d = flip ? a - b : b - a;
    precise double length2 = dot(d, d);
    if (length2 == 0.0lf) {  // both ends at one place: no side covered
        value = -1l;
        step_x = 0l;
        step_y = 0l;
        return;
    }
    precise dvec2 nearest = from + d * (dot(centre - from, d) / length2);
    int exponent;
    frexp(max(abs(d.x), abs(d.y)), exponent);
    dvec2 direction = roundEven(ldexp(d, ivec2(36 - exponent)));
    precise double at = 256.0lf * (direction.x * (centre.y - nearest.y) - direction.y * (centre.x - nearest.x));
    value = int64_t(roundEven(clamp(at, -4503599627370496.0lf, 4503599627370496.0lf)));
    step_x = -int64_t(direction.y) * 256l;
    step_y = int64_t(direction.x) * 256l;
    if (flip) {
        value = -value;
        step_x = -step_x;
        step_y = -step_y;
    }
    // The top-left rule, as top_left() reads the edge's direction: dy < 0 is step_x > 0.
    bool left_or_top = step_x > 0l || (step_x == 0l && step_y > 0l);
    if (!left_or_top) value -= 1l;
}
