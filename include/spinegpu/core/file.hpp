// Reading whole files into memory, with an Error naming the file when it cannot be read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"

namespace spinegpu {

// Returns the bytes of the file at `path`, or an Error naming it ("cannot open", "read failed").
Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path);

// Returns the file at `path` as text (no decoding, bytes as chars).
Result<std::string> read_file_text(const std::string& path);

}  // namespace spinegpu
