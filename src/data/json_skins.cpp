// Spine 4.2 JSON loader: skins, their attachments of every type, and linked meshes (resolved after all skins).
#include <array>
#include <cmath>

#include "json_loader.hpp"
#include "linked_meshes.hpp"
#include "timeline_keys.hpp"

namespace spinegpu::detail::json {
namespace {

constexpr std::array<const char*, 7> k_attachment_type_names = {"region", "boundingbox", "mesh", "linkedmesh",
                                                                "path",   "point",       "clipping"};
constexpr AttachmentType k_attachment_types[] = {AttachmentType::region, AttachmentType::bounding_box,
                                                 AttachmentType::mesh,   AttachmentType::mesh,
                                                 AttachmentType::path,   AttachmentType::point,
                                                 AttachmentType::clipping};

constexpr std::int64_t k_max_vertex_count = std::int64_t{1} << 24;
constexpr std::size_t k_max_triangle_vertices = 65536;  // triangle indices are 16-bit

bool is_integer_in(double v, double lo, double hi) { return v >= lo && v <= hi && std::floor(v) == v; }

// Reads the array `key` as numbers into load.scratch; fails if absent.
bool required_numbers(Load& load, Object map, std::string_view key) {
    std::optional<Array> array = load.r.required_array(map, key);
    if (!array) return false;
    auto scope = load.r.at(key);
    return load.r.numbers(*array, load.scratch);
}

bool append_floats(Load& load, const std::vector<double>& values, double scale, Range& out) {
    std::vector<float>& floats = load.data.floats;
    if (!load.pool_room(floats.size(), values.size(), "float pool")) return false;
    out = {static_cast<std::uint32_t>(floats.size()), static_cast<std::uint32_t>(values.size())};
    for (double v : values) floats.push_back(static_cast<float>(v * scale));
    return true;
}

// Weighted vertices: per vertex a bone count n, then n x (bone index, x, y, weight).
bool read_weighted(Load& load, std::uint32_t world_vertices_length, AttachmentData& a) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    const std::vector<double>& v = load.scratch;
    std::size_t n = v.size();
    if (!load.pool_room(d.indices.size(), n, "index pool") || !load.pool_room(d.floats.size(), n, "float pool"))
        return false;
    a.bones = {static_cast<std::uint32_t>(d.indices.size()), 0};
    a.vertices = {static_cast<std::uint32_t>(d.floats.size()), 0};
    double bone_count = static_cast<double>(d.bones.size());
    std::size_t vertex_count = 0;
    auto scope = r.at("vertices");
    for (std::size_t i = 0; i < n; ++vertex_count) {
        double count = v[i];
        if (!is_integer_in(count, 0, static_cast<double>((n - i - 1) / 4))) {
            auto at = r.at(i);
            return r.fail("expected a bone count that fits the array (weighted vertices); unweighted vertices need "
                          "exactly " + std::to_string(world_vertices_length) + " numbers, found " + std::to_string(n));
        }
        d.indices.push_back(static_cast<Index>(count));
        ++i;
        for (std::size_t end = i + static_cast<std::size_t>(count) * 4; i < end; i += 4) {
            if (!is_integer_in(v[i], 0, bone_count - 1)) {
                auto at = r.at(i);
                return r.fail("expected a bone index below " + std::to_string(d.bones.size()));
            }
            d.indices.push_back(static_cast<Index>(v[i]));
            d.floats.push_back(static_cast<float>(v[i + 1] * load.scale));
            d.floats.push_back(static_cast<float>(v[i + 2] * load.scale));
            d.floats.push_back(static_cast<float>(v[i + 3]));
        }
    }
    if (vertex_count * 2 != world_vertices_length)
        return r.fail("expected " + std::to_string(world_vertices_length / 2) + " weighted vertices, found " +
                      std::to_string(vertex_count));
    a.bones.count = static_cast<std::uint32_t>(d.indices.size()) - a.bones.offset;
    a.vertices.count = static_cast<std::uint32_t>(d.floats.size()) - a.vertices.offset;
    return true;
}

// Reads "vertices" for a vertex attachment of world_vertices_length / 2 vertices: unweighted when the array has
// exactly world_vertices_length numbers, weighted otherwise (as the official loader decides).
bool read_vertices(Load& load, Object map, std::uint32_t world_vertices_length, AttachmentData& a) {
    a.world_vertices_length = world_vertices_length;
    if (!required_numbers(load, map, "vertices")) return false;
    if (load.scratch.size() != world_vertices_length) return read_weighted(load, world_vertices_length, a);
    // The official loader rounds to float first and scales the float (weighted positions are scaled before).
    if (!append_floats(load, load.scratch, 1, a.vertices)) return false;
    if (load.scale != 1)
        for (std::uint32_t i = 0; i < a.vertices.count; ++i) {
            float& v = load.data.floats[a.vertices.offset + i];
            v = static_cast<float>(static_cast<double>(v) * load.scale);
        }
    return true;
}

std::uint32_t read_vertex_count(Load& load, Object map) {
    return static_cast<std::uint32_t>(load.r.integer(map, "vertexCount", 0, 0, k_max_vertex_count)) * 2;
}

bool read_sequence(Load& load, Object map, AttachmentData& a) {
    Reader& r = load.r;
    std::optional<Object> seq = r.object(map, "sequence");
    if (!seq) return r.ok();
    auto scope = r.at("sequence");
    SequenceData s;
    s.count = static_cast<std::int32_t>(r.integer(*seq, "count", 0, 0, k_max_sequence_frames));
    s.start = static_cast<std::int32_t>(r.integer(*seq, "start", 1, -k_int_max, k_int_max));
    s.digits = static_cast<std::int32_t>(r.integer(*seq, "digits", 0, 0, k_max_sequence_digits));
    s.setup_index = static_cast<std::int32_t>(r.integer(*seq, "setup", 0, 0, k_int_max));
    if (!r.ok()) return false;
    if (s.count < 1) return r.fail_at("count", "expected a sequence of at least 1 frame");
    s.id = load.next_sequence_id++;
    a.sequence = static_cast<Index>(load.data.sequences.size());
    load.data.sequences.push_back(s);
    return true;
}

bool read_region(Load& load, Object map, std::string_view own_name, AttachmentData& a) {
    Reader& r = load.r;
    std::string_view path = r.string(map, "path").value_or(own_name);
    if (!read_sequence(load, map, a)) return false;
    a.x = r.number_f(map, "x", 0, load.scale);
    a.y = r.number_f(map, "y", 0, load.scale);
    a.scale_x = r.number_f(map, "scaleX", 1);
    a.scale_y = r.number_f(map, "scaleY", 1);
    a.rotation = r.number_f(map, "rotation", 0);
    a.width = static_cast<float>(r.required_number(map, "width") * load.scale);
    a.height = static_cast<float>(r.required_number(map, "height") * load.scale);
    a.color = r.color(map, "color", a.color);
    if (!r.ok()) return false;
    a.path = load.data.attachment_paths.intern(path);
    return true;
}

bool read_triangles(Load& load, Object map, std::size_t vertex_count, AttachmentData& a) {
    Reader& r = load.r;
    std::vector<std::uint16_t>& triangles = load.data.triangles;
    if (!required_numbers(load, map, "triangles")) return false;
    auto scope = r.at("triangles");
    const std::vector<double>& v = load.scratch;
    if (v.size() % 3 != 0) return r.fail("expected a multiple of 3 indices, found " + std::to_string(v.size()));
    if (!load.pool_room(triangles.size(), v.size(), "triangle pool")) return false;
    a.triangles = {static_cast<std::uint32_t>(triangles.size()), static_cast<std::uint32_t>(v.size())};
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!is_integer_in(v[i], 0, static_cast<double>(vertex_count) - 1)) {
            auto at = r.at(i);
            return r.fail("expected a vertex index below " + std::to_string(vertex_count));
        }
        triangles.push_back(static_cast<std::uint16_t>(v[i]));
    }
    return true;
}

