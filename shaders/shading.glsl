// What a covered pixel of a triangle adds to the target, shared by the draw (draw.frag) and the tile rasterizer
// (raster.comp) so that both paths shade alike. Include after declarations of `out_vertices` (GpuOutVertex[]), of
// the page samplers `pages` (linear) and `pages_nearest` (both linear between mipmap levels), of the same over the
// pages' sRGB view, `pages_srgb` and `pages_srgb_nearest`, and of the PageFilters buffer `page_filters`, and after
// camera.glsl; it includes linear_light.glsl.
//
// Colour pipeline, onto a UNORM (or float) target: pages are sampled as UNORM, so texels are filtered and blended in
// sRGB-encoded values, as the official renderers do; a straight page's texels are premultiplied as they are sampled,
// a premultiplied page's taken as they are. (DESIGN.md asks for straight pages to be sampled as sRGB; filtering in
// linear light moved 2.4% of mix-and-match's pixels past the official-renderer tolerance at 0.4x scale, against
// 0.15% in encoded values.) Onto an sRGB target (k_linear_light), in linear light, as an engine that blends in linear
// light draws: straight pages are sampled through the sRGB view (decoded before filtering), a premultiplied page's
// texel is unpremultiplied, decoded and premultiplied again (its filtering stays in encoded values; a glow's colour
// past its alpha decoded on its own), the light (skeleton x slot x attachment x tint, multiplied as encoded) and
// dark colours are decoded (by the vertex shaders: shading_light, shading_dark; by the tile rasterizer from its table
// of the 256 decoded values), and each blend decodes the target's pixel, blends in linear light and encodes the
// result (the device's blending for the draw, raster.comp's for the tile rasterizer). (Mipmap levels are averaged in
// encoded values, for both views: a minified straight page is a little darker there than its texels averaged in linear
// light.) Tint (skeleton x slot x attachment) and two-color tint are applied as the official runtimes define them: for
// a straight texel t, rgb = t * light + (1 - t) * dark, premultiplied by t.a * light.a, here computed on the
// premultiplied texel. All four Spine blend modes come from one blend equation, dst = src0 + dst * src1 (colour and
// alpha), which expresses the official premultiplied tables
// (normal ONE/1-sa, additive ONE/ONE, multiply DST_COLOR/1-sa, screen ONE/1-sc): the draw gets it from dual-source
// blending, the tile rasterizer computes it. One case differs: multiply where the shaded colour exceeds its alpha (a
// premultiplied texel brighter than its alpha), where the official factor on the destination passes 1 and ours, a
// blend factor, stops at 1.

#include "linear_light.glsl"

// Whether pixel `p` (pixel coordinates, y down) lies inside the clipping polygon of `count` vertices from `first`
// in the out buffer (even-odd), which is what rasterizing the official runtime's clipped triangles covers. The
// polygon's world vertices are mapped with the camera (scale, ox, oy).
bool inside_clip(uint first, uint count, vec2 p, float scale, float ox, float oy) {
    bool inside = false;
    GpuOutVertex last = out_vertices[first + count - 1u];
    vec2 b = camera_pixel(vec2(last.x, last.y), scale, ox, oy);
    for (uint i = 0u; i < count; ++i) {
        GpuOutVertex o = out_vertices[first + i];
        vec2 a = camera_pixel(vec2(o.x, o.y), scale, ox, oy);
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
        b = a;
    }
    return inside;
}

// Set (by the tile rasterizer's pipeline) when no page has k_material_scaled_bit: page_texel leaves out the level of
// detail.
layout(constant_id = 2) const bool k_plain_pages = false;

