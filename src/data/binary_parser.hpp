// Shared state of one binary (.skel) load, split over binary_loader.cpp (header, bones, slots, constraints,
// events), binary_attachments.cpp (skins, attachments, linked meshes) and binary_animations.cpp +
// binary_keyed_timelines.cpp (timelines, through binary_timelines.hpp).
//
// Every parse function returns false after recording an error in the reader (byte offset + sentence); the loader
// then drops the half-built SkeletonData and returns the Error. Nothing here is visible outside the data layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "binary_reader.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::detail {

// Caps on the pools that a small file can legitimately multiply (deform keys store every vertex of every frame,
// draw order keys every slot), so that a corrupt file cannot make us allocate gigabytes.
inline constexpr std::size_t k_max_binary_pool = std::size_t{1} << 26;

// A linked mesh waiting for its parent, resolved once every skin is read.
struct PendingLinkedMesh {
    Index attachment = 0;
    Index slot = 0;
    std::uint32_t skin = 0;         // index into the file's skin list (default skin first when present)
    std::string parent;             // skin key of the parent mesh in that skin
    bool inherit_timelines = false;
    std::size_t offset = 0;         // byte offset of the skin index, for errors
};

struct BinaryParse {
    BinaryParse(std::span<const std::uint8_t> bytes, SkeletonData& out) : r(bytes), data(out) {}

    BinaryReader r;
    SkeletonData& data;
    double scale = 1;
    bool nonessential = false;
    std::vector<std::string> strings;  // the file's string table, referenced by 1-based index (0 = null)
    std::vector<PendingLinkedMesh> linked_meshes;
    std::int32_t next_vertex_id = 0;
    std::int32_t next_sequence_id = 0;

    // Reads a string reference; `out` is null for reference 0.
    bool string_ref(const std::string*& out) {
        std::size_t at = r.offset();
        std::uint32_t v = 0;
        if (!r.varint(v)) return false;
        if (v == 0) {
            out = nullptr;
            return true;
        }
        if (v > strings.size())
            return r.fail_here(at, "string reference " + std::to_string(v) + " out of range (" +
                                       std::to_string(strings.size()) + " strings)");
        out = &strings[v - 1];
        return true;
    }

    // Reads a string reference that must not be null.
    bool required_string_ref(const std::string*& out, std::string_view what) {
        std::size_t at = r.offset();
        if (!string_ref(out)) return false;
        if (out == nullptr) return r.fail_here(at, std::string(what) + " must not be null");
        return true;
    }

    // Checks that a pool may grow by `extra` entries.
    bool pool_room(std::size_t size, std::size_t extra, std::size_t at, std::string_view what) {
        if (extra > k_max_binary_pool || size + extra > k_max_binary_pool)
            return r.fail_here(at, std::string(what) + " too large (" + std::to_string(size + extra) +
                                       " entries, limit " + std::to_string(k_max_binary_pool) + ")");
        return true;
    }
};

// Reads the default skin (when `default_skin`) or one named skin and appends it to data.skins. Reads nothing more
// than the skin; `added` is false when the default skin is absent (slot count 0).
bool read_binary_skin(BinaryParse& p, bool default_skin, bool& added);

// After all skins are read: sorts their entries for lookup (a key set twice keeps its last attachment) and resolves
// every pending linked mesh against its parent (linked_meshes.hpp).
bool resolve_binary_linked_meshes(BinaryParse& p);

// Reads one animation (its name already read) and appends it with its timelines.
bool read_binary_animation(BinaryParse& p, const std::string& name);

// Builds the section label `kind "name"` used in messages.
inline std::string quoted(std::string_view kind, std::string_view name) {
    std::string s(kind);
    s += " \"";
    s += name;
    s += '"';
    return s;
}

}  // namespace spinegpu::detail
