// Bind form of a skeleton type: see static_skeleton.hpp.
#include "spinegpu/gpu/static_skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "spinegpu/gpu/frame_packer.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::gpu {
namespace {

constexpr std::uint32_t k_region_triangles[6] = {0, 1, 2, 2, 3, 0};

// Builds the type; members mirror the steps of build_static_skeleton.
class Builder {
public:
    Builder(const SkeletonData& data, const AtlasBinding& binding, const Atlas& atlas,
            std::span<const PagePlacement> pages, StaticSkeleton& out)
        : data_(data), binding_(binding), atlas_(atlas), pages_(pages), out_(out),
          bone_map_(data.bones.size(), k_none) {}

    // The slot of each attachment (from the skins); false if one attachment sits in two slots.
    bool find_slots(std::vector<Index>& slot_of) {
        slot_of.assign(data_.attachments.size(), k_none);
        for (const SkinData& skin : data_.skins)
            for (const SkinEntry& e : skin.entries) {
                Index& s = slot_of[static_cast<std::size_t>(e.attachment)];
                if (s != k_none && s != e.slot) return false;
                s = e.slot;
            }
        return true;
    }

    std::uint32_t drawn_bone(Index bone) {
        Index& mapped = bone_map_[static_cast<std::size_t>(bone)];
        if (mapped == k_none) {
            mapped = static_cast<Index>(out_.drawn_bones.size());
            out_.drawn_bones.push_back(bone);
        }
        return static_cast<std::uint32_t>(mapped);
    }

    std::uint32_t material(Index slot, Index page) const {
        const SlotData& s = data_.slots[static_cast<std::size_t>(slot)];
        std::uint32_t m = static_cast<std::uint32_t>(s.blend) << k_material_blend_shift;
        if (s.has_dark) m |= k_material_dark_bit;
        if (page != k_none) {
            m |= pages_[static_cast<std::size_t>(page)].layer & k_material_layer_mask;
            const AtlasPage& p = atlas_.pages[static_cast<std::size_t>(page)];
            if (p.pma) m |= k_material_pma_bit;
            const std::uint32_t filters = page_filter_word(p);
            if ((filters & k_page_mag_nearest_bit) != 0) m |= k_material_nearest_bit;
            if (filters_depend_on_scale(filters)) m |= k_material_scaled_bit;
        }
        return m;
    }

    GpuAttachment begin_attachment(Index slot, const AttachmentData& a, Index page) const {
        GpuAttachment g{};
        g.vertex_first = static_cast<std::uint32_t>(out_.vertices.size());
        g.index_first = static_cast<std::uint32_t>(out_.indices.size());
        g.influence_first = static_cast<std::uint32_t>(out_.influences.size());
        g.slot_and_end = static_cast<std::uint32_t>(slot) | 0xFFFFu << 16;
        g.material = material(slot, page);
        g.color = pack_rgba8(a.color);
        return g;
    }

    void add_region(Index slot, const AttachmentData& a, const BoundRegion& region) {
        GpuAttachment g = begin_attachment(slot, a, region.page);
        const PagePlacement& place = pages_[static_cast<std::size_t>(region.page)];
        const std::uint32_t bone = drawn_bone(data_.slots[static_cast<std::size_t>(slot)].bone);
        for (int i = 0; i < 4; ++i) {
            out_.vertices.push_back({static_cast<std::uint32_t>(out_.influences.size()), 1,
                                     region.uvs[2 * i] * place.u_scale, region.uvs[2 * i + 1] * place.v_scale});
            out_.influences.push_back({bone, 1.0f, region.offset[2 * i], region.offset[2 * i + 1]});
        }
        out_.indices.insert(out_.indices.end(), std::begin(k_region_triangles), std::end(k_region_triangles));
        g.vertex_count = 4;
        g.index_count = 6;
        out_.attachments.push_back(g);
    }

    // A vertex attachment's influences (shared by all frames of a sequence), returning the first one's index.
    std::uint32_t add_influences(Index slot, const AttachmentData& a) {
        const auto first = static_cast<std::uint32_t>(out_.influences.size());
        const float* v = data_.floats.data() + a.vertices.offset;
        const std::uint32_t count = a.world_vertices_length / 2;
        if (a.bones.count == 0) {
            const std::uint32_t bone = drawn_bone(data_.slots[static_cast<std::size_t>(slot)].bone);
            for (std::uint32_t i = 0; i < count; ++i) out_.influences.push_back({bone, 1.0f, v[2 * i], v[2 * i + 1]});
        } else {
            const Index* bones = data_.indices.data() + a.bones.offset;
            for (std::uint32_t i = 0, b = 0, f = 0; i < count; ++i) {
                const auto n = static_cast<std::uint32_t>(bones[b++]);
                for (std::uint32_t k = 0; k < n; ++k, ++b, f += 3)
                    out_.influences.push_back({drawn_bone(bones[b]), v[f + 2], v[f], v[f + 1]});
            }
        }
        return first;
    }

