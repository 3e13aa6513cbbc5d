// libFuzzer target: whatever the skeleton loaders accept, the runtime must pose without a crash, an out-of-bounds
// access, undefined behaviour, a leak or a hang. For an accepted skeleton it poses the setup pose, then for some of
// its skins and animations a few frames each (AnimationState update and apply, world transforms with physics), and
// computes the world vertices of every vertex attachment shown (meshes, with deform and weights).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_skeleton_input.hpp"

#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace {

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
    return 0;
}
