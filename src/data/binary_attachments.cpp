// Skins and attachments of a binary (.skel) export: region, mesh, linked mesh, bounding box, path, point and
// clipping attachments with their sequences and (weighted) vertices, and the linked meshes resolved once every
// skin is known.
#include <string>
#include <vector>

#include "binary_parser.hpp"
#include "linked_meshes.hpp"
#include "timeline_keys.hpp"

namespace spinegpu::detail {
namespace {

// The attachment type numbers of the binary format (flags & 7); linked meshes have their own.
enum BinaryAttachmentType : std::uint8_t {
    k_region,
    k_bounding_box,
    k_mesh,
    k_linked_mesh,
    k_path,
    k_point,
    k_clipping
};

bool read_color(BinaryParse& p, Color& out) {
    std::uint32_t rgba = 0;
    if (!p.r.u32(rgba)) return false;
    out = color_from_rgba8888(rgba);
    return true;
}

bool read_scaled(BinaryParse& p, float& out) {
    float v = 0;
    if (!p.r.f32(v)) return false;
    out = static_cast<float>(v * p.scale);
    return true;
}

bool read_sequence(BinaryParse& p, Index& out) {
    BinaryReader& r = p.r;
    std::size_t at = r.offset();
    std::uint32_t count = 0, start = 0, digits = 0, setup = 0;
    if (!r.varint(count) || !r.varint(start) || !r.varint(digits) || !r.varint(setup)) return false;
    if (count < 1 || count > k_max_sequence_frames)
        return r.fail_here(at, "sequence of " + std::to_string(count) + " frames (expected 1 to " +
                                   std::to_string(k_max_sequence_frames) + ")");
    if (digits > k_max_sequence_digits)
        return r.fail_here(at, "sequence frame numbers of " + std::to_string(digits) + " digits (at most " +
                                   std::to_string(k_max_sequence_digits) + ")");
    SequenceData s;
    s.id = p.next_sequence_id++;
    s.count = static_cast<std::int32_t>(count);
    s.start = static_cast<std::int32_t>(start);
    s.digits = static_cast<std::int32_t>(digits);
    s.setup_index = static_cast<std::int32_t>(setup);
    out = static_cast<Index>(p.data.sequences.size());
    p.data.sequences.push_back(s);
    return true;
}

// Reads a vertex list: unweighted, 2 floats per vertex; weighted, per vertex a bone count and per bone
// (bone, x, y, weight). Fills a's bones, vertices and world_vertices_length.
bool read_vertices(BinaryParse& p, bool weighted, AttachmentData& a) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    std::uint32_t vertex_count = 0;
    if (!r.count(vertex_count, weighted ? 1 : 8, "vertex")) return false;
    a.world_vertices_length = vertex_count * 2;
    a.vertices.offset = static_cast<std::uint32_t>(d.floats.size());
    if (!weighted) {
        d.floats.reserve(d.floats.size() + a.world_vertices_length);
        for (std::uint32_t i = 0; i < a.world_vertices_length; ++i) {
            float v = 0;
            if (!read_scaled(p, v)) return false;
            d.floats.push_back(v);
        }
        a.vertices.count = a.world_vertices_length;
        return true;
    }
    a.bones.offset = static_cast<std::uint32_t>(d.indices.size());
    for (std::uint32_t i = 0; i < vertex_count; ++i) {
        std::uint32_t bone_count = 0;
        if (!r.count(bone_count, 13, "vertex bone")) return false;
        d.indices.push_back(static_cast<Index>(bone_count));
        for (std::uint32_t b = 0; b < bone_count; ++b) {
            std::size_t at = r.offset();
            std::uint32_t bone = 0;
            float x = 0, y = 0, weight = 0;
            if (!r.varint(bone)) return false;
            if (bone >= d.bones.size())
                return r.fail_here(at, "vertex " + std::to_string(i) + " bone index " + std::to_string(bone) +
                                           " out of range (" + std::to_string(d.bones.size()) + " bones)");
            if (!read_scaled(p, x) || !read_scaled(p, y) || !r.f32(weight)) return false;
            d.indices.push_back(static_cast<Index>(bone));
            d.floats.push_back(x);
            d.floats.push_back(y);
            d.floats.push_back(weight);
        }
    }
    a.bones.count = static_cast<std::uint32_t>(d.indices.size()) - a.bones.offset;
    a.vertices.count = static_cast<std::uint32_t>(d.floats.size()) - a.vertices.offset;
    return true;
}

// Reads what region, mesh and linked mesh attachments store first: the atlas path (the attachment's name when
// absent), the colour and the sequence, each present when its flag bit (16, 32, 64) is set.
bool read_texture_fields(BinaryParse& p, std::uint8_t flags, AttachmentData& a) {
    const std::string* path = nullptr;
    if ((flags & 16) != 0 && !p.string_ref(path)) return false;
    a.path = p.data.attachment_paths.intern(path ? *path : p.data.attachment_names[a.spine_name]);
    if ((flags & 32) != 0 && !read_color(p, a.color)) return false;
    return (flags & 64) == 0 || read_sequence(p, a.sequence);
}

bool read_region(BinaryParse& p, std::uint8_t flags, AttachmentData& a) {
    BinaryReader& r = p.r;
    if (!read_texture_fields(p, flags, a)) return false;
    if ((flags & 128) != 0 && !r.f32(a.rotation)) return false;
    return read_scaled(p, a.x) && read_scaled(p, a.y) && r.f32(a.scale_x) && r.f32(a.scale_y) &&
           read_scaled(p, a.width) && read_scaled(p, a.height);
}

bool read_mesh(BinaryParse& p, std::uint8_t flags, AttachmentData& a) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    if (!read_texture_fields(p, flags, a)) return false;
    std::size_t hull_at = r.offset();
    std::uint32_t hull = 0;
    if (!r.varint(hull) || !read_vertices(p, (flags & 128) != 0, a)) return false;
    std::uint32_t vertex_count = a.world_vertices_length / 2;
    if (hull > vertex_count || a.world_vertices_length < hull + 2)
        return r.fail_here(hull_at, "hull of " + std::to_string(hull) + " vertices does not fit a mesh of " +
                                        std::to_string(vertex_count) + " vertices");
    if (vertex_count > 65536)
        return r.fail_here(hull_at, "mesh of " + std::to_string(vertex_count) + " vertices (limit 65536)");
    a.hull_length = hull * 2;
    a.region_uvs.offset = static_cast<std::uint32_t>(d.floats.size());
    a.region_uvs.count = a.world_vertices_length;
    for (std::uint32_t i = 0; i < a.world_vertices_length; ++i) {
        float uv = 0;
        if (!r.f32(uv)) return false;
        d.floats.push_back(uv);
    }
    std::size_t triangle_count = std::size_t{a.world_vertices_length - hull - 2} * 3;
    if (triangle_count > r.remaining())
        return r.fail_here(r.offset(), std::to_string(triangle_count) + " triangle indices do not fit in the " +
                                           std::to_string(r.remaining()) + " bytes left");
    a.triangles.offset = static_cast<std::uint32_t>(d.triangles.size());
    a.triangles.count = static_cast<std::uint32_t>(triangle_count);
    for (std::size_t i = 0; i < triangle_count; ++i) {
        Index t = 0;
        if (!r.index(t, vertex_count, "triangle vertex", "vertices")) return false;
        d.triangles.push_back(static_cast<std::uint16_t>(t));
    }
    if (p.nonessential) {
        std::uint32_t edge_count = 0;
        if (!r.count(edge_count, 1, "edge")) return false;
        a.edges.offset = static_cast<std::uint32_t>(d.indices.size());
        a.edges.count = edge_count;
        for (std::uint32_t i = 0; i < edge_count; ++i) {
            Index e = 0;
            if (!r.index(e, a.world_vertices_length, "edge vertex", "vertex coordinates")) return false;
            d.indices.push_back(e);
        }
        if (!read_scaled(p, a.mesh_width) || !read_scaled(p, a.mesh_height)) return false;
    }
    return true;
}