    // One frame of a mesh or clipping polygon: vertices over the influences at `influence_first`.
    void add_vertex_frame(Index slot, const AttachmentData& a, std::uint32_t influence_first, Index page,
                          const float* uvs) {
        GpuAttachment g = begin_attachment(slot, a, page);
        g.influence_first = influence_first;
        if (a.bones.count != 0) g.material |= k_material_weighted_bit;
        const std::uint32_t count = a.world_vertices_length / 2;
        const PagePlacement place = page != k_none ? pages_[static_cast<std::size_t>(page)] : PagePlacement{};
        const Index* bones = data_.indices.data() + a.bones.offset;
        for (std::uint32_t i = 0, b = 0, inf = influence_first; i < count; ++i) {
            std::uint32_t n = 1;
            if (a.bones.count != 0) {
                n = static_cast<std::uint32_t>(bones[b]);
                b += n + 1;
            }
            const float u = uvs != nullptr ? uvs[2 * i] * place.u_scale : 0.0f;
            const float v = uvs != nullptr ? uvs[2 * i + 1] * place.v_scale : 0.0f;
            out_.vertices.push_back({inf, n, u, v});
            inf += n;
        }
        g.vertex_count = count;
        if (a.type == AttachmentType::mesh) {
            const std::uint16_t* t = data_.triangles.data() + a.triangles.offset;
            for (std::uint32_t i = 0; i < a.triangles.count; ++i) out_.indices.push_back(t[i]);
            g.index_count = a.triangles.count;
        } else {
            g.material |= k_material_clip_bit;
            g.slot_and_end = static_cast<std::uint32_t>(slot) |
                             (a.end_slot == k_none ? 0xFFFFu : static_cast<std::uint32_t>(a.end_slot)) << 16;
        }
        out_.attachments.push_back(g);
    }

    void add_attachment(Index index, Index slot) {
        const AttachmentData& a = data_.attachments[static_cast<std::size_t>(index)];
        const auto i = static_cast<std::size_t>(index);
        const Range frames = i < binding_.frames.size() ? binding_.frames[i] : Range{};
        const auto first = static_cast<std::uint16_t>(out_.attachments.size());
        if (a.type == AttachmentType::region) {
            if (frames.count == 0) return;
            for (std::uint32_t f = 0; f < frames.count; ++f) add_region(slot, a, binding_.regions[frames.offset + f]);
        } else if (a.type == AttachmentType::mesh) {
            if (frames.count == 0) return;
            const std::uint32_t influences = add_influences(slot, a);
            for (std::uint32_t f = 0; f < frames.count; ++f) {
                const BoundRegion& r = binding_.regions[frames.offset + f];
                add_vertex_frame(slot, a, influences, r.page, binding_.mesh_uvs.data() + r.mesh_uvs.offset);
            }
        } else if (a.type == AttachmentType::clipping) {
            add_vertex_frame(slot, a, add_influences(slot, a), k_none, nullptr);
        } else {
            return;
        }
        out_.first_id[i] = first;
        out_.frame_count[i] = static_cast<std::uint16_t>(out_.attachments.size() - first);
        out_.max_vertex_floats = std::max(out_.max_vertex_floats, a.world_vertices_length);
    }

