// What the JSON and binary loaders share about keys and sequences, beyond curves (curve_builder.hpp): the limits of
// a sequence, the full slot order that a draw order key's offsets stand for, and a deform key completed the way the
// official runtime stores it. Each loader reads the values and words its errors in its own terms (JSON path, byte
// offset). Private to the data layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::detail {

// Most frames a sequence may have. Every frame is an atlas region looked up by name, so more only come from a
// corrupt file (and a count of 0 would leave the runtime nothing to show).
inline constexpr std::int64_t k_max_sequence_frames = 100000;
// Most digits a sequence's frame numbers may be padded to.
inline constexpr std::int64_t k_max_sequence_digits = 32;
// Largest frame index a sequence key may hold: the key row stores mode | index << 4 in a float, which must stay exact.
inline constexpr std::int64_t k_max_sequence_key_index = (std::int64_t{1} << 20) - 1;

// Builds the slot order of draw order keys as the official loaders do: a key lists slots in increasing setup order,
// each moved by an offset; the slots it does not list keep their setup order in the places left. One builder serves
// every key of a skeleton (it reuses its buffers).
class DrawOrderBuilder {
public:
    enum class Step : std::uint8_t { ok, slot_out_of_order, place_taken };

    explicit DrawOrderBuilder(std::size_t slot_count) : order_(slot_count), unchanged_(slot_count) {}

    // Starts a new key.
    void begin();
    // Moves `slot` by `offset`. Returns slot_out_of_order when `slot` is out of range or not after the previous slot
    // of this key, place_taken when its new place is outside the order or already taken; the key is then unusable.
    Step move(std::int64_t slot, std::int64_t offset);
    // Places the slots the key did not move and returns the key's order (one slot index per place), valid until the
    // next begin(). Precondition: every move() returned ok.
    const std::vector<Index>& finish();

private:
    std::vector<Index> order_, unchanged_;
    std::size_t original_ = 0, kept_ = 0;
};

// Completes a deform key in place, as the official runtime stores it. `key` holds the key's values at their offset and
// zeros elsewhere; `has_values` is false for a key that lists none. `setup` is the attachment's setup vertices when it
// is unweighted: the key then becomes positions (setup added, in double and rounded to float once as the runtime's
// Float32Array does, or the setup itself for a key without values). `setup` is empty for a weighted attachment, whose
// keys stay offsets. Precondition: setup is empty or as long as key.
void complete_deform_key(std::span<float> key, std::span<const float> setup, bool has_values);

}  // namespace spinegpu::detail
