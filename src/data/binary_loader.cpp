// The Spine 4.2 binary (.skel) loader: header, string table, bones, slots, constraints, skins, events, animations,
// in the order the format stores them. Skins and attachments are in binary_attachments.cpp, animations in
// binary_animations.cpp and binary_keyed_timelines.cpp. Untrusted input: every count is checked against the bytes
// left, every index against what it indexes, and the SkeletonData is only returned when the whole file parsed.
#include <algorithm>
#include <cmath>
#include <string>

#include "binary_parser.hpp"
#include "spinegpu/data/skeleton_loader.hpp"

namespace spinegpu {
namespace detail {
namespace {

// Int32 in base 16 as JavaScript's Number.toString(16) writes it: lower case, no padding, '-' for negatives.
std::string js_hex(std::int32_t v) {
    static const char digits[] = "0123456789abcdef";
    std::int64_t value = v;
    bool negative = value < 0;
    if (negative) value = -value;
    std::string out;
    do {
        out.insert(out.begin(), digits[value & 15]);
        value >>= 4;
    } while (value != 0);
    if (negative) out.insert(out.begin(), '-');
    return out;
}

// Reads a name that must be present and not empty (the official loader rejects both) and adds it to `table`,
// rejecting duplicates.
bool read_name(BinaryParse& p, NameTable& table, std::string_view kind) {
    std::size_t at = p.r.offset();
    std::string name;
    bool present = false;
    if (!p.r.string(name, present)) return false;
    if (!present || name.empty())
        return p.r.fail(at, std::string(kind) + " " + std::to_string(table.size()) + ": name must not be empty");
    if (table.add(name) == k_none) return p.r.fail(at, quoted(kind, name) + " is defined twice");
    return true;
}

// Reads a list of named items as the format stores them: a count (each item at least `min_bytes` long), then per
// item its name, added to `names`, and the rest, read by `item(i)`. The reader's section names the list ("the
// slots"), then each item ("slot 3").
template <class Item>
bool read_named_list(BinaryParse& p, std::string_view kind, std::size_t min_bytes, NameTable& names, Item item) {
    std::uint32_t n = 0;
    p.r.set_section("the " + std::string(kind) + "s");
    if (!p.r.count(n, min_bytes, kind)) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
        p.r.set_section(std::string(kind) + " " + std::to_string(i));
        if (!read_name(p, names, kind) || !item(i)) return false;
    }
    return true;
}

bool read_header(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    r.set_section("the header");
    std::int32_t low = 0, high = 0;
    if (!r.i32(low) || !r.i32(high)) return false;
    if (low != 0 || high != 0) d.hash = js_hex(high) + js_hex(low);
    std::size_t at = r.offset();
    bool present = false;
    if (!r.string(d.version, present)) return false;
    if (!present) return r.fail(at, "the skeleton has no version; expected 4.2.x");
    if (d.version != "4.2" && d.version.rfind("4.2.", 0) != 0) {
        // A version of another export is short and printable; anything else is not a binary export at all (nor
        // JSON, which starts with '{'), and its bytes are not worth quoting.
        const bool printable = d.version.size() <= 16 && std::all_of(d.version.begin(), d.version.end(), [](char c) {
                                   return c >= 0x20 && c < 0x7f;
                               });
        if (!printable)
            return r.fail(0, "not a Spine skeleton: neither JSON nor a binary export (no version after the hash)");
        return r.fail(at, "unsupported skeleton version \"" + d.version + "\"; expected 4.2.x");
    }
    float reference_scale = 0;
    if (!r.f32(d.x) || !r.f32(d.y) || !r.f32(d.width) || !r.f32(d.height) || !r.f32(reference_scale)) return false;
    d.reference_scale = static_cast<float>(reference_scale * p.scale);
    if (!r.boolean(p.nonessential)) return false;
    if (p.nonessential) {
        if (!r.f32(d.fps) || !r.string(d.images_path, present) || !r.string(d.audio_path, present)) return false;
    }

    r.set_section("the string table");
    std::uint32_t n = 0;
    if (!r.count(n, 2, "string")) return false;
    p.strings.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        at = r.offset();
        std::string s;
        if (!r.string(s, present)) return false;
        if (!present || s.empty()) return r.fail(at, "string " + std::to_string(i) + " of the string table is empty");
        p.strings.push_back(std::move(s));
    }
    return true;
}

bool read_bones(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "bone", 34, d.bone_names, [&](std::uint32_t i) {
        BoneData b;
        if (i > 0 && !r.index(b.parent, i, "parent", "bones so far")) return false;
        float length = 0, x = 0, y = 0;
        if (!r.f32(b.rotation) || !r.f32(x) || !r.f32(y) || !r.f32(b.scale_x) || !r.f32(b.scale_y) ||
            !r.f32(b.shear_x) || !r.f32(b.shear_y) || !r.f32(length))
            return false;
        b.rotation_double = b.rotation;
        b.x = static_cast<float>(x * p.scale);
        b.y = static_cast<float>(y * p.scale);
        b.length = static_cast<float>(length * p.scale);
        std::size_t at = r.offset();
        std::uint8_t inherit = 0;
        if (!r.byte(inherit)) return false;
        if (inherit > static_cast<std::uint8_t>(Inherit::no_scale_or_reflection))
            return r.fail_here(at, "inherit mode " + std::to_string(inherit) + " is not one of 0..4");
        b.inherit = static_cast<Inherit>(inherit);
        if (!r.boolean(b.skin_required)) return false;
        if (p.nonessential) {
            std::uint32_t color = 0;
            bool present = false;
            if (!r.u32(color) || !r.string(b.icon, present) || !r.boolean(b.visible)) return false;
            b.color = color_from_rgba8888(color);
        }
        d.bones.push_back(std::move(b));
        return true;
    });
}

