// The skeleton a fuzz input stands for, for the targets that go on to pose and draw it: a JSON export when its first
// byte that is not white space is '{', else a binary export. Binary exports hold raw floats (NaN and infinities
// included, which JSON cannot spell), so both formats matter to what comes after loading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "spinegpu/data/skeleton_loader.hpp"

inline spinegpu::Result<spinegpu::SkeletonData> load_fuzz_skeleton(const std::uint8_t* bytes, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(bytes), size);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') return spinegpu::load_skeleton_json(text, "fuzz.json");
    return spinegpu::load_skeleton_binary(std::span<const std::uint8_t>(bytes, size), "fuzz.skel");
}
