#include "canvas.hpp"

#include <cmath>
#include <limits>
#include <utility>

namespace spinegpu::rig {

Sdf circle(Vec2 centre, double radius) {
    return [=](Vec2 p) { return length(p - centre) - radius; };
}

Sdf ellipse(Vec2 centre, double rx, double ry, double angle) {
    return [=](Vec2 p) {
        Vec2 q = rotate(p - centre, -angle);
        double k0 = length({q.x / rx, q.y / ry});
        double k1 = length({q.x / (rx * rx), q.y / (ry * ry)});
        if (k1 == 0) return -std::min(rx, ry);
        return k0 * (k0 - 1) / k1;
    };
}

Sdf round_box(Vec2 centre, Vec2 half, double radius, double angle) {
    return [=](Vec2 p) {
        Vec2 q = rotate(p - centre, -angle);
        Vec2 d{std::abs(q.x) - half.x + radius, std::abs(q.y) - half.y + radius};
        Vec2 outside{std::max(d.x, 0.0), std::max(d.y, 0.0)};
        return length(outside) + std::min(std::max(d.x, d.y), 0.0) - radius;
    };
}

Sdf capsule(Vec2 a, Vec2 b, double ra, double rb) {
    return [=](Vec2 p) {
        Vec2 ab = b - a;
        double h = clamp01(dot(p - a, ab) / dot(ab, ab));
        return length(p - a - ab * h) - lerp(ra, rb, h);
    };
}

Sdf polygon(std::vector<Vec2> points) {
    return [points = std::move(points)](Vec2 p) {
        double d = std::numeric_limits<double>::max();
        bool inside = false;
        const std::size_t n = points.size();
        for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
            Vec2 e = points[j] - points[i];
            Vec2 w = p - points[i];
            Vec2 b = w - e * clamp01(dot(w, e) / dot(e, e));
            d = std::min(d, dot(b, b));
            bool c1 = p.y >= points[i].y, c2 = p.y < points[j].y, c3 = e.x * w.y > e.y * w.x;
            if ((c1 && c2 && c3) || (!c1 && !c2 && !c3)) inside = !inside;
        }
        return (inside ? -1 : 1) * std::sqrt(d);
    };
}

std::vector<Vec2> smooth_closed(const std::vector<Vec2>& points, int samples_per_segment) {
    std::vector<Vec2> out;
    const std::size_t n = points.size();
    for (std::size_t i = 0; i < n; ++i) {
        Vec2 p0 = points[(i + n - 1) % n], p1 = points[i], p2 = points[(i + 1) % n], p3 = points[(i + 2) % n];
        for (int s = 0; s < samples_per_segment; ++s) {
            double t = static_cast<double>(s) / samples_per_segment, t2 = t * t, t3 = t2 * t;
            out.push_back(0.5 * ((2 * p1) + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 +
                                 (3 * p1 - p0 - 3 * p2 + p3) * t3));
        }
    }
    return out;
}

Sdf stroke(std::vector<Vec2> points, double width) {
    return [points = std::move(points), width](Vec2 p) {
        double d = std::numeric_limits<double>::max();
        for (std::size_t i = 0; i + 1 < points.size(); ++i) {
            Vec2 e = points[i + 1] - points[i];
            Vec2 w = p - points[i];
            double h = dot(e, e) > 0 ? clamp01(dot(w, e) / dot(e, e)) : 0;
            d = std::min(d, length(w - e * h));
        }
        return d - width / 2;
    };
}

Sdf arc(Vec2 centre, double radius, double a0, double a1, double width) {
    return [=](Vec2 p) {
        Vec2 q = p - centre;
        double angle = rad_to_deg(std::atan2(q.y, q.x));
        while (angle < a0) angle += 360;
        double d;
        if (angle <= a1) {
            d = std::abs(length(q) - radius);
        } else {
            d = std::min(length(q - dir(a0) * radius), length(q - dir(a1) * radius));
        }
        return d - width / 2;
    };
}

Sdf unite(Sdf a, Sdf b) {
    return [a = std::move(a), b = std::move(b)](Vec2 p) { return std::min(a(p), b(p)); };
}
Sdf intersect(Sdf a, Sdf b) {
    return [a = std::move(a), b = std::move(b)](Vec2 p) { return std::max(a(p), b(p)); };
}
Sdf subtract(Sdf a, Sdf b) {
    return [a = std::move(a), b = std::move(b)](Vec2 p) { return std::max(a(p), -b(p)); };
}
Sdf grow(Sdf a, double amount) {
    return [a = std::move(a), amount](Vec2 p) { return a(p) - amount; };
}
Sdf translate(Sdf a, Vec2 offset) {
    return [a = std::move(a), offset](Vec2 p) { return a(p - offset); };
}

Paint solid(Rgba colour) {
    return [colour](Vec2) { return colour; };
}
Paint linear(Vec2 p0, Rgba c0, Vec2 p1, Rgba c1) {
    Vec2 axis = p1 - p0;
    double len2 = dot(axis, axis);
    return [=](Vec2 p) { return mix(c0, c1, clamp01(dot(p - p0, axis) / len2)); };
}
Paint radial(Vec2 centre, double radius, Rgba c0, Rgba c1) {
    return [=](Vec2 p) { return mix(c0, c1, clamp01(length(p - centre) / radius)); };
}

