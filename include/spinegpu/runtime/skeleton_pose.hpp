// The pose of one character: everything the official runtime's Skeleton, Bone, Slot and constraint objects hold
// that changes while it plays, as flat arrays indexed like SkeletonData's. Allocated once when the character is
// created (sized by its SkeletonData); nothing in the per-frame path allocates.
//
// Semantics are the official Spine 4.2 runtime's to the last detail that changes a pixel: bone inherit modes,
// update order (the update cache), skins with skin-required bones and constraints, IK, transform, path and physics
// constraints, sequences, deform. The GPU layer reads the world transforms, slots and draw order from here.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spinegpu/core/color.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu {

// How physics constraints behave in update_world_transform (Spine's Physics enum, same order).
enum class Physics : std::uint8_t {
    none,    // physics are not updated or applied
    reset,   // physics are reset to the current pose
    update,  // physics are updated and the pose from physics is applied
    pose,    // physics are not updated but the pose from physics is applied
};

// A bone's local transform: the setup/animated pose (BonePose::local) or the applied pose (BonePose::applied,
// Spine's ax, ay, arotation...), which constraints may change after world transforms are computed.
struct BoneTransform {
    float x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, shear_x = 0, shear_y = 0;
};

// A bone's world transform: the 2x2 matrix (a b / c d) and the world position. All zero until first computed, as
// in the official runtime (a bone that its skin never activates keeps these values, and pose dumps print them).
struct BoneWorld {
    float a = 0, b = 0, c = 0, d = 0, x = 0, y = 0;
};

struct SlotPose {
    Color color;
    Color dark{0, 0, 0, 1};        // used when SlotData::has_dark
    Index attachment = k_none;     // into SkeletonData::attachments
    std::int32_t sequence_index = -1;   // -1: the sequence's setup index
    // Deform: `deform_count` floats at `deform_offset` in SkeletonPose::deform (Spine's Slot.deform). Count 0 means
    // no deform is applied. The capacity reserved for the slot is the largest vertex attachment it can show.
    std::uint32_t deform_offset = 0;
    std::uint32_t deform_count = 0;
    std::uint32_t deform_capacity = 0;
};

struct IkPose {
    float mix = 1, softness = 0;
    std::int8_t bend_direction = 1;
    bool compress = false, stretch = false;
    bool active = false;
};

struct TransformPose {
    float mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1;
    bool active = false;
};

struct PathPose {
    float position = 0, spacing = 0, mix_rotate = 1, mix_x = 1, mix_y = 1;
    bool active = false;
};

// A physics constraint's parameters (animatable) and its simulation state (Spine's PhysicsConstraint fields). The
// state is double, as the official runtime keeps it: how many fixed steps a frame takes depends on the rounding of
// `remaining` and `last_time`, and one step more or less moves a springy bone visibly.
struct PhysicsPose {
    float inertia = 0, strength = 0, damping = 0, mass_inverse = 0, wind = 0, gravity = 0, mix = 0;
    bool active = false;
    bool reset = true;
    double ux = 0, uy = 0, cx = 0, cy = 0, tx = 0, ty = 0;
    double x_offset = 0, x_lag = 0, x_velocity = 0;
    double y_offset = 0, y_lag = 0, y_velocity = 0;
    double rotate_offset = 0, rotate_lag = 0, rotate_velocity = 0;
    double scale_offset = 0, scale_lag = 0, scale_velocity = 0;
    double remaining = 0, last_time = 0;
    double fixed_step = 0;  // the data's fixed step as the runtime holds it (a double), computed on first use
};

// One step of the update cache: update a bone's world transform, or apply a constraint.
struct UpdateStep {
    enum class Kind : std::uint8_t { bone, ik, transform, path, physics };
    Kind kind = Kind::bone;
    // Transform, path and physics steps end by recomputing their bones' applied poses from the world transforms
    // (Spine's updateAppliedTransform). update_cache clears this when no later step of the cache reads those applied
    // poses; the step then skips that work, whose result the next update_world_transform overwrites unread.
    bool update_applied = true;
    Index index = 0;
    Index parent = k_none;  // bone steps: the bone's parent (read once per step, without the BoneData lookup)
};

// Where a crowd's update (batch_update.hpp) left a pose's world transforms: the skeleton position and scale they
// were computed at or last moved to, whether they have been computed, and whether the frames since were passed over
// unposed (PoseFilter). Kept by update_characters and update_in_order only.
struct PosedAt {
    float x = 0, y = 0, scale_x = 1, scale_y = 1;
    bool computed = false;  // a crowd update computed the world transforms
    bool skipped = false;   // frames since then were not posed: the world transforms are stale (moved with x, y)
    // Grows with each move of passed-over world transforms (a move adds (dx, dy), computed in floats, to every active
    // bone's x and y) by a bound on how far that move's rounding can carry any of those coordinates from the exact
    // shift by the change of (x, y). So each active bone lies within `drift` of where it lay when the world
    // transforms took their shape_stamp, moved by the change of (x, y) since. Set to 0 when a crowd update poses the
    // character; never negative.
    double drift = 0;
};

