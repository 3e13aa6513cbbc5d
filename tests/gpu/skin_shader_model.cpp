// The skinning pass modelled in C++: see skin_shader_model.hpp. Each block mirrors the numbered step of
// shaders/skin.comp; the workgroup's parallel loops become sequential loops with the same results.
#include "skin_shader_model.hpp"

#include <algorithm>
#include <bit>

#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::test {

using namespace spinegpu::gpu;

namespace {

// The last position in [0, count) whose base is <= v (the shader's binary search).
std::uint32_t position_of(const std::vector<std::uint32_t>& base, std::uint32_t count, std::uint32_t v) {
    std::uint32_t lo = 0, hi = count;
    while (hi - lo > 1u) {
        const std::uint32_t mid = (lo + hi) >> 1;
        if (base[mid] <= v) lo = mid;
        else hi = mid;
    }
    return lo;
}

float word_float(const std::uint32_t* words, std::uint32_t at) { return std::bit_cast<float>(words[at]); }

}  // namespace

std::uint32_t draw_list_entry(const StaticSkeleton& type, const GpuCharacter& ch, const std::uint32_t* words,
                              std::uint32_t position) {
    const std::uint32_t word = (ch.draw_first & k_setup_list_bit) != 0u
                                   ? type.setup_lists.at((ch.draw_first & ~k_setup_list_bit) + (position >> 1))
                                   : words[ch.draw_first + (position >> 1)];
    return (position & 1u) == 0u ? (word & 0xFFFFu) : (word >> 16);
}

