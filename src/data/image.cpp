// Page image decoding and PNG writing through stb_image / stb_image_write (their implementations live in this file
// only). Only PNG is decoded: the format Spine exports pages in, and the least decoder surface for untrusted input.
// (JPEG is left out on purpose: the stb_image 2.27 that Debian 12 ships indexes past a Huffman table on a crafted
// JPEG, which the image fuzz target finds within a minute.)
#include "spinegpu/data/image.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "spinegpu/core/file.hpp"

// stb_image's allocations, each refused past a limit set while an image decodes: a PNG's compressed data may inflate
// to far more than its header's size needs (a file of 2 MB with a 1 x 1 header made stb_image grow its buffer to 2
// GB), and stb_image's inflater grows its buffer to whatever the stream holds.
namespace spinegpu::image_limit {
// The most bytes one allocation may take on this thread; 0: no limit (outside decode_image).
inline thread_local std::size_t bytes = 0;
// Whether an allocation was refused since the limit was set.
inline thread_local bool refused = false;
inline void* allocate(std::size_t size) {
    if (bytes != 0 && size > bytes) {
        refused = true;
        return nullptr;
    }
    return std::malloc(size);
}
inline void* reallocate(void* p, std::size_t size) {
    if (bytes != 0 && size > bytes) {
        refused = true;
        return nullptr;
    }
    return std::realloc(p, size);
}
}  // namespace spinegpu::image_limit
#define STBI_MALLOC(size) ::spinegpu::image_limit::allocate(size)
#define STBI_REALLOC(p, size) ::spinegpu::image_limit::reallocate(p, size)
#define STBI_FREE(p) std::free(p)

#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS 16384
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace spinegpu {
namespace {

constexpr int k_max_dimension = STBI_MAX_DIMENSIONS;
static_assert(k_max_dimension == static_cast<int>(k_max_image_dimension));

constexpr std::size_t k_signature = 8, k_chunk_overhead = 12;  // a PNG chunk's length, type and CRC

// The big-endian 32-bit number at `at` in `bytes` (a PNG chunk's length).
std::uint32_t u32_at(std::span<const std::uint8_t> bytes, std::size_t at) {
    return std::uint32_t{bytes[at]} << 24 | std::uint32_t{bytes[at + 1]} << 16 | std::uint32_t{bytes[at + 2]} << 8 |
           std::uint32_t{bytes[at + 3]};
}

// `bytes` without the PNG chunks of type IDAT and length 0, or an empty vector when it has none (or is not a chunk
// sequence that far). stb_image copies a first IDAT of length 0 into its still-null buffer (memcpy from a null
// pointer: undefined behaviour, which the image fuzz target's UBSan reports); such chunks carry no data, so the image
// decodes the same without them.
std::vector<std::uint8_t> without_empty_idat_chunks(std::span<const std::uint8_t> bytes) {
    std::vector<std::uint8_t> out;
    std::size_t kept = 0;  // bytes before this position are in `out` (or need not be, while `out` is empty)
    // Each chunk whose length and type are there, the last one perhaps truncated (an empty IDAT cut short too).
    for (std::size_t at = k_signature; at + 8 <= bytes.size();) {
        const std::size_t end = at + k_chunk_overhead + u32_at(bytes, at);
        if (u32_at(bytes, at) == 0 && std::memcmp(&bytes[at + 4], "IDAT", 4) == 0) {
            out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(kept),
                       bytes.begin() + static_cast<std::ptrdiff_t>(at));
            kept = std::min(end, bytes.size());
        }
        at = end;
    }
    if (!out.empty()) out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(kept), bytes.end());
    return out;
}

void append_bytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
}