Canvas::Canvas(double x0, double y0, double width, double height, double scale)
    : w_(static_cast<int>(std::ceil(width * scale - 1e-9))),
      h_(static_cast<int>(std::ceil(height * scale - 1e-9))),
      x0_(x0), y0_(y0), width_(width), height_(height), scale_(scale),
      premultiplied_(static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_) * 4, 0.0f) {}

void Canvas::fill(const Sdf& shape, const Paint& paint, double opacity) {
    for (int j = 0; j < h_; ++j)
        for (int i = 0; i < w_; ++i) {
            Vec2 p = pixel_centre(i, j);
            double coverage = clamp01(0.5 - shape(p) * scale_);
            if (coverage <= 0) continue;
            Rgba c = paint(p);
            double a = coverage * c.a * opacity;
            if (a <= 0) continue;
            float* px = &premultiplied_[(static_cast<std::size_t>(j) * static_cast<std::size_t>(w_) +
                                         static_cast<std::size_t>(i)) * 4];
            px[0] = static_cast<float>(c.r * a + px[0] * (1 - a));
            px[1] = static_cast<float>(c.g * a + px[1] * (1 - a));
            px[2] = static_cast<float>(c.b * a + px[2] * (1 - a));
            px[3] = static_cast<float>(a + px[3] * (1 - a));
        }
}

std::vector<std::uint8_t> Canvas::to_rgba8() const {
    const std::size_t count = static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_);
    std::vector<double> rgb(count * 3, 0.0);
    std::vector<double> alpha(count, 0.0);
    std::vector<bool> known(count, false);
    for (std::size_t k = 0; k < count; ++k) {
        const float* px = &premultiplied_[k * 4];
        alpha[k] = px[3];
        if (px[3] > 1e-6f) {
            for (int c = 0; c < 3; ++c) rgb[k * 3 + c] = std::min(1.0, static_cast<double>(px[c]) / px[3]);
            known[k] = true;
        }
    }
    // Bleed: transparent pixels next to painted ones take their neighbours' colour, so that linear filtering at
    // the edge of a region never pulls in black.
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<bool> next = known;
        std::vector<double> next_rgb = rgb;
        for (int j = 0; j < h_; ++j)
            for (int i = 0; i < w_; ++i) {
                std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(i);
                if (known[k]) continue;
                double sum[3] = {0, 0, 0};
                int n = 0;
                for (int dj = -1; dj <= 1; ++dj)
                    for (int di = -1; di <= 1; ++di) {
                        int ii = i + di, jj = j + dj;
                        if (ii < 0 || jj < 0 || ii >= w_ || jj >= h_) continue;
                        std::size_t kk = static_cast<std::size_t>(jj) * static_cast<std::size_t>(w_) +
                                         static_cast<std::size_t>(ii);
                        if (!known[kk]) continue;
                        for (int c = 0; c < 3; ++c) sum[c] += rgb[kk * 3 + c];
                        ++n;
                    }
                if (n == 0) continue;
                for (int c = 0; c < 3; ++c) next_rgb[k * 3 + c] = sum[c] / n;
                next[k] = true;
            }
        known = std::move(next);
        rgb = std::move(next_rgb);
    }
    std::vector<std::uint8_t> out(count * 4);
    for (std::size_t k = 0; k < count; ++k) {
        for (int c = 0; c < 3; ++c)
            out[k * 4 + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(std::lround(clamp01(rgb[k * 3 + c]) * 255));
        out[k * 4 + 3] = static_cast<std::uint8_t>(std::lround(clamp01(alpha[k]) * 255));
    }
    return out;
}

namespace {
const Vec2 k_light = normalize({-0.55, 0.85});  // towards the light: upper left
}

void toon_outline(Canvas& canvas, const Sdf& shape, const Toon& style) {
    canvas.fill(grow(shape, style.outline_width), solid(style.outline));
}

void toon_fill(Canvas& canvas, const Sdf& shape, const Toon& style, Vec2 centre, double radius) {
    Toon s = style;
    canvas.fill(shape, [s, centre, radius](Vec2 p) {
        double t = std::clamp(dot(p - centre, k_light) / radius, -1.0, 1.0);
        return t > 0 ? mix(s.base, s.light, t) : mix(s.base, s.shadow, -t * 0.6);
    });
    if (style.shade_offset > 0)
        canvas.fill(subtract(shape, translate(shape, k_light * style.shade_offset)), solid(style.shadow),
                    style.shade_alpha);
    if (style.highlight_offset > 0)
        canvas.fill(subtract(shape, translate(shape, k_light * -style.highlight_offset)),
                    solid(mix(style.light, hex(0xffffff), 0.5)), style.highlight_alpha);
}

void toon(Canvas& canvas, const Sdf& shape, const Toon& style, Vec2 centre, double radius) {
    toon_outline(canvas, shape, style);
    toon_fill(canvas, shape, style, centre, radius);
}

}  // namespace spinegpu::rig
