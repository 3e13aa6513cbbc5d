#include "spinegpu/core/file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace spinegpu {
namespace {

template <class Container>
Result<Container> read_all(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return make_error(path, "", std::string("cannot open: ") + std::strerror(errno));
    Container out;
    char buffer[65536];
    for (;;) {
        std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
        out.insert(out.end(), buffer, buffer + n);
        if (n < sizeof buffer) break;
    }
    const int error = std::ferror(f) != 0 ? errno : 0;
    std::fclose(f);
    if (error != 0) return make_error(path, "", std::string("cannot read: ") + std::strerror(error));
    return out;
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path) {
    return read_all<std::vector<std::uint8_t>>(path);
}

Result<std::string> read_file_text(const std::string& path) { return read_all<std::string>(path); }

}  // namespace spinegpu
