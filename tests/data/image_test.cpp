// Page images: decoding the examples' pages, PNG round trips, and malformed input.
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "spinegpu/core/file.hpp"
#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/image.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

namespace fs = std::filesystem;

fs::path temp_path(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("spinegpu_image_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir / name;
}

Image test_pattern(std::uint32_t width, std::uint32_t height) {
    Image image;
    image.width = width;
    image.height = height;
    image.rgba.resize(std::size_t{width} * height * 4);
    for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = static_cast<std::uint8_t>(i * 37 + i / 7);
    return image;
}

// `image` as PNG bytes (written to a temporary file and read back); empty after recording a failure.
std::vector<std::uint8_t> png_bytes(const Image& image, const std::string& name) {
    fs::path path = temp_path(name);
    Result<void> written = write_png_file(path.string(), image);
    Result<std::vector<std::uint8_t>> bytes = read_file_bytes(path.string());
    fs::remove_all(path.parent_path());
    if (!written || !bytes) {
        ADD_FAILURE() << (written ? bytes.error().message() : written.error().message());
        return {};
    }
    return std::move(*bytes);
}

TEST(Image, decodes_example_pages_at_the_atlas_size) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for (const char* file : {"spineboy/spineboy.atlas", "dragon/dragon-pma.atlas"}) {
        SCOPED_TRACE(file);
        Result<Atlas> atlas = load_atlas_file((test::examples_dir() / file).string());
        ASSERT_TRUE(atlas.ok()) << atlas.error().message();
        Index last = static_cast<Index>(atlas->pages.size() - 1);
        Result<Image> image = load_image_file(atlas_page_path(*atlas, last));
        ASSERT_TRUE(image.ok()) << image.error().message();
        EXPECT_EQ(image->width, atlas->pages.back().width);
        EXPECT_EQ(image->height, atlas->pages.back().height);
        ASSERT_EQ(image->rgba.size(), std::size_t{image->width} * image->height * 4);
        // A page has both transparent and opaque pixels.
        bool transparent = false, opaque = false;
        for (std::size_t i = 3; i < image->rgba.size(); i += 4) {
            transparent |= image->rgba[i] == 0;
            opaque |= image->rgba[i] == 255;
        }
        EXPECT_TRUE(transparent);
        EXPECT_TRUE(opaque);
        image->release_pixels();
        EXPECT_TRUE(image->rgba.empty());
        EXPECT_GT(image->width, 0u);
    }
}

TEST(Image, png_write_then_read_round_trips) {
    Image image = test_pattern(37, 11);
    fs::path path = temp_path("round_trip.png");
    Result<void> written = write_png_file(path.string(), image);
    ASSERT_TRUE(written.ok()) << written.error().message();
    Result<Image> read = load_image_file(path.string());
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->width, 37u);
    EXPECT_EQ(read->height, 11u);
    EXPECT_EQ(read->rgba, image.rgba);
    fs::remove_all(path.parent_path());
}

// Premultiplied to straight: c * 255 / a rounded to nearest, clamped to 255 (a channel above its alpha), alpha kept,
// and alpha 0 to transparent black; a premultiplied opaque or half-covered white comes back white.
TEST(Image, unpremultiplying_divides_by_alpha_rounding_to_nearest) {
    std::vector<std::uint8_t> rgba = {255, 128, 0, 255,  // opaque: unchanged
                                      128, 64, 1, 128,   // half: 255, 128 (127.5 rounds up), 2 (1.99)
                                      10, 0, 200, 100,   // a channel over its alpha: clamped
                                      7, 8, 9, 0,        // no coverage: black
                                      1, 2, 3, 3};       // 85, 170, 255
    unpremultiply_rgba8(rgba);
    const std::vector<std::uint8_t> expected = {255, 128, 0, 255, 255, 128, 2, 128, 26, 0, 255, 100,
                                                0,   0,   0, 0,   85,  170, 255, 3};
    EXPECT_EQ(rgba, expected);
}