bool read_edges(Load& load, Object map, AttachmentData& a) {
    Reader& r = load.r;
    std::optional<Array> edges = r.array(map, "edges");
    if (!edges) return r.ok();
    auto scope = r.at("edges");
    if (!r.numbers(*edges, load.scratch)) return false;
    std::vector<Index>& indices = load.data.indices;
    if (!load.pool_room(indices.size(), load.scratch.size(), "index pool")) return false;
    a.edges = {static_cast<std::uint32_t>(indices.size()), static_cast<std::uint32_t>(load.scratch.size())};
    for (std::size_t i = 0; i < load.scratch.size(); ++i) {
        if (!is_integer_in(load.scratch[i], 0, static_cast<double>(k_int_max))) {
            auto at = r.at(i);
            return r.fail("expected a non-negative integer");
        }
        indices.push_back(static_cast<Index>(load.scratch[i]));
    }
    return true;
}

// The geometry of a mesh that is not linked: uvs, vertices, triangles, hull, edges.
bool read_mesh_geometry(Load& load, Object map, AttachmentData& a) {
    Reader& r = load.r;
    if (!required_numbers(load, map, "uvs")) return false;
    std::size_t uv_count = load.scratch.size();
    if (uv_count % 2 != 0) return r.fail_at("uvs", "expected an even number of coordinates, found " +
                                                       std::to_string(uv_count));
    if (uv_count / 2 > k_max_triangle_vertices)
        return r.fail_at("uvs", "too many vertices (" + std::to_string(uv_count / 2) + ", limit " +
                                    std::to_string(k_max_triangle_vertices) + ")");
    if (!append_floats(load, load.scratch, 1, a.region_uvs)) return false;
    if (!read_vertices(load, map, static_cast<std::uint32_t>(uv_count), a)) return false;
    if (!read_triangles(load, map, uv_count / 2, a)) return false;
    auto vertex_count = static_cast<std::int64_t>(uv_count / 2);
    a.hull_length = static_cast<std::uint32_t>(r.integer(map, "hull", 0, 0, vertex_count)) * 2;
    return read_edges(load, map, a) && r.ok();
}