// An error naming the first IDAT chunk of `bytes` that says it holds more bytes than the file has after its type,
// or none. stb_image grows its buffer to hold a whole IDAT chunk before it reads it, so a file of a few bytes whose
// chunk claims 2 GB would have it allocate 2 GB (the image fuzz target's smoke run found one); a chunk that long
// cannot be read anyway.
Result<void> check_idat_lengths(std::span<const std::uint8_t> bytes, const std::string& file) {
    for (std::size_t at = k_signature; at + 8 <= bytes.size();) {
        const std::uint32_t length = u32_at(bytes, at);
        const std::size_t left = bytes.size() - (at + 8);
        if (std::memcmp(&bytes[at + 4], "IDAT", 4) == 0 && length > left)
            return make_error(file, "byte " + std::to_string(at),
                              "cannot decode image: its IDAT chunk says it holds " + std::to_string(length) +
                                  " bytes, but only " + std::to_string(left) + " follow");
        at += k_chunk_overhead + length;
    }
    return {};
}

// The bytes stb_image reads: `input` without empty IDAT chunks (`cleaned` holds them when it had any); an error
// when it is empty, too large, or an IDAT chunk is longer than the file.
Result<std::span<const std::uint8_t>> readable_bytes(std::span<const std::uint8_t> input, const std::string& file,
                                                     std::vector<std::uint8_t>& cleaned) {
    if (input.empty()) return make_error(file, "", "cannot decode image: empty file");
    cleaned = without_empty_idat_chunks(input);
    const std::span<const std::uint8_t> bytes = cleaned.empty() ? input : std::span<const std::uint8_t>(cleaned);
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) return make_error(file, "", "cannot decode image: too large");
    if (Result<void> lengths = check_idat_lengths(bytes, file); !lengths) return lengths.error();
    return bytes;
}

// Clears stb_image's failure reason (per thread, kept across calls), so that stbi_failure names the next call's
// failure and never an earlier one's. (stb_image has no call for it: this writes its internal variable, which its
// implementation, included above, declares unless STBI_NO_FAILURE_STRINGS.)
void stbi_forget_failure() { stbi__g_failure_reason = nullptr; }

// Why stb_image last failed, in words: its failure reason, or a general one where it left none (some corrupt
// streams, such as a deflate block of the reserved type, end its decoding without setting one).
std::string stbi_failure() {
    const char* reason = stbi_failure_reason();
    return std::string("cannot decode image: ") + (reason != nullptr ? reason : "corrupt PNG data");
}

// The header's size of `bytes` (readable_bytes), checked against k_max_dimension.
Result<ImageSize> header_size(std::span<const std::uint8_t> bytes, const std::string& file) {
    int width = 0, height = 0, channels = 0;
    stbi_forget_failure();
    if (!stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &width, &height, &channels)) {
        // stb_image says only "unknown image type" for a PNG too large for it: read the size from the IHDR chunk
        // (after the signature, its length and type) to say so.
        static constexpr std::uint8_t k_png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        if (bytes.size() >= 24 && std::memcmp(bytes.data(), k_png, 8) == 0 && std::memcmp(&bytes[12], "IHDR", 4) == 0) {
            const std::uint32_t w = u32_at(bytes, 16), h = u32_at(bytes, 20);
            if (w > static_cast<std::uint32_t>(k_max_dimension) || h > static_cast<std::uint32_t>(k_max_dimension))
                return make_error(file, "", "cannot decode image: " + std::to_string(w) + "x" + std::to_string(h) +
                                                " is larger than " + std::to_string(k_max_dimension) + "x" +
                                                std::to_string(k_max_dimension));
        }
        return make_error(file, "", stbi_failure());
    }
    if (width <= 0 || height <= 0 || width > k_max_dimension || height > k_max_dimension)
        return make_error(file, "", "cannot decode image: " + std::to_string(width) + "x" + std::to_string(height) +
                                        " is larger than " + std::to_string(k_max_dimension) + "x" +
                                        std::to_string(k_max_dimension));
    return ImageSize{static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)};
}

}  // namespace

Result<ImageSize> image_size(std::span<const std::uint8_t> input, const std::string& file) {
    std::vector<std::uint8_t> cleaned;
    Result<std::span<const std::uint8_t>> bytes = readable_bytes(input, file, cleaned);
    if (!bytes) return bytes.error();
    return header_size(*bytes, file);
}

