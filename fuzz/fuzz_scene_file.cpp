// libFuzzer target: the scene file parser (`spinegpu render --scene`) must turn any input into a SceneFile or an
// Error that names the place, never a crash, an out-of-bounds access, undefined behaviour or a leak.
#include <cstddef>
#include <cstdint>
#include <string>

#include "scene_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    spinegpu::Result<spinegpu::tools::SceneFile> result = spinegpu::tools::parse_scene(text, "fuzz/scene.json");
    if (!result) (void)result.error().message();
    return 0;
}