struct SkeletonPose {
    const SkeletonData* data = nullptr;

    // Bones, in SkeletonData order.
    std::vector<BoneTransform> local;    // the pose timelines write (Spine's x, y, rotation...)
    // Spine's ax, ay, arotation... After update_world_transform, a bone that a constraint moved in world space last
    // holds the pose before that constraint unless a later step needed it (see UpdateStep::update_applied);
    // update_applied_transform recovers it.
    std::vector<BoneTransform> applied;
    std::vector<Inherit> inherit;        // animatable (inherit timelines)
    std::vector<BoneWorld> world;
    std::vector<std::uint8_t> bone_active;  // skin-required bones are inactive unless the skin has them
    std::vector<std::uint8_t> bone_sorted;  // scratch for building the update cache

    // Slots, in SkeletonData order; draw_order holds slot indices in the current drawing order.
    std::vector<SlotPose> slots;
    std::vector<Index> draw_order;
    std::vector<float> deform;           // pool for SlotPose deform ranges
    // Set (and kept) once a deform timeline was applied in a way that can carry vertices beyond its keys: added to
    // the pose (MixBlend::add) or mixed with an alpha outside 0..1. Deforms mixed within their keys (and curves
    // overshooting them, which the data bounds) are not; gpu's culling widens a character's box by its deforms' actual
    // extent only while this is set. Code that writes `deform` itself sets it.
    bool deform_beyond_keys = false;
    // Per slot, AnimationState's bookkeeping (Spine's Slot.attachmentState; 64 bits, so that it never wraps), kept
    // apart from SlotPose, which drawing reads.
    std::vector<std::int64_t> attachment_states;

    std::vector<IkPose> ik;
    std::vector<TransformPose> transform;
    std::vector<PathPose> path;
    std::vector<PhysicsPose> physics;

    std::vector<UpdateStep> update_cache;

    // The current skin: a skin of the data (`skin` >= 0), the pose's own combined skin (`skin == k_custom_skin`,
    // stored in `custom_skin`), or none.
    static constexpr Index k_custom_skin = -2;
    Index skin = k_none;
    SkinData custom_skin;

    // Skeleton-wide state (Spine's Skeleton fields).
    Color color;
    float x = 0, y = 0, scale_x = 1, scale_y = 1;
    double time = 0;                     // physics time, advanced by update_time() (double: see PhysicsPose)
    float wind_x = 1, wind_y = 0, gravity_x = 0, gravity_y = 1;
    PosedAt posed_at;
    // Changes whenever the runtime changes the world transforms or the bones' activity (update_world_transform,
    // update_bone_world, update_cache, a crowd update moving a passed-over character's), to a number no other pose
    // has held unless copied from this one; 0 before the first. So something derived from them (gpu's culling box of
    // a character outside the view) may be kept while it stays. Code that writes `world` or `bone_active` itself
    // calls renew_world_stamps.
    std::uint64_t world_stamp = 0;
    // As world_stamp, but kept when a crowd update moves a passed-over character's world transforms with its
    // skeleton position: world transforms of one shape_stamp (in this pose and in copies of it) differ only by such
    // moves, each within its PosedAt::drift, so a box derived from them may be moved along instead of derived again.
    std::uint64_t shape_stamp = 0;

    // Scratch for path constraints (positions, spaces, lengths, curves), sized at creation.
    std::vector<float> path_scratch;

    // The skin object in use, or null.
    const SkinData* current_skin() const;
};

// Creates a character's pose for `data` in the setup pose with no skin, update cache built. `data` must outlive it
// in place and be finished (finish_skeleton_data, as the loaders leave it).
SkeletonPose create_pose(const SkeletonData& data);

// Spine's Skeleton.setToSetupPose: bones, constraints and slots to setup values, draw order reset.
void set_to_setup_pose(SkeletonPose& pose);
// Spine's setBonesToSetupPose (bones and constraints' setup values).
void set_bones_to_setup_pose(SkeletonPose& pose);
// Spine's setSlotsToSetupPose (colours, attachments from the current skin then the default skin, draw order).
void set_slots_to_setup_pose(SkeletonPose& pose);

