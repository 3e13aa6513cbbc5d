// The immutable Spine 4.2 skeleton data model.
//
// Everything a 4.2 export can say, in flat arrays with integer indices. Names live only in NameTables (used at load
// time and by the API); the runtime reads the arrays. Variable-length parts (bone lists, vertices, keyframes,
// curves) live in a few shared pools and are referenced by {offset, count} ranges, so one skeleton type is a
// handful of allocations however many attachments and timelines it has.
//
// The loaders (skeleton_loader.hpp) build it; bind_atlas() (attachment_binding.hpp) resolves its attachments
// against an atlas. Once built it is never modified, and any number of characters share it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/core/name_table.hpp"

namespace spinegpu {

// A range in one of SkeletonData's pools.
struct Range {
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
};

// How a bone inherits its parent's transform (Spine's Inherit enum, same order).
enum class Inherit : std::uint8_t {
    normal,
    only_translation,
    no_rotation_or_reflection,
    no_scale,
    no_scale_or_reflection,
};

enum class BlendMode : std::uint8_t { normal, additive, multiply, screen };

struct BoneData {
    Index parent = k_none;  // always a lower index than the bone's own
    float length = 0;
    float x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, shear_x = 0, shear_y = 0;
    // The setup rotation as the official runtime holds it: a JSON export's number as a double, a binary export's float
    // (loaders set it; setup_rotation reads it). Its mixing of rotations across tracks is discontinuous (the shortest
    // way, and a difference of exactly 0 keeping the last total), so a rounding there can turn a bone half a turn.
    double rotation_double = 0;
    Inherit inherit = Inherit::normal;
    bool skin_required = false;
    bool visible = true;           // nonessential
    Color color{0.61f, 0.61f, 0.61f, 1.0f};  // nonessential, editor colour
    std::string icon;              // nonessential
};

// A bone's setup rotation as the official runtime holds it: rotation_double, unless the data was changed or built
// without it (rotation_double then does not round to rotation), then rotation.
inline double setup_rotation(const BoneData& bone) {
    return static_cast<float>(bone.rotation_double) == bone.rotation ? bone.rotation_double : bone.rotation;
}

// The x axis of a bone's setup pose as the runtime composes a world transform from it: the angle rotation +
// shear x (degrees, summed in double) and the sine and cosine of that angle in radians, as the runtime computes them
// (fast_sincos). A bone whose angle has exactly these bits in a frame takes them instead of computing them again, which
// most bones of most animations can: they are not rotated.
struct BoneSetupAxis {
    double angle = 0, sin = 0, cos = 1;
};

struct SlotData {
    Index bone = 0;
    Color color;
    bool has_dark = false;         // two-color tint: dark colour present
    Color dark{0, 0, 0, 1};        // rgb used, alpha ignored
    Index attachment_name = k_none;  // index into SkeletonData::attachment_names, k_none for no attachment
    // What attachment_name names in the default skin for this slot (k_none if nothing), resolved by
    // finish_skeleton_data so that the runtime need not search for it.
    Index default_attachment = k_none;
    BlendMode blend = BlendMode::normal;
    bool visible = true;           // nonessential
};

// ---------------------------------------------------------------------------------------------------------------
// Constraints. `order` is the position in the skeleton's update order across all four kinds.

struct IkConstraintData {
    std::int32_t order = 0;
    bool skin_required = false;
    Range bones;                   // in SkeletonData::indices (1 or 2 bones)
    Index target = 0;              // bone
    float mix = 1, softness = 0;
    std::int8_t bend_direction = 1;  // +1 or -1
    bool compress = false, stretch = false, uniform = false;
};

struct TransformConstraintData {
    std::int32_t order = 0;
    bool skin_required = false;
    Range bones;                   // in SkeletonData::indices
    Index target = 0;              // bone
    float mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1;
    float offset_rotation = 0, offset_x = 0, offset_y = 0, offset_scale_x = 0, offset_scale_y = 0, offset_shear_y = 0;
    bool relative = false, local = false;
};

enum class PositionMode : std::uint8_t { fixed, percent };
enum class SpacingMode : std::uint8_t { length, fixed, percent, proportional };
enum class RotateMode : std::uint8_t { tangent, chain, chain_scale };

struct PathConstraintData {
    std::int32_t order = 0;
    bool skin_required = false;
    Range bones;                   // in SkeletonData::indices
    Index target = 0;              // slot
    PositionMode position_mode = PositionMode::percent;
    SpacingMode spacing_mode = SpacingMode::length;
    RotateMode rotate_mode = RotateMode::tangent;
    float offset_rotation = 0, position = 0, spacing = 0;
    float mix_rotate = 1, mix_x = 1, mix_y = 1;
};

struct PhysicsConstraintData {
    std::int32_t order = 0;
    bool skin_required = false;
    Index bone = 0;
    float x = 0, y = 0, rotate = 0, scale_x = 0, shear_x = 0;
    float limit = 5000;
    float step = 1.0f / 60;        // 1 / fps
    float inertia = 1, strength = 100, damping = 1, mass_inverse = 1, wind = 0, gravity = 0, mix = 1;
    bool inertia_global = false, strength_global = false, damping_global = false, mass_global = false,
         wind_global = false, gravity_global = false, mix_global = false;
};

// Which of the four constraint arrays a constraint reference points into.
enum class ConstraintKind : std::uint8_t { ik, transform, path, physics };

struct ConstraintRef {
    ConstraintKind kind = ConstraintKind::ik;
    Index index = 0;
    friend bool operator==(const ConstraintRef&, const ConstraintRef&) = default;
};

// ---------------------------------------------------------------------------------------------------------------
// Attachments

enum class AttachmentType : std::uint8_t { region, mesh, bounding_box, path, point, clipping };

// Spine's SequenceMode, same order.
enum class SequenceMode : std::uint8_t { hold, once, loop, pingpong, once_reverse, loop_reverse, pingpong_reverse };

// A frame-by-frame sequence on a region or mesh attachment: `count` images named path + (start + i) padded to
// `digits`. `id` is unique across the skeleton (sequence timelines and the runtime's caches key on it).
struct SequenceData {
    std::int32_t id = 0;
    std::int32_t count = 0, start = 1, digits = 0, setup_index = 0;
};

struct AttachmentData {
    AttachmentType type = AttachmentType::region;
    Index name = k_none;           // into SkeletonData::attachment_names (the name inside the skin entry's slot)
    // Into attachment_names: Spine's own Attachment.name, the export's "name" field, which defaults to the skin
    // key (`name`) but may differ (goblins: key "head", name "goblin/head"). The official runtime reports this
    // one as a slot's attachment name. k_none means "same as `name`".
    Index spine_name = k_none;
    Index path = k_none;           // into SkeletonData::attachment_paths: the atlas region name (region, mesh)
    Color color;
    Index sequence = k_none;       // into SkeletonData::sequences (region, mesh)

