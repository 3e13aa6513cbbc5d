// Small 2D math for the demo rig generator: points, colours and the affine transforms of the setup pose.
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spinegpu::rig {

struct Vec2 {
    double x = 0, y = 0;
    friend Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
    friend Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
    friend Vec2 operator*(Vec2 a, double s) { return {a.x * s, a.y * s}; }
    friend Vec2 operator*(double s, Vec2 a) { return {a.x * s, a.y * s}; }
};

inline double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline double length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline Vec2 normalize(Vec2 a) { double l = length(a); return l > 0 ? a * (1 / l) : Vec2{}; }
inline Vec2 lerp(Vec2 a, Vec2 b, double t) { return a + (b - a) * t; }
inline double lerp(double a, double b, double t) { return a + (b - a) * t; }
inline double clamp01(double v) { return std::clamp(v, 0.0, 1.0); }
inline double smoothstep(double e0, double e1, double v) {
    double t = clamp01((v - e0) / (e1 - e0));
    return t * t * (3 - 2 * t);
}
inline double deg_to_rad(double deg) { return deg * std::numbers::pi / 180; }
inline double rad_to_deg(double rad) { return rad * 180 / std::numbers::pi; }
// Unit vector at `deg` degrees counter-clockwise from +x.
inline Vec2 dir(double deg) { return {std::cos(deg_to_rad(deg)), std::sin(deg_to_rad(deg))}; }
inline Vec2 rotate(Vec2 p, double deg) {
    double c = std::cos(deg_to_rad(deg)), s = std::sin(deg_to_rad(deg));
    return {p.x * c - p.y * s, p.x * s + p.y * c};
}

// A rotation + translation (the setup pose has no scale or shear): world = R(rotation) * local + origin.
struct Frame {
    Vec2 origin;
    double rotation = 0;  // degrees
    Vec2 to_world(Vec2 local) const { return origin + rotate(local, rotation); }
    Vec2 to_local(Vec2 world) const { return rotate(world - origin, -rotation); }
    Vec2 dir_to_local(Vec2 world_dir) const { return rotate(world_dir, -rotation); }
};

// Straight-alpha colour, components 0..1.
struct Rgba {
    double r = 0, g = 0, b = 0, a = 1;
};

// "#rrggbb" style constant: hex(0xd93d4a).
constexpr Rgba hex(unsigned rgb, double a = 1) {
    return {((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0, a};
}
inline Rgba mix(Rgba a, Rgba b, double t) {
    return {lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t), lerp(a.a, b.a, t)};
}
inline Rgba with_alpha(Rgba c, double a) { return {c.r, c.g, c.b, a}; }

}  // namespace spinegpu::rig
