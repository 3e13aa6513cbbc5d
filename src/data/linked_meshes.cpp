#include "linked_meshes.hpp"

#include <algorithm>
#include <vector>

namespace spinegpu::detail {

void sort_skin_entries(SkeletonData& data) {
    auto less = [](const SkinEntry& a, const SkinEntry& b) {
        return a.slot != b.slot ? a.slot < b.slot : a.name < b.name;
    };
    for (SkinData& skin : data.skins) {
        std::vector<SkinEntry>& entries = skin.entries;
        std::stable_sort(entries.begin(), entries.end(), less);
        std::size_t kept = 0;
        for (const SkinEntry& e : entries) {
            if (kept > 0 && entries[kept - 1].slot == e.slot && entries[kept - 1].name == e.name) entries[kept - 1] = e;
            else entries[kept++] = e;
        }
        entries.resize(kept);
    }
}

namespace {

void share_geometry(SkeletonData& data, const LinkedMesh& link, Index parent_index) {
    AttachmentData& mesh = data.attachments[static_cast<std::size_t>(link.attachment)];
    const AttachmentData& parent = data.attachments[static_cast<std::size_t>(parent_index)];
    mesh.bones = parent.bones;
    mesh.vertices = parent.vertices;
    mesh.world_vertices_length = parent.world_vertices_length;
    mesh.region_uvs = parent.region_uvs;
    mesh.triangles = parent.triangles;
    mesh.hull_length = parent.hull_length;  // edges and size (editor data) stay the linked mesh's own, as in spine-core
    mesh.parent_mesh = parent_index;
    mesh.timeline_attachment = link.inherit_timelines ? parent_index : link.attachment;
}

}  // namespace

LinkResult resolve_linked_meshes(SkeletonData& data, std::span<const LinkedMesh> links) {
    std::vector<Index> link_of(data.attachments.size(), k_none);
    for (std::size_t k = 0; k < links.size(); ++k)
        link_of[static_cast<std::size_t>(links[k].attachment)] = static_cast<Index>(k);
    enum : std::uint8_t { pending, walking, done };
    std::vector<std::uint8_t> state(links.size(), pending);
    std::vector<Index> parent_of(links.size(), k_none);
    std::vector<std::size_t> chain;
    for (std::size_t k = 0; k < links.size(); ++k) {
        // Walk up the chain of linked parents until a plain mesh (or a resolved link), then resolve it downwards.
        chain.clear();
        for (std::size_t cur = k; state[cur] == pending;) {
            state[cur] = walking;
            chain.push_back(cur);
            const LinkedMesh& link = links[cur];
            Index name = data.attachment_names.find(link.parent);
            Index parent = name == k_none ? k_none : data.find_skin_attachment(link.skin, link.slot, name);
            if (parent == k_none) return {LinkFailure::parent_not_found, cur, k_none};
            if (data.attachments[static_cast<std::size_t>(parent)].type != AttachmentType::mesh)
                return {LinkFailure::parent_not_mesh, cur, parent};
            parent_of[cur] = parent;
            Index parent_link = link_of[static_cast<std::size_t>(parent)];
            if (parent_link == k_none) break;
            if (state[static_cast<std::size_t>(parent_link)] == walking) return {LinkFailure::cycle, cur, parent};
            cur = static_cast<std::size_t>(parent_link);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            share_geometry(data, links[*it], parent_of[*it]);
            state[*it] = done;
        }
    }
    return {};
}

}  // namespace spinegpu::detail
