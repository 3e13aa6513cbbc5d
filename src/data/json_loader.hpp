// Shared state of one Spine JSON load, split over json_loader.cpp (skeleton, bones, slots, constraints, events),
// json_skins.cpp (skins, attachments, linked meshes) and json_animations.cpp (timelines). Private to the data
// layer.
//
// Every read function returns false once the reader holds an error; the loader then drops the half-built
// SkeletonData and returns the Error.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "json_reader.hpp"
#include "spinegpu/data/skeleton_data.hpp"

namespace spinegpu::detail::json {

// Largest 32-bit int, the bound of the integer fields the official runtime stores as int.
inline constexpr std::int64_t k_int_max = 0x7fffffff;

// Inherit mode names, in Inherit's order (bones and inherit timelines).
inline constexpr std::array<const char*, 5> k_inherit_names = {"normal", "onlyTranslation", "noRotationOrReflection",
                                                               "noScale", "noScaleOrReflection"};

// Cap on each pool (a small file can multiply its size: deform keys store every vertex of every frame, draw
// order keys every slot), so that a hostile file cannot make us allocate gigabytes.
inline constexpr std::size_t k_max_pool = std::size_t{1} << 26;

// A linked mesh waiting for its parent, resolved once every skin is read.
struct PendingLink {
    Index attachment = 0;
    Index slot = 0;
    bool has_skin = false;
    std::string skin;              // the skin holding the parent; the default skin when !has_skin
    std::string parent;            // the parent's skin key
    bool inherit_timelines = true;
    std::string path;              // JSON path of the linked mesh, for errors
};

struct Load {
    Load(const std::string& file, SkeletonData& out, double load_scale) : r(file), data(out), scale(load_scale) {}

    Reader r;
    SkeletonData& data;
    double scale = 1;
    std::int32_t next_vertex_id = 0;
    std::int32_t next_sequence_id = 0;
    std::vector<PendingLink> links;
    std::vector<double> scratch;        // reused number buffer
    std::vector<double> curve_scratch;  // reused for Bezier handles

    // Checks that a pool of `size` entries may grow by `extra`; records an error at the current path if not.
    bool pool_room(std::size_t size, std::size_t extra, std::string_view what) {
        if (extra > k_max_pool || size + extra > k_max_pool)
            return r.fail(std::string(what) + " too large (" + std::to_string(size + extra) + " entries, limit " +
                          std::to_string(k_max_pool) + ")");
        return true;
    }

    // Appends the bones named in `names` to data.indices (errors at the current path + element index).
    bool bone_list(Array names, Range& out);
};

// Reads the "skins" array into data.skins and data.attachments (linked meshes left pending).
bool read_skins(Load& load, Array skins);

// After all skins are read: sorts their entries for lookup and resolves every pending linked mesh against its
// parent (linked_meshes.hpp).
bool resolve_linked_meshes(Load& load);

// Reads the "animations" object into data.animations and data.timelines.
bool read_animations(Load& load, Object animations);

}  // namespace spinegpu::detail::json
