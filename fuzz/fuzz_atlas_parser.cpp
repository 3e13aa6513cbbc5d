// libFuzzer target: the atlas parser must turn any input into an Atlas or an Error, never a crash, an
// out-of-bounds access, undefined behaviour or a leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "spinegpu/data/atlas.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    spinegpu::Result<spinegpu::Atlas> result = spinegpu::parse_atlas(text, "fuzz.atlas");
    if (result) {
        for (const std::string& name : result->all_region_names) (void)result->find_region(name);
    } else {
        (void)result.error().message();
    }
    return 0;
}
