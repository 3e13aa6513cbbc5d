// Skin lookups and linked meshes, shared by the JSON and binary loaders. A linked mesh names its parent mesh by skin
// key in one skin; parents are found once every skin is read, so skins must first be sorted for lookup. Each loader
// turns its own skin reference (a name, an index) into a skin index and formats failures in its own terms (JSON
// path, byte offset). Private to the data layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::detail {

// Sorts every skin's entries by (slot, name), as SkeletonData::find_skin_attachment needs, keeping only the last
// attachment of a key set twice (as the official Skin.setAttachment does).
void sort_skin_entries(SkeletonData& data);

// A linked mesh waiting for its parent.
struct LinkedMesh {
    Index attachment = 0;          // the linked mesh, in SkeletonData::attachments
    Index slot = 0;
    Index skin = 0;                // the skin holding the parent (the loader has checked it exists)
    std::string parent;            // the parent's skin key
    bool inherit_timelines = true;
};

enum class LinkFailure : std::uint8_t { none, parent_not_found, parent_not_mesh, cycle };

// The outcome of resolve_linked_meshes: `failure` none, or what went wrong with links[link] (`parent` is the
// attachment found for it, k_none when none was).
struct LinkResult {
    LinkFailure failure = LinkFailure::none;
    std::size_t link = 0;
    Index parent = k_none;
};

// Gives each linked mesh its parent's geometry (bones, vertices, UVs, triangles, hull), its parent_mesh and its
// timeline attachment (the parent when it inherits timelines, itself otherwise). A parent may itself be a linked
// mesh, listed before or after it: chains are resolved parent first, and a cycle is a failure. Preconditions: skins
// sorted (sort_skin_entries), every link's attachment a mesh and its skin valid. On failure the loader discards
// `data`, which may be partly updated.
LinkResult resolve_linked_meshes(SkeletonData& data, std::span<const LinkedMesh> links);

}  // namespace spinegpu::detail