    // Region attachment.
    float x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, width = 32, height = 32;

    // Vertex attachments (mesh, bounding box, path, clipping). Spine's layout: for unweighted, `vertices` holds
    // world_vertices_length floats (x, y); for weighted, `bones` holds per vertex [n, bone0 .. bone(n-1)] and
    // `vertices` holds per influence (x, y, weight). `vertex_id` is unique across the skeleton.
    std::int32_t vertex_id = 0;
    Range bones;                   // in SkeletonData::indices, empty when unweighted
    Range vertices;                // in SkeletonData::floats
    std::uint32_t world_vertices_length = 0;  // 2 x vertex count
    // The attachment whose deform timelines drive this one: itself, or for a linked mesh that inherits timelines,
    // its parent mesh.
    Index timeline_attachment = k_none;

    // Mesh attachment (a linked mesh shares its parent's geometry ranges after resolution).
    Range region_uvs;              // in floats: 2 per vertex, in the region's [0,1] space
    Range triangles;               // in SkeletonData::triangles
    std::uint32_t hull_length = 0; // nonessential-free: number of hull vertices x 2
    Range edges;                   // in indices (nonessential)
    float mesh_width = 0, mesh_height = 0;  // nonessential
    Index parent_mesh = k_none;    // linked meshes: the mesh whose geometry this one uses

    // Path attachment.
    bool closed = false, constant_speed = true;
    Range lengths;                 // in floats

    // Point attachment: x, y, rotation above.