// Spine's Skeleton.setSkin: with a previous skin, attachments of the old skin still shown are replaced by the new
// skin's attachment of the same name; without one, each slot gets its setup attachment from the new skin. Rebuilds
// the update cache. `skin` may be k_none, for no skin (which a name that SkeletonData::skin_names does not find
// gives too: check the lookup first). Returns false, changing nothing, for an index that names no skin of the data.
bool set_skin(SkeletonPose& pose, Index skin);
// The same with a skin built by adding `skins` in order (Spine's Skin.addSkin), held by the pose as its custom skin.
// Returns false, changing nothing, when an index names no skin of the data (k_none included).
bool set_combined_skin(SkeletonPose& pose, std::span<const Index> skins);

// Returns the attachment for (slot, attachment name): from the current skin, then the default skin (Spine's
// Skeleton.getAttachment). k_none if neither has it.
Index find_attachment(const SkeletonPose& pose, Index slot, Index attachment_name);

// Spine's Slot.setAttachment: sets the slot's attachment; when it changes (and the new one does not share the old
// one's timeline attachment), clears the deform and resets the sequence index.
void set_slot_attachment(SkeletonPose& pose, Index slot, Index attachment);

// Rebuilds the update cache for the current skin (Spine's Skeleton.updateCache).
void update_cache(SkeletonPose& pose);

// Advances the skeleton's physics time (Spine's Skeleton.update(delta)). Double, as the official runtime adds it:
// physics constraints count fixed steps from differences of this time, so a delta rounded to float (or a float sum)
// makes some frames take one step more or less than the official runtime's.
inline void update_time(SkeletonPose& pose, double delta) { pose.time += delta; }

// Spine's Skeleton.updateWorldTransform(physics): applied pose := local pose, then the update cache in order.
void update_world_transform(SkeletonPose& pose, Physics physics);

// A number no earlier call returned in this process, on any thread; never 0 (SkeletonPose::world_stamp).
std::uint64_t next_world_stamp();

// Records that the pose's world transforms or bone activity changed in some other way than a crowd update's move:
// world_stamp and shape_stamp both take a new number.
inline void renew_world_stamps(SkeletonPose& pose) {
    pose.world_stamp = pose.shape_stamp = next_world_stamp();
}

// Spine's Skeleton.physicsTranslate / physicsRotate: moves every physics constraint's simulation as if the skeleton
// had moved by (x, y), or rotated by `degrees` around (x, y), so that physics do not react to a teleport.
void physics_translate(SkeletonPose& pose, float x, float y);
void physics_rotate(SkeletonPose& pose, float x, float y, float degrees);

// Computes bone `bone`'s world transform from its applied pose and parent (Spine's Bone.updateWorldTransform).
void update_bone_world(SkeletonPose& pose, Index bone);
// Recomputes bone `bone`'s applied pose from its world transform (Spine's Bone.updateAppliedTransform).
void update_applied_transform(SkeletonPose& pose, Index bone);

// World vertices of the attachment in `slot`, as Spine's computeWorldVertices does: a region gives 4 corners
// (8 floats, the runtime's order), a mesh/bounding box/clipping/path all its vertices (deform and weights
// applied). Writes into `out` (size at least the returned count) and returns the number of floats; 0, writing
// nothing, for slots without such an attachment (point attachments included), for a region the binding has no frame
// for, and when `out` is too small. Region corners come from the atlas binding, from the frame the slot's sequence
// index selects (Spine's Sequence.apply).
std::uint32_t compute_world_vertices(const SkeletonPose& pose, const AtlasBinding& binding, Index slot,
                                     std::span<float> out);

// The sequence frame the slot shows for a sequence attachment: the slot's sequence index, or the setup index when
// it is -1, clamped to the frame count (Spine's Sequence.apply). 0 for attachments without a sequence.
std::uint32_t sequence_frame(const SkeletonPose& pose, Index slot, Index attachment);

// Spine's VertexAttachment.computeWorldVertices for `count` floats starting at `start`, into out[offset], stride 2.
void compute_vertex_attachment_world(const SkeletonPose& pose, Index slot, Index attachment, std::uint32_t start,
                                     std::uint32_t count, float* out, std::uint32_t offset, std::uint32_t stride);

// Spine's Skeleton.getBounds without a clipper: the axis-aligned box around the world vertices of every region and
// mesh attachment of slots whose bone is active (clipping attachments are ignored, as getBounds does when given no
// clipper). Writes the lower-left corner and size and returns true; returns false (all four 0) when nothing is shown.
bool skeleton_bounds(const SkeletonPose& pose, const AtlasBinding& binding, float& x, float& y, float& w, float& h);

// The height of the skeleton's setup pose in skin `skin` (k_none: none, the default skin's attachments) in world units
// (skeleton_bounds after the setup pose and a world update), at least 1 (1 also where the height is not a number): what
// tools scale by to show characters a given number of pixels tall. A skin index that names no skin is taken as none.
float setup_pose_height(const SkeletonData& data, const AtlasBinding& binding, Index skin = k_none);

}  // namespace spinegpu
