#include "spinegpu/core/file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace spinegpu {
namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

std::string too_large(std::uint64_t max_bytes) {
    const bool whole_mib = max_bytes % (1u << 20) == 0;
    return "file is larger than the " +
           (whole_mib ? std::to_string(max_bytes >> 20) + " MiB" : std::to_string(max_bytes) + " bytes") +
           " that spinegpu reads";
}

template <class Container>
Result<Container> read_all(const std::string& path, std::uint64_t max_bytes) {
    if (path.empty()) return make_error("\"\"", "", "cannot open: the path is empty");
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) return make_error(path, "", std::string("cannot open: ") + std::strerror(errno));
    // A regular file's size is known before reading it; pipes and devices are counted as they are read.
    struct stat info {};
    if (fstat(fileno(f.get()), &info) != 0)
        return make_error(path, "", std::string("cannot read: ") + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) return make_error(path, "", "cannot read: it is a directory");
    Container out;
    if (S_ISREG(info.st_mode)) {
        if (static_cast<std::uint64_t>(info.st_size) > max_bytes) return make_error(path, "", too_large(max_bytes));
        out.reserve(static_cast<std::size_t>(info.st_size));
    }
    char buffer[65536];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, f.get());
        if (out.size() + n > max_bytes) return make_error(path, "", too_large(max_bytes));
        out.insert(out.end(), buffer, buffer + n);
        if (n < sizeof buffer) break;
    }
    if (std::ferror(f.get()) != 0) return make_error(path, "", std::string("cannot read: ") + std::strerror(errno));
    return out;
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path, std::uint64_t max_bytes) {
    return read_all<std::vector<std::uint8_t>>(path, max_bytes);
}

Result<std::string> read_file_text(const std::string& path, std::uint64_t max_bytes) {
    return read_all<std::string>(path, max_bytes);
}

}  // namespace spinegpu