bool read_slots(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "slot", 12, d.slot_names, [&](std::uint32_t) {
        SlotData s;
        if (!r.index(s.bone, d.bones.size(), "bone", "bones")) return false;
        std::uint32_t color = 0, dark = 0;
        if (!r.u32(color) || !r.u32(dark)) return false;
        s.color = color_from_rgba8888(color);
        if (dark != 0xffffffffu) {
            s.has_dark = true;
            s.dark = color_from_rgb888(dark);
        }
        const std::string* attachment = nullptr;
        if (!p.string_ref(attachment)) return false;
        if (attachment) s.attachment_name = d.attachment_names.intern(*attachment);
        std::size_t at = r.offset();
        std::uint32_t blend = 0;
        if (!r.varint(blend)) return false;
        if (blend > static_cast<std::uint32_t>(BlendMode::screen))
            return r.fail_here(at, "blend mode " + std::to_string(blend) + " is not one of 0..3");
        s.blend = static_cast<BlendMode>(blend);
        if (p.nonessential && !r.boolean(s.visible)) return false;
        d.slots.push_back(s);
        return true;
    });
}

// Reads a constraint's bone list into the indices pool.
bool read_bone_list(BinaryParse& p, Range& out) {
    std::uint32_t n = 0;
    if (!p.r.count(n, 1, "constrained bone")) return false;
    out.offset = static_cast<std::uint32_t>(p.data.indices.size());
    out.count = n;
    for (std::uint32_t i = 0; i < n; ++i) {
        Index bone = 0;
        if (!p.r.index(bone, p.data.bones.size(), "bone", "bones")) return false;
        p.data.indices.push_back(bone);
    }
    return true;
}

bool read_order(BinaryParse& p, std::int32_t& order) {
    std::uint32_t v = 0;
    std::size_t at = p.r.offset();
    if (!p.r.varint(v)) return false;
    if (v > 0x7fffffffu) return p.r.fail_here(at, "order " + std::to_string(v) + " out of range");
    order = static_cast<std::int32_t>(v);
    return true;
}

bool read_ik_constraints(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "IK constraint", 5, d.ik_names, [&](std::uint32_t) {
        IkConstraintData c;
        if (!read_order(p, c.order)) return false;
        std::size_t at = r.offset();
        if (!read_bone_list(p, c.bones)) return false;
        if (c.bones.count < 1 || c.bones.count > 2)
            return r.fail_here(at, std::to_string(c.bones.count) + " bones (an IK constraint has 1 or 2)");
        if (!r.index(c.target, d.bones.size(), "target bone", "bones")) return false;
        std::uint8_t flags = 0;
        if (!r.byte(flags)) return false;
        c.skin_required = (flags & 1) != 0;
        c.bend_direction = (flags & 2) != 0 ? 1 : -1;
        c.compress = (flags & 4) != 0;
        c.stretch = (flags & 8) != 0;
        c.uniform = (flags & 16) != 0;
        c.mix = 0;  // the format stores mix 0 as "no mix" (flag 32 clear)
        if ((flags & 32) != 0) {
            c.mix = 1;
            if ((flags & 64) != 0 && !r.f32(c.mix)) return false;
        }
        if ((flags & 128) != 0) {
            float softness = 0;
            if (!r.f32(softness)) return false;
            c.softness = static_cast<float>(softness * p.scale);
        }
        d.ik_constraints.push_back(c);
        return true;
    });
}