bool read_linked_mesh(BinaryParse& p, std::uint8_t flags, Index slot, AttachmentData& a, Index index) {
    BinaryReader& r = p.r;
    if (!read_texture_fields(p, flags, a)) return false;
    PendingLinkedMesh pending;
    pending.attachment = index;
    pending.slot = slot;
    pending.inherit_timelines = (flags & 128) != 0;
    pending.offset = r.offset();
    const std::string* parent = nullptr;
    if (!r.varint(pending.skin) || !p.required_string_ref(parent, "linked mesh parent")) return false;
    pending.parent = *parent;
    if (p.nonessential && (!read_scaled(p, a.mesh_width) || !read_scaled(p, a.mesh_height))) return false;
    p.linked_meshes.push_back(std::move(pending));
    return true;
}

bool read_path(BinaryParse& p, std::uint8_t flags, AttachmentData& a) {
    SkeletonData& d = p.data;
    a.closed = (flags & 16) != 0;
    a.constant_speed = (flags & 32) != 0;
    if (!read_vertices(p, (flags & 64) != 0, a)) return false;
    a.lengths.offset = static_cast<std::uint32_t>(d.floats.size());
    a.lengths.count = a.world_vertices_length / 6;
    for (std::uint32_t i = 0; i < a.lengths.count; ++i) {
        float length = 0;
        if (!read_scaled(p, length)) return false;
        d.floats.push_back(length);
    }
    return !p.nonessential || read_color(p, a.color);
}

