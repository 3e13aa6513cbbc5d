// The embedded demo rig's crowd, shared by `spinegpu demo` (drawn headless, with timings) and `spinegpu view` (in a
// window): the rig's files written out, and the crowd as a scene.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "scene_file.hpp"
#include "spinegpu/core/result.hpp"
#include "spinegpu/demo_rig.hpp"

namespace spinegpu::tools {

// The embedded file whose name ends with `suffix` (".json", ".atlas", ".png"), or null.
const EmbeddedFile* find_demo_rig_file(std::string_view suffix);

// Writes the rig's files into `dir` (made when missing), printing a line per file unless `quiet`. Fails naming the
// file it could not write.
Result<void> write_demo_rig(const std::string& dir, bool quiet);

// The demo crowd: `count` knights of the rig in `rig_dir` spread over a width x height canvas (world units =
// pixels), about 64 to 100 px tall, each with a random animation, phase, tint and facing (fixed seed), over an opaque
// background.
SceneFile demo_scene(const std::string& rig_dir, std::uint32_t count, std::uint32_t width, std::uint32_t height);

}  // namespace spinegpu::tools
