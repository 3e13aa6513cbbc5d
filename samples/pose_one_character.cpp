// pose_one_character: plays one animation of a skeleton for STEPS frames of 1/60 s, as `spinegpu pose` steps it, and
// prints every bone's world transform, one line per bone: "name a b c d x y". The README quotes the lines between
// the README markers; tests/cli/library_samples_match_the_tool.sh checks them against `spinegpu pose`.
//
// usage: pose_one_character SKELETON ANIMATION STEPS
#include <cstdio>
#include <cstdlib>

// README: begin headers
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation_state.hpp"

using namespace spinegpu;
// README: end

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: pose_one_character SKELETON ANIMATION STEPS\n");
        return 2;
    }
    char* end = nullptr;
    const long requested = std::strtol(argv[3], &end, 10);
    if (*argv[3] == '\0' || *end != '\0' || requested < 0 || requested > 1000000) {
        std::fprintf(stderr, "pose_one_character: STEPS is a whole number from 0 to 1000000, not \"%s\"\n", argv[3]);
        return 2;
    }
    const int steps = static_cast<int>(requested);
    // README: begin pose
    Result<SkeletonData> skeleton = load_skeleton_file(argv[1]);   // .json or .skel
    if (!skeleton) { std::fprintf(stderr, "%s\n", skeleton.error().message().c_str()); return 1; }
    const Index animation = skeleton->animation_names.find(argv[2]);
    if (animation == k_none) { std::fprintf(stderr, "no animation %s\n", argv[2]); return 1; }

    // The official runtime's Skeleton and AnimationState, data-oriented:
    SkeletonPose pose = create_pose(*skeleton);   // in the setup pose
    AnimationState state(*skeleton);
    state.set_animation(0, animation, /*loop=*/true);
    for (int frame = 0; frame < steps; ++frame) {
        state.update(1.0 / 60);
        state.apply(pose);
        update_time(pose, 1.0 / 60);                  // physics time
        update_world_transform(pose, Physics::update); // pose.world[i]: bone i's world transform
        for (const StateNotification& n : state.notifications)   // start, interrupt, end, complete, dispose, event
            if (n.type == StateNotification::Type::complete) std::fprintf(stderr, "loop complete at frame %d\n", frame);
        state.notifications.clear();
    }
    // README: end
    for (std::size_t i = 0; i < pose.world.size(); ++i) {
        const BoneWorld& w = pose.world[i];
        std::printf("%s %.9g %.9g %.9g %.9g %.9g %.9g\n", skeleton->bone_names[static_cast<Index>(i)].c_str(), w.a,
                    w.b, w.c, w.d, w.x, w.y);
    }
    return 0;
}