bool read_mesh(Load& load, Object map, std::string_view own_name, Index slot, AttachmentData& a) {
    Reader& r = load.r;
    std::string_view path = r.string(map, "path").value_or(own_name);
    a.color = r.color(map, "color", a.color);
    a.mesh_width = r.number_f(map, "width", 0, load.scale);
    a.mesh_height = r.number_f(map, "height", 0, load.scale);
    if (!read_sequence(load, map, a)) return false;
    std::optional<std::string_view> parent = r.string(map, "parent");
    if (!r.ok()) return false;
    a.path = load.data.attachment_paths.intern(path);
    if (parent && !parent->empty()) {
        PendingLink link;
        link.attachment = static_cast<Index>(load.data.attachments.size());
        link.slot = slot;
        std::optional<std::string_view> skin = r.string(map, "skin");
        link.has_skin = skin && !skin->empty();
        if (link.has_skin) link.skin = *skin;
        link.parent = *parent;
        link.inherit_timelines = r.boolean(map, "timelines", true);
        link.path = r.path();
        if (!r.ok()) return false;
        load.links.push_back(std::move(link));
        return true;
    }
    return read_mesh_geometry(load, map, a);
}

bool read_path_attachment(Load& load, Object map, AttachmentData& a) {
    Reader& r = load.r;
    a.closed = r.boolean(map, "closed", false);
    a.constant_speed = r.boolean(map, "constantSpeed", true);
    std::uint32_t length = read_vertex_count(load, map);
    if (!r.ok() || !read_vertices(load, map, length, a)) return false;
    if (!required_numbers(load, map, "lengths")) return false;
    std::size_t expected = length / 2 / 3;
    if (load.scratch.size() != expected)
        return r.fail_at("lengths", "expected " + std::to_string(expected) +
                                        " curve lengths (vertexCount / 3), found " +
                                        std::to_string(load.scratch.size()));
    if (!append_floats(load, load.scratch, load.scale, a.lengths)) return false;
    a.color = r.color(map, "color", a.color);
    return r.ok();
}

