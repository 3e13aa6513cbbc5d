// The demo rig's skeleton: bones, slots, the default skin's attachments, the IK constraints and the events, written
// as a Spine 4.2 JSON export. Animations are in rig_animations.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "json_value.hpp"
#include "rig_model.hpp"

namespace spinegpu::rig {

// A weighted mesh attachment: a grid over a drawn region, bound to a few bones.
struct MeshDef {
    std::string slot, name, region;
    design::Rect rect;                                        // the region's art rectangle (world space)
    std::vector<Vec2> world;                                  // setup-pose vertex positions
    std::vector<std::vector<std::pair<int, double>>> weights; // per vertex: (bone index, weight), weights sum to 1
    std::vector<int> triangles;
    int hull = 0;                                             // the first `hull` vertices are the outline

    // Spine's deform key for a world-space displacement per vertex: one bone-local offset per influence.
    std::vector<double> deform(const Skeleton& skeleton, const std::vector<Vec2>& displacement) const;
};

struct SlotDef {
    std::string name, bone, attachment;
    std::string color;   // "rrggbbaa", empty for white
    std::string dark;    // "rrggbb" for two-color tint, empty for none
    std::string blend;   // "additive", "multiply", empty for normal
};

// The bone hierarchy in the setup pose (IK targets placed where the legs already reach).
Skeleton build_bones();

// Slots in setup draw order.
std::vector<SlotDef> build_slots();

MeshDef torso_mesh(const Skeleton& skeleton);
MeshDef cape_mesh(const Skeleton& skeleton);

// The whole export minus "animations": skeleton info, bones, slots, ik, skins, events.
Json skeleton_json(const Skeleton& skeleton, const std::vector<ArtRegion>& art);

// Sets skeleton.hash to a digest of the rest of the file (call once the file is complete).
void set_hash(Json& root);

// The "animations" object: idle, walk, run (loops) and attack (one shot with events).
Json animations_json(const Skeleton& skeleton);

}  // namespace spinegpu::rig
