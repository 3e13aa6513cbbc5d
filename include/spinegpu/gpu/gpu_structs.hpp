// The C++ side of gpu_layout.h: the shared structs with their sizes and field offsets pinned, so that a change of
// layout fails to compile here before it can disagree with a shader (the SPIR-V reflection test checks the
// shaders' side). Also the RGBA8 packing every per-vertex colour goes through, on both paths.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__) && !defined(SPINEGPU_SCALAR)
#include <emmintrin.h>
#endif

#include "spinegpu/core/color.hpp"
#include "spinegpu/gpu/gpu_layout.h"

namespace spinegpu::gpu {

static_assert(sizeof(GpuInfluence) == 16 && offsetof(GpuInfluence, weight) == 4 && offsetof(GpuInfluence, y) == 12);
static_assert(sizeof(GpuBindVertex) == 16 && offsetof(GpuBindVertex, u) == 8);
static_assert(sizeof(GpuAttachment) == 32 && offsetof(GpuAttachment, influence_first) == 16 &&
              offsetof(GpuAttachment, color) == 28);
static_assert(sizeof(GpuSkeletonType) == 20 && offsetof(GpuSkeletonType, flags) == 12 &&
              offsetof(GpuSkeletonType, setup_list_first) == 16);
static_assert(sizeof(GpuSlotSetup) == 12 && offsetof(GpuSlotSetup, sections) == 8);
static_assert(sizeof(GpuCharacter) == 32 && offsetof(GpuCharacter, deform_first) == 16 &&
              offsetof(GpuCharacter, tint) == 28);
static_assert(sizeof(GpuOutVertex) == 32 && offsetof(GpuOutVertex, light) == 16 &&
              offsetof(GpuOutVertex, clip_first) == 28);
static_assert(sizeof(GpuTriangle) == 68 && offsetof(GpuTriangle, u) == 24 && offsetof(GpuTriangle, flags) == 48 &&
              offsetof(GpuTriangle, clip_first) == 64);
static_assert(sizeof(GpuTilePush) == 52 && offsetof(GpuTilePush, width) == 12 &&
              offsetof(GpuTilePush, words_per_tile) == 28 && offsetof(GpuTilePush, mask_words) == 48);
static_assert(sizeof(GpuCharacterTiles) == 16 && offsetof(GpuCharacterTiles, words) == 12);
static_assert(sizeof(GpuDrawCommand) == 20 && offsetof(GpuDrawCommand, vertex_offset) == 12 &&
              offsetof(GpuDrawCommand, first_instance) == 16);

// Bytes per bone in the per-frame bone buffer: a b c d x y.
inline constexpr std::uint32_t k_bone_bytes = 24;

// Packs a colour as RGBA8 (R in the low byte), clamped and rounded as GLSL's packUnorm4x8 does. A NaN channel (a
// skeleton file can animate a colour with a NaN curve) packs as 0, where converting it would be undefined.
// The SSE2 form does the four channels at once with the same operations, so the same bytes: maxps(v, 0) gives 0
// for a NaN v as `v > 0 ? ... : 0` does, minps(x, 1) is `x < 1 ? x : 1`, then the same float multiply and add, and
// a truncation of a value in 0.5 .. 255.5. -DSPINEGPU_SCALAR=ON, or a target without SSE2, builds the reference.
inline std::uint32_t pack_rgba8(Color c) {
#if defined(__SSE2__) && !defined(SPINEGPU_SCALAR)
    __m128 v = _mm_setr_ps(c.r, c.g, c.b, c.a);
    v = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(1.0f));
    const __m128i i = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(v, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f)));
    const __m128i words = _mm_packs_epi32(i, i);
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(words, words)));
#else
    auto channel = [](float v) -> std::uint32_t {
        v = v > 0 ? (v < 1 ? v : 1) : 0;
        return static_cast<std::uint32_t>(v * 255.0f + 0.5f);
    };
    return channel(c.r) | channel(c.g) << 8 | channel(c.b) << 16 | channel(c.a) << 24;
#endif
}

// The inverse of pack_rgba8.
inline Color unpack_rgba8(std::uint32_t v) {
    return {static_cast<float>(v & 0xFF) / 255.0f, static_cast<float>((v >> 8) & 0xFF) / 255.0f,
            static_cast<float>((v >> 16) & 0xFF) / 255.0f, static_cast<float>(v >> 24) / 255.0f};
}

// Multiplies two RGBA8 colours channel by channel as the skinning shader does (unpack, multiply, pack).
inline std::uint32_t multiply_rgba8(std::uint32_t a, std::uint32_t b) {
    Color x = unpack_rgba8(a), y = unpack_rgba8(b);
    return pack_rgba8({x.r * y.r, x.g * y.g, x.b * y.b, x.a * y.a});
}

}  // namespace spinegpu::gpu