TEST(Image, garbage_bytes_give_an_error_naming_the_file) {
    std::vector<std::uint8_t> garbage(300);
    for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<std::uint8_t>(i * 91 + 7);
    Result<Image> image = decode_image(garbage, "pages/broken.png");
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().file, "pages/broken.png");
    EXPECT_NE(image.error().message().find("pages/broken.png"), std::string::npos);
    EXPECT_NE(image.error().what.find("cannot decode image: "), std::string::npos);
    EXPECT_GT(image.error().what.size(), std::string("cannot decode image: ").size());  // stb's reason follows

    Result<Image> empty = decode_image({}, "empty.png");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().file, "empty.png");
}

TEST(Image, truncated_png_never_crashes) {
    Image image = test_pattern(64, 48);
    const std::vector<std::uint8_t> bytes = png_bytes(image, "truncate.png");
    ASSERT_FALSE(bytes.empty());
    const std::vector<std::uint8_t>& b = bytes;
    for (std::size_t n = 0; n < b.size(); n += (n < 128 ? 1 : 13)) {
        Result<Image> decoded = decode_image(std::span(b.data(), n), "t.png");
        if (decoded.ok()) {
            EXPECT_EQ(decoded->rgba.size(), std::size_t{decoded->width} * decoded->height * 4);
        } else {
            EXPECT_EQ(decoded.error().file, "t.png");
        }
    }
}

TEST(Image, empty_idat_chunks_are_skipped_and_the_image_decodes_the_same) {
    // stb_image would copy a first IDAT of length 0 from a null buffer (undefined behaviour under UBSan; the image
    // fuzz target's smoke run found it in both forms below).
    Image image = test_pattern(32, 16);
    const std::vector<std::uint8_t> bytes = png_bytes(image, "empty_idat.png");
    ASSERT_FALSE(bytes.empty());
    // After the signature (8 bytes) and IHDR (25), two empty IDAT chunks (their CRC is that of "IDAT" alone).
    const std::uint8_t empty_idat[] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e};
    std::vector<std::uint8_t> b = bytes;
    for (int n = 0; n < 2; ++n) b.insert(b.begin() + 33, std::begin(empty_idat), std::end(empty_idat));
    Result<Image> decoded = decode_image(b, "e.png");
    ASSERT_TRUE(decoded.ok()) << decoded.error().message();
    EXPECT_EQ(decoded->width, 32u);
    EXPECT_EQ(decoded->rgba, image.rgba);
    // An empty IDAT cut short at the end of the file (no CRC, nothing after it): an error naming the file.
    std::vector<std::uint8_t> cut(b.begin(), b.begin() + 33);
    cut.insert(cut.end(), std::begin(empty_idat), std::begin(empty_idat) + 9);
    Result<Image> truncated = decode_image(cut, "cut.png");
    ASSERT_FALSE(truncated.ok());
    EXPECT_EQ(truncated.error().file, "cut.png");
}

TEST(Image, an_idat_chunk_longer_than_the_file_is_an_error_naming_its_place) {
    // stb_image would grow its buffer to the chunk's stated length first: a chunk claiming 2 GB in a small file had it
    // allocate 2 GB (the image fuzz target's smoke run found it). The first IDAT follows the signature (8 bytes) and
    // IHDR (25).
    Image image = test_pattern(32, 16);
    const std::vector<std::uint8_t> bytes = png_bytes(image, "long_idat.png");
    ASSERT_FALSE(bytes.empty());
    std::vector<std::uint8_t> b = bytes;
    ASSERT_EQ(std::string(b.begin() + 37, b.begin() + 41), "IDAT");
    const std::size_t follow = b.size() - 41;
    for (const std::uint32_t length : {0x7FFFFFF0u, static_cast<std::uint32_t>(follow) + 1}) {
        for (int k = 0; k < 4; ++k) b[33 + k] = static_cast<std::uint8_t>(length >> (24 - 8 * k));
        Result<Image> decoded = decode_image(b, "long.png");
        ASSERT_FALSE(decoded.ok()) << length;
        EXPECT_EQ(decoded.error().file, "long.png");
        EXPECT_EQ(decoded.error().where, "byte 33");
        EXPECT_NE(decoded.error().message().find("says it holds " + std::to_string(length) + " bytes, but only " +
                                                 std::to_string(follow) + " follow"),
                  std::string::npos)
            << decoded.error().message();
        EXPECT_FALSE(image_size(b, "long.png").ok());
    }
}

