#include "timeline_keys.hpp"

#include <algorithm>
#include <cassert>

namespace spinegpu::detail {

void DrawOrderBuilder::begin() {
    std::fill(order_.begin(), order_.end(), k_none);
    original_ = 0;
    kept_ = 0;
}

DrawOrderBuilder::Step DrawOrderBuilder::move(std::int64_t slot, std::int64_t offset) {
    const auto slot_count = static_cast<std::int64_t>(order_.size());
    if (slot < static_cast<std::int64_t>(original_) || slot >= slot_count) return Step::slot_out_of_order;
    while (static_cast<std::int64_t>(original_) != slot) unchanged_[kept_++] = static_cast<Index>(original_++);
    const std::int64_t place = slot + offset;
    if (place < 0 || place >= slot_count || order_[static_cast<std::size_t>(place)] != k_none) return Step::place_taken;
    order_[static_cast<std::size_t>(place)] = static_cast<Index>(original_++);
    return Step::ok;
}

const std::vector<Index>& DrawOrderBuilder::finish() {
    while (original_ < order_.size()) unchanged_[kept_++] = static_cast<Index>(original_++);
    for (std::size_t i = order_.size(); i-- > 0;)
        if (order_[i] == k_none) order_[i] = unchanged_[--kept_];
    return order_;
}

void complete_deform_key(std::span<float> key, std::span<const float> setup, bool has_values) {
    if (setup.empty()) return;
    assert(setup.size() == key.size());
    if (!has_values) {
        std::copy(setup.begin(), setup.end(), key.begin());
        return;
    }
    for (std::size_t i = 0; i < key.size(); ++i)
        key[i] = static_cast<float>(static_cast<double>(key[i]) + static_cast<double>(setup[i]));
}

}  // namespace spinegpu::detail
