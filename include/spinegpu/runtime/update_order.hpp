// The order in which a crowd's characters are updated: grouped by skeleton type and by the animation track 0 plays,
// and by animation time within a group, so that the characters a thread updates one after another take the same
// branches through the same timelines and read the same keys. Measured on crowds of random animations at random
// phases, 16 threads: 2-14% less update time than the crowd's own order (docs/PERFORMANCE.md, "session 6").
//
// Any order gives bit for bit the same poses: characters share nothing mutable. The order is kept from frame to frame
// (phases of looping animations advance together, so their order stays good) and rebuilt only when it has gone stale:
// the crowd changed size, the update job counted as many changes of skeleton type or animation since the last rebuild
// as an eighth of the characters (a character that changes twice counts twice; a new character counts once its first
// key is recorded), or k_rebuild_frames refreshes passed. The update job records each character's key after updating
// it, so a rebuild reads keys already at hand, and costs a radix sort of the crowd's keys (no allocation once the
// crowd stops growing).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu {

// A character's place in its Crowd: characters are numbered 0, 1, 2... in the order they were added.
using CharacterIndex = std::uint32_t;

class UpdateOrder {
public:
    // Refreshes between rebuilds at most (so that phases drifting apart, by time scales or pauses, are sorted again;
    // one refresh per frame makes it frames).
    static constexpr std::uint32_t k_rebuild_frames = 256;

    UpdateOrder() = default;
    UpdateOrder(UpdateOrder&& other) noexcept;
    UpdateOrder& operator=(UpdateOrder&& other) noexcept;
    UpdateOrder(const UpdateOrder&) = delete;
    UpdateOrder& operator=(const UpdateOrder&) = delete;

    // The characters in update order: a permutation of [0, size) for the size of the last refresh(). The span stays
    // valid and unchanged until the next refresh(): a batch and any pose job that follow one order must take it after
    // the same refresh.
    std::span<const CharacterIndex> characters() const { return order_; }

    // Makes the order fit a crowd of `size` characters before a batch. A new size, or a stale order, is sorted from
    // the keys recorded so far (characters without one yet go first; their keys are recorded by the next batch and
    // count as changes, so the next refresh sorts them in); otherwise the order is kept. Returns true when it was
    // sorted. Not thread safe: call it between batches.
    bool refresh(std::size_t size);

    // For the update job, after it updated character `i`: records the character's key and returns 1 if its skeleton
    // type or track 0's animation differs from the key recorded before, else 0. A character at or past the size of
    // the last refresh() is not recorded (0). Distinct characters may be recorded from different threads at once,
    // but not during refresh().
    std::uint32_t record(CharacterIndex i, const SkeletonPose& pose, const AnimationState& state);
    // For Crowd::remove: character `from`, the last, now stands at `to`, and the crowd is one smaller. Its key moves
    // with it, and the next refresh() sorts again (also when characters added since bring the size back). Not thread
    // safe: call it between batches.
    void moved(CharacterIndex from, CharacterIndex to);
    // For the update job: adds the changes that record() reported for a range (one atomic add per range).
    void add_changes(std::uint32_t changes) { changes_.fetch_add(changes, std::memory_order_relaxed); }

private:
    std::vector<CharacterIndex> order_;
    std::vector<std::uint64_t> keys_;  // per character: type, animation, phase (see order_key in update_order.cpp)
    // Radix sort scratch: (key, character) pairs, two buffers.
    std::vector<std::uint64_t> sort_keys_[2];
    std::vector<CharacterIndex> sort_order_[2];
    std::atomic<std::size_t> changes_{0};  // group changes record() counted since the last rebuild
    std::uint32_t frames_ = 0;             // refreshes since the last rebuild
};

}  // namespace spinegpu
