// The runtime's attachment look-up by name when the default skin's answer is already known (resolved at load by
// finish_skeleton_data): internal, since a wrong `in_default` gives a wrong answer that nothing could detect.
#pragma once

#include "spinegpu/runtime/skeleton_pose.hpp"

namespace spinegpu::detail {

// The attachment at (slot, attachment name) in the pose's current skin, or `otherwise` when the skin has none there
// or there is no skin; k_none for no name.
Index current_skin_attachment_or(const SkeletonPose& pose, Index slot, Index attachment_name, Index otherwise);

// find_attachment for a name whose attachment in the default skin is known (`in_default`: SlotData::
// default_attachment, or what follows an attachment timeline's key names, see TimelineData): the same answer,
// searching only a current skin that is not the default skin. Inline: attachment timelines ask every frame.
inline Index find_attachment(const SkeletonPose& pose, Index slot, Index attachment_name, Index in_default) {
    if (pose.skin == k_none || pose.skin == pose.data->default_skin) return in_default;
    return current_skin_attachment_or(pose, slot, attachment_name, in_default);
}

}  // namespace spinegpu::detail