// Reads `out` when bit `bit` of `flags` is set, scaled by `scale`; leaves the default otherwise.
bool optional_float(BinaryParse& p, std::uint8_t flags, int bit, float& out, double scale = 1) {
    if ((flags & bit) == 0) return true;
    float v = 0;
    if (!p.r.f32(v)) return false;
    out = static_cast<float>(v * scale);
    return true;
}

bool read_transform_constraints(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "transform constraint", 6, d.transform_names, [&](std::uint32_t) {
        TransformConstraintData c;
        if (!read_order(p, c.order) || !read_bone_list(p, c.bones)) return false;
        if (!r.index(c.target, d.bones.size(), "target bone", "bones")) return false;
        std::uint8_t flags = 0;
        if (!r.byte(flags)) return false;
        c.skin_required = (flags & 1) != 0;
        c.local = (flags & 2) != 0;
        c.relative = (flags & 4) != 0;
        if (!optional_float(p, flags, 8, c.offset_rotation) || !optional_float(p, flags, 16, c.offset_x, p.scale) ||
            !optional_float(p, flags, 32, c.offset_y, p.scale) || !optional_float(p, flags, 64, c.offset_scale_x) ||
            !optional_float(p, flags, 128, c.offset_scale_y))
            return false;
        if (!r.byte(flags)) return false;
        // Mixes absent from the file are 0, not the model's default of 1.
        c.mix_rotate = c.mix_x = c.mix_y = c.mix_scale_x = c.mix_scale_y = c.mix_shear_y = 0;
        if (!optional_float(p, flags, 1, c.offset_shear_y) || !optional_float(p, flags, 2, c.mix_rotate) ||
            !optional_float(p, flags, 4, c.mix_x) || !optional_float(p, flags, 8, c.mix_y) ||
            !optional_float(p, flags, 16, c.mix_scale_x) || !optional_float(p, flags, 32, c.mix_scale_y) ||
            !optional_float(p, flags, 64, c.mix_shear_y))
            return false;
        d.transform_constraints.push_back(c);
        return true;
    });
}

bool read_path_constraints(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "path constraint", 26, d.path_names, [&](std::uint32_t) {
        PathConstraintData c;
        if (!read_order(p, c.order) || !r.boolean(c.skin_required) || !read_bone_list(p, c.bones)) return false;
        if (!r.index(c.target, d.slots.size(), "target slot", "slots")) return false;
        std::size_t at = r.offset();
        std::uint8_t flags = 0;
        if (!r.byte(flags)) return false;
        c.position_mode = static_cast<PositionMode>(flags & 1);
        c.spacing_mode = static_cast<SpacingMode>((flags >> 1) & 3);
        if (((flags >> 3) & 3) > static_cast<int>(RotateMode::chain_scale))
            return r.fail_here(at, "rotate mode 3 is not one of 0..2");
        c.rotate_mode = static_cast<RotateMode>((flags >> 3) & 3);
        if (!optional_float(p, flags, 128, c.offset_rotation)) return false;
        float position = 0, spacing = 0;
        if (!r.f32(position) || !r.f32(spacing) || !r.f32(c.mix_rotate) || !r.f32(c.mix_x) || !r.f32(c.mix_y))
            return false;
        c.position = c.position_mode == PositionMode::fixed ? static_cast<float>(position * p.scale) : position;
        bool scaled = c.spacing_mode == SpacingMode::length || c.spacing_mode == SpacingMode::fixed;
        c.spacing = scaled ? static_cast<float>(spacing * p.scale) : spacing;
        d.path_constraints.push_back(c);
        return true;
    });
}

