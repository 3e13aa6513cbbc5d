#include <algorithm>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {

namespace {

// Whether `b` starts as a binary export does: an 8-byte hash (any bytes, '{' among them), then the version string,
// its length + 1 in one byte and its text a digit and a dot ("4.2.xx"). A JSON skeleton never does: its ninth byte
// is text or a blank, and a blank there is followed by a quote or a brace.
bool starts_as_binary(const std::vector<std::uint8_t>& b) {
    if (b.size() < 11) return false;
    const std::uint8_t length_plus_one = b[8];
    return length_plus_one >= 3 && length_plus_one <= 33 && b[9] >= '0' && b[9] <= '9' && b[10] == '.';
}

// Whether `b` opens with the PNG signature.
bool starts_as_png(const std::vector<std::uint8_t>& b) {
    static constexpr std::uint8_t k_png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    return b.size() >= 8 && std::equal(k_png, k_png + 8, b.begin());
}

// Whether the first bytes of `b` (up to 256) are all printable ASCII or line breaks and tabs: text, which a binary
// export's hash and version-length byte almost never are.
bool starts_as_text(const std::vector<std::uint8_t>& b) {
    const std::size_t n = std::min<std::size_t>(b.size(), 256);
    return std::all_of(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n), [](std::uint8_t c) {
        return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
    });
}

}  // namespace

Result<SkeletonData> load_skeleton_file(const std::string& path, const SkeletonLoadOptions& options) {
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    const std::vector<std::uint8_t>& b = *bytes;
    std::size_t i = 0;
    const bool byte_order_mark = b.size() >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf;  // UTF-8's
    if (byte_order_mark) i = 3;
    while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) ++i;
    if (i == b.size()) return make_error(path, "", "the file is empty (no skeleton in it)");
    // JSON text: what opens with a brace or bracket, or with a byte order mark (which only text has), so that its
    // errors are JSON's (a second mark, an array at the root) and not a binary header's.
    if ((byte_order_mark || b[i] == '{' || b[i] == '[') && !starts_as_binary(b)) {
        std::string_view text(reinterpret_cast<const char*>(b.data()), b.size());
        return load_skeleton_json(text, path, options);
    }
    if (!starts_as_binary(b)) {
        if (starts_as_png(b)) return make_error(path, "", "a PNG image, not a skeleton (an atlas page?)");
        if (starts_as_text(b))
            return make_error(path, "",
                              "text that is not a JSON object, so not a skeleton (an atlas? a skeleton is the .json "
                              "or .skel export)");
    }
    return load_skeleton_binary(b, path, options);
}

}  // namespace spinegpu
