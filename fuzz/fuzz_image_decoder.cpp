// libFuzzer target: page image decoding (PNG through stb_image) must turn any input into an Image or an
// Error, never a crash, an out-of-bounds access, undefined behaviour, a leak or an allocation past the size limit.
#include <cstddef>
#include <cstdint>
#include <span>

#include "spinegpu/data/image.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    spinegpu::Result<spinegpu::Image> result =
        spinegpu::decode_image(std::span<const std::uint8_t>(data, size), "fuzz.png");
    if (result) {
        if (result->rgba.size() != std::size_t{result->width} * result->height * 4) __builtin_trap();
    } else {
        (void)result.error().message();
    }
    return 0;
}
