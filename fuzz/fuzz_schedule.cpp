// libFuzzer target: the schedule parser (`spinegpu pose|render --schedule`, and scene characters' schedules) must
// turn any input into a Schedule whose names resolve against the skeleton, or an Error that names the place, never
// a crash, an out-of-bounds access, undefined behaviour or a leak. Names resolve against a small skeleton of our own
// with the kinds of names a schedule refers to: animations and skins.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "schedule.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace {

constexpr const char* k_skeleton = R"({
  "skeleton": {"spine": "4.2.0"},
  "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 40}],
  "slots": [{"name": "body", "bone": "root"}, {"name": "hand", "bone": "arm"}],
  "skins": [{"name": "default"}, {"name": "red"}, {"name": "blue"}],
  "events": {"step": {"int": 1}},
  "animations": {
    "walk": {"bones": {"arm": {"rotate": [{"value": 0}, {"time": 1, "value": 90}]}},
             "events": [{"time": 0.5, "name": "step"}]},
    "run": {"bones": {"arm": {"translate": [{"x": 0}, {"time": 0.5, "x": 10}]}}}
  }
})";

const spinegpu::SkeletonData& skeleton() {
    static const spinegpu::SkeletonData data = [] {
        spinegpu::Result<spinegpu::SkeletonData> loaded =
            spinegpu::load_skeleton_json(k_skeleton, "fuzz-skeleton.json");
        if (!loaded) std::abort();  // the fixture itself is broken: not the input's fault
        return std::move(*loaded);
    }();
    return data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    spinegpu::Result<spinegpu::tools::Schedule> result =
        spinegpu::tools::parse_schedule(text, "fuzz/schedule.json", skeleton());
    if (!result) (void)result.error().message();
    return 0;
}