    // Clipping attachment.
    Index end_slot = k_none;
};

// The editor colours of point and clipping attachments when an export stores none (nonessential data), as the
// official loaders default them.
inline constexpr Color k_default_point_color{0.38f, 0.94f, 0, 1};
inline constexpr Color k_default_clipping_color{0.2275f, 0.2275f, 0.8078f, 1};

// One attachment of a skin: the attachment at (slot, name).
struct SkinEntry {
    Index slot = 0;
    Index name = 0;                // into SkeletonData::attachment_names
    Index attachment = 0;          // into SkeletonData::attachments
};

struct SkinData {
    std::vector<SkinEntry> entries;  // sorted by (slot, name)
    std::vector<Index> bones;
    std::vector<ConstraintRef> constraints;
    Color color{0.99607843f, 0.61960787f, 0.30980393f, 1};  // nonessential
};

struct EventData {
    std::int32_t int_value = 0;
    float float_value = 0;
    std::string string_value;
    std::string audio_path;
    float volume = 1, balance = 0;
};

// ---------------------------------------------------------------------------------------------------------------
// Animations

enum class TimelineType : std::uint8_t {
    // bones (target = bone)
    rotate, translate, translate_x, translate_y, scale, scale_x, scale_y, shear, shear_x, shear_y, inherit,
    // slots (target = slot)
    rgba, rgb, alpha, rgba2, rgb2, attachment,
    deform,      // target = slot, attachment = the vertex attachment
    sequence,    // target = slot, attachment = the region or mesh attachment
    // skeleton-wide (target = k_none)
    draw_order, event,
    // constraints (target = constraint index; for physics k_none means every physics constraint)
    ik, transform, path_position, path_spacing, path_mix,
    physics_inertia, physics_strength, physics_damping, physics_mass, physics_wind, physics_gravity, physics_mix,
    physics_reset,
};

inline constexpr int k_timeline_type_count = static_cast<int>(TimelineType::physics_reset) + 1;

// Curve types stored in the curves pool, as Spine stores them: linear, stepped, or bezier_base + the index of the
// bezier's 18 samples (relative to the timeline's curve range).
inline constexpr float k_curve_linear = 0, k_curve_stepped = 1, k_curve_bezier = 2;
inline constexpr int k_bezier_size = 18;  // 9 (x, y) samples per bezier segment

// One timeline. Keyframes are `frame_count` rows of `entries` floats in SkeletonData::frames (time first, then the
// values; layouts below). Curve timelines have `curves`: frame_count curve types, then 18 floats per bezier
// segment, in SkeletonData::curves, laid out as the official runtime samples them (one bezier per value per frame).
//
// Row layouts (entries): rotate/translate_x/.../shear_y/alpha/path_position/path_spacing/physics_* (2: time, value);
// translate/scale/shear (3: time, x, y); inherit (2: time, inherit); rgba (5); rgb (4); rgba2 (8: r g b a r2 g2 b2);
// rgb2 (7); ik (6: time, mix, softness, bend direction, compress, stretch); transform (7: time, rotate, x, y,
// scale x, scale y, shear y); path_mix (4: time, rotate, x, y); sequence (3: time, mode | index << 4, delay);
// attachment/deform/draw_order/event/physics_reset (1: time).
//
// `aux` holds what does not fit in floats: attachment names per frame (indices, k_none for none; finish_skeleton_data
// puts them in a block of their own, followed by the attachment each name has in the default skin for the slot,
// k_none if none, so that applying a key needs no search of the default skin: aux.count is then frame_count, name k
// at aux.offset + k and its attachment at aux.offset + aux.count + k) and draw orders per frame (offset
// into indices of slot_count slot indices, or k_none for the setup order) in SkeletonData::indices; event keys in
// SkeletonData::event_keys; deform vertices in SkeletonData::floats, per frame as many floats as the official
// runtime keeps: world_vertices_length for an unweighted attachment (setup vertices already added), 2 per bone
// influence (vertices.count / 3 * 2, offsets only) for a weighted one.
struct TimelineData {
    TimelineType type = TimelineType::rotate;
    std::uint8_t entries = 2;
    Index target = k_none;
    Index attachment = k_none;     // deform, sequence
    std::uint32_t frame_count = 0;
    std::uint32_t frames = 0;      // offset into SkeletonData::frames
    Range curves;                  // in SkeletonData::curves, empty for timelines without curves
    Range aux;
};

// An event key as stored in an event timeline: the event and the values this key overrides.
struct EventKey {
    float time = 0;
    Index event = 0;
    std::int32_t int_value = 0;
    float float_value = 0;
    Index string_value = k_none;   // into SkeletonData::strings, k_none for the event's own string
    float volume = 1, balance = 0;
};

struct AnimationData {
    float duration = 0;
    Range timelines;               // in SkeletonData::timelines
};

// ---------------------------------------------------------------------------------------------------------------

// Poses, animation states, crowds and renderers made from one hold its address: keep it in place while they live
// (hold it through a std::unique_ptr, say; moving it, or keeping several in a std::vector that grows, leaves them
// pointing at the old place).
struct SkeletonData {
    // Skeleton info.
    std::string hash, version, images_path, audio_path;
    float x = 0, y = 0, width = 0, height = 0;
    float reference_scale = 100;
    float fps = 30;                // nonessential

