// A crowd's update order (update_order.hpp): a new crowd starts in index order (no keys recorded yet); once the update
// job has recorded the characters' keys, the order groups them by skeleton type and track 0's animation, by animation
// time within a group; it is kept until as many group changes as an eighth of the characters were counted or
// k_rebuild_frames refreshes passed; it is always a permutation of the crowd. (That any order gives the same poses is
// BatchUpdate's tests' business: the batch updater follows this order.)
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

constexpr FrameStep k_step{1.0 / 60, Physics::update};

struct Types {
    std::unique_ptr<SkeletonData> spineboy, raptor;
};

// The two skeletons, loaded once for all tests (poses point into them); null when one fails to load (the test that
// asked has failed).
const Types& types() {
    static const Types loaded = [] {
        Types out;
        for (auto [file, slot] : {std::pair{"spineboy/spineboy-pro.skel", &out.spineboy},
                                  std::pair{"raptor/raptor-pro.skel", &out.raptor}}) {
            Result<SkeletonData> data = load_skeleton_file((test::examples_dir() / file).string());
            if (!data) {
                ADD_FAILURE() << data.error().message();
                return Types{};
            }
            *slot = std::make_unique<SkeletonData>(std::move(data.value()));
        }
        return out;
    }();
    return loaded;
}

// Character i: spineboy or raptor in turn, animation (i / 2) % 3 of its type, looping, at a phase that differs for
// every character of a group by much more than the order's phase resolution.
Crowd make_crowd(const Types& loaded, std::size_t count) {
    Crowd crowd;
    for (std::size_t i = 0; i < count; ++i) {
        const SkeletonData& data = i % 2 == 0 ? *loaded.spineboy : *loaded.raptor;
        const CharacterIndex c = crowd.add(data);
        set_to_setup_pose(crowd.pose(c));
        const auto animation = static_cast<Index>((i / 2) % 3);
        const TrackEntryId id = crowd.state(c).set_animation(0, animation, true);
        const double fraction = static_cast<double>((i * 7919) % 97) / 97.0;
        crowd.state(c).entry(id)->track_time =
            data.animations[static_cast<std::size_t>(animation)].duration * fraction;
    }
    return crowd;
}

void update_all(Crowd& crowd) {
    update_in_order(crowd, crowd.update_order().characters(), 0, crowd.size(), k_step);
}

// make_crowd's crowd of `count` characters in its first sorted order: a refresh for its size, a frame that records
// every key, and the refresh that sorts them. Empty when the skeletons did not load or the order was not sorted.
Crowd sorted_crowd(std::size_t count) {
    if (!types().spineboy || !types().raptor) return {};
    Crowd crowd = make_crowd(types(), count);
    crowd.update_order().refresh(crowd.size());
    update_all(crowd);
    if (!crowd.update_order().refresh(crowd.size())) {
        ADD_FAILURE() << "the first refresh after the keys were recorded did not sort";
        return {};
    }
    return crowd;
}

bool is_permutation_of(std::span<const CharacterIndex> order, std::size_t size) {
    std::vector<CharacterIndex> sorted(order.begin(), order.end());
    std::sort(sorted.begin(), sorted.end());
    if (sorted.size() != size) return false;
    for (std::size_t i = 0; i < size; ++i)
        if (sorted[i] != i) return false;
    return true;
}

// Track 0's animation of character i.
Index animation_of(const Crowd& crowd, CharacterIndex i) {
    return crowd.state(i).entry(crowd.state(i).current(0))->animation;
}

// Expects the crowd's update order to hold each (skeleton type, track 0 animation) group in one run.
void expect_groups_together(const Crowd& crowd) {
    const std::span<const CharacterIndex> order = crowd.update_order().characters();
    std::set<std::pair<const SkeletonData*, Index>> finished;
    for (std::size_t k = 1; k < order.size(); ++k) {
        const std::pair previous{crowd.pose(order[k - 1]).data, animation_of(crowd, order[k - 1])};
        if (previous != std::pair{crowd.pose(order[k]).data, animation_of(crowd, order[k])}) {
            EXPECT_TRUE(finished.insert(previous).second) << "a group split at position " << k;
        }
    }
}

TEST(UpdateOrder, new_crowd_starts_in_index_order_then_groups_by_type_and_animation_in_phase_order) {
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_TRUE(types().spineboy && types().raptor);
    Crowd crowd = make_crowd(types(), 120);
    UpdateOrder& order = crowd.update_order();
    EXPECT_TRUE(order.refresh(crowd.size()));
    for (CharacterIndex k = 0; k < crowd.size(); ++k) ASSERT_EQ(order.characters()[k], k);

    update_all(crowd);  // records every character's key: all of them changed group (from none)
    EXPECT_TRUE(order.refresh(crowd.size()));
    const std::span<const CharacterIndex> sorted = order.characters();
    ASSERT_TRUE(is_permutation_of(sorted, crowd.size()));
    // Each (type, animation) group is one run of the order, and within a run the animation times grow.
    std::set<std::pair<const SkeletonData*, Index>> finished;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        const CharacterIndex i = sorted[k];
        const std::pair group{crowd.pose(i).data, animation_of(crowd, i)};
        if (k > 0) {
            const CharacterIndex before = sorted[k - 1];
            const std::pair previous{crowd.pose(before).data, animation_of(crowd, before)};
            if (previous == group) {
                const AnimationState& a = crowd.state(before);
                const AnimationState& b = crowd.state(i);
                EXPECT_LE(a.animation_time(a.current(0)), b.animation_time(b.current(0))) << "position " << k;
            } else {
                EXPECT_TRUE(finished.insert(previous).second) << "a group split at position " << k;
            }
        }
    }
    EXPECT_EQ(finished.size() + 1, 6u);  // 2 types x 3 animations
}