// The texel at `uv` of the page that `material` names, where UV changes by `uv_x` and `uv_y` per pixel in x and y,
// filtered as its atlas says by Vulkan's rules for a sampler with those filters: the level of detail is log2 of the
// longer of the two steps in texels; at or below 0 the page is magnified (level 0, mag filter), above it minified
// (min filter: level 0, the nearest level, or the two nearest levels; page_filters, k_page_*); through the sRGB view
// for a straight page in linear light (k_linear_light). Both paths call
// this with the same steps, so they pick the same levels. Pages whose min and mag filters agree, without mipmaps
// (the material has no k_material_scaled_bit), sample alike at every scale: level 0 with the mag filter.
vec4 page_texel(vec2 uv, vec2 uv_x, vec2 uv_y, uint material) {
    uint layer = material & k_material_layer_mask;
    vec3 at = vec3(uv, float(layer));
    bool nearest = (material & k_material_nearest_bit) != 0u;
    float level = 0.0;
    if (!k_plain_pages && (material & k_material_scaled_bit) != 0u) {
        uint filters = page_filters[layer];
        vec2 size = vec2(textureSize(pages, 0).xy);
        float lod = log2(max(length(uv_x * size), length(uv_y * size)));
        if (lod > 0.0) {
            nearest = (filters & k_page_min_nearest_bit) != 0u;
            uint mip = filters >> k_page_mip_shift;
            level = mip == k_page_mip_linear ? lod : mip == k_page_mip_nearest ? ceil(lod + 0.5) - 1.0 : 0.0;
        }
    }
    if (k_linear_light && (material & k_material_pma_bit) == 0u)
        return nearest ? textureLod(pages_srgb_nearest, at, level) : textureLod(pages_srgb, at, level);
    return nearest ? textureLod(pages_nearest, at, level) : textureLod(pages, at, level);
}

// The blend inputs for texel `t` (as sampled) of an attachment with colours `light` (straight RGBA) and `dark`, as
// shading_light and shading_dark give them (decoded in linear light), and k_material_* bits `material`: dst = src0 +
// dst * src1.
void shade(vec4 t, vec4 light, vec3 dark, uint material, out vec4 src0, out vec4 src1) {
    if (k_linear_light && (material & k_material_pma_bit) != 0u) {
        // (The part of a premultiplied texel's colour past its alpha, a glow's added light, is decoded on its own, so
        // that a glow of little or no alpha adds what its colour says; most texels have none, and skip its decoding.)
        vec3 within = min(t.rgb, vec3(t.a)), beyond = t.rgb - within;
        t.rgb = (t.a > 0.0 ? srgb_to_linear(within / t.a) * t.a : vec3(0.0)) +
                (any(greaterThan(beyond, vec3(0.0))) ? srgb_to_linear(beyond) : vec3(0.0));
    }
    // In premultiplied form throughout, so that a premultiplied page's texels whose colour exceeds their alpha (glows
    // painted to add light) add it as the official pipeline does; for any other texel this is the straight formula
    // above, premultiplied: (t * light + (1 - t) * dark) * t.a * light.a.
    vec3 texel = (material & k_material_pma_bit) != 0u ? t.rgb : t.rgb * t.a;
    vec3 premultiplied = texel * light.rgb * light.a;
    // (A texel brighter than its alpha makes the dark term negative; the official pipeline's output is clamped to 0
    // before it blends, which matters to multiply's factor on the destination.)
    if ((material & k_material_dark_bit) != 0u)
        premultiplied = max(premultiplied + (t.a - texel) * dark * light.a, vec3(0.0));
    float a = t.a * light.a;

    uint blend = (material >> k_material_blend_shift) & 3u;
    if (blend == k_blend_additive) {
        src0 = vec4(premultiplied, a);
        src1 = vec4(1.0);
    } else if (blend == k_blend_multiply) {
        src0 = vec4(0.0, 0.0, 0.0, a);
        src1 = vec4(premultiplied + (1.0 - a), 1.0 - a);
    } else if (blend == k_blend_screen) {
        src0 = vec4(premultiplied, a);
        src1 = vec4(1.0 - premultiplied, 1.0 - a);
    } else {
        src0 = vec4(premultiplied, a);
        src1 = vec4(1.0 - a);
    }
}
