// libFuzzer target: the binary skeleton loader must turn any input into a SkeletonData or an Error, never a crash,
// an out-of-bounds access, undefined behaviour, a huge allocation or a leak.
#include <cstddef>
#include <cstdint>
#include <span>

#include "spinegpu/data/skeleton_features.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    spinegpu::Result<spinegpu::SkeletonData> result =
        spinegpu::load_skeleton_binary(std::span<const std::uint8_t>(data, size), "fuzz.skel");
    if (result) (void)spinegpu::analyze_features(*result);
    else (void)result.error().message();
    return 0;
}
