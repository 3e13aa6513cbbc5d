// Procedural drawing for the demo rig's art: shapes as signed distance functions, painted with analytic
// anti-aliasing (coverage from the distance at each pixel centre) into a float RGBA canvas, plus a cel-shading
// helper that gives every part the rig's look: a dark outline, a gradient fill, a shadow crescent and a highlight.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "rig_math.hpp"

namespace spinegpu::rig {

// Signed distance in art units: negative inside, positive outside.
using Sdf = std::function<double(Vec2)>;
// Colour of a fill at a point (straight alpha; the alpha multiplies the coverage).
using Paint = std::function<Rgba(Vec2)>;

Sdf circle(Vec2 centre, double radius);
// Approximate (but smooth and sign-correct) distance to an axis-aligned ellipse, rotated by `angle` degrees.
Sdf ellipse(Vec2 centre, double rx, double ry, double angle = 0);
// Box with rounded corners, half size `half`, rotated by `angle` degrees around its centre.
Sdf round_box(Vec2 centre, Vec2 half, double radius, double angle = 0);
// Segment a-b thickened to radius ra at a and rb at b (radii interpolated along the segment).
Sdf capsule(Vec2 a, Vec2 b, double ra, double rb);
// Exact distance to a simple polygon.
Sdf polygon(std::vector<Vec2> points);
// A closed Catmull-Rom spline through `points`, as a dense polygon.
std::vector<Vec2> smooth_closed(const std::vector<Vec2>& points, int samples_per_segment = 12);
// An open quadratic-ish stroke: the distance to the polyline through `points`, minus half the width.
Sdf stroke(std::vector<Vec2> points, double width);
// Arc of a circle from angle a0 to a1 (degrees, counter-clockwise), stroked with `width`.
Sdf arc(Vec2 centre, double radius, double a0, double a1, double width);

Sdf unite(Sdf a, Sdf b);
Sdf intersect(Sdf a, Sdf b);
Sdf subtract(Sdf a, Sdf b);
// Grows (positive) or shrinks (negative) a shape.
Sdf grow(Sdf a, double amount);
Sdf translate(Sdf a, Vec2 offset);

Paint solid(Rgba colour);
// Linear gradient from c0 at p0 to c1 at p1.
Paint linear(Vec2 p0, Rgba c0, Vec2 p1, Rgba c1);
// Radial gradient from c0 at the centre to c1 at `radius` (clamped beyond).
Paint radial(Vec2 centre, double radius, Rgba c0, Rgba c1);

// A pixel grid over the art-space rectangle [x0, x0 + width] x [y0, y0 + height] (y up), `scale` pixels per unit.
class Canvas {
public:
    Canvas() = default;
    Canvas(double x0, double y0, double width, double height, double scale);

    int pixel_width() const { return w_; }
    int pixel_height() const { return h_; }
    double x0() const { return x0_; }
    double y0() const { return y0_; }
    double width() const { return width_; }
    double height() const { return height_; }
    double scale() const { return scale_; }

    // Art-space position of the centre of pixel (i, j), j counted from the top row.
    Vec2 pixel_centre(int i, int j) const { return {x0_ + (i + 0.5) / scale_, y0_ + height_ - (j + 0.5) / scale_}; }

    // Composites `paint` over the canvas where `shape` covers it, times `opacity`.
    void fill(const Sdf& shape, const Paint& paint, double opacity = 1);

    // Straight-alpha RGBA8, rows top to bottom.
    std::vector<std::uint8_t> to_rgba8() const;

private:
    int w_ = 0, h_ = 0;
    double x0_ = 0, y0_ = 0, width_ = 0, height_ = 0, scale_ = 1;
    std::vector<float> premultiplied_;  // 4 floats per pixel
};

// The rig's cel-shaded look.
struct Toon {
    Rgba light, base, shadow;          // gradient from the lit side to the shaded side
    Rgba outline = hex(0x2b1d33);
    double outline_width = 2.6;
    double shade_offset = 5;           // width of the shadow crescent
    double highlight_offset = 2.2;     // width of the highlight rim
    double highlight_alpha = 0.55;
    double shade_alpha = 0.55;
};

// Paints `shape` in the rig's style. `centre` and `radius` place the gradient (light from the upper left).
void toon(Canvas& canvas, const Sdf& shape, const Toon& style, Vec2 centre, double radius);
// Only the outline of `shape` (the outline grown around it), for parts whose fill is painted separately.
void toon_outline(Canvas& canvas, const Sdf& shape, const Toon& style);
// Only the shaded fill of `shape`.
void toon_fill(Canvas& canvas, const Sdf& shape, const Toon& style, Vec2 centre, double radius);

}  // namespace spinegpu::rig