    void add_markers() {
        for (const AttachmentData& a : data_.attachments) {
            if (a.type != AttachmentType::clipping || a.end_slot == k_none) continue;
            std::uint16_t& marker = out_.slot_marker[static_cast<std::size_t>(a.end_slot)];
            if (marker != k_no_attachment) continue;
            marker = static_cast<std::uint16_t>(out_.attachments.size());
            GpuAttachment g{};
            g.vertex_first = static_cast<std::uint32_t>(out_.vertices.size());
            g.index_first = static_cast<std::uint32_t>(out_.indices.size());
            g.influence_first = static_cast<std::uint32_t>(out_.influences.size());
            g.slot_and_end = static_cast<std::uint32_t>(a.end_slot) | 0xFFFFu << 16;
            out_.attachments.push_back(g);
        }
    }

private:
    const SkeletonData& data_;
    const AtlasBinding& binding_;
    const Atlas& atlas_;
    std::span<const PagePlacement> pages_;
    StaticSkeleton& out_;
    std::vector<Index> bone_map_;
};

// How far past its keys a deform timeline's curves can carry a vertex: a vertex between keys is p0 + (p1 - p0) t
// for the curve's percent t, whose length is at most (|1 - t| + |t|) max(|p0|, |p1|). A bezier's percent is
// interpolated between its samples (and the ends, 0 and 1), so it stays within them; this is the largest such factor
// over the timeline's samples, 1 for linear and stepped curves.
float deform_curve_factor(const SkeletonData& data, const TimelineData& t) {
    float low = 0, high = 1;
    const float* c = data.curves.data() + t.curves.offset;
    for (std::uint32_t frame = 0; frame < t.frame_count && frame < t.curves.count; ++frame) {
        if (!(c[frame] >= k_curve_bezier)) continue;
        const auto first = static_cast<std::uint32_t>(c[frame] - k_curve_bezier);
        for (std::uint32_t i = first + 1; i < first + k_bezier_size && i < t.curves.count; i += 2) {
            low = std::min(low, c[i]);
            high = std::max(high, c[i]);
        }
    }
    return std::max({1.0f, 2 * high - 1, 1 - 2 * low});
}

// The largest displacement any deform key gives each attachment: the length of a key's (x, y) (absolute positions
// for unweighted attachments, offsets for weighted ones), over every deform timeline of every animation, times what
// the timeline's curves can add between its keys. Deforms added by additive tracks or mixed with an alpha outside
// 0..1 can reach further: SkeletonPose::deform_beyond_keys, which culling reads.
std::vector<float> deform_reach(const SkeletonData& data) {
    std::vector<float> reach(data.attachments.size(), 0.0f);
    for (const TimelineData& t : data.timelines) {
        if (t.type != TimelineType::deform || t.attachment == k_none) continue;
        float key_reach = 0;
        const float* v = data.floats.data() + t.aux.offset;
        for (std::uint32_t i = 0; i + 1 < t.aux.count; i += 2)
            key_reach = std::max(key_reach, std::hypot(v[i], v[i + 1]));
        float& r = reach[static_cast<std::size_t>(t.attachment)];
        r = std::max(r, key_reach * deform_curve_factor(data, t));
    }
    return reach;
}

// StaticSkeleton::bone_radius: each drawn bone's farthest influence (plus what deform keys can add), so that a
// character's world bounds are within (bone position +- radius x the bone matrix's norm) over its drawn bones.
void compute_bone_radii(const SkeletonData& data, StaticSkeleton& out) {
    out.bone_radius.assign(out.drawn_bones.size(), 0.0f);
    out.drawn_bones_may_be_inactive = std::any_of(out.drawn_bones.begin(), out.drawn_bones.end(), [&](Index bone) {
        return data.bones[static_cast<std::size_t>(bone)].skin_required;
    });
    const std::vector<float> reach = deform_reach(data);
    std::vector<float> attachment_reach(out.attachments.size(), 0.0f);
    for (std::size_t a = 0; a < out.first_id.size(); ++a) {
        if (out.first_id[a] == k_no_attachment) continue;
        const AttachmentData& d = data.attachments[a];
        const Index timeline = d.timeline_attachment != k_none ? d.timeline_attachment : static_cast<Index>(a);
        for (std::uint32_t f = 0; f < out.frame_count[a]; ++f)
            attachment_reach[out.first_id[a] + f] = reach[static_cast<std::size_t>(timeline)];
    }
    for (std::size_t id = 0; id < out.attachments.size(); ++id) {
        const GpuAttachment& g = out.attachments[id];
        const bool weighted = (g.material & k_material_weighted_bit) != 0;
        for (std::uint32_t v = 0; v < g.vertex_count; ++v) {
            const GpuBindVertex& bv = out.vertices[g.vertex_first + v];
            for (std::uint32_t k = 0; k < bv.influence_count; ++k) {
                const GpuInfluence& f = out.influences[bv.influence_first + k];
                float r = std::hypot(f.x, f.y);
                r = weighted ? r + attachment_reach[id] : std::max(r, attachment_reach[id]);
                out.bone_radius[f.bone] = std::max(out.bone_radius[f.bone], r);
            }
        }
    }
}

}  // namespace

