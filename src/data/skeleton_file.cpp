#include "spinegpu/core/file.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {

Result<SkeletonData> load_skeleton_file(const std::string& path, const SkeletonLoadOptions& options) {
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::vector<std::uint8_t>& b = *bytes;
    std::size_t i = 0;
    if (b.size() >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) i = 3;  // UTF-8 byte order mark
    while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) ++i;
    if (i == b.size()) return make_error(path, "", "the file is empty (no skeleton in it)");
    if (b[i] == '{') {
        std::string_view text(reinterpret_cast<const char*>(b.data()), b.size());
        return load_skeleton_json(text, path, options);
    }
    return load_skeleton_binary(b, path, options);
}

}  // namespace spinegpu
