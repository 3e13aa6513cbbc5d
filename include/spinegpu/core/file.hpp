// Reading whole files into memory, with an Error naming the file when it cannot be read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"

namespace spinegpu {

// The largest file the readers accept: far above any skeleton, atlas or page image (a 16384² RGBA page holds 1 GiB
// only uncompressed, and PNG pages are compressed), and small enough that a device file such as /dev/zero or a huge
// sparse file is refused at once instead of filling memory.
inline constexpr std::uint64_t k_max_file_bytes = std::uint64_t{256} << 20;

// Returns the bytes of the file at `path`, or an Error naming it: the path is empty, the file cannot be opened or
// read, it is a directory, or it holds more than `max_bytes` (a regular file is refused by its size before reading;
// a pipe or device after `max_bytes` bytes).
Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path, std::uint64_t max_bytes = k_max_file_bytes);

// Returns the file at `path` as text (no decoding, bytes as chars), with the errors of read_file_bytes.
Result<std::string> read_file_text(const std::string& path, std::uint64_t max_bytes = k_max_file_bytes);

}  // namespace spinegpu