    // Bones, slots, skins, constraints, events, animations: data array + names in the same order.
    std::vector<BoneData> bones;
    NameTable bone_names;
    std::vector<BoneSetupAxis> bone_setup_axes;  // per bone, derived by finish_skeleton_data (not to be written)
    std::vector<SlotData> slots;
    NameTable slot_names;
    std::vector<SkinData> skins;
    NameTable skin_names;
    Index default_skin = k_none;
    std::vector<IkConstraintData> ik_constraints;
    NameTable ik_names;
    std::vector<TransformConstraintData> transform_constraints;
    NameTable transform_names;
    std::vector<PathConstraintData> path_constraints;
    NameTable path_names;
    std::vector<PhysicsConstraintData> physics_constraints;
    NameTable physics_names;
    std::vector<EventData> events;
    NameTable event_names;
    std::vector<AnimationData> animations;
    NameTable animation_names;

    // Attachments of all skins, in load order. Attachment names (skin keys) and paths (region names) are interned.
    std::vector<AttachmentData> attachments;
    NameTable attachment_names;
    NameTable attachment_paths;
    std::vector<SequenceData> sequences;

    // Pools.
    std::vector<Index> indices;            // bone lists, weighted-vertex bone indices, edges, draw orders, names
    std::vector<float> floats;             // vertices, region UVs, path lengths, deform keys
    std::vector<std::uint16_t> triangles;  // mesh triangle indices
    std::vector<TimelineData> timelines;
    std::vector<float> frames;
    std::vector<float> curves;
    std::vector<EventKey> event_keys;
    NameTable strings;                     // event key strings

    // Constraint update order, as the runtime builds its update cache: for each order 0 .. constraint count - 1,
    // the first constraint with that order, looking at IK, then transform, path and physics constraints. A
    // constraint whose order is taken or too large is left out (the runtime never updates it either).
    std::vector<ConstraintRef> constraint_order;

    // Set by finish_skeleton_data. The runtime reads what it resolves (default-skin attachments), so poses and
    // animation states need finished data; the loaders always finish it.
    bool finished = false;

    // Returns the attachment of `skin` at (slot, name), or k_none. Load-time and API helper (binary search).
    Index find_skin_attachment(Index skin, Index slot, Index name) const;

    // Views of a pool range.
    std::span<const Index> index_span(Range r) const { return {indices.data() + r.offset, r.count}; }
    std::span<const float> float_span(Range r) const { return {floats.data() + r.offset, r.count}; }
};

// Sorts each skin's entries by (slot, name), keeping the last attachment of a key set twice, fills
// constraint_order and bone_setup_axes, and resolves in the default skin each slot's setup attachment
// (SlotData::default_attachment) and each attachment timeline key (after the key names, see TimelineData), then sets
// `finished`. Loaders call it last. Calling it again after adding timelines resolves them too; each call moves every
// attachment timeline's keys to a new block and leaves the old one unused, so it is meant to run once per change, not
// per frame.
void finish_skeleton_data(SkeletonData& data);

// Returns the Spine name of a timeline type ("rotate", "rgba2", "physicsReset"...), as `info` prints it.
const char* timeline_type_name(TimelineType type);

// Returns the Spine name of an attachment type ("region", "mesh", "boundingbox", "path", "point", "clipping").
const char* attachment_type_name(AttachmentType type);

// Returns the Spine name of a blend mode ("normal", "additive", "multiply", "screen").
const char* blend_mode_name(BlendMode mode);

// Returns the Spine name of an inherit mode ("normal", "onlyTranslation", ... "noScaleOrReflection").
const char* inherit_name(Inherit inherit);

}  // namespace spinegpu