bool read_clipping(Load& load, Object map, AttachmentData& a) {
    Reader& r = load.r;
    if (std::optional<std::string_view> end = r.string(map, "end"); end && !end->empty()) {
        a.end_slot = load.data.slot_names.find(*end);
        if (a.end_slot == k_none) return r.fail_at("end", "unknown slot " + quote(*end));
    }
    a.color = r.color(map, "color", k_default_clipping_color);
    std::uint32_t length = read_vertex_count(load, map);
    return r.ok() && read_vertices(load, map, length, a);
}

// Reads the fields specific to `a.type`.
bool read_attachment_body(Load& load, Object map, std::string_view own_name, Index slot, AttachmentData& a) {
    Reader& r = load.r;
    switch (a.type) {
        case AttachmentType::region: return read_region(load, map, own_name, a);
        case AttachmentType::mesh: return read_mesh(load, map, own_name, slot, a);
        case AttachmentType::path: return read_path_attachment(load, map, a);
        case AttachmentType::clipping: return read_clipping(load, map, a);
        case AttachmentType::bounding_box: {
            std::uint32_t length = read_vertex_count(load, map);
            a.color = r.color(map, "color", a.color);
            return r.ok() && read_vertices(load, map, length, a);
        }
        case AttachmentType::point:
            a.x = r.number_f(map, "x", 0, load.scale);
            a.y = r.number_f(map, "y", 0, load.scale);
            a.rotation = r.number_f(map, "rotation", 0);
            a.color = r.color(map, "color", k_default_point_color);
            return r.ok();
    }
    return r.fail("unhandled attachment type");
}

bool read_attachment(Load& load, Object map, Index slot, std::string_view key, SkinData& skin) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    AttachmentData a;
    std::string_view own_name = r.string(map, "name").value_or(key);
    a.type = k_attachment_types[r.enumeration(map, "type", 0, k_attachment_type_names)];
    if (!r.ok() || !read_attachment_body(load, map, own_name, slot, a)) return false;
    Index index = static_cast<Index>(d.attachments.size());
    if (a.type != AttachmentType::region) {  // the official VertexAttachment types, which take an id each
        a.vertex_id = load.next_vertex_id++;
        a.timeline_attachment = index;
    }
    a.name = d.attachment_names.intern(key);
    a.spine_name = d.attachment_names.intern(own_name);
    d.attachments.push_back(a);
    skin.entries.push_back(SkinEntry{slot, a.name, index});
    return true;
}

bool read_skin_attachments(Load& load, Object attachments, SkinData& skin) {
    Reader& r = load.r;
    for (const Member& slot_member : Reader::members(attachments)) {
        auto slot_scope = r.at(slot_member.key);
        Index slot = load.data.slot_names.find(slot_member.key);
        if (slot == k_none) return r.fail("unknown slot " + quote(slot_member.key));
        std::optional<Object> entries = r.as_object(slot_member.value);
        if (!entries) return false;
        for (const Member& entry : Reader::members(*entries)) {
            auto entry_scope = r.at(entry.key);
            std::optional<Object> map = r.as_object(entry.value);
            if (!map || !read_attachment(load, *map, slot, entry.key, skin)) return false;
        }
    }
    return true;
}

// Appends the constraints named in `key` (of `kind`, looked up in `names`) to skin.constraints.
bool read_skin_constraints(Load& load, Object map, std::string_view key, ConstraintKind kind, const NameTable& names,
                           SkinData& skin) {
    Reader& r = load.r;
    std::optional<Array> list = r.array(map, key);
    if (!list) return r.ok();
    auto scope = r.at(key);
    std::size_t i = 0;
    for (Element e : *list) {
        auto at = r.at(i++);
        std::optional<std::string_view> name = r.as_string(e);
        if (!name) return false;
        Index index = names.find(*name);
        if (index == k_none) return r.fail("unknown " + std::string(key) + " constraint " + quote(*name));
        skin.constraints.push_back(ConstraintRef{kind, index});
    }
    return true;
}

