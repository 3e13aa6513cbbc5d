// What the crowd tests share (batch_update_test.cpp, pose_filter_test.cpp): a crowd of mixed skeleton types on
// scripted animations, notifications as delivered, and a bit-for-bit comparison of poses.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "test_support.hpp"

namespace spinegpu::test {

// Skeleton types chosen for what they exercise: physics (celestial-circus, owl), path constraints (tank, vine),
// IK with stretch (stretchyman), skins and skin-required bones (mix-and-match, goblins), events (spineboy), meshes
// and deform (raptor).
inline const char* const k_skeleton_files[] = {
    "spineboy/spineboy-pro.skel",   "raptor/raptor-pro.skel",         "celestial-circus/celestial-circus-pro.skel",
    "tank/tank-pro.skel",           "vine/vine-pro.skel",             "mix-and-match/mix-and-match-pro.skel",
    "goblins/goblins-pro.skel",     "stretchyman/stretchyman-pro.skel", "owl/owl-pro.skel",
};

// The skeletons above, loaded once for all tests (poses point into them). Empty when one fails to load (the test
// that asked has failed).
inline const std::vector<std::unique_ptr<SkeletonData>>& skeletons() {
    static const std::vector<std::unique_ptr<SkeletonData>> loaded = [] {
        std::vector<std::unique_ptr<SkeletonData>> out;
        for (const char* file : k_skeleton_files) {
            Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / file).string());
            if (!data) {
                ADD_FAILURE() << data.error().message();
                return std::vector<std::unique_ptr<SkeletonData>>{};
            }
            out.push_back(std::make_unique<SkeletonData>(std::move(data.value())));
        }
        return out;
    }();
    return loaded;
}

// A small deterministic hash, so that the crowd and the per-frame script depend only on (character, frame).
inline std::uint32_t mix_bits(std::uint32_t a, std::uint32_t b) {
    std::uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u);
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return h;
}

inline Index pick_animation(const SkeletonData& data, std::uint32_t bits) {
    return static_cast<Index>(bits % data.animations.size());
}

// `count` characters cycling through the skeleton types: a skin where the skeleton has several, a looping animation
// at a random phase on track 0, and for some a non-looping animation queued after it or a second track, so that
// starts, interrupts, ends, completes and disposals happen as well as events.
inline Crowd make_mixed_crowd(std::size_t count) {
    const auto& types = skeletons();
    Crowd crowd;
    crowd.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const SkeletonData& data = *types[i % types.size()];
        MixTable mixes;
        mixes.default_mix = 0.2;
        const CharacterIndex c = crowd.add(data, mixes);
        SkeletonPose& pose = crowd.pose(c);
        if (data.skins.size() > 1) set_skin(pose, static_cast<Index>(1 + mix_bits(i, 1) % (data.skins.size() - 1)));
        set_to_setup_pose(pose);
        AnimationState& state = crowd.state(c);
        const Index animation = pick_animation(data, mix_bits(i, 2));
        const TrackEntryId id = state.set_animation(0, animation, true);
        const float duration = data.animations[static_cast<std::size_t>(animation)].duration;
        state.entry(id)->track_time = duration * static_cast<double>(mix_bits(i, 3) % 1000) / 1000.0;
        if (i % 3 == 1) state.add_animation(0, pick_animation(data, mix_bits(i, 4)), false, 0.3);
        if (i % 5 == 2) state.set_animation(1, pick_animation(data, mix_bits(i, 5)), false);
        state.notifications.clear();  // the setup's own notifications are not part of any frame
    }
    return crowd;
}