TEST(Image, a_stream_stb_image_fails_without_a_reason_gives_this_files_own_error) {
    // stb_image ends at a deflate block of the reserved type 3 without saying why; its reason is then null, or an
    // earlier failure's (the image fuzz target's smoke run found the null read).
    Image image = test_pattern(16, 8);
    const std::vector<std::uint8_t> bytes = png_bytes(image, "reserved_block.png");
    ASSERT_FALSE(bytes.empty());
    std::vector<std::uint8_t> b = bytes;
    ASSERT_EQ(std::string(b.begin() + 37, b.begin() + 41), "IDAT");
    // The IDAT data start with the zlib header (2 bytes); the first block's header bits follow: BFINAL, BTYPE = 11.
    b[43] = static_cast<std::uint8_t>((b[43] & ~0x07u) | 0x07u);
    std::vector<std::uint8_t> garbage(64, 0x5a);
    ASSERT_FALSE(decode_image(garbage, "earlier.png").ok());  // leaves stb_image a reason of its own
    Result<Image> decoded = decode_image(b, "reserved.png");
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error().file, "reserved.png");
    EXPECT_EQ(decoded.error().what, "cannot decode image: corrupt PNG data");
    ASSERT_TRUE(image_size(b, "reserved.png").ok());  // the header itself is sound
}

// A zlib stream (fixed-Huffman deflate) that inflates to `zeros` zero bytes: one literal, then copies of 258 bytes
// at distance 1, then literals for the rest. (No Adler-32 check: stb_image does not read it.)
std::vector<std::uint8_t> zlib_zeros(std::size_t zeros) {
    std::vector<std::uint8_t> out = {0x78, 0x01};
    std::uint32_t bits = 0;
    int count = 0;
    auto put = [&](std::uint32_t value, int n) {  // LSB first
        for (int i = 0; i < n; ++i) {
            bits |= ((value >> i) & 1u) << count;
            if (++count == 8) {
                out.push_back(static_cast<std::uint8_t>(bits));
                bits = 0;
                count = 0;
            }
        }
    };
    auto huffman = [&](std::uint32_t code, int n) {  // Huffman codes go most significant bit first
        for (int i = n - 1; i >= 0; --i) put((code >> i) & 1u, 1);
    };
    put(1, 1);  // the final block
    put(1, 2);  // fixed Huffman codes
    std::size_t left = zeros;
    auto literal_zero = [&] {
        huffman(0x30, 8);  // literal 0
        --left;
    };
    if (left > 0) literal_zero();
    while (left >= 258) {
        huffman(0xC5, 8);  // length 258 (code 285)
        huffman(0, 5);     // distance 1
        left -= 258;
    }
    while (left > 0) literal_zero();
    huffman(0, 7);  // end of block
    if (count > 0) out.push_back(static_cast<std::uint8_t>(bits));
    out.insert(out.end(), {0, 0, 0, 0});
    return out;
}

// A 1 x 1 RGBA PNG whose one IDAT chunk holds `idat` (its CRC left 0: stb_image does not check it).
std::vector<std::uint8_t> one_pixel_png(const std::vector<std::uint8_t>& idat) {
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                     0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0, 0, 0, 0};
    const auto length = static_cast<std::uint32_t>(idat.size());
    for (int k = 0; k < 4; ++k) png.push_back(static_cast<std::uint8_t>(length >> (24 - 8 * k)));
    png.insert(png.end(), {'I', 'D', 'A', 'T'});
    png.insert(png.end(), idat.begin(), idat.end());
    png.insert(png.end(), {0, 0, 0, 0, 0, 0, 0, 12, 'I', 'E', 'N', 'D', 0, 0, 0, 0});
    return png;
}