std::vector<SkinnedPosition> run_skin_pass(const StaticSkeleton& type, std::uint32_t slot_count,
                                           const GpuCharacter& ch, const float* bones, const std::uint32_t* words,
                                           SkinOutput& out) {
    const std::vector<GpuAttachment>& attachments = type.attachments;

    // 1. Per position: the attachment, its counts (exclusive prefix sums), the colours.
    std::vector<std::uint32_t> s_attachment(slot_count, k_no_section), s_vertex_base(slot_count + 1),
        s_index_base(slot_count + 1), s_clip(slot_count, 0), s_light(slot_count, 0), s_dark(slot_count, 0);
    std::uint32_t carry_v = 0, carry_i = 0;
    for (std::uint32_t p = 0; p < slot_count; ++p) {
        const std::uint32_t id = draw_list_entry(type, ch, words, p);
        std::uint32_t a = k_no_section, vc = 0, ic = 0;
        if (id != k_no_attachment) {
            a = id;
            vc = attachments[a].vertex_count;
            ic = attachments[a].index_count;
            const std::uint32_t slot = attachments[a].slot_and_end & 0xFFFFu;
            const GpuSlotSetup& setup = type.slot_setups[slot];
            std::uint32_t light = setup.light, dark = setup.dark;
            const std::uint32_t color_entry = setup.sections & 0xFFFFu;
            if (ch.color_first != k_no_section && color_entry != k_no_entry) {
                light = words[ch.color_first + color_entry * 2u];
                dark = words[ch.color_first + color_entry * 2u + 1u];
            }
            s_light[p] = multiply_rgba8(multiply_rgba8(ch.tint, light), attachments[a].color);
            s_dark[p] = dark;
        }
        s_attachment[p] = a;
        s_vertex_base[p] = carry_v;
        s_index_base[p] = carry_i;
        carry_v += vc;
        carry_i += ic;
    }
    s_vertex_base[slot_count] = carry_v;
    s_index_base[slot_count] = carry_i;

    // 2. Clipping, in draw order.
    std::uint32_t clip_now = 0, end_slot = 0xFFFFu;
    for (std::uint32_t p = 0; p < slot_count; ++p) {
        const std::uint32_t a = s_attachment[p];
        s_clip[p] = clip_now;
        if (a == k_no_section) continue;
        const std::uint32_t material = attachments[a].material;
        const std::uint32_t slot = attachments[a].slot_and_end & 0xFFFFu;
        if ((material & k_material_clip_bit) != 0u) {
            if (clip_now == 0u) {
                clip_now = (p + 1u) | (std::max(attachments[a].vertex_count, 1u) << 16);
                end_slot = attachments[a].slot_and_end >> 16;
            }
            s_clip[p] = 0u;
            continue;
        }
        if (clip_now != 0u && slot == end_slot) {
            clip_now = 0u;
            end_slot = 0xFFFFu;
        }
    }

    // 3. Vertices.
    const std::uint32_t total_v = s_vertex_base[slot_count];
    if (out.vertices.size() < std::size_t{ch.out_vertex_first} + total_v)
        out.vertices.resize(std::size_t{ch.out_vertex_first} + total_v);
    for (std::uint32_t v = 0; v < total_v; ++v) {
        const std::uint32_t p = position_of(s_vertex_base, slot_count, v);
        const GpuAttachment& att = attachments[s_attachment[p]];
        const std::uint32_t local = v - s_vertex_base[p];
        const GpuBindVertex& bv = type.vertices[att.vertex_first + local];
        const std::uint32_t slot = att.slot_and_end & 0xFFFFu;
        std::uint32_t deform = k_no_section;
        const std::uint32_t deform_entry = type.slot_setups[slot].sections >> 16;
        if (ch.deform_first != k_no_section && deform_entry != k_no_entry)
            deform = words[ch.deform_first + deform_entry];
        float wx = 0, wy = 0;
        for (std::uint32_t k = 0; k < bv.influence_count; ++k) {
            const std::uint32_t inf = bv.influence_first + k;
            const GpuInfluence& f = type.influences[inf];
            float lx = f.x, ly = f.y;
            if (deform != k_no_section) {
                if ((att.material & k_material_weighted_bit) != 0u) {
                    const std::uint32_t d = deform + (inf - att.influence_first) * 2u;
                    lx += word_float(words, d);
                    ly += word_float(words, d + 1u);
                } else {
                    const std::uint32_t d = deform + local * 2u;
                    lx = word_float(words, d);
                    ly = word_float(words, d + 1u);
                }
            }
            const float* b = bones + std::size_t{ch.bone_first + f.bone} * 6u;
            wx += f.weight * (lx * b[0] + ly * b[1] + b[4]);
            wy += f.weight * (lx * b[2] + ly * b[3] + b[5]);
        }
        GpuOutVertex& o = out.vertices[ch.out_vertex_first + v];
        o.x = wx;
        o.y = wy;
        o.u = bv.u;
        o.v = bv.v;
        o.light = s_light[p];
        o.dark = s_dark[p];
        const std::uint32_t clip = s_clip[p];
        o.material = (att.material & 0xFFFFu) | ((clip >> 16) << k_material_clip_count_shift);
        o.clip_first = ch.out_vertex_first + (clip != 0u ? s_vertex_base[(clip & 0xFFFFu) - 1u] : 0u);
    }

    // 4. Triangles, in draw order.
    const std::uint32_t total_i = s_index_base[slot_count];
    if (out.indices.size() < std::size_t{ch.out_index_first} + total_i)
        out.indices.resize(std::size_t{ch.out_index_first} + total_i);
    for (std::uint32_t i = 0; i < total_i; ++i) {
        const std::uint32_t p = position_of(s_index_base, slot_count, i);
        const GpuAttachment& att = attachments[s_attachment[p]];
        const std::uint32_t local = i - s_index_base[p];
        out.indices[ch.out_index_first + i] =
            ch.out_vertex_first + s_vertex_base[p] + type.indices[att.index_first + local];
    }

    std::vector<SkinnedPosition> shown;
    for (std::uint32_t p = 0; p < slot_count; ++p)
        if (s_attachment[p] != k_no_section)
            shown.push_back({p, s_attachment[p], attachments[s_attachment[p]].slot_and_end & 0xFFFFu,
                             s_vertex_base[p], s_vertex_base[p + 1] - s_vertex_base[p]});
    return shown;
}

}  // namespace spinegpu::test
