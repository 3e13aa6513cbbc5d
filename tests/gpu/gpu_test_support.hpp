// Helpers for the GPU layer's CPU-side tests: an example skeleton with its bind form, a character playing an
// animation (posed as `spinegpu pose` does), and one frame packed into plain arrays with guard words after them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/pose_test_support.hpp"
#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/static_skeleton.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "test_support.hpp"

namespace spinegpu::test {

// An example skeleton (binary export), its atlas and binding, and its bind form with page i on layer i.
struct GpuType {
    std::string name;
    std::unique_ptr<LoadedSkeleton> loaded;
    gpu::StaticSkeleton type;

    const SkeletonData& data() const { return loaded->data; }
};

// Page i on layer i, covering the whole layer.
inline std::vector<gpu::PagePlacement> layer_per_page(const Atlas& atlas) {
    std::vector<gpu::PagePlacement> pages;
    for (std::uint32_t i = 0; i < atlas.pages.size(); ++i) pages.push_back({i, 1, 1});
    return pages;
}

// Loads `skeleton` with `atlas` (relative to the examples folder) and builds its bind form. Fails the test (returns
// null) when either step fails.
inline std::unique_ptr<GpuType> load_gpu_type(const std::string& skeleton, const std::string& atlas) {
    auto out = std::make_unique<GpuType>();
    out->name = skeleton;
    out->loaded = load_skeleton_and_atlas(skeleton, atlas);
    if (!out->loaded) return nullptr;
    Result<gpu::StaticSkeleton> type = gpu::build_static_skeleton(out->loaded->data, out->loaded->atlas,
                                                                  out->loaded->binding,
                                                                  layer_per_page(out->loaded->atlas), skeleton);
    if (!type) {
        ADD_FAILURE() << type.error().message();
        return nullptr;
    }
    out->type = std::move(*type);
    return out;
}

// The skin a test shows: the first "full-skins/..." skin (mix-and-match), else the first skin besides the default
// one, else none (the default skin's attachments).
inline Index showcase_skin(const SkeletonData& data) {
    Index first_other = k_none;
    for (Index s = 0; s < static_cast<Index>(data.skins.size()); ++s) {
        if (s == data.default_skin) continue;
        if (data.skin_names[s].rfind("full-skins/", 0) == 0) return s;
        if (first_other == k_none) first_other = s;
    }
    return first_other;
}

// A new pose of `data` with `skin` (or none) in the setup pose.
inline SkeletonPose setup_pose(const SkeletonData& data, Index skin) {
    SkeletonPose pose = create_pose(data);
    set_skin(pose, skin);
    set_to_setup_pose(pose);
    return pose;
}

// One character playing one animation on track 0, stepped as `spinegpu pose` steps (update, apply, physics time,
// world transforms with Physics::update).
struct Player {
    SkeletonPose pose;
    AnimationState state;

    Player(const SkeletonData& data, Index skin, Index animation) : pose(create_pose(data)), state(data) {
        if (skin != k_none) set_skin(pose, skin);
        set_to_setup_pose(pose);
        state.set_animation(0, animation, true);
    }

    void step(double dt) {
        state.update(dt);
        state.apply(pose);
        update_time(pose, dt);
        update_world_transform(pose, Physics::update);
        state.notifications.clear();
    }
};

// Mix-and-match (its bind form built) walking in skin `skin` (k_none: no skin, so its skin-required bones are
// inactive): `player` stays null when loading failed (the failure is reported).
struct MixAndMatchWalker {
    std::unique_ptr<GpuType> t =
        load_gpu_type("mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas");
    std::unique_ptr<Player> player;

    explicit MixAndMatchWalker(const char* skin) {
        if (!t) return;
        const SkeletonData& data = t->data();
        const Index skin_index = skin == nullptr ? k_none : data.skin_names.find(skin);
        player = std::make_unique<Player>(data, skin_index, data.animation_names.find("walk"));
    }
    const SkeletonData& data() const { return t->data(); }
};

// Plays every animation of every example skeleton (binary export, bind form built) with its showcase skin, in
// steps of 1/60 s up to `steps`, and after every `every`-th step calls visit(type, player, where), `where` naming
// the skeleton, animation and step for messages. Stops when visit returns false. A test that visits no pose at all
// (the examples' layout changed) fails, as does one whose skeleton does not load.
template <class Visit>
void for_each_example_pose(int steps, int every, Visit visit) {
    std::size_t visited = 0;
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) {
            ADD_FAILURE() << e.binary << " did not load";
            continue;
        }
        const SkeletonData& data = t->data();
        for (Index animation = 0; animation < static_cast<Index>(data.animations.size()); ++animation) {
            Player player(data, showcase_skin(data), animation);
            for (int step = 1; step <= steps; ++step) {
                player.step(1.0 / 60);
                if (step % every != 0) continue;
                const std::string where = e.binary.filename().string() + " " + data.animation_names[animation] +
                                          " step " + std::to_string(step);
                ++visited;
                if (!visit(*t, player, where)) return;
            }
        }
    }
    EXPECT_GT(visited, 0u) << "no example pose was visited";
}

// Arrays one frame is packed into, each followed by guard words that packing must leave alone.
struct PackedFrame {
    static constexpr std::uint32_t k_guard = 0xDEADBEEFu;
    static constexpr std::uint32_t k_guard_words = 64;

    std::vector<gpu::GpuCharacter> characters;
    std::vector<float> bones;
    std::vector<std::uint32_t> words;
    std::uint32_t bone_capacity = 0, word_capacity = 0;  // what the packer may use, in bones and words
    gpu::PackCursor cursor;

    // Room for `count` characters of `type`.
    PackedFrame(const gpu::StaticSkeleton& type, const SkeletonData& data, std::uint32_t count) {
        bone_capacity = count * static_cast<std::uint32_t>(type.drawn_bones.size());
        word_capacity = count * gpu::max_words_per_character(type, data);
        characters.resize(count);
        bones.assign(std::size_t{bone_capacity} * 6 + k_guard_words, 0.0f);
        for (std::uint32_t i = 0; i < k_guard_words; ++i)
            std::memcpy(&bones[std::size_t{bone_capacity} * 6 + i], &k_guard, 4);
        words.assign(std::size_t{word_capacity} + k_guard_words, k_guard);
        cursor.characters = characters.data();
        cursor.bones = bones.data();
        cursor.words = words.data();
    }

    // Whether the guard words after both arrays are intact.
    bool guards_intact() const {
        for (std::uint32_t i = 0; i < k_guard_words; ++i) {
            std::uint32_t b = 0;
            std::memcpy(&b, &bones[std::size_t{bone_capacity} * 6 + i], 4);
            if (b != k_guard || words[std::size_t{word_capacity} + i] != k_guard) return false;
        }
        return true;
    }
};

}  // namespace spinegpu::test
