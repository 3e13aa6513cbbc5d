// Animation.apply and the timeline dispatch (one switch on TimelineType, no virtual calls), and the property ids
// AnimationState compares.
#include <cassert>
#include <cmath>

#include "spinegpu/runtime/animation.hpp"
#include "bone_timelines.hpp"
#include "timeline_eval.hpp"

namespace spinegpu {

namespace {

// The official Property enum, same values: the first part of every property id.
enum class Property : std::uint64_t {
    rotate, x, y, scale_x, scale_y, shear_x, shear_y, inherit,
    rgb, alpha, rgb2, attachment, deform, event, draw_order,
    ik, transform, path_position, path_spacing, path_mix,
    physics_inertia, physics_strength, physics_damping, physics_mass, physics_wind, physics_gravity, physics_mix,
    physics_reset, sequence,
};

// Official ids are strings ("0|5", "12|3|7", "13"); ours pack the same parts into one integer: the property in the
// top 8 bits, then up to two indices of 28 bits each, stored + 1 so that -1 (a physics timeline keyed on every
// constraint) and "no index" stay distinct from every real index.
constexpr int k_index_bits = 28;
constexpr std::uint64_t k_index_mask = (std::uint64_t{1} << k_index_bits) - 1;

std::uint64_t pack_index(Index index) {
    assert(index >= -1 && static_cast<std::uint64_t>(index) + 1 < k_index_mask);
    return (static_cast<std::uint64_t>(static_cast<std::int64_t>(index) + 1)) & k_index_mask;
}

std::uint64_t property_id(Property property) { return static_cast<std::uint64_t>(property) << 56; }
std::uint64_t property_id(Property property, Index a) { return property_id(property) | pack_index(a) << k_index_bits; }
std::uint64_t property_id(Property property, Index a, Index b) { return property_id(property, a) | pack_index(b); }

}  // namespace

int timeline_property_ids(const SkeletonData& data, const TimelineData& timeline, std::uint64_t out[3]) {
    const Index t = timeline.target;
    auto one = [&](Property p) {
        out[0] = property_id(p, t);
        return 1;
    };
    auto two = [&](Property p1, Property p2) {
        out[0] = property_id(p1, t);
        out[1] = property_id(p2, t);
        return 2;
    };
    switch (timeline.type) {
        case TimelineType::rotate: return one(Property::rotate);
        case TimelineType::translate: return two(Property::x, Property::y);
        case TimelineType::translate_x: return one(Property::x);
        case TimelineType::translate_y: return one(Property::y);
        case TimelineType::scale: return two(Property::scale_x, Property::scale_y);
        case TimelineType::scale_x: return one(Property::scale_x);
        case TimelineType::scale_y: return one(Property::scale_y);
        case TimelineType::shear: return two(Property::shear_x, Property::shear_y);
        case TimelineType::shear_x: return one(Property::shear_x);
        case TimelineType::shear_y: return one(Property::shear_y);
        case TimelineType::inherit: return one(Property::inherit);
        case TimelineType::rgba: return two(Property::rgb, Property::alpha);
        case TimelineType::rgb: return one(Property::rgb);
        case TimelineType::alpha: return one(Property::alpha);
        case TimelineType::rgba2:
            out[2] = property_id(Property::rgb2, t);
            return two(Property::rgb, Property::alpha) + 1;
        case TimelineType::rgb2: return two(Property::rgb, Property::rgb2);
        case TimelineType::attachment: return one(Property::attachment);
        case TimelineType::deform: {
            // The deformed attachment's unique vertex id, as the official id uses attachment.id.
            const AttachmentData& a = data.attachments[static_cast<std::size_t>(timeline.attachment)];
            out[0] = property_id(Property::deform, t, a.vertex_id);
            return 1;
        }
        case TimelineType::sequence: {
            Index sequence = data.attachments[static_cast<std::size_t>(timeline.attachment)].sequence;
            Index id = sequence == k_none ? k_none : data.sequences[static_cast<std::size_t>(sequence)].id;
            out[0] = property_id(Property::sequence, t, id);
            return 1;
        }
        // One id for the whole skeleton, whatever the target (the official reset id has no constraint index).
        case TimelineType::draw_order: out[0] = property_id(Property::draw_order); return 1;
        case TimelineType::event: out[0] = property_id(Property::event); return 1;
        case TimelineType::physics_reset: out[0] = property_id(Property::physics_reset); return 1;
        case TimelineType::ik: return one(Property::ik);
        case TimelineType::transform: return one(Property::transform);
        case TimelineType::path_position: return one(Property::path_position);
        case TimelineType::path_spacing: return one(Property::path_spacing);
        case TimelineType::path_mix: return one(Property::path_mix);
        case TimelineType::physics_inertia: return one(Property::physics_inertia);
        case TimelineType::physics_strength: return one(Property::physics_strength);
        case TimelineType::physics_damping: return one(Property::physics_damping);
        case TimelineType::physics_mass: return one(Property::physics_mass);
        case TimelineType::physics_wind: return one(Property::physics_wind);
        case TimelineType::physics_gravity: return one(Property::physics_gravity);
        case TimelineType::physics_mix: return one(Property::physics_mix);
    }
    return 0;
}

void apply_timeline(const SkeletonData& data, const TimelineData& timeline, SkeletonPose& pose, double last_time,
                    double time, std::vector<Index>* events, double alpha, MixBlend blend, MixDirection direction) {
    if (timeline.frame_count == 0) return;  // nothing keyed (every official timeline has a key)
    switch (timeline.type) {
        case TimelineType::rotate:
        case TimelineType::translate:
        case TimelineType::translate_x:
        case TimelineType::translate_y:
        case TimelineType::scale:
        case TimelineType::scale_x:
        case TimelineType::scale_y:
        case TimelineType::shear:
        case TimelineType::shear_x:
        case TimelineType::shear_y:
        case TimelineType::inherit:
            detail::apply_bone_timeline(data, timeline, pose, time, alpha, blend, direction);
            break;
        case TimelineType::rgba:
        case TimelineType::rgb:
        case TimelineType::alpha:
        case TimelineType::rgba2:
        case TimelineType::rgb2:
        case TimelineType::attachment:
        case TimelineType::sequence:
            detail::apply_slot_timeline(data, timeline, pose, time, alpha, blend, direction);
            break;
        case TimelineType::deform: detail::apply_deform_timeline(data, timeline, pose, time, alpha, blend); break;
        case TimelineType::draw_order:
            detail::apply_draw_order_timeline(data, timeline, pose, time, blend, direction);
            break;
        case TimelineType::event:
            if (events) detail::apply_event_timeline(data, timeline, last_time, time, *events);
            break;
        case TimelineType::ik:
        case TimelineType::transform:
        case TimelineType::path_position:
        case TimelineType::path_spacing:
        case TimelineType::path_mix:
        case TimelineType::physics_inertia:
        case TimelineType::physics_strength:
        case TimelineType::physics_damping:
        case TimelineType::physics_mass:
        case TimelineType::physics_wind:
        case TimelineType::physics_gravity:
        case TimelineType::physics_mix:
        case TimelineType::physics_reset:
            detail::apply_constraint_timeline(data, timeline, pose, last_time, time, alpha, blend, direction);
            break;
    }
}

void apply_animation(const SkeletonData& data, Index animation, SkeletonPose& pose, double last_time, double time,
                     bool loop, std::vector<Index>* events, double alpha, MixBlend blend, MixDirection direction) {
    const AnimationData& anim = data.animations[static_cast<std::size_t>(animation)];
    if (loop && anim.duration != 0) {
        time = std::fmod(time, anim.duration);
        if (last_time > 0) last_time = std::fmod(last_time, anim.duration);
    }
    const TimelineData* timelines = data.timelines.data() + anim.timelines.offset;
    for (std::uint32_t i = 0; i < anim.timelines.count; ++i)
        apply_timeline(data, timelines[i], pose, last_time, time, events, alpha, blend, direction);
}

}  // namespace spinegpu