// Reads one attachment of skin entry (slot, key) and appends it to data.attachments.
bool read_attachment(BinaryParse& p, Index slot, const std::string& key, Index& out) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    std::size_t at = r.offset();
    std::uint8_t flags = 0;
    if (!r.byte(flags)) return false;
    const std::string* name = &key;
    if ((flags & 8) != 0 && !p.required_string_ref(name, "attachment name")) return false;
    AttachmentData a;
    a.name = d.attachment_names.intern(key);
    a.spine_name = d.attachment_names.intern(*name);
    Index index = static_cast<Index>(d.attachments.size());
    bool ok = true;
    switch (flags & 7) {
    case k_region:
        a.type = AttachmentType::region;
        ok = read_region(p, flags, a);
        break;
    case k_bounding_box:
        a.type = AttachmentType::bounding_box;
        ok = read_vertices(p, (flags & 16) != 0, a) && (!p.nonessential || read_color(p, a.color));
        break;
    case k_mesh:
        a.type = AttachmentType::mesh;
        ok = read_mesh(p, flags, a);
        break;
    case k_linked_mesh:
        a.type = AttachmentType::mesh;
        ok = read_linked_mesh(p, flags, slot, a, index);
        break;
    case k_path:
        a.type = AttachmentType::path;
        ok = read_path(p, flags, a);
        break;
    case k_point:
        a.type = AttachmentType::point;
        a.color = k_default_point_color;
        ok = r.f32(a.rotation) && read_scaled(p, a.x) && read_scaled(p, a.y) &&
             (!p.nonessential || read_color(p, a.color));
        break;
    case k_clipping:
        a.type = AttachmentType::clipping;
        a.color = k_default_clipping_color;
        ok = r.index(a.end_slot, d.slots.size(), "clipping end slot", "slots") &&
             read_vertices(p, (flags & 16) != 0, a) && (!p.nonessential || read_color(p, a.color));
        break;
    default:
        return r.fail_here(at, "attachment type " + std::to_string(flags & 7) + " is not one of 0..6");
    }
    if (!ok) return false;
    if (a.type != AttachmentType::region) {  // the official VertexAttachment types (points included)
        a.vertex_id = p.next_vertex_id++;
        a.timeline_attachment = index;
    }
    d.attachments.push_back(a);
    out = index;
    return true;
}

bool read_constraint_refs(BinaryParse& p, ConstraintKind kind, std::size_t limit, std::string_view what,
                          std::vector<ConstraintRef>& out) {
    std::uint32_t n = 0;
    if (!p.r.count(n, 1, what)) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
        ConstraintRef ref{kind, 0};
        if (!p.r.index(ref.index, limit, what, std::string(what) + "s")) return false;
        out.push_back(ref);
    }
    return true;
}

// The section label of a linked mesh's messages: `linked mesh "name"`.
std::string linked_mesh_section(const SkeletonData& d, Index attachment) {
    return quoted("linked mesh", d.attachment_names[d.attachments[static_cast<std::size_t>(attachment)].name]);
}

}  // namespace