bool read_skin(Load& load, Object map) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    SkinData skin;
    std::string_view name = r.required_string(map, "name");
    if (!r.ok()) return false;
    if (name.empty()) return r.fail_at("name", "expected a non-empty skin name");
    if (d.skin_names.find(name) != k_none) return r.fail_at("name", "duplicate skin name " + quote(name));
    if (std::optional<Array> bones = r.array(map, "bones")) {
        auto scope = r.at("bones");
        Range range;
        if (!load.bone_list(*bones, range)) return false;
        skin.bones.assign(d.indices.begin() + range.offset, d.indices.end());
        d.indices.resize(range.offset);
    }
    if (!read_skin_constraints(load, map, "ik", ConstraintKind::ik, d.ik_names, skin) ||
        !read_skin_constraints(load, map, "transform", ConstraintKind::transform, d.transform_names, skin) ||
        !read_skin_constraints(load, map, "path", ConstraintKind::path, d.path_names, skin) ||
        !read_skin_constraints(load, map, "physics", ConstraintKind::physics, d.physics_names, skin))
        return false;
    skin.color = r.color(map, "color", skin.color);
    if (std::optional<Object> attachments = r.object(map, "attachments")) {
        auto scope = r.at("attachments");
        if (!read_skin_attachments(load, *attachments, skin)) return false;
    }
    if (!r.ok()) return false;
    Index index = d.skin_names.add(name);
    if (name == "default") d.default_skin = index;
    d.skins.push_back(std::move(skin));
    return true;
}

}  // namespace

bool read_skins(Load& load, Array skins) {
    Reader& r = load.r;
    std::size_t i = 0;
    for (Element e : skins) {
        auto scope = r.at(i++);
        std::optional<Object> map = r.as_object(e);
        if (!map || !read_skin(load, *map)) return false;
    }
    return true;
}

bool resolve_linked_meshes(Load& load) {
    Reader& r = load.r;
    SkeletonData& d = load.data;
    sort_skin_entries(d);
    std::vector<LinkedMesh> links;
    links.reserve(load.links.size());
    for (const PendingLink& link : load.links) {
        Index skin = link.has_skin ? d.skin_names.find(link.skin) : d.default_skin;
        if (skin == k_none) {
            if (link.has_skin) return r.fail_with_path(link.path + "/skin", "unknown skin " + quote(link.skin));
            return r.fail_with_path(link.path + "/parent", "parent mesh " + quote(link.parent) +
                                                               " not found: there is no default skin");
        }
        links.push_back(LinkedMesh{link.attachment, link.slot, skin, link.parent, link.inherit_timelines});
    }
    LinkResult result = detail::resolve_linked_meshes(d, links);
    if (result.failure == LinkFailure::none) return true;
    const PendingLink& link = load.links[result.link];
    const std::string& skin_name = d.skin_names[links[result.link].skin];
    switch (result.failure) {
        case LinkFailure::parent_not_found:
            return r.fail_with_path(link.path + "/parent",
                                    "parent mesh " + quote(link.parent) + " not found in skin " + quote(skin_name));
        case LinkFailure::parent_not_mesh:
            return r.fail_with_path(
                link.path + "/parent",
                "parent " + quote(link.parent) + " in skin " + quote(skin_name) + " is a " +
                    attachment_type_name(d.attachments[static_cast<std::size_t>(result.parent)].type) +
                    " attachment, not a mesh");
        default:
            return r.fail_with_path(link.path + "/parent", "linked meshes form a cycle through " + quote(link.parent));
    }
}

}  // namespace spinegpu::detail::json
