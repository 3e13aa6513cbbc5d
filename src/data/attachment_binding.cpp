// Binding attachments to atlas regions. The arithmetic is the official runtime's (RegionAttachment and
// MeshAttachment region updates), done in double precision from the atlas's integers and rounded to float once at
// the end, as the official runtime stores its results in float arrays.
#include "spinegpu/data/attachment_binding.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../core/spine_math.hpp"

namespace spinegpu {
namespace {

// The official runtime's degrees to radians (its own pi, see spine_math.hpp) keeps rotated corners identical to its.
using detail::k_deg_rad;

// Corner offsets and UVs of a region attachment showing `region`.
void bind_region_attachment(const AttachmentData& a, const AtlasRegion& region, BoundRegion& out) {
    const double width = a.width, height = a.height, scale_x = a.scale_x, scale_y = a.scale_y;
    // A region with no original size has nothing to show; keep the corners finite.
    const double region_scale_x = region.original_width != 0 ? width / region.original_width * scale_x : 0;
    const double region_scale_y = region.original_height != 0 ? height / region.original_height * scale_y : 0;
    const double left = -width / 2 * scale_x + region.offset_x * region_scale_x;
    const double bottom = -height / 2 * scale_y + region.offset_y * region_scale_y;
    const double right = left + region.width * region_scale_x;
    const double top = bottom + region.height * region_scale_y;
    const double radians = static_cast<double>(a.rotation) * k_deg_rad;
    const double cos = std::cos(radians), sin = std::sin(radians);
    const double x = a.x, y = a.y;
    // Corners in the runtime's order: bottom-left, top-left, top-right, bottom-right.
    const double corners[4][2] = {{left, bottom}, {left, top}, {right, top}, {right, bottom}};
    for (int i = 0; i < 4; ++i) {
        const double cx = corners[i][0], cy = corners[i][1];
        out.offset[2 * i] = static_cast<float>((cx * cos + x) - cy * sin);
        out.offset[2 * i + 1] = static_cast<float>((cy * cos + y) + cx * sin);
    }

    // The runtime stores these in floats, rounded from the same doubles the atlas's u/v were rounded from.
    const float u = region.u, v = region.v, u2 = region.u2, v2 = region.v2;
    const float rotated[8] = {u2, v2, u, v2, u, v, u2, v};
    const float upright[8] = {u, v2, u, v, u2, v, u2, v2};
    const float* uvs = region.degrees == 90 ? rotated : upright;
    for (int i = 0; i < 8; ++i) out.uvs[i] = uvs[i];
}

// Page-space UVs of a mesh showing `region`, from the mesh's region-space UVs.
void bind_mesh_uvs(std::span<const float> region_uvs, const AtlasRegion& r, const AtlasPage& page,
                   std::vector<float>& out) {
    const double page_w = page.width, page_h = page.height;
    const double x = r.x, y = r.y, w = r.width, h = r.height;
    const double ow = r.original_width, oh = r.original_height, ox = r.offset_x, oy = r.offset_y;
    double u = x / page_w, v = y / page_h;
    const std::size_t n = region_uvs.size() & ~std::size_t{1};
    // In double before any arithmetic: `1 - uv` in float would round where the runtime does not.
    auto ruv = [&](std::size_t i) { return static_cast<double>(region_uvs[i]); };
    switch (r.degrees) {
    case 90: {
        u -= (oh - oy - h) / page_w;
        v -= (ow - ox - w) / page_h;
        const double sw = oh / page_w, sh = ow / page_h;
        for (std::size_t i = 0; i < n; i += 2) {
            out.push_back(static_cast<float>(u + ruv(i + 1) * sw));
            out.push_back(static_cast<float>(v + (1 - ruv(i)) * sh));
        }
        return;
    }
    case 180: {
        u -= (ow - ox - w) / page_w;
        v -= oy / page_h;
        const double sw = ow / page_w, sh = oh / page_h;
        for (std::size_t i = 0; i < n; i += 2) {
            out.push_back(static_cast<float>(u + (1 - ruv(i)) * sw));
            out.push_back(static_cast<float>(v + (1 - ruv(i + 1)) * sh));
        }
        return;
    }
    case 270: {
        u -= oy / page_w;
        v -= ox / page_h;
        const double sw = oh / page_w, sh = ow / page_h;
        for (std::size_t i = 0; i < n; i += 2) {
            out.push_back(static_cast<float>(u + (1 - ruv(i + 1)) * sw));
            out.push_back(static_cast<float>(v + ruv(i) * sh));
        }
        return;
    }
    default: {
        // Any other rotation is drawn upright, as the official runtime does.
        u -= ox / page_w;
        v -= (oh - oy - h) / page_h;
        const double sw = ow / page_w, sh = oh / page_h;
        for (std::size_t i = 0; i < n; i += 2) {
            out.push_back(static_cast<float>(u + ruv(i) * sw));
            out.push_back(static_cast<float>(v + ruv(i + 1) * sh));
        }
        return;
    }
    }
}

// Names the skin and slot holding attachment `attachment`, for messages ("" when no skin holds it).
std::string skin_place(const SkeletonData& skeleton, Index attachment) {
    for (std::size_t s = 0; s < skeleton.skins.size(); ++s) {
        for (const SkinEntry& entry : skeleton.skins[s].entries) {
            if (entry.attachment != attachment) continue;
            std::string out;
            if (s < skeleton.skin_names.size()) out = "skin \"" + skeleton.skin_names[static_cast<Index>(s)] + "\"";
            if (entry.slot >= 0 && static_cast<std::size_t>(entry.slot) < skeleton.slot_names.size())
                out += (out.empty() ? "" : ", ") + std::string("slot \"") + skeleton.slot_names[entry.slot] + "\"";
            return out;
        }
    }
    return "";
}

template <class Table>
std::string_view name_or_empty(const Table& table, Index index) {
    if (index < 0 || static_cast<std::size_t>(index) >= table.size()) return {};
    return table[index];
}

// The first region an atlas lacks, with its error.
struct MissingRegion {
    Error error;
    std::string path;
};

// The first missing region's error, followed by the other paths missing (the first eight named).
Error missing_regions_error(const MissingRegion& first, const std::vector<std::string>& more) {
    Error out = first.error;
    if (more.empty()) return out;
    out.what += "; " + std::to_string(more.size()) + " more missing:";
    for (std::size_t k = 0; k < more.size() && k < 8; ++k) out.what += " \"" + more[k] + "\"";
    if (more.size() > 8) out.what += " ...";
    return out;
}

}  // namespace

std::string sequence_frame_path(std::string_view path, const SequenceData& sequence, std::int32_t frame) {
    std::string number = std::to_string(static_cast<std::int64_t>(sequence.start) + frame);
    std::string out(path);
    if (sequence.digits > 0 && static_cast<std::size_t>(sequence.digits) > number.size())
        out.append(static_cast<std::size_t>(sequence.digits) - number.size(), '0');
    out += number;
    return out;
}

Result<AtlasBinding> bind_atlas(const SkeletonData& skeleton, const Atlas& atlas) {
    AtlasBinding binding;
    binding.frames.resize(skeleton.attachments.size());
    // A missing region is reported with the others missing, so that one run lists what the atlas lacks (of a sequence,
    // its first missing frame).
    std::optional<MissingRegion> first_missing;
    std::vector<std::string> more_missing;

    for (std::size_t i = 0; i < skeleton.attachments.size(); ++i) {
        const AttachmentData& a = skeleton.attachments[i];
        if (a.type != AttachmentType::region && a.type != AttachmentType::mesh) continue;
        const auto index = static_cast<Index>(i);
        // Messages use Spine's own attachment name (the export's "name"), as the official loader's do.
        const std::string_view name =
            name_or_empty(skeleton.attachment_names, a.spine_name != k_none ? a.spine_name : a.name);
        std::string_view path = name_or_empty(skeleton.attachment_paths, a.path);
        if (a.path == k_none) path = name;
        // Once a region is missing, that error stands: a later one is reported only when none is missing.
        auto fail = [&](std::string what) {
            if (first_missing) return missing_regions_error(*first_missing, more_missing);
            return Error{atlas.file, skin_place(skeleton, index), std::move(what), 0};
        };

        const SequenceData* sequence = nullptr;
        if (a.sequence != k_none) {
            if (a.sequence < 0 || static_cast<std::size_t>(a.sequence) >= skeleton.sequences.size())
                return fail("attachment \"" + std::string(name) + "\" has no sequence " + std::to_string(a.sequence));
            sequence = &skeleton.sequences[static_cast<std::size_t>(a.sequence)];
            if (sequence->count <= 0)
                return fail("the sequence of attachment \"" + std::string(name) + "\" has no frames");
            if (sequence->digits > 255)
                return fail("the sequence of attachment \"" + std::string(name) + "\" pads frame numbers to " +
                            std::to_string(sequence->digits) + " digits (at most 255)");
        }
        // Frame names are distinct, so an absurd count fails at the first frame past the atlas's names.
        const std::int32_t frame_count = sequence ? sequence->count : 1;

        // A linked mesh uses its parent's region UVs; the loaders already share them, this is a fallback.
        Range region_uvs = a.region_uvs;
        if (a.type == AttachmentType::mesh && region_uvs.count == 0 && a.parent_mesh >= 0 &&
            static_cast<std::size_t>(a.parent_mesh) < skeleton.attachments.size())
            region_uvs = skeleton.attachments[static_cast<std::size_t>(a.parent_mesh)].region_uvs;
        if (a.type == AttachmentType::mesh &&
            std::uint64_t{region_uvs.offset} + region_uvs.count > skeleton.floats.size())
            return fail("the UVs of mesh \"" + std::string(name) + "\" lie outside the skeleton's data");

        // Each frame of a mesh gets its own UVs: refuse before allocating when a long sequence on a big mesh would
        // take more than the limit.
        if (a.type == AttachmentType::mesh &&
            binding.mesh_uvs.size() + std::uint64_t{region_uvs.count} * static_cast<std::uint64_t>(frame_count) >
                k_max_binding_uvs)
            return fail("the UVs of mesh \"" + std::string(name) + "\" (" + std::to_string(frame_count) +
                        " frames of " + std::to_string(region_uvs.count) + " floats) pass the limit of " +
                        std::to_string(k_max_binding_uvs) + " floats");

        binding.frames[i] = Range{static_cast<std::uint32_t>(binding.regions.size()),
                                  static_cast<std::uint32_t>(frame_count)};
        for (std::int32_t f = 0; f < frame_count; ++f) {
            const std::string frame_path = sequence ? sequence_frame_path(path, *sequence, f) : std::string(path);
            const Index region_index = atlas.find_region(frame_path);
            if (region_index == k_none) {
                if (!first_missing) {
                    first_missing = MissingRegion{fail("region \"" + frame_path + "\" (attachment \"" +
                                                       std::string(name) + "\") not found in atlas " + atlas.file +
                                                       (atlas.regions.empty() ? " (it has no regions)" : "")),
                                                  frame_path};
                } else if (frame_path != first_missing->path &&
                           std::find(more_missing.begin(), more_missing.end(), frame_path) == more_missing.end()) {
                    more_missing.push_back(frame_path);  // each path once, however many attachments use it
                }
                break;
            }
            const AtlasRegion& region = atlas.regions[static_cast<std::size_t>(region_index)];
            const AtlasPage& page = atlas.pages[static_cast<std::size_t>(region.page)];
            if (page.width == 0 || page.height == 0)
                return fail("page \"" + page.name + "\" of region \"" + frame_path +
                            "\" has no size (set it from its image with set_atlas_page_size before binding)");
            BoundRegion bound;
            bound.region = region_index;
            bound.page = region.page;
            if (a.type == AttachmentType::region) {
                bind_region_attachment(a, region, bound);
            } else {
                bound.mesh_uvs.offset = static_cast<std::uint32_t>(binding.mesh_uvs.size());
                bind_mesh_uvs(skeleton.float_span(region_uvs), region, page, binding.mesh_uvs);
                bound.mesh_uvs.count = static_cast<std::uint32_t>(binding.mesh_uvs.size()) - bound.mesh_uvs.offset;
            }
            if (binding.regions.size() == k_max_binding_regions)
                return fail("frame " + std::to_string(f) + " of attachment \"" + std::string(name) +
                            "\" passes the limit of " + std::to_string(k_max_binding_regions) +
                            " frames bound over all attachments");
            binding.regions.push_back(bound);
        }
    }
    if (first_missing) return missing_regions_error(*first_missing, more_missing);
    return binding;
}

}  // namespace spinegpu
