// Loading skeleton exports: Spine 4.2 JSON (json_loader.cpp) and binary .skel (binary_loader.cpp).
//
// Both are safe for untrusted input: any malformed file gives an Error naming the file, the place (JSON path such
// as "/skins/0/attachments/head/head/uvs/12", or "byte 1043" in a binary) and what was expected; never a crash,
// an out-of-bounds read or a leak. A version other than 4.2.x is rejected with the version found.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "spinegpu/core/result.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu {

// Options for loading; zero means default. A scale that is not finite is refused (an error naming the option).
struct SkeletonLoadOptions {
    float scale = 0;  // multiplies lengths and positions as the official loaders' `scale` does; 0 means 1
};

// Parses a JSON export held in memory (a leading UTF-8 byte order mark is skipped). `file` names the source in
// errors.
Result<SkeletonData> load_skeleton_json(std::string_view json, const std::string& file,
                                        const SkeletonLoadOptions& options = {});

// Parses a binary export held in memory. `file` names the source in errors.
Result<SkeletonData> load_skeleton_binary(std::span<const std::uint8_t> bytes, const std::string& file,
                                          const SkeletonLoadOptions& options = {});

// Reads `path` and parses it as JSON when its first non-blank byte (after a UTF-8 byte order mark) is '{' and it does
// not start as a binary export does (an 8-byte hash, which may begin with '{', then a version string "4.2..."), as
// binary otherwise; a file with nothing but blanks is an error that says it is empty.
Result<SkeletonData> load_skeleton_file(const std::string& path, const SkeletonLoadOptions& options = {});

}  // namespace spinegpu