// Between frames, on the calling thread: every 30 frames a quarter of the characters switch animation (mixing),
// and some queue a looping one after it.
inline void steer(Crowd& crowd, std::uint32_t frame) {
    if (frame == 0 || frame % 30 != 0) return;
    for (CharacterIndex i = 0; i < crowd.size(); ++i) {
        if (mix_bits(i, frame) % 4 != 0) continue;
        const SkeletonData& data = *crowd.pose(i).data;
        AnimationState& state = crowd.state(i);
        state.set_animation(0, pick_animation(data, mix_bits(i, frame + 1)), false);
        if (i % 2 == 0) state.add_animation(0, pick_animation(data, mix_bits(i, frame + 2)), true, 0);
    }
}

// A notification as delivered: to which character, and what.
struct Delivered {
    CharacterIndex character = 0;
    StateNotification notification;
    friend bool operator==(const Delivered& a, const Delivered& b) {
        return a.character == b.character && a.notification.type == b.notification.type &&
               a.notification.track == b.notification.track &&
               a.notification.animation == b.notification.animation &&
               a.notification.event_key == b.notification.event_key;
    }
};

inline std::ostream& operator<<(std::ostream& out, const Delivered& d) {
    return out << "{character " << d.character << ", type " << static_cast<int>(d.notification.type) << ", track "
               << d.notification.track << ", animation " << d.notification.animation << ", event key "
               << d.notification.event_key << "}";
}

inline bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

inline bool same_bits(const Color& a, const Color& b) {
    return same_bits(a.r, b.r) && same_bits(a.g, b.g) && same_bits(a.b, b.b) && same_bits(a.a, b.a);
}

// The first difference between two poses of the same skeleton (world transforms, slots, draw order, applied deform,
// physics time), or an empty string when they are bit for bit equal.
inline std::string first_difference(const SkeletonPose& a, const SkeletonPose& b) {
    std::ostringstream out;
    for (std::size_t i = 0; i < a.world.size(); ++i) {
        const BoneWorld& x = a.world[i];
        const BoneWorld& y = b.world[i];
        if (!same_bits(x.a, y.a) || !same_bits(x.b, y.b) || !same_bits(x.c, y.c) || !same_bits(x.d, y.d) ||
            !same_bits(x.x, y.x) || !same_bits(x.y, y.y)) {
            out << "bone " << i << " world (" << x.a << " " << x.b << " " << x.c << " " << x.d << " " << x.x << " "
                << x.y << ") vs (" << y.a << " " << y.b << " " << y.c << " " << y.d << " " << y.x << " " << y.y << ")";
            return out.str();
        }
    }
    for (std::size_t i = 0; i < a.slots.size(); ++i) {
        const SlotPose& x = a.slots[i];
        const SlotPose& y = b.slots[i];
        // A slot without an attachment draws no deform (the official setToSetupPose drops an attachment without
        // clearing its deform, which the next attachment set clears).
        const bool deform_differs = x.attachment != k_none && (x.deform_offset != y.deform_offset ||
                                                                x.deform_count != y.deform_count);
        if (x.attachment != y.attachment || !same_bits(x.color, y.color) || !same_bits(x.dark, y.dark) ||
            x.sequence_index != y.sequence_index || deform_differs) {
            out << "slot " << i << " (attachment " << x.attachment << " vs " << y.attachment << ", deform floats "
                << x.deform_count << " vs " << y.deform_count << ")";
            return out.str();
        }
    }
    if (a.draw_order != b.draw_order) return "draw order";
    // Deform: each slot's applied range (the pool's other floats are left over from earlier deforms).
    for (std::size_t i = 0; i < a.slots.size(); ++i) {
        const SlotPose& x = a.slots[i];
        const float* from_a = a.deform.data() + x.deform_offset;
        const float* from_b = b.deform.data() + x.deform_offset;
        if (x.attachment != k_none && x.deform_count != 0 &&
            std::memcmp(from_a, from_b, x.deform_count * sizeof(float)) != 0) {
            out << "slot " << i << " deform";
            return out.str();
        }
    }
    if (std::bit_cast<std::uint64_t>(a.time) != std::bit_cast<std::uint64_t>(b.time)) return "physics time";
    return {};
}

}  // namespace spinegpu::test
