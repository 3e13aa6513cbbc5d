#include "skeleton_report.hpp"

#include <cstdio>

#include "json_writer.hpp"
#include "spinegpu/data/skeleton_features.hpp"

namespace spinegpu::tools {
namespace {

std::string format(const char* fmt, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, fmt, value);
    return buffer;
}

std::string timeline_list(std::uint64_t types) {
    std::string out;
    for (int t = 0; t < k_timeline_type_count; ++t) {
        if (!((types >> t) & 1)) continue;
        if (!out.empty()) out += ", ";
        out += timeline_type_name(static_cast<TimelineType>(t));
    }
    return out.empty() ? "(none)" : out;
}

std::string blend_list(std::uint8_t modes) {
    std::string out;
    for (int m = 0; m < 4; ++m) {
        if (!((modes >> m) & 1)) continue;
        if (!out.empty()) out += ", ";
        out += blend_mode_name(static_cast<BlendMode>(m));
    }
    return out;
}

const char* yes_no(bool b) { return b ? "yes" : "no"; }

std::size_t region_count(const Atlas& atlas) { return atlas.regions.size(); }

}  // namespace

std::string describe_text(const std::string& file, const SkeletonData& d, const Atlas* atlas) {
    std::string out;
    auto line = [&](const std::string& s) { out += s + "\n"; };
    line("skeleton     " + file);
    line("version      " + d.version + "   hash " + (d.hash.empty() ? "(none)" : d.hash));
    line("bounds       x " + format("%.2f", d.x) + "  y " + format("%.2f", d.y) + "  width " + format("%.2f", d.width) +
         "  height " + format("%.2f", d.height) + "   reference scale " + format("%g", d.reference_scale) +
         "   fps " + format("%g", d.fps));
    line("bones        " + std::to_string(d.bones.size()));
    line("slots        " + std::to_string(d.slots.size()));
    line("attachments  " + std::to_string(d.attachments.size()));
    line("skins        " + std::to_string(d.skins.size()));
    for (std::size_t i = 0; i < d.skins.size(); ++i) {
        const SkinData& s = d.skins[i];
        std::string extra;
        if (!s.bones.empty()) extra += ", " + std::to_string(s.bones.size()) + " skin bones";
        if (!s.constraints.empty()) extra += ", " + std::to_string(s.constraints.size()) + " skin constraints";
        line("  " + d.skin_names[static_cast<Index>(i)] + ": " + std::to_string(s.entries.size()) + " attachments" +
             extra);
    }
    line("constraints  ik " + std::to_string(d.ik_constraints.size()) + ", transform " +
         std::to_string(d.transform_constraints.size()) + ", path " + std::to_string(d.path_constraints.size()) +
         ", physics " + std::to_string(d.physics_constraints.size()));
    line("animations   " + std::to_string(d.animations.size()));
    for (std::size_t i = 0; i < d.animations.size(); ++i) {
        Index a = static_cast<Index>(i);
        line("  " + d.animation_names[a] + "  " + format("%.4g", d.animations[i].duration) + " s, " +
             std::to_string(d.animations[i].timelines.count) + " timelines: " +
             timeline_list(animation_timeline_types(d, a)));
    }
    std::string events;
    for (std::size_t i = 0; i < d.events.size(); ++i) events += (i ? ", " : "") + d.event_names[static_cast<Index>(i)];
    line("events       " + std::to_string(d.events.size()) + (events.empty() ? "" : ": " + events));
    if (atlas) {
        line("atlas        " + atlas->file + ": " + std::to_string(atlas->pages.size()) + " pages, " +
             std::to_string(region_count(*atlas)) + " regions");
        for (const AtlasPage& p : atlas->pages)
            line("  " + p.name + "  " + std::to_string(p.width) + "x" + std::to_string(p.height) + "  " +
                 (p.pma ? "premultiplied" : "straight alpha"));
    }
    SkeletonFeatures f = analyze_features(d);
    line("gpu per-frame data needed:");
    line(std::string("  slot colours ") + yes_no(f.color_animation) + ", two-color tint " + yes_no(f.two_color_tint) +
         ", deform " + yes_no(f.deform) + ", draw order " + yes_no(f.draw_order) + ", attachment swaps " +
         yes_no(f.attachment_swaps) + ", sequences " + yes_no(f.sequences) + ", clipping " + yes_no(f.clipping) +
         ", physics " + yes_no(f.physics));
    line("  blend modes " + blend_list(f.blend_modes));
    return out;
}

