// Creating a pose, the setup pose, and the per-frame world transform pass (Spine's Skeleton constructor,
// setToSetupPose and its two halves, updateWorldTransform, physicsTranslate/physicsRotate).
#include "spinegpu/runtime/skeleton_pose.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>

#include "attachment_lookup.hpp"
#include "constraints.hpp"
#include "update_steps.hpp"

namespace spinegpu {
namespace {

// Deform floats a slot may need for `a`: what a deform timeline keys for it (AttachmentData's `aux` comment):
// every vertex for an unweighted attachment, 2 per bone influence for a weighted one.
std::uint32_t deform_floats(const AttachmentData& a) {
    if (a.type == AttachmentType::region || a.type == AttachmentType::point) return 0;
    if (a.bones.count > 0) return a.vertices.count / 3 * 2;
    return a.world_vertices_length;
}

}  // namespace

const SkinData* SkeletonPose::current_skin() const {
    if (skin == k_custom_skin) return &custom_skin;
    if (skin >= 0 && static_cast<std::size_t>(skin) < data->skins.size())
        return &data->skins[static_cast<std::size_t>(skin)];
    return nullptr;
}

SkeletonPose create_pose(const SkeletonData& data) {
    assert(data.finished);
    SkeletonPose pose;
    pose.data = &data;
    const std::size_t bone_count = data.bones.size(), slot_count = data.slots.size();

    pose.local.resize(bone_count);
    pose.applied.resize(bone_count);
    pose.inherit.resize(bone_count);
    // All zero, as the official runtime starts them (BoneWorld's defaults): a bone that no skin has activated yet
    // keeps these values.
    pose.world.assign(bone_count, BoneWorld{});
    pose.bone_active.assign(bone_count, 0);
    pose.bone_sorted.assign(bone_count, 0);

    // Deform capacity per slot: the largest deform any attachment of any skin may key for that slot.
    pose.slots.resize(slot_count);
    pose.attachment_states.assign(slot_count, 0);
    for (const SkinData& skin : data.skins) {
        for (const SkinEntry& entry : skin.entries) {
            if (entry.slot < 0 || static_cast<std::size_t>(entry.slot) >= slot_count) continue;
            const AttachmentData& a = data.attachments[static_cast<std::size_t>(entry.attachment)];
            SlotPose& slot = pose.slots[static_cast<std::size_t>(entry.slot)];
            slot.deform_capacity = std::max(slot.deform_capacity, deform_floats(a));
        }
    }
    std::uint32_t deform_total = 0;
    for (SlotPose& slot : pose.slots) {
        slot.deform_offset = deform_total;
        deform_total += slot.deform_capacity;
    }
    pose.deform.assign(deform_total, 0.0f);
    pose.draw_order.resize(slot_count);

    pose.ik.resize(data.ik_constraints.size());
    pose.transform.resize(data.transform_constraints.size());
    pose.path.resize(data.path_constraints.size());
    pose.physics.resize(data.physics_constraints.size());

    // One scratch shared by the path constraints (they run one at a time), as large as the largest needs.
    std::uint32_t scratch = 0;
    for (std::size_t i = 0; i < data.path_constraints.size(); ++i)
        scratch = std::max(scratch, detail::path_scratch_size(data, static_cast<Index>(i)));
    pose.path_scratch.assign(scratch, 0.0f);

    // Each constraint once; each bone once, plus once more for each constraint that sends it to be posed again
    // (rare). A cache larger than this grows when a skin change rebuilds it, never in the per-frame path.
    const std::size_t constraints = pose.ik.size() + pose.transform.size() + pose.path.size() + pose.physics.size();
    pose.update_cache.reserve(2 * bone_count + constraints);

    // The official constructor: bones and constraints from their data, slots to the setup pose (attachments from
    // the default skin: there is no skin yet), physics simulations waiting for their first update, then the cache.
    set_bones_to_setup_pose(pose);
    set_slots_to_setup_pose(pose);
    for (PhysicsPose& physics : pose.physics) {
        physics.reset = true;
        physics.remaining = 0;
        physics.last_time = 0;
    }
    update_cache(pose);
    return pose;
}

void set_to_setup_pose(SkeletonPose& pose) {
    set_bones_to_setup_pose(pose);
    set_slots_to_setup_pose(pose);
}

void set_bones_to_setup_pose(SkeletonPose& pose) {
    const SkeletonData& data = *pose.data;
    for (std::size_t i = 0; i < data.bones.size(); ++i) {
        const BoneData& b = data.bones[i];
        pose.local[i] = BoneTransform{b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y};
        pose.inherit[i] = b.inherit;
    }
    for (std::size_t i = 0; i < data.ik_constraints.size(); ++i) {
        const IkConstraintData& c = data.ik_constraints[i];
        IkPose& p = pose.ik[i];
        p.mix = c.mix;
        p.softness = c.softness;
        p.bend_direction = c.bend_direction;
        p.compress = c.compress;
        p.stretch = c.stretch;
    }
    for (std::size_t i = 0; i < data.transform_constraints.size(); ++i) {
        const TransformConstraintData& c = data.transform_constraints[i];
        TransformPose& p = pose.transform[i];
        p.mix_rotate = c.mix_rotate;
        p.mix_x = c.mix_x;
        p.mix_y = c.mix_y;
        p.mix_scale_x = c.mix_scale_x;
        p.mix_scale_y = c.mix_scale_y;
        p.mix_shear_y = c.mix_shear_y;
    }
    for (std::size_t i = 0; i < data.path_constraints.size(); ++i) {
        const PathConstraintData& c = data.path_constraints[i];
        PathPose& p = pose.path[i];
        p.position = c.position;
        p.spacing = c.spacing;
        p.mix_rotate = c.mix_rotate;
        p.mix_x = c.mix_x;
        p.mix_y = c.mix_y;
    }
    // Physics: only the animatable parameters; the official setToSetupPose leaves the simulation running.
    for (std::size_t i = 0; i < data.physics_constraints.size(); ++i) {
        const PhysicsConstraintData& c = data.physics_constraints[i];
        PhysicsPose& p = pose.physics[i];
        p.inertia = c.inertia;
        p.strength = c.strength;
        p.damping = c.damping;
        p.mass_inverse = c.mass_inverse;
        p.wind = c.wind;
        p.gravity = c.gravity;
        p.mix = c.mix;
    }
}

void set_slots_to_setup_pose(SkeletonPose& pose) {
    const SkeletonData& data = *pose.data;
    for (std::size_t i = 0; i < data.slots.size(); ++i) {
        const SlotData& s = data.slots[i];
        const auto slot = static_cast<Index>(i);
        pose.draw_order[i] = slot;
        SlotPose& p = pose.slots[i];
        p.color = s.color;
        p.dark = s.dark;
        // As the official Slot.setToSetupPose: the attachment is dropped without touching deform or sequence index,
        // then the setup attachment (when found) is set the ordinary way, which clears them.
        p.attachment = k_none;
        if (s.attachment_name != k_none) {
            const Index attachment = detail::find_attachment(pose, slot, s.attachment_name, s.default_attachment);
            if (attachment != k_none) set_slot_attachment(pose, slot, attachment);
        }
    }
}

void update_world_transform(SkeletonPose& pose, Physics physics) {
    std::copy(pose.local.begin(), pose.local.end(), pose.applied.begin());
    const UpdateStep* step = pose.update_cache.data();
    const UpdateStep* const end = step + pose.update_cache.size();
    while (step != end) {
        if (step->kind == UpdateStep::Kind::bone) {
            step = detail::pose_bone_run(pose, step, end);
            continue;
        }
        detail::apply_constraint_step(pose, *step, physics);
        ++step;
    }
    renew_world_stamps(pose);
}

std::uint64_t next_world_stamp() {
    // Each thread takes a block of 2^20 numbers at a time, so that stamping costs no shared write; 2^44 blocks
    // outlast any process.
    constexpr std::uint64_t k_block = std::uint64_t{1} << 20;
    static std::atomic<std::uint64_t> blocks{1};
    thread_local std::uint64_t next = 0, end = 0;
    if (next == end) {
        next = blocks.fetch_add(1, std::memory_order_relaxed) * k_block;
        end = next + k_block;
    }
    return next++;
}

void physics_translate(SkeletonPose& pose, float x, float y) {
    for (std::size_t i = 0; i < pose.physics.size(); ++i)
        detail::translate_physics_constraint(pose, static_cast<Index>(i), x, y);
}

void physics_rotate(SkeletonPose& pose, float x, float y, float degrees) {
    for (std::size_t i = 0; i < pose.physics.size(); ++i)
        detail::rotate_physics_constraint(pose, static_cast<Index>(i), x, y, degrees);
}

}  // namespace spinegpu