Result<StaticSkeleton> build_static_skeleton(const SkeletonData& data, const Atlas& atlas,
                                             const AtlasBinding& binding, std::span<const PagePlacement> pages,
                                             const std::string& name) {
    if (data.slots.size() > k_max_slots)
        return make_error(name, "slots", std::to_string(data.slots.size()) + " slots; the GPU path takes at most " +
                                             std::to_string(k_max_slots));
    if (pages.size() < atlas.pages.size()) return make_error(name, "atlas", "a page has no place in the page array");
    StaticSkeleton out;
    out.features = analyze_features(data);
    // The optional sections hold only the slots that timelines animate.
    std::vector<std::uint8_t> colored(data.slots.size(), 0), deformed(data.slots.size(), 0);
    for (const TimelineData& t : data.timelines) {
        if (t.target < 0 || static_cast<std::size_t>(t.target) >= data.slots.size()) continue;
        switch (t.type) {
            case TimelineType::rgba: case TimelineType::rgb: case TimelineType::alpha: case TimelineType::rgba2:
            case TimelineType::rgb2: colored[static_cast<std::size_t>(t.target)] = 1; break;
            case TimelineType::deform: deformed[static_cast<std::size_t>(t.target)] = 1; break;
            default: break;
        }
    }
    out.first_id.assign(data.attachments.size(), static_cast<std::uint16_t>(k_no_attachment));
    out.frame_count.assign(data.attachments.size(), 0);
    out.slot_marker.assign(data.slots.size(), static_cast<std::uint16_t>(k_no_attachment));
    for (const SlotData& slot : data.slots) {
        const bool required = data.bones[static_cast<std::size_t>(slot.bone)].skin_required;
        out.slot_hiding_bone.push_back(required ? slot.bone : k_none);
    }
    for (std::size_t i = 0; i < data.slots.size(); ++i) {
        std::uint32_t sections = k_no_entry | k_no_entry << 16;
        if (colored[i]) {
            sections = (sections & ~0xFFFFu) | static_cast<std::uint32_t>(out.color_slots.size());
            out.color_slots.push_back(static_cast<Index>(i));
        }
        if (deformed[i]) {
            sections = (sections & 0xFFFFu) | static_cast<std::uint32_t>(out.deform_slots.size()) << 16;
            out.deform_slots.push_back(static_cast<Index>(i));
        }
        out.slot_setups.push_back({pack_rgba8(data.slots[i].color), pack_rgba8(data.slots[i].dark), sections});
    }
    if (!out.color_slots.empty()) out.flags |= k_type_colors;
    if (!out.deform_slots.empty()) out.flags |= k_type_deform;

    Builder builder(data, binding, atlas, pages, out);
    std::vector<Index> slot_of;
    if (!builder.find_slots(slot_of))
        return make_error(name, "skins", "an attachment is used by two slots; the GPU path needs one slot each");
    std::size_t frames = 0;
    for (std::size_t i = 0; i < data.attachments.size(); ++i)
        if (slot_of[i] != k_none && i < binding.frames.size())
            frames += std::max<std::uint32_t>(binding.frames[i].count, 1);
    if (frames + data.slots.size() > k_max_type_attachments)
        return make_error(name, "attachments", std::to_string(frames) +
                                                   " attachment frames; the GPU path takes at most " +
                                                   std::to_string(k_max_type_attachments));
    for (std::size_t i = 0; i < data.attachments.size(); ++i) {
        // The clipping polygon's vertex count travels in 16 bits of each clipped vertex's material word.
        const AttachmentData& a = data.attachments[i];
        if (slot_of[i] != k_none && a.type == AttachmentType::clipping && a.world_vertices_length / 2 > 0xFFFFu)
            return make_error(name, "attachment \"" + std::string(data.attachment_names[a.name]) + "\"",
                              "a clipping polygon of " + std::to_string(a.world_vertices_length / 2) +
                                  " vertices; the renderer clips with at most 65535");
    }
    for (std::size_t i = 0; i < data.attachments.size(); ++i)
        if (slot_of[i] != k_none) builder.add_attachment(static_cast<Index>(i), slot_of[i]);
    builder.add_markers();
    compute_bone_radii(data, out);
    out.setup_lists = setup_draw_lists(out, data);
    return out;
}

std::uint32_t page_filter_word(const AtlasPage& page) {
    std::uint32_t word = page.mag_filter == TextureFilter::nearest ? k_page_mag_nearest_bit : 0u;
    std::uint32_t mip = k_page_mip_none;
    bool min_nearest = false;
    switch (page.min_filter) {
        case TextureFilter::nearest: min_nearest = true; break;
        case TextureFilter::linear: break;
        case TextureFilter::mip_map_nearest_nearest: min_nearest = true; mip = k_page_mip_nearest; break;
        case TextureFilter::mip_map_linear_nearest: mip = k_page_mip_nearest; break;
        case TextureFilter::mip_map_nearest_linear: min_nearest = true; mip = k_page_mip_linear; break;
        case TextureFilter::mip_map:
        case TextureFilter::mip_map_linear_linear: mip = k_page_mip_linear; break;
    }
    if (min_nearest) word |= k_page_min_nearest_bit;
    return word | mip << k_page_mip_shift;
}

bool filters_depend_on_scale(std::uint32_t word) {
    return word != 0 && word != (k_page_mag_nearest_bit | k_page_min_nearest_bit);
}

bool filters_make_mipmaps(std::uint32_t word) {
    return (word >> k_page_mip_shift) != k_page_mip_none;
}

}  // namespace spinegpu::gpu
