// Decoded page images: RGBA8, straight or premultiplied as the atlas page says (the bytes are left as stored).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "spinegpu/core/result.hpp"

namespace spinegpu {

struct Image {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // width * height * 4 bytes, rows top to bottom

    // Frees the pixels (after a GPU upload); width and height stay.
    void release_pixels() { std::vector<std::uint8_t>().swap(rgba); }
};

// Largest width or height decode_image accepts.
inline constexpr std::uint32_t k_max_image_dimension = 16384;

// An image's size in pixels.
struct ImageSize {
    std::uint32_t width = 0, height = 0;
};

// The size a PNG's header gives, read without decoding its pixels; fails as decode_image does on bytes that are
// not a PNG or an image over k_max_image_dimension on a side.
Result<ImageSize> image_size(std::span<const std::uint8_t> bytes, const std::string& file);

// Decodes a PNG from memory to RGBA8 (any channel count or bit depth is converted; other formats are errors).
// `file` names the source in errors, which carry stb_image's reason (a PNG header past k_max_image_dimension
// names its size). Safe for untrusted input: images over k_max_image_dimension on a side are rejected before their
// pixels are allocated, and compressed data that inflates past what the header's size needs before it is.
Result<Image> decode_image(std::span<const std::uint8_t> bytes, const std::string& file);

// Reads and decodes the image at `path`.
Result<Image> load_image_file(const std::string& path);

// Premultiplied RGBA8 pixels to straight alpha, in place: each colour channel c of a pixel with alpha a becomes
// c * 255 / a rounded to nearest, at most 255; a pixel with alpha 0 becomes transparent black. (What
// Renderer::read_back does to the frame; for an application that reads the frame image itself.)
void unpremultiply_rgba8(std::span<std::uint8_t> rgba);

// Encodes RGBA8 pixels as PNG and writes them to `path`. Fails on an empty image, one over k_max_image_dimension,
// or `rgba` not holding width * height * 4 bytes.
Result<void> write_png_file(const std::string& path, const Image& image);

}  // namespace spinegpu
