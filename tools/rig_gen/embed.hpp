// Writes the C++ source that embeds the demo rig's files into the spinegpu_demo_rig library (demo_rig.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spinegpu::rig {

// One file to embed: its name and bytes.
struct FileBytes {
    std::string name;
    std::vector<std::uint8_t> bytes;
};

// The source of demo_rig_embedded.cpp defining spinegpu::demo_rig_files() over `files`, in the given order.
std::string embedded_source(const std::vector<FileBytes>& files);

}  // namespace spinegpu::rig
