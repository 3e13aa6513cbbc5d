// Shading in linear light onto sRGB targets (shading.glsl says how), shared by the stages that decode colours: the
// vertex shaders decode each vertex's slot colours once, so that fragments do not.

// Set (by the raster paths' pipelines for an sRGB target, on both stages, and the tile rasterizer's for an sRGB image
// of the application's) to shade in linear light.
layout(constant_id = 3) const bool k_linear_light = false;

// The sRGB encoded colour `c` in linear light (the sRGB transfer function's inverse).
vec3 srgb_to_linear(vec3 c) {
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

// The linear colour `c`, clamped to [0, 1], encoded as sRGB (the sRGB transfer function).
vec3 linear_to_srgb(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, greaterThan(c, vec3(0.0031308)));
}

// The light colour (straight RGBA8, packed) as shade() takes it: its colour decoded in linear light
// (k_linear_light), else as it is.
vec4 shading_light(uint packed) {
    vec4 c = unpackUnorm4x8(packed);
    return k_linear_light ? vec4(srgb_to_linear(c.rgb), c.a) : c;
}

// The dark colour (RGB of an RGBA8, packed) as shade() takes it: decoded in linear light (k_linear_light), else as it
// is.
vec3 shading_dark(uint packed) {
    vec3 c = unpackUnorm4x8(packed).rgb;
    return k_linear_light ? srgb_to_linear(c) : c;
}