Result<Image> decode_image(std::span<const std::uint8_t> input, const std::string& file) {
    std::vector<std::uint8_t> cleaned;
    Result<std::span<const std::uint8_t>> bytes = readable_bytes(input, file, cleaned);
    if (!bytes) return bytes.error();
    // The header first, so that an absurd size is rejected before anything is allocated.
    Result<ImageSize> size = header_size(*bytes, file);
    if (!size) return size.error();
    // No allocation past four times the largest raw image the header allows (16-bit RGBA, a filter byte per row;
    // an interlaced image's passes add a little, and the inflater doubles its buffer), and at least 1 MiB.
    const ImageSize& header = *size;
    const std::size_t raw = std::size_t{header.width} * header.height * 8 + header.height;
    const std::size_t limit = std::max<std::size_t>(4 * raw, std::size_t{1} << 20);
    image_limit::bytes = limit;
    image_limit::refused = false;
    int width = 0, height = 0, channels = 0;
    stbi_forget_failure();
    stbi_uc* pixels =
        stbi_load_from_memory(bytes->data(), static_cast<int>(bytes->size()), &width, &height, &channels, 4);
    image_limit::bytes = 0;
    if (!pixels && image_limit::refused)
        return make_error(file, "", "cannot decode image: its compressed data inflates to more than its " +
                                        std::to_string(header.width) + "x" + std::to_string(header.height) +
                                        " pixels need (past " + std::to_string(limit) + " bytes)");
    if (!pixels) return make_error(file, "", stbi_failure());
    Image image;
    image.width = static_cast<std::uint32_t>(width);
    image.height = static_cast<std::uint32_t>(height);
    image.rgba.assign(pixels, pixels + static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
    stbi_image_free(pixels);
    return image;
}

Result<Image> load_image_file(const std::string& path) {
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    return decode_image(*bytes, path);
}

void unpremultiply_rgba8(std::span<std::uint8_t> rgba) {
    for (std::size_t p = 0; p + 3 < rgba.size(); p += 4) {
        const std::uint32_t a = rgba[p + 3];
        for (std::size_t k = 0; k < 3; ++k)
            rgba[p + k] =
                static_cast<std::uint8_t>(a == 0 ? 0 : std::min<std::uint32_t>(255, (rgba[p + k] * 255u + a / 2) / a));
    }
}

Result<void> write_png_file(const std::string& path, const Image& image) {
    if (image.width == 0 || image.height == 0 || image.width > static_cast<std::uint32_t>(k_max_dimension) ||
        image.height > static_cast<std::uint32_t>(k_max_dimension))
        return make_error(path, "", "cannot write PNG: bad size " + std::to_string(image.width) + "x" +
                                        std::to_string(image.height));
    const std::size_t expected = std::size_t{image.width} * image.height * 4;
    if (image.rgba.size() != expected)
        return make_error(path, "", "cannot write PNG: " + std::to_string(image.rgba.size()) +
                                        " bytes of pixels, expected " + std::to_string(expected));
    std::vector<std::uint8_t> png;
    const int w = static_cast<int>(image.width), h = static_cast<int>(image.height);
    if (!stbi_write_png_to_func(append_bytes, &png, w, h, 4, image.rgba.data(), w * 4))
        return make_error(path, "", "cannot write PNG: encoding failed");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return make_error(path, "", std::string("cannot open for writing: ") + std::strerror(errno));
    errno = 0;
    const bool written = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    int reason = written ? 0 : errno;
    if (std::fclose(f) != 0 && reason == 0) reason = errno;
    if (!written || reason != 0) {
        // (A cut-short PNG must not pass for the image; a device such as /dev/full, or a link, stays.)
        std::error_code ec;
        const bool removed = std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::regular &&
                             std::remove(path.c_str()) == 0;
        return make_error(path, "", std::string(removed ? "write failed, the file removed: " : "write failed: ") +
                                        (reason != 0 ? std::strerror(reason) : "cut short"));
    }
    return {};
}

}  // namespace spinegpu
