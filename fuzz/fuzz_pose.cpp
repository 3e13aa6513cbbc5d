// libFuzzer target: whatever the skeleton loaders accept, the runtime must pose without a crash, an out-of-bounds
// access, undefined behaviour, a leak or a hang. For an accepted skeleton it poses the setup pose, then for some of
// its skins and animations a few frames each (AnimationState update and apply, world transforms with physics), and
// computes the world vertices of every vertex attachment shown (meshes, with deform and weights). Then it poses three
// characters of the skeleton together (the crowd update's grouped world transforms, src/runtime/world_group.hpp) next
// to the same three one at a time, and traps when a bit differs: the lanes must give update_world_transform's result
// for any skeleton.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz_skeleton_input.hpp"

#include "../src/runtime/world_group.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace {

// Whether two floats are the same bits, or both NaN (which NaN an x86 operation passes on may depend on the operand
// order the compiler picks).
bool same(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b) || (std::isnan(a) && std::isnan(b));
}

// Three characters playing different animations (with the first skin, if any), posed by update_world_transforms and
// by update_world_transform, compared bit for bit each frame.
void check_grouped_world_transforms(const spinegpu::SkeletonData& data) {
    constexpr std::size_t k_count = 3;
    constexpr double k_dt = 1.0 / 30;
    std::vector<spinegpu::SkeletonPose> grouped, single;
    std::vector<std::unique_ptr<spinegpu::AnimationState>> states;
    for (std::size_t i = 0; i < 2 * k_count; ++i) {
        spinegpu::SkeletonPose pose = spinegpu::create_pose(data);
        if (!data.skins.empty()) spinegpu::set_skin(pose, 0);
        spinegpu::set_to_setup_pose(pose);
        (i < k_count ? grouped : single).push_back(std::move(pose));
        states.push_back(std::make_unique<spinegpu::AnimationState>(data));
        if (!data.animations.empty())
            states.back()->set_animation(0, static_cast<spinegpu::Index>(i % k_count % data.animations.size()), true);
    }
    std::array<spinegpu::SkeletonPose*, k_count> group;
    for (int frame = 0; frame < 4; ++frame) {
        for (std::size_t i = 0; i < 2 * k_count; ++i) {
            spinegpu::SkeletonPose& pose = i < k_count ? grouped[i] : single[i - k_count];
            states[i]->update(k_dt);
            states[i]->apply(pose);
            spinegpu::update_time(pose, k_dt);
            states[i]->notifications.clear();
        }
        for (std::size_t i = 0; i < k_count; ++i) {
            spinegpu::update_world_transform(single[i], spinegpu::Physics::update);
            group[i] = &grouped[i];
        }
        spinegpu::detail::update_world_transforms(group, spinegpu::Physics::update);
        for (std::size_t i = 0; i < k_count; ++i) {
            for (std::size_t b = 0; b < data.bones.size(); ++b) {
                const spinegpu::BoneWorld &x = grouped[i].world[b], &y = single[i].world[b];
                if (!same(x.a, y.a) || !same(x.b, y.b) || !same(x.c, y.c) || !same(x.d, y.d) || !same(x.x, y.x) ||
                    !same(x.y, y.y))
                    __builtin_trap();
            }
        }
    }
}

// Computes the world vertices of every slot showing a vertex attachment (regions need an atlas: not here).
void pose_vertices(const spinegpu::SkeletonPose& pose, std::vector<float>& scratch) {
    const spinegpu::SkeletonData& data = *pose.data;
    for (std::size_t slot = 0; slot < pose.slots.size(); ++slot) {
        const spinegpu::Index attachment = pose.slots[slot].attachment;
        if (attachment == spinegpu::k_none) continue;
        const spinegpu::AttachmentData& a = data.attachments[static_cast<std::size_t>(attachment)];
        if (a.type == spinegpu::AttachmentType::region || a.type == spinegpu::AttachmentType::point) continue;
        scratch.resize(std::max<std::size_t>(a.world_vertices_length, 1));
        spinegpu::compute_vertex_attachment_world(pose, static_cast<spinegpu::Index>(slot), attachment, 0,
                                                  a.world_vertices_length, scratch.data(), 0, 2);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    spinegpu::Result<spinegpu::SkeletonData> loaded = load_fuzz_skeleton(bytes, size);
    if (!loaded) return 0;
    const spinegpu::SkeletonData& data = *loaded;
    std::vector<float> scratch;

    spinegpu::SkeletonPose pose = spinegpu::create_pose(data);
    spinegpu::set_to_setup_pose(pose);
    spinegpu::update_world_transform(pose, spinegpu::Physics::update);
    pose_vertices(pose, scratch);

    constexpr std::size_t k_most = 4;  // skins and animations tried, so that one input stays fast
    constexpr double k_dt = 1.0 / 30;
    // The first skins, then none (set_skin keeps the last one otherwise).
    const std::size_t skins = std::min(data.skins.size(), k_most);
    for (std::size_t skin = 0; skin <= skins; ++skin) {
        spinegpu::set_skin(pose, skin < skins ? static_cast<spinegpu::Index>(skin) : spinegpu::k_none);
        spinegpu::set_to_setup_pose(pose);
        for (std::size_t animation = 0; animation < std::min(data.animations.size(), k_most); ++animation) {
            spinegpu::AnimationState state(data);
            state.set_animation(0, static_cast<spinegpu::Index>(animation), true);
            // A second track mixing in the next animation, so that mixing and the add blend run too.
            const spinegpu::TrackEntryId mixed = state.set_animation(
                1, static_cast<spinegpu::Index>((animation + 1) % data.animations.size()), false);
            if (spinegpu::TrackEntry* entry = state.entry(mixed)) {
                entry->alpha = 0.5;
                entry->mix_blend = spinegpu::MixBlend::add;
            }
            for (int frame = 0; frame < 6; ++frame) {
                state.update(k_dt);
                state.apply(pose);
                spinegpu::update_time(pose, k_dt);
                spinegpu::update_world_transform(pose, spinegpu::Physics::update);
                if (frame == 2) state.set_empty_animations(0.1);
            }
            state.notifications.clear();
            pose_vertices(pose, scratch);
        }
    }
    check_grouped_world_transforms(data);
    return 0;
}
