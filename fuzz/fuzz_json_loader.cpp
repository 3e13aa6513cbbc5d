// libFuzzer target: the JSON skeleton loader must turn any input into a SkeletonData or an Error, never a crash,
// an out-of-bounds access, undefined behaviour or a leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spinegpu/data/skeleton_features.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    spinegpu::Result<spinegpu::SkeletonData> result = spinegpu::load_skeleton_json(text, "fuzz.json");
    if (result) (void)spinegpu::analyze_features(*result);
    else (void)result.error().message();
    return 0;
}
