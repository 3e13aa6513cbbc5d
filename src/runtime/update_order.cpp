// UpdateOrder (update_order.hpp): keys recorded by the update job, a least-significant-digit radix sort of them when
// the order is stale.
#include "spinegpu/runtime/update_order.hpp"

#include <array>
#include <cassert>
#include <utility>

namespace spinegpu {
namespace {

constexpr int k_phase_bits = 16;
constexpr int k_group_shift = k_phase_bits;  // key >> k_group_shift: type and animation

// A character's key: bits 40-63 the skeleton type (bits 4-27 of its SkeletonData's address: types that share them
// share a group, which costs only speed), bits 16-39 track 0's animation (0: no entry; the empty animation and every
// animation of the data have codes of their own), bits 0-15 the animation time as a fraction of the duration.
std::uint64_t order_key(const SkeletonPose& pose, const AnimationState& state) {
    const std::uint64_t type = (reinterpret_cast<std::uintptr_t>(pose.data) >> 4) & 0xFFFFFFu;
    std::uint64_t animation = 0, phase = 0;
    const TrackEntryId id = state.current(0);
    if (const TrackEntry* entry = state.entry(id)) {
        animation = static_cast<std::uint64_t>(static_cast<std::uint32_t>(entry->animation + 3) & 0xFFFFFFu);
        if (entry->animation >= 0 && static_cast<std::size_t>(entry->animation) < pose.data->animations.size()) {
            const double duration = pose.data->animations[static_cast<std::size_t>(entry->animation)].duration;
            const double fraction = duration > 0 ? state.animation_time(id) / duration : 0;
            // NaN and out-of-range times (a track time far past a non-looping end) go to the ends.
            const double clamped = fraction > 0 ? (fraction < 1 ? fraction : 1) : 0;
            phase = static_cast<std::uint64_t>(clamped * ((1 << k_phase_bits) - 1));
        }
    }
    return type << 40 | animation << k_group_shift | phase;
}

}  // namespace

UpdateOrder::UpdateOrder(UpdateOrder&& other) noexcept
    : order_(std::move(other.order_)),
      keys_(std::move(other.keys_)),
      sort_keys_{std::move(other.sort_keys_[0]), std::move(other.sort_keys_[1])},
      sort_order_{std::move(other.sort_order_[0]), std::move(other.sort_order_[1])},
      changes_(other.changes_.load(std::memory_order_relaxed)),
      frames_(other.frames_) {}

UpdateOrder& UpdateOrder::operator=(UpdateOrder&& other) noexcept {
    order_ = std::move(other.order_);
    keys_ = std::move(other.keys_);
    for (int b = 0; b < 2; ++b) {
        sort_keys_[b] = std::move(other.sort_keys_[b]);
        sort_order_[b] = std::move(other.sort_order_[b]);
    }
    changes_.store(other.changes_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    frames_ = other.frames_;
    return *this;
}

void UpdateOrder::moved(CharacterIndex from, CharacterIndex to) {
    // (Keys only place characters in the order; a character without one yet sorts first, as a new one does.)
    if (to < from && to < keys_.size()) keys_[to] = from < keys_.size() ? keys_[from] : 0;
    if (from < keys_.size()) keys_.resize(from);
    frames_ = k_rebuild_frames;  // the next refresh sorts, even if an add() has brought the size back
}

bool UpdateOrder::refresh(std::size_t size) {
    const bool resized = size != order_.size();
    if (!resized) {
        const std::size_t changes = changes_.load(std::memory_order_relaxed);
        if (++frames_ < k_rebuild_frames && changes * 8 < size) return false;
        if (size == 0) return false;
    }
    keys_.resize(size, 0);  // new characters sort first until their keys are recorded (and counted as changes)
    order_.resize(size);
    for (int b = 0; b < 2; ++b) {
        sort_keys_[b].resize(size);
        sort_order_[b].resize(size);
    }
    // Least significant byte first, each pass a stable counting sort; bytes on which all keys agree are skipped.
    std::uint64_t all = ~std::uint64_t{0}, any = 0;
    for (std::size_t i = 0; i < size; ++i) {
        sort_keys_[0][i] = keys_[i];
        sort_order_[0][i] = static_cast<CharacterIndex>(i);
        all &= keys_[i];
        any |= keys_[i];
    }
    int from = 0;
    for (int shift = 0; shift < 64; shift += 8) {
        if ((((all ^ any) >> shift) & 0xFF) == 0) continue;
        std::array<std::size_t, 256> start{};
        for (std::size_t i = 0; i < size; ++i) ++start[(sort_keys_[from][i] >> shift) & 0xFF];
        std::size_t at = 0;
        for (std::size_t& s : start) at += std::exchange(s, at);
        const int to = from ^ 1;
        for (std::size_t i = 0; i < size; ++i) {
            const std::uint64_t key = sort_keys_[from][i];
            const std::size_t place = start[(key >> shift) & 0xFF]++;
            sort_keys_[to][place] = key;
            sort_order_[to][place] = sort_order_[from][i];
        }
        from = to;
    }
    order_.swap(sort_order_[from]);  // (the old order becomes scratch of the same size)
    changes_.store(0, std::memory_order_relaxed);
    frames_ = 0;
    return true;
}

std::uint32_t UpdateOrder::record(CharacterIndex i, const SkeletonPose& pose, const AnimationState& state) {
    if (i >= keys_.size()) return 0;
    const std::uint64_t key = order_key(pose, state);
    const std::uint64_t before = std::exchange(keys_[i], key);
    return (before >> k_group_shift) != (key >> k_group_shift) ? 1 : 0;
}

}  // namespace spinegpu