bool read_physics_constraints(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "physics constraint", 27, d.physics_names, [&](std::uint32_t) {
        PhysicsConstraintData c;
        if (!read_order(p, c.order) || !r.index(c.bone, d.bones.size(), "bone", "bones")) return false;
        std::uint8_t flags = 0;
        if (!r.byte(flags)) return false;
        c.skin_required = (flags & 1) != 0;
        if (!optional_float(p, flags, 2, c.x) || !optional_float(p, flags, 4, c.y) ||
            !optional_float(p, flags, 8, c.rotate) || !optional_float(p, flags, 16, c.scale_x) ||
            !optional_float(p, flags, 32, c.shear_x))
            return false;
        float limit = 5000;
        if (!optional_float(p, flags, 64, limit)) return false;
        c.limit = static_cast<float>(limit * p.scale);
        std::size_t at = r.offset();
        std::uint8_t fps = 0;
        if (!r.byte(fps)) return false;
        if (fps == 0) return r.fail_here(at, "physics step rate 0 (expected 1..255 steps per second)");
        c.step = static_cast<float>(1.0 / fps);
        if (!r.f32(c.inertia) || !r.f32(c.strength) || !r.f32(c.damping)) return false;
        c.mass_inverse = 1;
        if (!optional_float(p, flags, 128, c.mass_inverse)) return false;
        if (!r.f32(c.wind) || !r.f32(c.gravity) || !r.byte(flags)) return false;
        c.inertia_global = (flags & 1) != 0;
        c.strength_global = (flags & 2) != 0;
        c.damping_global = (flags & 4) != 0;
        c.mass_global = (flags & 8) != 0;
        c.wind_global = (flags & 16) != 0;
        c.gravity_global = (flags & 32) != 0;
        c.mix_global = (flags & 64) != 0;
        c.mix = 1;
        if (!optional_float(p, flags, 128, c.mix)) return false;
        d.physics_constraints.push_back(c);
        return true;
    });
}

bool read_skins(BinaryParse& p) {
    bool added = false;
    if (!read_binary_skin(p, true, added)) return false;
    if (added) p.data.default_skin = 0;
    std::uint32_t n = 0;
    p.r.set_section("the skins");
    if (!p.r.count(n, 6, "skin")) return false;
    for (std::uint32_t i = 0; i < n; ++i)
        if (!read_binary_skin(p, false, added)) return false;
    return resolve_binary_linked_meshes(p);
}

bool read_events(BinaryParse& p) {
    BinaryReader& r = p.r;
    SkeletonData& d = p.data;
    return read_named_list(p, "event", 8, d.event_names, [&](std::uint32_t) {
        EventData e;
        bool present = false;
        if (!r.signed_varint(e.int_value) || !r.f32(e.float_value) || !r.string(e.string_value, present) ||
            !r.string(e.audio_path, present))
            return false;
        // Without audio the official runtime leaves volume and balance at 0 (they are not stored).
        e.volume = 0;
        e.balance = 0;
        if (!e.audio_path.empty() && (!r.f32(e.volume) || !r.f32(e.balance))) return false;
        d.events.push_back(std::move(e));
        return true;
    });
}

bool read_animations(BinaryParse& p) {
    BinaryReader& r = p.r;
    return read_named_list(p, "animation", 12, p.data.animation_names, [&](std::uint32_t i) {
        const std::string& name = p.data.animation_names[static_cast<Index>(i)];
        r.set_section(quoted("animation", name));
        return read_binary_animation(p, name);
    });
}

}  // namespace
}  // namespace detail

Result<SkeletonData> load_skeleton_binary(std::span<const std::uint8_t> bytes, const std::string& file,
                                          const SkeletonLoadOptions& options) {
    if (!std::isfinite(options.scale)) return make_error(file, "the load options", "scale must be finite");
    SkeletonData data;
    detail::BinaryParse p(bytes, data);
    p.scale = options.scale == 0 ? 1.0 : static_cast<double>(options.scale);
    bool ok = detail::read_header(p) && detail::read_bones(p) && detail::read_slots(p) &&
              detail::read_ik_constraints(p) && detail::read_transform_constraints(p) &&
              detail::read_path_constraints(p) && detail::read_physics_constraints(p) && detail::read_skins(p) &&
              detail::read_events(p) && detail::read_animations(p);
    if (!ok) return make_error(file, "byte " + std::to_string(p.r.error_offset()), p.r.error_what());
    finish_skeleton_data(data);
    return data;
}

}  // namespace spinegpu
