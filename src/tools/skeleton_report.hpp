// The description of a skeleton (and its atlas) that `spinegpu info` and `spinegpu demo` print.
#pragma once

#include <string>

#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::tools {

// Human-readable report: version, counts, skins, constraints, animations with their timeline types, events, atlas
// pages, and the optional per-frame data the skeleton needs on the GPU. `atlas` may be null.
std::string describe_text(const std::string& file, const SkeletonData& data, const Atlas* atlas);

// The same as one JSON object. It has at least "bones", "slots", "skins", "animations", "events" and, with an atlas,
// "pages": arrays of objects with a "name", in the skeleton's order (DESIGN.md, info --json).
std::string describe_json(const std::string& file, const SkeletonData& data, const Atlas* atlas);

}  // namespace spinegpu::tools
