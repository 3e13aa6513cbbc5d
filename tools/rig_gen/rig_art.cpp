// The demo rig's art: every region drawn procedurally in the rig's cel-shaded style (canvas.hpp).
#include <array>
#include <cstdio>
#include <string>

#include "rig_model.hpp"

namespace spinegpu::rig {
namespace {

using design::Rect;

const Rgba k_ink = hex(0x2b1d33);

const Toon k_steel{hex(0xf4f7fb), hex(0xc3cfdc), hex(0x7a88a3)};
const Toon k_gold{hex(0xfff0b0), hex(0xf5c04a), hex(0xc07e22)};
const Toon k_cape{hex(0xff8a7a), hex(0xe0444f), hex(0x962043)};
const Toon k_tunic{hex(0x8fb4ff), hex(0x4f7be0), hex(0x2c4a9a)};
const Toon k_trousers{hex(0x6f86c9), hex(0x3d4f96), hex(0x26305e)};
const Toon k_leather{hex(0xc98d5e), hex(0x9a6038), hex(0x5e3520)};
const Toon k_skin{hex(0xfff0e6), hex(0xffd6bf), hex(0xeaa98f)};
const Toon k_gem{hex(0xffa3b1), hex(0xff3d5e), hex(0xa8123d)};

Canvas make_canvas(Rect r) { return Canvas(r.x, r.y, r.w, r.h, k_art_scale); }

// Canvas over a rectangle centred on `c` with half size `half`.
Canvas canvas_around(Vec2 c, Vec2 half) { return make_canvas({c.x - half.x, c.y - half.y, half.x * 2, half.y * 2}); }

// A small white glint.
void glint(Canvas& canvas, Vec2 c, double rx, double ry, double angle = -35, double alpha = 0.85) {
    canvas.fill(ellipse(c, rx, ry, angle), solid(hex(0xffffff)), alpha);
}

void rivet(Canvas& canvas, Vec2 c, double r = 2.2) {
    canvas.fill(circle(c, r + 1.1), solid(k_ink));
    canvas.fill(circle(c, r), radial(c + Vec2{-0.6, 0.6}, r * 1.4, hex(0xffffff), hex(0x9aa6bd)));
}

Sdf helmet_opening() { return round_box(design::face_centre, design::face_half, design::face_corner); }

ArtRegion draw_shadow() {
    Canvas c = make_canvas({-62, -16, 124, 32});
    c.fill(ellipse({0, 0}, 56, 12), [](Vec2 p) {
        double r = length({p.x / 56, p.y / 12});
        return with_alpha(hex(0x4a3f5e), 0.8 * (1 - smoothstep(0.35, 1.0, r)));
    });
    return {"shadow", std::move(c)};
}

ArtRegion draw_cape() {
    Canvas c = make_canvas(design::cape_rect);
    std::vector<Vec2> outline = smooth_closed({{4, 126},  {-22, 127}, {-32, 104}, {-42, 78},  {-52, 50},
                                               {-54, 37}, {-44, 40},  {-34, 34},  {-22, 39},  {-11, 34},
                                               {-2, 38},  {2, 66},    {4, 100}},
                                              10);
    Sdf cape = polygon(outline);
    toon(c, cape, k_cape, {-20, 100}, 60);
    // Folds: darker grooves running down, lighter ridges beside them.
    for (double x : {-38.0, -24.0, -10.0}) {
        double t = (x + 38) / 28;
        Sdf groove = stroke({{x * 0.45 - 6, 112}, {x * 0.8 - 4, 80}, {x - 2, 48}, {x - 3 + 2 * t, 38}}, 3.0);
        c.fill(intersect(groove, cape), solid(k_cape.shadow), 0.6);
        Sdf ridge = stroke({{x * 0.45 - 2, 110}, {x * 0.8 + 1, 80}, {x + 3, 50}}, 2.0);
        c.fill(intersect(ridge, cape), solid(k_cape.light), 0.35);
    }
    // Gold trim along the hem.
    Sdf hem = subtract(cape, translate(cape, {0, 5}));
    c.fill(intersect(hem, grow(cape, -0.5)), solid(k_gold.base), 0.9);
    return {"cape", std::move(c), false};
}

ArtRegion draw_torso() {
    Canvas c = make_canvas(design::torso_rect);
    // Tunic skirt with a scalloped hem.
    Sdf skirt = round_box({0, 72}, {29, 15}, 10);
    for (double x : {-24.0, -12.0, 0.0, 12.0, 24.0}) skirt = unite(skirt, circle({x, 59}, 7.5));
    skirt = intersect(skirt, round_box({0, 70}, {32, 20}, 6));
    toon(c, skirt, k_tunic, {-6, 74}, 30);
    for (double x : {-18.0, -6.0, 6.0, 18.0})
        c.fill(intersect(stroke({{x, 80}, {x * 1.1, 56}}, 1.6), skirt), solid(k_tunic.shadow), 0.5);
    // Breastplate.
    Sdf plate = intersect(ellipse({1, 101}, 30, 28), round_box({1, 100}, {40, 32}, 0));
    toon(c, plate, k_steel, {-6, 110}, 32);
    c.fill(intersect(stroke({{4, 126}, {6, 100}, {4, 76}}, 2.2), plate), solid(hex(0xffffff)), 0.5);
    c.fill(intersect(stroke({{9, 126}, {11, 100}, {9, 76}}, 1.5), plate), solid(k_steel.shadow), 0.45);
    glint(c, {-14, 114}, 6, 3, 35, 0.8);
    // Collar.
    Sdf collar = ellipse({0, 126}, 17, 7);
    toon(c, collar, k_gold, {-4, 128}, 17);
    // Belt and buckle.
    Sdf belt = round_box({0, 80}, {31, 5}, 3);
    toon(c, belt, k_leather, {0, 82}, 20);
    Sdf buckle = round_box({8, 80}, {6, 6}, 2);
    toon(c, buckle, k_gold, {7, 82}, 7);
    c.fill(round_box({8, 80}, {2.4, 2.4}, 1), solid(k_leather.shadow));
    return {"torso", std::move(c), false};
}

ArtRegion draw_gem() {
    Vec2 g = design::gem;
    Canvas c = canvas_around(g, {14, 13});
    Sdf heart = unite(unite(circle(g + Vec2{-4.2, 2.6}, 5.2), circle(g + Vec2{4.2, 2.6}, 5.2)),
                      polygon({g + Vec2{-8.9, 1.0}, g + Vec2{8.9, 1.0}, g + Vec2{0, -9}}));
    Toon style = k_gem;
    style.outline_width = 2.2;
    style.shade_offset = 3;
    toon(c, heart, style, g + Vec2{-2, 3}, 9);
    glint(c, g + Vec2{-4.5, 4}, 2.2, 1.4, 35, 0.95);
    return {"gem", std::move(c)};
}

ArtRegion draw_helmet() {
    using namespace design;
    Canvas c = make_canvas({-62, 118, 124, 118});
    Sdf dome = ellipse(helmet_centre, helmet_rx, helmet_ry);
    Toon steel = k_steel;
    steel.shade_offset = 8;
    steel.outline_width = 3;
    toon(c, dome, steel, helmet_centre + Vec2{-6, 8}, 56);
    // A gold band over the crown, from the brow to the back.
    Sdf band = intersect(arc(helmet_centre + Vec2{-8, -30}, 70, 20, 160, 9), dome);
    toon_fill(c, band, k_gold, helmet_centre + Vec2{-8, 40}, 40);
    c.fill(intersect(arc(helmet_centre + Vec2{-8, -30}, 70, 20, 160, 11), subtract(dome, band)), solid(k_ink), 0.5);
    for (double a : {45.0, 68.0, 91.0, 114.0}) rivet(c, helmet_centre + Vec2{-8, -30} + dir(a) * 70, 1.8);
    // Ear plate on the far side.
    Vec2 ear{-30, 166};
    toon(c, circle(ear, 13), k_gold, ear + Vec2{-2, 3}, 13);
    c.fill(circle(ear, 7.5), solid(k_gold.shadow), 0.6);
    rivet(c, ear, 3);
    // Socket for the flame.
    Sdf socket = round_box(crest + Vec2{0, 2}, {11, 6}, 4);
    toon(c, socket, k_gold, crest + Vec2{-2, 4}, 10);
    // The opening, dark inside (the face is drawn over it, clipped to it).
    c.fill(grow(helmet_opening(), 1), solid(k_ink));
    glint(c, helmet_centre + Vec2{-30, 30}, 10, 5, 40, 0.7);
    glint(c, helmet_centre + Vec2{-42, 12}, 3, 2, 60, 0.6);
    return {"helmet", std::move(c)};
}

ArtRegion draw_visor_rim() {
    using namespace design;
    Canvas c = canvas_around(face_centre, face_half + Vec2{9, 9});
    Sdf opening = helmet_opening();
    // The helmet's shadow on the face along the top of the opening.
    c.fill(opening, [](Vec2 p) {
        double t = clamp01((design::face_centre.y + design::face_half.y - p.y) / 14);
        return with_alpha(hex(0x7a3d5a), 0.45 * (1 - t) * (1 - t));
    });
    Sdf ring = grow([opening](Vec2 p) { return std::abs(opening(p)); }, 2.6);
    c.fill(grow(ring, 1.8), solid(k_ink));
    toon_fill(c, ring, k_gold, face_centre + Vec2{-10, 20}, 34);
    for (double a : {150.0, 210.0, 270.0, 330.0})
        rivet(c, face_centre + Vec2{std::cos(deg_to_rad(a)) * 33, std::sin(deg_to_rad(a)) * 26}, 1.6);
    return {"visor-rim", std::move(c)};
}

ArtRegion draw_face() {
    using namespace design;
    Canvas c = canvas_around(face_centre, face_half + Vec2{14, 12});
    Sdf skin = round_box(face_centre, face_half + Vec2{11, 9}, face_corner + 6);
    Toon style = k_skin;
    style.outline_width = 0;
    style.shade_offset = 0;
    style.highlight_offset = 0;
    toon_fill(c, skin, style, face_centre + Vec2{-10, 10}, 40);
    for (Vec2 cheek : {Vec2{-15, -8}, Vec2{21, -8}})
        c.fill(ellipse(face_centre + cheek, 6.5, 3.8), solid(hex(0xff8a9a)), 0.5);
    return {"face", std::move(c)};
}

const Vec2 k_eye_offsets[2] = {{-12, 4}, {14, 4}};

void draw_eye(Canvas& c, Vec2 e, double lid) {
    Sdf eye = ellipse(e, 6.4, 8.4);
    if (lid != 0) eye = intersect(eye, [e, lid](Vec2 p) { return (p.y - e.y) - 3.2 + (p.x - e.x) * lid; });
    c.fill(grow(eye, 0.6), solid(k_ink));
    c.fill(eye, linear(e + Vec2{0, 8}, k_ink, e + Vec2{0, -9}, hex(0x6a4a9a)));
    c.fill(intersect(circle(e + Vec2{-2, 3.2}, 2.8), grow(eye, -0.5)), solid(hex(0xffffff)));
    c.fill(intersect(circle(e + Vec2{2.4, -3.4}, 1.4), grow(eye, -0.5)), solid(hex(0xffffff)), 0.9);
}

ArtRegion draw_eyes(const char* name) {
    using namespace design;
    Canvas c = canvas_around(face_centre + Vec2{1, 4}, {32, 16});
    std::string kind = name;
    for (int i = 0; i < 2; ++i) {
        Vec2 e = face_centre + k_eye_offsets[i];
        if (kind == "eyes-closed") {
            c.fill(arc(e + Vec2{0, -3}, 6.2, 25, 155, 3.0), solid(k_ink));
        } else if (kind == "eyes-angry") {
            double slope = i == 0 ? -0.45 : 0.45;  // lids slant down towards the nose
            draw_eye(c, e, slope);
            Vec2 b0 = e + Vec2{i == 0 ? -7.0 : 7.0, 11}, b1 = e + Vec2{i == 0 ? 6.0 : -6.0, 6.5};
            c.fill(stroke({b0, b1}, 3.2), solid(k_ink));
        } else {
            draw_eye(c, e, 0);
        }
    }
    return {name, std::move(c)};
}

ArtRegion draw_mouth(const char* name) {
    using namespace design;
    Vec2 m = face_centre + Vec2{2, -12};
    Canvas c = canvas_around(m, {12, 11});
    std::string kind = name;
    if (kind == "mouth-smile") {
        c.fill(arc(m + Vec2{0, 3}, 5, 210, 330, 2.4), solid(k_ink));
    } else {
        double rx = kind == "mouth-shout" ? 7.5 : 4.2, ry = kind == "mouth-shout" ? 6.5 : 4.8;
        Vec2 mc = m + Vec2{0, kind == "mouth-shout" ? -1.0 : -0.5};
        Sdf mouth = kind == "mouth-shout" ? intersect(ellipse(mc, rx, ry), round_box(mc + Vec2{0, -2}, {rx, ry + 1}, 0))
                                          : ellipse(mc, rx, ry);
        c.fill(grow(mouth, 1.2), solid(k_ink));
        c.fill(mouth, solid(hex(0x6a1f3a)));
        c.fill(intersect(ellipse(mc + Vec2{0, -ry * 0.75}, rx * 0.8, ry * 0.55), mouth), solid(hex(0xff7a8a)));
        if (kind == "mouth-shout")
            c.fill(intersect(round_box(mc + Vec2{0, ry - 1.2}, {rx, 1.6}, 0), mouth), solid(hex(0xffffff)));
    }
    return {name, std::move(c)};
}

// Limbs are drawn in their bone's local space: the bone runs along +x from (0, 0).
ArtRegion draw_upper_arm() {
    Canvas c = make_canvas({-16, -16, 50, 32});
    double len = design::upper_arm_length;
    Sdf arm = capsule({0, 0}, {len, 0}, 7.5, 6.5);
    toon(c, arm, k_trousers, {len / 2, 3}, 12);
    // Pauldron: a rounded shoulder plate.
    Sdf pauldron = intersect(circle({2, 0}, 12.5), round_box({4, 0}, {12, 13}, 6));
    toon(c, pauldron, k_steel, {0, 4}, 13);
    c.fill(intersect(arc({2, 0}, 8, -80, 80, 1.6), pauldron), solid(k_steel.shadow), 0.6);
    glint(c, {-3, 5}, 3.5, 1.8, 50);
    return {"upper-arm", std::move(c)};
}

ArtRegion draw_lower_arm() {
    Canvas c = make_canvas({-12, -13, 42, 26});
    double len = design::lower_arm_length;
    Sdf bracer = capsule({0, 0}, {len, 0}, 6.8, 6.2);
    toon(c, bracer, k_steel, {len / 2, 3}, 10);
    c.fill(intersect(stroke({{len * 0.55, -8}, {len * 0.55, 8}}, 1.6), bracer), solid(k_steel.shadow), 0.6);
    toon(c, circle({0, 0}, 5.2), k_gold, {-1, 1.5}, 5);
    glint(c, {len * 0.3, 3}, 3.5, 1.3, 0);
    return {"lower-arm", std::move(c)};
}

ArtRegion draw_hand() {
    Canvas c = make_canvas({-10, -13, 28, 26});
    Sdf cuff = round_box({1, 0}, {3.5, 7.5}, 2.5);
    Sdf fist = unite(circle({6.5, 0.5}, 7.6), round_box({8, -1}, {6.5, 6}, 4));
    toon(c, fist, k_leather, {5, 2}, 8);
    c.fill(intersect(stroke({{9.5, 6}, {10.5, -5}}, 1.2), fist), solid(k_leather.shadow), 0.7);
    c.fill(intersect(stroke({{13, 5}, {13.5, -4}}, 1.2), fist), solid(k_leather.shadow), 0.7);
    toon(c, cuff, k_steel, {0, 2}, 7);
    return {"hand", std::move(c)};
}

ArtRegion draw_thigh() {
    Canvas c = make_canvas({-14, -14, 56, 28});
    double len = design::thigh_length;
    Sdf thigh = capsule({0, 0}, {len, 0}, 9.5, 8);
    toon(c, thigh, k_trousers, {len / 2, 4}, 13);
    glint(c, {len * 0.35, 4.5}, 4.5, 1.4, 0, 0.35);
    return {"thigh", std::move(c)};
}

ArtRegion draw_shin() {
    Canvas c = make_canvas({-14, -14, 54, 28});
    double len = design::shin_length;
    Sdf greave = capsule({2, 0}, {len, 0}, 8.5, 7.2);
    toon(c, greave, k_steel, {len / 2, 3}, 12);
    glint(c, {len * 0.5, 3.5}, 5, 1.5, 0, 0.7);
    // Knee cop.
    Sdf cop = circle({0, 0}, 8.5);
    toon(c, cop, k_steel, {-1, 2}, 9);
    c.fill(grow([cop](Vec2 p) { return std::abs(cop(p) + 2.6); }, 0.9), solid(k_gold.base));
    return {"shin", std::move(c)};
}

ArtRegion draw_boot() {
    // Drawn around the ankle (the foot bone), sole on the ground 11.2 units below.
    Canvas c = make_canvas({-17, -16, 48, 32});
    Sdf boot = polygon(smooth_closed({{-9, 8}, {8, 8}, {9, 0}, {14, -3}, {22, -4}, {25, -8}, {23, -11.2},
                                      {-10, -11.2}, {-11, -4}},
                                     10));
    toon(c, boot, k_leather, {4, 2}, 16);
    c.fill(intersect(boot, round_box({6, -12}, {22, 2.6}, 0)), solid(hex(0x3a2230)), 0.9);
    Sdf cuff = round_box({-0.5, 6.5}, {10.5, 3.4}, 2);
    toon(c, cuff, k_gold, {-2, 8}, 10);
    glint(c, {14, -3}, 4, 1.4, -15, 0.5);
    return {"boot", std::move(c)};
}

ArtRegion draw_sword() {
    // Sword bone space: the grip centred at the origin, the blade along +x.
    Canvas c = make_canvas({-22, -18, 132, 36});
    Sdf blade = polygon({{13, -5.6}, {92, -5.6}, {106, 0}, {92, 5.6}, {13, 5.6}});
    Toon steel = k_steel;
    steel.shade_offset = 3;
    toon(c, blade, steel, {55, 3}, 12);
    c.fill(intersect(stroke({{16, 0}, {90, 0}}, 1.6), blade), solid(k_steel.shadow), 0.7);
    c.fill(intersect(stroke({{16, 1.6}, {90, 1.6}}, 1.2), blade), solid(hex(0xffffff)), 0.7);
    Sdf grip = round_box({0, 0}, {11, 3.6}, 2);
    toon(c, grip, k_leather, {0, 2}, 6);
    for (double x : {-7.0, -2.0, 3.0, 8.0}) c.fill(intersect(stroke({{x - 1.5, -4}, {x + 1.5, 4}}, 1.0), grip), solid(k_leather.shadow), 0.8);
    Sdf guard = round_box({12, 0}, {3.6, 14}, 3);
    toon(c, guard, k_gold, {11, 4}, 10);
    Vec2 pommel{-14, 0};
    toon(c, circle(pommel, 5.4), k_gold, pommel + Vec2{-1, 2}, 6);
    c.fill(circle(pommel, 2.6), solid(k_gem.base));
    glint(c, pommel + Vec2{-0.8, 0.9}, 1.1, 0.8, 0, 0.9);
    return {"sword", std::move(c)};
}

// One frame of the crest flame: a teardrop whose tip sways and whose sides lick, nested three times.
ArtRegion draw_flame(int frame) {
    const std::array<double, 4> tip_x{-3, 2, 5, -1}, tip_y{52, 47, 54, 45}, lick{3, -2, 1, -3};
    Vec2 base = design::crest + Vec2{0, 10};
    auto flame = [&](double w, double h, double scale_tip) {
        double tx = tip_x[static_cast<std::size_t>(frame)] * scale_tip;
        double wig = lick[static_cast<std::size_t>(frame)];
        std::vector<Vec2> pts{{0, -w * 0.95}, {w, -w * 0.25},       {w * 0.85, h * 0.32 + wig},
                              {w * 0.4, h * 0.68}, {tx, h},         {-w * 0.45, h * 0.6 - wig * 0.5},
                              {-w * 0.9, h * 0.3 - wig},            {-w, -w * 0.25}};
        for (Vec2& p : pts) p = p + base;
        return polygon(smooth_closed(pts, 12));
    };
    double h = tip_y[static_cast<std::size_t>(frame)];
    Canvas c = make_canvas(design::flame_rect);
    Sdf outer = flame(15, h, 1), middle = flame(10, h * 0.72, 0.7), core = flame(6, h * 0.45, 0.4);
    c.fill(grow(outer, 2.2), solid(hex(0x8a2414)));
    c.fill(outer, linear(base + Vec2{0, h}, hex(0xff3a1a), base, hex(0xff7a1f)));
    c.fill(middle, linear(base + Vec2{0, h * 0.7}, hex(0xff9a2a), base, hex(0xffc53a)));
    c.fill(core, solid(hex(0xfff3b0)));
    char name[16];
    std::snprintf(name, sizeof name, "flame_%02d", frame);
    return {name, std::move(c)};
}

ArtRegion draw_crest_glow() {
    Vec2 g = design::crest + Vec2{0, 24};
    Canvas c = canvas_around(g, {60, 60});
    c.fill(circle(g, 58), [g](Vec2 p) {
        double t = clamp01(length(p - g) / 58);
        return with_alpha(hex(0xff8a30), 0.85 * (1 - t) * (1 - t));
    });
    return {"crest-glow", std::move(c)};
}

}  // namespace

std::vector<ArtRegion> draw_art() {
    std::vector<ArtRegion> regions;
    regions.push_back(draw_shadow());
    regions.push_back(draw_cape());
    regions.push_back(draw_torso());
    regions.push_back(draw_gem());
    regions.push_back(draw_helmet());
    regions.push_back(draw_visor_rim());
    regions.push_back(draw_face());
    for (const char* name : {"eyes-open", "eyes-closed", "eyes-angry"}) regions.push_back(draw_eyes(name));
    for (const char* name : {"mouth-smile", "mouth-open", "mouth-shout"}) regions.push_back(draw_mouth(name));
    regions.push_back(draw_upper_arm());
    regions.push_back(draw_lower_arm());
    regions.push_back(draw_hand());
    regions.push_back(draw_thigh());
    regions.push_back(draw_shin());
    regions.push_back(draw_boot());
    regions.push_back(draw_sword());
    for (int frame = 0; frame < 4; ++frame) regions.push_back(draw_flame(frame));
    regions.push_back(draw_crest_glow());
    return regions;
}

}  // namespace spinegpu::rig