TEST(UpdateOrder, is_kept_until_an_eighth_of_the_characters_changed_animation) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Crowd crowd = sorted_crowd(80);
    ASSERT_EQ(crowd.size(), 80u);
    UpdateOrder& order = crowd.update_order();
    const std::vector<CharacterIndex> first(order.characters().begin(), order.characters().end());

    // 9 characters (fewer than 80 / 8 = 10) switch animation: the order stays as it is.
    auto switch_animation = [&](CharacterIndex i) { crowd.state(i).set_animation(0, 3, true); };
    for (CharacterIndex i = 0; i < 9; ++i) switch_animation(i);
    update_all(crowd);
    EXPECT_FALSE(order.refresh(crowd.size()));
    EXPECT_TRUE(std::equal(first.begin(), first.end(), order.characters().begin()));
    // Frames without changes do not count.
    update_all(crowd);
    EXPECT_FALSE(order.refresh(crowd.size()));
    // The tenth change makes it stale: rebuilt, and the switched characters now form their own groups.
    switch_animation(9);
    update_all(crowd);
    EXPECT_TRUE(order.refresh(crowd.size()));
    ASSERT_TRUE(is_permutation_of(order.characters(), crowd.size()));
    EXPECT_FALSE(std::equal(first.begin(), first.end(), order.characters().begin()));
}

TEST(UpdateOrder, is_rebuilt_after_k_rebuild_frames_refreshes_without_changes) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Crowd crowd = sorted_crowd(16);
    ASSERT_EQ(crowd.size(), 16u);
    UpdateOrder& order = crowd.update_order();
    for (std::uint32_t frame = 1; frame < UpdateOrder::k_rebuild_frames; ++frame) {
        update_all(crowd);
        ASSERT_FALSE(order.refresh(crowd.size())) << "refresh " << frame;
    }
    update_all(crowd);
    EXPECT_TRUE(order.refresh(crowd.size()));
    EXPECT_TRUE(is_permutation_of(order.characters(), crowd.size()));
}

TEST(UpdateOrder, stays_a_permutation_as_the_crowd_grows_and_new_characters_join_their_groups) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Crowd crowd = sorted_crowd(40);
    ASSERT_EQ(crowd.size(), 40u);
    UpdateOrder& order = crowd.update_order();
    // 40 more characters of the same kinds: the new size is a new order, and after a frame the new ones are sorted in.
    Crowd more = make_crowd(types(), 80);
    for (CharacterIndex i = 40; i < 80; ++i) {
        const SkeletonData& data = *more.pose(i).data;
        const CharacterIndex c = crowd.add(data);
        set_to_setup_pose(crowd.pose(c));
        crowd.state(c).set_animation(0, animation_of(more, i), true);
    }
    EXPECT_TRUE(order.refresh(crowd.size()));
    EXPECT_TRUE(is_permutation_of(order.characters(), crowd.size()));
    update_all(crowd);
    EXPECT_TRUE(order.refresh(crowd.size()));  // 40 of 80 changed group (from none)
    ASSERT_TRUE(is_permutation_of(order.characters(), crowd.size()));
    expect_groups_together(crowd);
    // Shrinking is a new size too.
    EXPECT_TRUE(order.refresh(10));
    EXPECT_TRUE(is_permutation_of(order.characters(), 10));
}

TEST(UpdateOrder, a_removed_characters_place_takes_the_moved_characters_key) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Crowd crowd = sorted_crowd(40);
    ASSERT_EQ(crowd.size(), 40u);
    UpdateOrder& order = crowd.update_order();
    // Character 1 (raptor, animation 0) goes; 39 (raptor, animation 1) takes its place, and its key with it, so the
    // order sorted at once keeps every group together without a frame to record keys again.
    ASSERT_EQ(animation_of(crowd, 39), 1);
    ASSERT_EQ(animation_of(crowd, 1), 0);
    EXPECT_EQ(crowd.remove(1), 39u);
    EXPECT_EQ(crowd.remove(38), 38u);  // the last: nothing moves
    EXPECT_TRUE(order.refresh(crowd.size()));
    ASSERT_TRUE(is_permutation_of(order.characters(), crowd.size()));
    expect_groups_together(crowd);
}

TEST(UpdateOrder, a_despawn_then_a_spawn_sort_again_though_the_size_is_back) {
    SPINEGPU_REQUIRE_EXAMPLES();
    Crowd crowd = sorted_crowd(40);
    ASSERT_EQ(crowd.size(), 40u);
    UpdateOrder& order = crowd.update_order();
    crowd.remove(5);
    const CharacterIndex c = crowd.add(*types().spineboy);
    crowd.state(c).set_animation(0, 2, true);
    ASSERT_EQ(crowd.size(), 40u);
    EXPECT_TRUE(order.refresh(crowd.size()));
    ASSERT_TRUE(is_permutation_of(order.characters(), crowd.size()));
    update_all(crowd);  // records the newcomer's key, a change
    EXPECT_EQ(order.characters()[0], c) << "a character without a key sorts first";
}

}  // namespace
}  // namespace spinegpu
