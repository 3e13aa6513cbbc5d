// Colours as Spine defines them: straight (not premultiplied) RGBA in [0, 1], as floats.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spinegpu {

// A straight-alpha colour. Spine stores colours in [0, 1]; values outside come only from bad input and are
// clamped where the runtime clamps them (colour timelines), never here.
struct Color {
    float r = 1, g = 1, b = 1, a = 1;

    friend bool operator==(const Color&, const Color&) = default;
};

// Parses "RRGGBB" or "RRGGBBAA" (hex, case-insensitive); alpha defaults to 1. Returns false on any other text.
bool parse_hex_color(const char* text, std::size_t length, Color& out);

// Builds a colour from Spine's binary packing 0xRRGGBBAA.
Color color_from_rgba8888(std::uint32_t rgba);

// Builds a colour from Spine's binary packing 0x00RRGGBB with alpha 1.
Color color_from_rgb888(std::uint32_t rgb);

}  // namespace spinegpu
