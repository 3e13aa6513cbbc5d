// Mix durations between animations (Spine's AnimationStateData). Looked up only when an entry is created, so a
// linear search over the pairs is enough.
#include "spinegpu/runtime/animation_state.hpp"

namespace spinegpu {

void MixTable::set(Index from, Index to, double duration) {
    for (Pair& pair : pairs) {
        if (pair.from == from && pair.to == to) {
            pair.duration = duration;
            return;
        }
    }
    pairs.push_back({from, to, duration});
}

double MixTable::get(Index from, Index to) const {
    for (const Pair& pair : pairs)
        if (pair.from == from && pair.to == to) return pair.duration;
    return default_mix;
}

}  // namespace spinegpu
