// Crowd updates that pass over characters nobody sees (FrameStep::filter, batch_update.hpp): their animation states
// advance and notify as if posed, their poses stay; posed again, they pose as a character never passed over would
// (from the setup pose, physics at rest); the grouped, threaded update passes over the same characters as the plain
// loop, bit for bit; a character passed over follows its skeleton position.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "crowd_test_support.hpp"

namespace spinegpu {
namespace {

using namespace test;

constexpr double k_dt = 1.0 / 60;

// A filter from a pure function of (character, frame), safe on any thread.
struct ScriptedFilter {
    std::uint32_t frame = 0;
    bool (*shown)(CharacterIndex i, std::uint32_t frame) = nullptr;
    PoseFilter filter() {
        return {[](void* context, CharacterIndex i, const SkeletonPose&) {
                    const auto& self = *static_cast<const ScriptedFilter*>(context);
                    return self.shown(i, self.frame);
                },
                this};
    }
};

std::vector<Delivered> take_notifications(Crowd& crowd) {
    std::vector<Delivered> out;
    deliver_events(crowd, [&](CharacterIndex i, const StateNotification& n) { out.push_back({i, n}); });
    return out;
}

// The pose with every deform that draws its attachment's setup vertices cleared (as a deform mixed out to the
// setup pose, which a mix leaves applied and the setup pose clears: the same vertices either way).
SkeletonPose without_setup_deforms(SkeletonPose pose) {
    const SkeletonData& data = *pose.data;
    for (SlotPose& slot : pose.slots) {
        if (slot.attachment == k_none || slot.deform_count == 0) continue;
        const AttachmentData& a = data.attachments[static_cast<std::size_t>(slot.attachment)];
        const float* deform = pose.deform.data() + slot.deform_offset;
        bool setup = true;
        for (std::uint32_t k = 0; k < slot.deform_count && setup; ++k) {
            // Unweighted: absolute positions, the setup ones; weighted: offsets, zero.
            const float at_setup = a.bones.count == 0 ? data.floats[a.vertices.offset + k] : 0.0f;
            setup = deform[k] == at_setup;
        }
        if (setup) slot.deform_count = 0;
    }
    return pose;
}

// The example skeletons of the mixed crowd whose poses depend on no earlier frame (no physics constraints).
bool without_physics(const SkeletonData& data) { return data.physics_constraints.empty(); }

TEST(PoseFilter, a_character_posed_again_after_frames_passed_over_poses_as_one_never_passed_over) {
    ASSERT_FALSE(skeletons().empty());
    // Characters of every skeleton without physics, each on a looping animation that changes (mixed, 0.2 s) at frame
    // 40; each is passed over for 45 frames starting at a frame of its own, so some miss the change and its mix.
    Crowd passed, posed;
    std::uint32_t count = 0;
    for (const auto& data : skeletons()) {
        if (!without_physics(*data)) continue;
        for (int copy = 0; copy < 4; ++copy, ++count) {
            for (Crowd* crowd : {&passed, &posed}) {
                MixTable mixes;
                mixes.default_mix = 0.2;
                const CharacterIndex c = crowd->add(*data, mixes);
                if (data->skins.size() > 1)
                    set_skin(crowd->pose(c), static_cast<Index>(1 + count % (data->skins.size() - 1)));
                set_to_setup_pose(crowd->pose(c));
                crowd->state(c).set_animation(0, pick_animation(*data, mix_bits(count, 1)), true);
                crowd->state(c).notifications.clear();
            }
        }
    }
    ScriptedFilter script;
    script.shown = [](CharacterIndex i, std::uint32_t frame) { return frame < 10 + 4 * i || frame >= 55 + 4 * i; };
    std::uint32_t compared = 0;
    for (std::uint32_t frame = 0; frame < 150; ++frame) {
        if (frame == 40) {
            for (CharacterIndex i = 0; i < passed.size(); ++i) {
                const Index next = pick_animation(*passed.pose(i).data, mix_bits(i, 2));
                passed.state(i).set_animation(0, next, true);
                posed.state(i).set_animation(0, next, true);
            }
        }
        script.frame = frame;
        update_characters(passed.poses(), passed.states(), FrameStep{k_dt, Physics::update, script.filter()});
        update_characters(posed.poses(), posed.states(), FrameStep{k_dt, Physics::update});
        ASSERT_EQ(take_notifications(passed), take_notifications(posed)) << "frame " << frame;
        for (CharacterIndex i = 0; i < passed.size(); ++i) {
            // While a mix runs, the remembered rotation directions may differ; compared when none runs.
            const TrackEntry* current = posed.state(i).entry(posed.state(i).current(0));
            if (!script.shown(i, frame) || current == nullptr || current->mixing_from != TrackEntry::k_no_entry)
                continue;
            ASSERT_EQ(first_difference(without_setup_deforms(posed.pose(i)), without_setup_deforms(passed.pose(i))),
                      "")
                << "frame " << frame << ", character " << i << " of " << passed.pose(i).data->bones.size() << " bones";
            ++compared;
        }
    }
    EXPECT_GT(compared, passed.size() * 60);
}

TEST(PoseFilter, the_threaded_update_passes_over_the_same_characters_as_the_plain_loop_bit_for_bit) {
    ASSERT_FALSE(skeletons().empty());
    Crowd plain = make_mixed_crowd(54), batched = make_mixed_crowd(54);
    ScriptedFilter script;
    // Runs of shown and passed-over frames of different lengths, so that groups of one skeleton mix posed, passed
    // over and posed-again characters.
    script.shown = [](CharacterIndex i, std::uint32_t frame) { return (i + frame / (3 + i % 4)) % 3 != 0; };
    BatchUpdater updater(BatchDesc{3, ThreadBackend::pool, 4});
    for (std::uint32_t frame = 0; frame < 100; ++frame) {
        steer(plain, frame);
        steer(batched, frame);
        script.frame = frame;
        const FrameStep step{k_dt, Physics::update, script.filter()};
        update_characters(plain.poses(), plain.states(), step);
        std::vector<Delivered> batched_notes;
        updater.update(batched, step,
                       [&](CharacterIndex i, const StateNotification& n) { batched_notes.push_back({i, n}); });
        ASSERT_EQ(take_notifications(plain), batched_notes) << "frame " << frame;
        for (CharacterIndex i = 0; i < plain.size(); ++i)
            ASSERT_EQ(first_difference(plain.pose(i), batched.pose(i)), "") << "frame " << frame << ", character " << i;
    }
}

TEST(PoseFilter, characters_the_filter_poses_are_posed_as_without_a_filter_while_they_move) {
    ASSERT_FALSE(skeletons().empty());
    const PoseFilter show{[](void*, CharacterIndex, const SkeletonPose&) { return true; }, nullptr};
    for (std::size_t k = 0; k < skeletons().size(); ++k) {
        const SkeletonData& data = *skeletons()[k];
        Crowd plain, filtered;
        for (Crowd* crowd : {&plain, &filtered}) {
            crowd->add(data);
            if (data.skins.size() > 1) set_skin(crowd->pose(0), 1);
            set_to_setup_pose(crowd->pose(0));
            crowd->state(0).set_animation(0, pick_animation(data, 3), true);
        }
        for (int frame = 0; frame < 120; ++frame) {
            for (Crowd* crowd : {&plain, &filtered}) {
                crowd->pose(0).x += frame % 7 == 0 ? 37.5f : 3.25f;
                crowd->pose(0).y -= 1.5f;
            }
            update_characters(plain.poses(), plain.states(), FrameStep{k_dt, Physics::update});
            update_characters(filtered.poses(), filtered.states(), FrameStep{k_dt, Physics::update, show});
            ASSERT_EQ(first_difference(plain.pose(0), filtered.pose(0)), "")
                << k_skeleton_files[k] << ", frame " << frame;
        }
    }
}

TEST(PoseFilter, a_character_passed_over_follows_its_skeleton_position_and_is_posed_without_asking_once_rescaled) {
    ASSERT_FALSE(skeletons().empty());
    const SkeletonData& data = *skeletons()[0];  // spineboy
    Crowd crowd;
    crowd.add(data);
    crowd.state(0).set_animation(0, pick_animation(data, 1), true);
    struct Asked {
        int count = 0;
        float root_x = 0;
    } asked;
    const PoseFilter hide{[](void* context, CharacterIndex, const SkeletonPose& pose) {
                              auto& a = *static_cast<Asked*>(context);
                              ++a.count;
                              a.root_x = pose.world[0].x;
                              return false;
                          },
                          &asked};
    const FrameStep step{k_dt, Physics::update, hide};
    update_characters(crowd.poses(), crowd.states(), step);
    EXPECT_EQ(asked.count, 0) << "a character never posed is posed without asking";
    const std::vector<BoneWorld> first = crowd.pose(0).world;

    for (int frame = 1; frame <= 10; ++frame) {
        crowd.pose(0).x += 2.5f;
        update_characters(crowd.poses(), crowd.states(), step);
    }
    EXPECT_EQ(asked.count, 10);
    EXPECT_TRUE(crowd.pose(0).posed_at.skipped);
    for (std::size_t b = 0; b < first.size(); ++b) {
        EXPECT_NEAR(crowd.pose(0).world[b].x, first[b].x + 25, 1e-3) << "bone " << b;
        EXPECT_EQ(crowd.pose(0).world[b].y, first[b].y) << "bone " << b;
        EXPECT_EQ(crowd.pose(0).world[b].a, first[b].a) << "bone " << b;
    }
    EXPECT_EQ(asked.root_x, crowd.pose(0).world[0].x) << "the filter sees the moved transforms";

    crowd.pose(0).scale_x = -1;
    update_characters(crowd.poses(), crowd.states(), step);
    EXPECT_EQ(asked.count, 10) << "a rescaled character is posed without asking";
    EXPECT_FALSE(crowd.pose(0).posed_at.skipped);
    EXPECT_EQ(crowd.pose(0).world[0].a, -first[0].a) << "posed, mirrored";
}

TEST(PoseFilter, physics_start_from_rest_in_the_setup_then_animated_pose_when_posed_again) {
    ASSERT_FALSE(skeletons().empty());
    const SkeletonData* circus = skeletons()[2].get();  // celestial-circus: physics on hair, cape and tail
    ASSERT_FALSE(without_physics(*circus));
    Crowd passed, expected;
    for (Crowd* crowd : {&passed, &expected}) {
        crowd->add(*circus);
        crowd->state(0).set_animation(0, circus->animation_names.find("swing"), true);
    }
    ScriptedFilter script;
    script.shown = [](CharacterIndex, std::uint32_t frame) { return frame < 20 || frame >= 40; };
    for (std::uint32_t frame = 0; frame < 90; ++frame) {
        script.frame = frame;
        update_characters(passed.poses(), passed.states(), FrameStep{k_dt, Physics::update, script.filter()});
        // The documented equivalent: every frame posed, and at frame 40 the setup pose and physics reset.
        SkeletonPose& pose = expected.pose(0);
        AnimationState& state = expected.state(0);
        if (frame == 40) set_to_setup_pose(pose);
        state.update(k_dt);
        state.apply(pose);
        update_time(pose, k_dt);
        update_world_transform(pose, frame == 40 ? Physics::reset : Physics::update);
        if (frame >= 40) {
            ASSERT_EQ(first_difference(expected.pose(0), passed.pose(0)), "") << "frame " << frame;
        }
    }
}

}  // namespace
}  // namespace spinegpu