std::string describe_json(const std::string& file, const SkeletonData& d, const Atlas* atlas) {
    JsonWriter w;
    w.begin_object();
    w.key("file").value(file);
    w.key("version").value(d.version);
    w.key("hash").value(d.hash);
    w.key("x").value(d.x).key("y").value(d.y).key("width").value(d.width).key("height").value(d.height);
    w.key("referenceScale").value(d.reference_scale).key("fps").value(d.fps);

    w.key("bones").begin_array();
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        const BoneData& b = d.bones[i];
        w.begin_object().key("name").value(d.bone_names[static_cast<Index>(i)]);
        w.key("parent");
        if (b.parent == k_none) w.null(); else w.value(d.bone_names[b.parent]);
        w.key("length").value(b.length).key("inherit").value(inherit_name(b.inherit));
        w.key("skinRequired").value(b.skin_required).end_object();
    }
    w.end_array();

    w.key("slots").begin_array();
    for (std::size_t i = 0; i < d.slots.size(); ++i) {
        const SlotData& s = d.slots[i];
        w.begin_object().key("name").value(d.slot_names[static_cast<Index>(i)]);
        w.key("bone").value(d.bone_names[s.bone]);
        w.key("attachment");
        if (s.attachment_name == k_none) w.null(); else w.value(d.attachment_names[s.attachment_name]);
        w.key("blend").value(blend_mode_name(s.blend)).key("dark").value(s.has_dark).end_object();
    }
    w.end_array();

    w.key("skins").begin_array();
    for (std::size_t i = 0; i < d.skins.size(); ++i) {
        const SkinData& s = d.skins[i];
        w.begin_object().key("name").value(d.skin_names[static_cast<Index>(i)]);
        w.key("attachments").value(s.entries.size()).key("bones").value(s.bones.size());
        w.key("constraints").value(s.constraints.size()).end_object();
    }
    w.end_array();

    auto constraints = [&](const char* kind, const NameTable& names, auto& list) {
        w.key(kind).begin_array();
        for (std::size_t i = 0; i < list.size(); ++i) {
            w.begin_object().key("name").value(names[static_cast<Index>(i)]);
            w.key("order").value(list[i].order).end_object();
        }
        w.end_array();
    };
    w.key("constraints").begin_object();
    constraints("ik", d.ik_names, d.ik_constraints);
    constraints("transform", d.transform_names, d.transform_constraints);
    constraints("path", d.path_names, d.path_constraints);
    constraints("physics", d.physics_names, d.physics_constraints);
    w.end_object();

    w.key("animations").begin_array();
    for (std::size_t i = 0; i < d.animations.size(); ++i) {
        Index a = static_cast<Index>(i);
        w.begin_object().key("name").value(d.animation_names[a]).key("duration").value(d.animations[i].duration);
        w.key("timelines").value(d.animations[i].timelines.count).key("timelineTypes").begin_array();
        std::uint64_t types = animation_timeline_types(d, a);
        for (int t = 0; t < k_timeline_type_count; ++t)
            if ((types >> t) & 1) w.value(timeline_type_name(static_cast<TimelineType>(t)));
        w.end_array().end_object();
    }
    w.end_array();

    w.key("events").begin_array();
    for (std::size_t i = 0; i < d.events.size(); ++i) {
        const EventData& e = d.events[i];
        w.begin_object().key("name").value(d.event_names[static_cast<Index>(i)]);
        w.key("int").value(e.int_value).key("float").value(e.float_value).key("string").value(e.string_value);
        w.key("audio").value(e.audio_path).end_object();
    }
    w.end_array();

    if (atlas) {
        w.key("atlas").value(atlas->file);
        w.key("pages").begin_array();
        for (const AtlasPage& p : atlas->pages)
            w.begin_object().key("name").value(p.name).key("width").value(p.width).key("height").value(p.height)
                .key("pma").value(p.pma).end_object();
        w.end_array();
        w.key("regions").value(region_count(*atlas));
    }

    SkeletonFeatures f = analyze_features(d);
    w.key("gpu").begin_object();
    w.key("slotColors").value(f.color_animation).key("twoColorTint").value(f.two_color_tint);
    w.key("deform").value(f.deform).key("drawOrder").value(f.draw_order);
    w.key("attachmentSwaps").value(f.attachment_swaps).key("sequences").value(f.sequences);
    w.key("clipping").value(f.clipping).key("physics").value(f.physics);
    w.key("blendModes").begin_array();
    for (int m = 0; m < 4; ++m)
        if ((f.blend_modes >> m) & 1) w.value(blend_mode_name(static_cast<BlendMode>(m)));
    w.end_array().end_object();
    w.end_object();
    return w.take();
}

}  // namespace spinegpu::tools