bool read_binary_skin(BinaryParse& p, bool default_skin, bool& added) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    SkinData skin;
    std::uint32_t slot_count = 0;
    added = false;
    if (default_skin) {
        r.set_section("the default skin");
        if (!r.count(slot_count, 2, "skin slot")) return false;
        if (slot_count == 0) return true;
        std::size_t at = r.offset();
        if (d.skin_names.add("default") == k_none) return r.fail(at, "skin \"default\" is defined twice");
    } else {
        r.set_section("skin " + std::to_string(d.skins.size()));
        std::size_t at = r.offset();
        std::string name;
        bool present = false;
        if (!r.string(name, present)) return false;
        if (!present || name.empty()) return r.fail_here(at, "name must not be empty");
        if (d.skin_names.add(name) == k_none) return r.fail(at, quoted("skin", name) + " is defined twice");
        r.set_section(quoted("skin", name));
        if (p.nonessential && !read_color(p, skin.color)) return false;
        std::uint32_t n = 0;
        if (!r.count(n, 1, "skin bone")) return false;
        for (std::uint32_t i = 0; i < n; ++i) {
            Index bone = 0;
            if (!r.index(bone, d.bones.size(), "skin bone", "bones")) return false;
            skin.bones.push_back(bone);
        }
        if (!read_constraint_refs(p, ConstraintKind::ik, d.ik_constraints.size(), "IK constraint", skin.constraints) ||
            !read_constraint_refs(p, ConstraintKind::transform, d.transform_constraints.size(), "transform constraint",
                                  skin.constraints) ||
            !read_constraint_refs(p, ConstraintKind::path, d.path_constraints.size(), "path constraint",
                                  skin.constraints) ||
            !read_constraint_refs(p, ConstraintKind::physics, d.physics_constraints.size(), "physics constraint",
                                  skin.constraints) ||
            !r.count(slot_count, 2, "skin slot"))
            return false;
    }
    std::string section = r.section();
    for (std::uint32_t i = 0; i < slot_count; ++i) {
        r.set_section(section);
        Index slot = 0;
        std::uint32_t n = 0;
        if (!r.index(slot, d.slots.size(), "slot", "slots") || !r.count(n, 2, "attachment")) return false;
        for (std::uint32_t ii = 0; ii < n; ++ii) {
            const std::string* key = nullptr;
            if (!p.required_string_ref(key, "attachment name")) return false;
            r.set_section(section + ", slot \"" + d.slot_names[slot] + "\", attachment \"" + *key + '"');
            SkinEntry entry{slot, d.attachment_names.intern(*key), 0};
            if (!read_attachment(p, slot, *key, entry.attachment)) return false;
            skin.entries.push_back(entry);
        }
    }
    d.skins.push_back(std::move(skin));
    added = true;
    return true;
}

bool resolve_binary_linked_meshes(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    sort_skin_entries(d);  // a key set twice keeps its last attachment
    std::vector<LinkedMesh> links;
    links.reserve(p.linked_meshes.size());
    for (const PendingLinkedMesh& lm : p.linked_meshes) {
        if (lm.skin >= d.skins.size()) {
            r.set_section(linked_mesh_section(d, lm.attachment));
            return r.fail_here(lm.offset, "skin index " + std::to_string(lm.skin) + " out of range (" +
                                              std::to_string(d.skins.size()) + " skins)");
        }
        links.push_back(
            LinkedMesh{lm.attachment, lm.slot, static_cast<Index>(lm.skin), lm.parent, lm.inherit_timelines});
    }
    LinkResult result = resolve_linked_meshes(d, links);
    if (result.failure == LinkFailure::none) {
        p.linked_meshes.clear();
        return true;
    }
    const LinkedMesh& link = links[result.link];
    std::size_t at = p.linked_meshes[result.link].offset;
    r.set_section(linked_mesh_section(d, link.attachment));
    switch (result.failure) {
    case LinkFailure::parent_not_found:
        return r.fail_here(at, "parent mesh \"" + link.parent + "\" not found in slot \"" + d.slot_names[link.slot] +
                                   "\" of skin \"" + d.skin_names[link.skin] + '"');
    case LinkFailure::parent_not_mesh:
        return r.fail_here(at, "parent \"" + link.parent + "\" is a " +
                                   attachment_type_name(d.attachments[static_cast<std::size_t>(result.parent)].type) +
                                   " attachment, not a mesh");
    default:
        return r.fail_here(at, "linked meshes form a cycle through \"" + link.parent + '"');
    }
}

}  // namespace spinegpu::detail
