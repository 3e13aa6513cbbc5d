#include "spinegpu/core/color.hpp"

#include <cstddef>

namespace spinegpu {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

bool parse_hex_color(const char* text, std::size_t length, Color& out) {
    if (length != 6 && length != 8) return false;
    float channels[4] = {1, 1, 1, 1};
    for (std::size_t i = 0; i < length / 2; ++i) {
        int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        channels[i] = static_cast<float>(hi * 16 + lo) / 255.0f;
    }
    out = Color{channels[0], channels[1], channels[2], channels[3]};
    return true;
}

Color color_from_rgba8888(std::uint32_t rgba) {
    return Color{static_cast<float>((rgba >> 24) & 0xff) / 255.0f, static_cast<float>((rgba >> 16) & 0xff) / 255.0f,
                 static_cast<float>((rgba >> 8) & 0xff) / 255.0f, static_cast<float>(rgba & 0xff) / 255.0f};
}

Color color_from_rgb888(std::uint32_t rgb) {
    return Color{static_cast<float>((rgb >> 16) & 0xff) / 255.0f, static_cast<float>((rgb >> 8) & 0xff) / 255.0f,
                 static_cast<float>(rgb & 0xff) / 255.0f, 1.0f};
}

}  // namespace spinegpu
