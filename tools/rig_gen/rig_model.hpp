// The demo rig's model, shared by the generator's parts: the bone hierarchy in the setup pose, the drawn regions,
// and the few design measurements that the art and the skeleton must agree on.
//
// The character ("Pip the ember knight") faces right; world units, y up, the root between the feet on the ground.
// Art is drawn in its own "art space" (world space for the body parts, a bone's local space for limbs), and every
// attachment records the world frame of its art space, so its bone-local placement follows from the setup pose.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canvas.hpp"
#include "rig_math.hpp"

namespace spinegpu::rig {

// Pixels per world unit in the atlas page (the attachments keep their sizes in world units).
inline constexpr double k_art_scale = 2.0;

struct BoneDef {
    std::string name, parent;
    Vec2 world;                  // setup-pose world position
    double world_rotation = 0;   // setup-pose world rotation, degrees
    double length = 0;
    bool no_rotation = false;    // "inherit": "noRotationOrReflection"
};

// Bones in parent-first order with their setup-pose world frames.
class Skeleton {
public:
    // Adds a bone; `parent` must already exist (empty for the root).
    void add(BoneDef bone);
    const std::vector<BoneDef>& bones() const { return bones_; }
    int index(std::string_view name) const;  // precondition: the bone exists
    const BoneDef& bone(std::string_view name) const { return bones_[static_cast<std::size_t>(index(name))]; }
    Frame frame(std::string_view name) const;
    // The local (parent-space) position and rotation the JSON stores for bone `name`.
    Vec2 local_position(std::string_view name) const;
    double local_rotation(std::string_view name) const;

private:
    std::vector<BoneDef> bones_;
};

// A drawn region before packing: its pixels cover `canvas`'s art-space rectangle.
struct ArtRegion {
    std::string name;
    Canvas canvas;
    // Strip transparent borders when packing (recorded as offsets). Mesh regions keep their full size: their UVs
    // span the whole image, and stripped borders would make them sample the neighbouring regions.
    bool trim = true;
};

// Design measurements shared by the art and the skeleton (world units).
namespace design {
inline constexpr Vec2 hip{0, 70};
inline constexpr Vec2 torso{0, 78};
inline constexpr Vec2 neck{0, 120};
inline constexpr Vec2 head{0, 128};
inline constexpr Vec2 helmet_centre{2, 178};
inline constexpr double helmet_rx = 56, helmet_ry = 52;
inline constexpr Vec2 face_centre{18, 170};        // the face bone and the centre of the helmet's opening
inline constexpr Vec2 face_half{29, 23};
inline constexpr double face_corner = 19;
inline constexpr Vec2 crest{0, 226};
inline constexpr Vec2 gem{-9, 97};

inline constexpr Vec2 front_shoulder{10, 112};
inline constexpr Vec2 back_shoulder{-12, 114};
inline constexpr double upper_arm_length = 22, lower_arm_length = 18, hand_length = 8;
inline constexpr Vec2 front_hip{7, 66};
inline constexpr Vec2 back_hip{-8, 66};
inline constexpr double thigh_length = 28, shin_length = 28;
inline constexpr Vec2 cape_top{-12, 121};
inline constexpr double cape_lengths[3] = {28, 28, 26};

// Art-space rectangles (x0, y0, width, height) of the parts drawn in world space.
struct Rect {
    double x, y, w, h;
};
inline constexpr Rect torso_rect{-38, 48, 76, 86};
inline constexpr Rect cape_rect{-60, 30, 70, 100};
inline constexpr Rect flame_rect{-24, 218, 48, 76};
}  // namespace design

// Every region of the atlas, drawn (rig_art.cpp). Sequence frames are named "flame_00".."flame_03".
std::vector<ArtRegion> draw_art();

}  // namespace spinegpu::rig