TEST(Image, compressed_data_that_inflates_past_what_the_header_needs_is_refused_before_it_is_allocated) {
    // A 1 x 1 image needs 5 bytes inflated (a filter byte and one pixel): those decode. 16 MiB of zeros behind the
    // same header (106 kB of file) are refused once the inflater's buffer would pass the limit, instead of being
    // allocated (a 2 MB file made stb_image allocate 2 GB).
    Result<Image> pixel = decode_image(one_pixel_png(zlib_zeros(5)), "pixel.png");
    ASSERT_TRUE(pixel.ok()) << pixel.error().message();
    EXPECT_EQ(pixel->width, 1u);
    EXPECT_EQ(pixel->rgba, std::vector<std::uint8_t>(4, 0));
    const std::vector<std::uint8_t> bomb = one_pixel_png(zlib_zeros(std::size_t{16} << 20));
    ASSERT_LT(bomb.size(), std::size_t{110000});
    Result<Image> decoded = decode_image(bomb, "bomb.png");
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.error().file, "bomb.png");
    EXPECT_NE(decoded.error().message().find("inflates to more than its 1x1 pixels need"), std::string::npos)
        << decoded.error().message();
    ASSERT_TRUE(decode_image(one_pixel_png(zlib_zeros(5)), "again.png").ok());  // the limit is lifted after
}

TEST(Image, rejects_images_larger_than_16384) {
    // A PNG signature and an IHDR for a 20000 x 20000 RGBA image, nothing else.
    std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                     0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0};
    Result<Image> image = decode_image(png, "huge.png");
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().file, "huge.png");
    EXPECT_NE(image.error().what.find("20000x20000 is larger than 16384x16384"), std::string::npos)
        << image.error().what;
    Result<ImageSize> size = image_size(png, "huge.png");
    ASSERT_FALSE(size.ok());
    EXPECT_EQ(size.error().what, image.error().what);
}

TEST(Image, write_rejects_inconsistent_pixels) {
    Image image = test_pattern(4, 4);
    image.rgba.pop_back();
    Result<void> written = write_png_file(temp_path("bad.png").string(), image);
    ASSERT_FALSE(written.ok());
    EXPECT_NE(written.error().what.find("expected 64"), std::string::npos);
    Image empty;
    EXPECT_FALSE(write_png_file(temp_path("empty.png").string(), empty).ok());
    EXPECT_FALSE(write_png_file("/nonexistent/dir/x.png", test_pattern(2, 2)).ok());
    fs::remove_all(temp_path("x").parent_path());
}

TEST(Image, a_write_cut_short_fails_naming_why_and_leaves_no_partial_file) {
    // Past a file-size limit (its signal ignored, as a shell may leave it) writes fail for the file being too large.
    const fs::path path = temp_path("cut.png");
    rlimit old_limit{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    rlimit small = old_limit;
    small.rlim_cur = 200;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    void (*old_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
    Result<void> written = write_png_file(path.string(), test_pattern(64, 64));  // (about 13 KB of PNG)
    ::setrlimit(RLIMIT_FSIZE, &old_limit);
    std::signal(SIGXFSZ, old_handler);
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().file, path.string());
    EXPECT_NE(written.error().what.find(std::strerror(EFBIG)), std::string::npos) << written.error().what;
    EXPECT_FALSE(fs::exists(path));
    // A device that takes no bytes fails for want of space, and is not removed.
    if (fs::exists("/dev/full")) {
        written = write_png_file("/dev/full", test_pattern(64, 64));
        ASSERT_FALSE(written.ok());
        EXPECT_NE(written.error().what.find(std::strerror(ENOSPC)), std::string::npos) << written.error().what;
        EXPECT_TRUE(fs::exists("/dev/full"));
    }
    fs::remove_all(path.parent_path());
}

TEST(Image, missing_file_error_names_it) {
    Result<Image> image = load_image_file("/nonexistent/dir/page.png");
    ASSERT_FALSE(image.ok());
    EXPECT_EQ(image.error().file, "/nonexistent/dir/page.png");
}

}  // namespace
}  // namespace spinegpu
