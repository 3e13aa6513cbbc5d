// A synthetic Spine 4.2 binary skeleton for the binary loader's tests: every attachment type and every timeline
// type the format has (the example exports use only some of them), with knobs that corrupt one field at a time and
// the byte offset of each such field, so that tests can check the offset an error names.
//
// The default file was checked against the official runtime (spine-core 4.2.119's SkeletonBinary): it loads there
// and gives the values the tests expect.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace spinegpu::test {

// Writes the binary format's primitives: big-endian int32 and float, varints, length-prefixed strings.
struct SkelWriter {
    std::vector<std::uint8_t> bytes;
    std::map<std::string, std::size_t> marks;  // named byte offsets

    void mark(const std::string& name) { marks[name] = bytes.size(); }
    void u8(std::uint8_t v) { bytes.push_back(v); }
    void u32(std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<std::uint8_t>(v >> shift));
    }
    void f32(float v) {
        std::uint32_t u = 0;
        std::memcpy(&u, &v, 4);
        u32(u);
    }
    void varint(std::uint32_t v) {
        do {
            std::uint8_t b = v & 0x7f;
            v >>= 7;
            if (v != 0) b |= 0x80;
            bytes.push_back(b);
        } while (v != 0);
    }
    void signed_varint(std::int32_t v) {
        auto u = static_cast<std::uint32_t>(v);
        varint((u << 1) ^ (v < 0 ? 0xffffffffu : 0u));
    }
    void str(std::string_view s) {
        varint(static_cast<std::uint32_t>(s.size()) + 1);
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    void null_str() { varint(0); }
    void floats(std::initializer_list<float> values) {
        for (float v : values) f32(v);
    }
};

// The string table of the fixture; references are 1-based.
enum FixtureString : std::uint32_t {
    s_mesh = 1, s_region, s_box, s_point, s_clip, s_path, s_linked, s_region_name, s_mesh_path, s_string_count = 9
};

struct SkelFixture {
    // Knobs; the defaults give a valid file.
    std::string version = "4.2.22";
    bool nonessential = true;
    std::uint32_t bone_count = 3;
    std::uint32_t bone2_parent = 1;
    std::uint8_t bone2_inherit = 2;
    std::uint32_t slot0_bone = 2;
    std::uint32_t slot0_attachment = s_mesh;
    std::uint32_t slot1_blend = 1;
    std::uint8_t mesh_type = 2;
    bool mesh_weighted = false;
    std::uint32_t weighted_bone = 1;
    std::uint32_t mesh_vertices = 4;
    std::uint32_t last_triangle = 0;
    std::uint32_t clip_end_slot = 2;
    std::uint8_t physics_fps = 60;
    std::uint32_t linked_skin = 0;
    std::uint32_t linked_parent = s_mesh;
    std::uint8_t rotate_curve = 2;
    std::uint32_t rotate_beziers = 1;
    std::uint32_t deform_attachment = s_mesh;
    std::uint32_t deform_frames = 2;
    std::uint32_t draw_order_slot = 2;
    std::int32_t draw_order_shift = -2;
    std::uint32_t event_key_event = 0;
    std::uint32_t sequence_count = 3;
    std::uint32_t sequence_key = 6;  // mode | index << 4 of the second sequence key

    SkelWriter w;

    std::vector<std::uint8_t> build() {
        w = SkelWriter{};
        header();
        bones();
        slots();
        constraints();
        skins();
        events();
        animations();
        return w.bytes;
    }

private:
    void color(std::uint32_t rgba) { w.u32(rgba); }

    void header() {
        w.u32(0x12345678);  // low hash
        w.u32(0xfffffffe);  // high hash (-2)
        w.mark("version");
        w.str(version);
        w.floats({1.5f, -2, 100, 200, 100});
        w.u8(nonessential ? 1 : 0);
        if (nonessential) {
            w.f32(24);
            w.str("./img/");
            w.str("./snd/");
        }
        w.mark("string count");
        w.varint(s_string_count);
        for (const char* s : {"mesh", "region", "box", "point", "clip", "path", "linked", "regionname", "meshpath"})
            w.str(s);
    }

    void bone(std::string_view name, std::uint32_t parent, bool has_parent, std::initializer_list<float> values,
              std::uint8_t inherit, bool skin_required, std::string_view icon) {
        w.str(name);
        if (has_parent) w.varint(parent);
        w.floats(values);  // rotation, x, y, scale x, scale y, shear x, shear y, length
        w.u8(inherit);
        w.u8(skin_required ? 1 : 0);
        if (nonessential) {
            color(0xff0000ff);
            if (icon.empty()) w.null_str();
            else w.str(icon);
            w.u8(icon.empty() ? 1 : 0);
        }
    }

    void bones() {
        w.mark("bone count");
        w.varint(bone_count);
        bone("root", 0, false, {0, 0, 0, 1, 1, 0, 0, 0}, 0, false, "");
        bone("b1", 0, true, {10, 5, 6, 1.5f, 0.5f, 1, 2, 40}, 0, false, "star");
        w.str("b2");
        w.mark("bone2 parent");
        w.varint(bone2_parent);
        w.floats({0, 1, 2, 1, 1, 0, 0, 10});
        w.mark("bone2 inherit");
        w.u8(bone2_inherit);
        w.u8(1);
        if (nonessential) {
            color(0x00ff00ff);
            w.null_str();
            w.u8(1);
        }
    }

    void slots() {
        w.varint(3);
        w.str("s0");
        w.mark("slot0 bone");
        w.varint(slot0_bone);
        color(0xffffff80);
        w.u32(0x00102030);
        w.mark("slot0 attachment");
        w.varint(slot0_attachment);
        w.varint(0);
        if (nonessential) w.u8(1);
        w.str("s1");
        w.varint(0);
        color(0xffffffff);
        w.u32(0xffffffff);
        w.varint(0);
        w.mark("slot1 blend");
        w.varint(slot1_blend);
        if (nonessential) w.u8(0);
        w.str("s2");
        w.varint(1);
        color(0x80808080);
        w.u32(0xffffffff);
        w.varint(0);
        w.varint(3);
        if (nonessential) w.u8(1);
    }

    void constraints() {
        w.varint(1);  // IK
        w.str("ik");
        w.varint(0);
        w.varint(2);
        w.varint(1);
        w.varint(2);
        w.varint(0);
        w.u8(1 | 2 | 4 | 32 | 64 | 128);
        w.floats({0.75f, 3});
        w.varint(1);  // transform
        w.str("tc");
        w.varint(1);
        w.varint(1);
        w.varint(2);
        w.varint(1);
        w.u8(0xff);
        w.floats({15, 1, 2, 0.1f, 0.2f});
        w.u8(0x7f);
        w.floats({5, 0.5f, 0.25f, 0.125f, 1, 0.75f, 0.5f});
        w.varint(1);  // path
        w.str("pc");
        w.varint(2);
        w.u8(0);
        w.varint(1);
        w.varint(1);
        w.varint(2);
        w.u8(0x80 | (2 << 1) | (1 << 3));
        w.floats({45, 10, 0.5f, 1, 0.5f, 0.25f});
        w.varint(1);  // physics
        w.str("ph");
        w.varint(3);
        w.varint(1);
        w.u8(0xff);
        w.floats({0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 1000});
        w.mark("physics fps");
        w.u8(physics_fps);
        w.floats({0.5f, 100, 0.9f, 2, 1, -1});
        w.u8(0xff);
        w.f32(0.8f);
    }

    void mesh() {
        w.varint(s_mesh);
        w.mark("mesh flags");
        w.u8(static_cast<std::uint8_t>(mesh_type | 16 | 32 | (mesh_weighted ? 128 : 0)));
        w.varint(s_mesh_path);
        color(0xff8040ff);
        w.varint(4);  // hull
        w.varint(mesh_vertices);
        for (std::uint32_t i = 0; i < mesh_vertices; ++i) {
            if (mesh_weighted) {
                w.varint(1);
                if (i == mesh_vertices - 1) w.mark("weighted bone");
                w.varint(i == mesh_vertices - 1 ? weighted_bone : 1);
                w.floats({static_cast<float>(i), -static_cast<float>(i), 1});
            } else {
                w.floats({static_cast<float>(i), -static_cast<float>(i)});
            }
        }
        for (std::uint32_t i = 0; i < mesh_vertices; ++i) w.floats({0.25f * static_cast<float>(i % 5), 0.5f});
        std::uint32_t triangles = (mesh_vertices * 2 - 4 - 2) * 3;
        for (std::uint32_t i = 0; i < triangles; ++i) {
            if (i + 1 == triangles) w.mark("last triangle");
            w.varint(i + 1 == triangles ? last_triangle : i % mesh_vertices);
        }
        if (nonessential) {
            w.varint(2);
            w.varint(0);
            w.varint(2);
            w.floats({64, 32});
        }
    }

    void skins() {
        w.varint(3);  // default skin: slot count
        w.varint(0);
        w.varint(2);
        mesh();
        w.varint(s_region);
        w.u8(0 | 8 | 64 | 128);
        w.varint(s_region_name);
        w.mark("sequence");
        w.varint(sequence_count);  // sequence: count, start, digits, setup index
        w.varint(1);
        w.varint(2);
        w.varint(0);
        w.floats({30, 1, 2, 1, 1, 20, 10});
        w.varint(1);
        w.varint(3);
        w.varint(s_box);
        w.u8(1 | 16);
        w.varint(3);
        for (int i = 0; i < 3; ++i) {
            w.varint(2);
            w.varint(0);
            w.floats({static_cast<float>(i), 1, 0.5f});
            w.varint(1);
            w.floats({1, static_cast<float>(i), 0.5f});
        }
        if (nonessential) color(0x11223344);
        w.varint(s_point);
        w.u8(5);
        w.floats({45, 3, 4});
        if (nonessential) color(0x55667788);
        w.varint(s_clip);
        w.u8(6);
        w.mark("clip end slot");
        w.varint(clip_end_slot);
        w.varint(3);
        w.floats({0, 0, 10, 0, 10, 10});
        if (nonessential) color(0x99aabbcc);
        w.varint(2);
        w.varint(1);
        w.varint(s_path);
        w.u8(4 | 16 | 32);
        w.varint(6);
        w.floats({0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
        w.floats({7, 8});
        if (nonessential) color(0xddeeff00);

        w.varint(1);  // named skins
        w.str("skin2");
        if (nonessential) color(0x12345678);
        for (std::uint32_t list : {2u, 0u, 0u, 0u, 0u}) {  // bones, IK, transform, path, physics: one each
            w.varint(1);
            w.varint(list);
        }
        w.varint(1);
        w.varint(0);
        w.varint(1);
        w.varint(s_linked);
        w.u8(3 | 32 | 128);
        color(0x0000ffff);
        w.mark("linked skin");
        w.varint(linked_skin);
        w.mark("linked parent");
        w.varint(linked_parent);
        if (nonessential) w.floats({64, 32});
    }

    void events() {
        w.varint(2);
        w.str("e");
        w.signed_varint(-5);
        w.f32(2.5f);
        w.str("hello");
        w.str("step.ogg");
        w.floats({0.8f, -0.5f});
        w.str("f");
        w.signed_varint(0);
        w.f32(0);
        w.null_str();
        w.null_str();
    }

    void curve(std::uint8_t type, std::initializer_list<float> bezier_values) {
        w.u8(type);
        if (type == 2) w.floats(bezier_values);
    }

    void animations() {
        w.varint(2);
        w.str("all");
        w.varint(0);  // timeline count (ignored)
        // Slot timelines: slot 0, one of each type.
        w.varint(1);
        w.varint(0);
        w.varint(6);
        w.u8(0);  // attachment
        w.varint(2);
        w.f32(0);
        w.varint(s_region);
        w.f32(0.5f);
        w.varint(0);
        w.u8(1);  // rgba, 4 beziers
        w.varint(2);
        w.varint(4);
        w.f32(0);
        for (int c : {255, 0, 0, 255}) w.u8(static_cast<std::uint8_t>(c));
        w.f32(1);
        for (int c : {0, 255, 0, 128}) w.u8(static_cast<std::uint8_t>(c));
        curve(2,
              {0.25f, 0.1f, 0.75f, 0.9f, 0.25f, 0.1f, 0.75f, 0.9f, 0.25f, 0.1f, 0.75f, 0.9f, 0.3f, 0.2f, 0.6f, 0.7f});
        w.u8(2);  // rgb, stepped
        w.varint(2);
        w.varint(0);
        w.f32(0);
        for (int c : {1, 2, 3}) w.u8(static_cast<std::uint8_t>(c));
        w.f32(1);
        for (int c : {4, 5, 6}) w.u8(static_cast<std::uint8_t>(c));
        curve(1, {});
        w.u8(3);  // rgba2, one frame
        w.varint(1);
        w.varint(0);
        w.f32(0.25f);
        for (int c : {10, 20, 30, 40, 50, 60, 70}) w.u8(static_cast<std::uint8_t>(c));
        w.u8(4);  // rgb2, 6 beziers
        w.varint(2);
        w.varint(6);
        w.f32(0);
        for (int c : {0, 0, 0, 255, 255, 255}) w.u8(static_cast<std::uint8_t>(c));
        w.f32(0.5f);
        for (int c : {255, 255, 255, 0, 0, 0}) w.u8(static_cast<std::uint8_t>(c));
        w.u8(2);
        for (int i = 0; i < 6; ++i) w.floats({0.1f, 0.2f, 0.4f, 0.8f});
        w.u8(5);  // alpha, linear
        w.varint(2);
        w.varint(0);
        w.f32(0);
        w.u8(0);
        w.f32(1);
        w.u8(255);
        curve(0, {});
        // Bone timelines: bone 1, types 0..10.
        w.varint(1);
        w.varint(1);
        w.varint(11);
        w.u8(0);  // rotate
        w.varint(2);
        w.mark("rotate beziers");
        w.varint(rotate_beziers);
        w.floats({0, 0, 1, 90});
        w.mark("rotate curve");
        curve(rotate_curve, {0.25f, 30, 0.75f, 60});
        for (std::uint8_t type = 1; type <= 9; ++type) {
            bool two = type == 1 || type == 4 || type == 7;
            w.u8(type);
            w.varint(1);
            w.varint(0);
            w.f32(0.5f);
            w.f32(static_cast<float>(type));
            if (two) w.f32(static_cast<float>(type) + 0.5f);
        }
        w.u8(10);  // inherit
        w.varint(2);
        w.f32(0);
        w.u8(1);
        w.f32(1);
        w.u8(4);
        // IK: two frames, a bezier per value on the first.
        w.varint(1);
        w.varint(0);
        w.varint(2);
        w.varint(2);
        w.u8(1 | 2 | 4 | 8 | 16 | 32);
        w.floats({0, 0.5f, 2});
        w.u8(1 | 4 | 128);
        w.floats({1, 4});
        w.floats({0.25f, 0.6f, 0.75f, 0.9f, 0.25f, 2.5f, 0.75f, 3.5f});
        // Transform: two frames, stepped.
        w.varint(1);
        w.varint(0);
        w.varint(2);
        w.varint(0);
        w.floats({0, 1, 0.9f, 0.8f, 0.7f, 0.6f, 0.5f});
        w.floats({1, 0, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
        curve(1, {});
        // Path: position, spacing, mix.
        w.varint(1);
        w.varint(0);
        w.varint(3);
        w.u8(0);
        w.varint(1);
        w.varint(0);
        w.floats({0, 7});
        w.u8(1);
        w.varint(1);
        w.varint(0);
        w.floats({0, 0.5f});
        w.u8(2);
        w.varint(2);
        w.varint(3);
        w.floats({0, 1, 1, 1, 1, 0, 0.5f, 0.25f});
        curve(2, {0.2f, 0.9f, 0.8f, 0.1f, 0.2f, 0.9f, 0.8f, 0.1f, 0.2f, 0.9f, 0.8f, 0.1f});
        // Physics: reset and wind for every constraint (index 0), the others for constraint 0 (index 1).
        w.varint(2);
        w.varint(0);
        w.varint(2);
        w.u8(8);
        w.varint(2);
        w.floats({0.1f, 0.2f});
        w.u8(5);
        w.varint(1);
        w.varint(0);
        w.floats({0, 3});
        w.varint(1);
        w.varint(6);
        for (std::uint8_t type : {0, 1, 2, 4, 6, 7}) {
            w.u8(type);
            w.varint(1);
            w.varint(0);
            w.floats({0, static_cast<float>(type) * 10});
        }
        // Deform (mesh) and sequence (region) on slot 0 of the default skin.
        w.varint(1);
        w.varint(0);
        w.varint(1);
        w.varint(0);
        w.varint(2);
        w.mark("deform attachment");
        w.varint(deform_attachment);
        w.u8(0);
        w.mark("deform frames");
        w.varint(deform_frames);
        w.varint(1);
        w.f32(0);
        w.varint(2);  // 2 values at offset 2
        w.varint(2);
        w.floats({1.5f, -1.5f});
        for (std::uint32_t frame = 1; frame < deform_frames; ++frame) {
            w.f32(static_cast<float>(frame));
            if (frame == 1) curve(2, {0.25f, 0.1f, 0.75f, 0.9f});
            else curve(0, {});
            w.varint(0);
        }
        w.varint(s_region);
        w.u8(1);
        w.varint(2);
        w.f32(0);
        w.u32(2 | (1 << 4));
        w.f32(0.1f);
        w.f32(0.5f);
        w.mark("sequence key");
        w.u32(sequence_key);
        w.f32(0.2f);
        // Draw order: one key moving a slot.
        w.varint(1);
        w.f32(0.5f);
        w.varint(1);
        w.mark("draw order slot");
        w.varint(draw_order_slot);
        w.varint(static_cast<std::uint32_t>(draw_order_shift));
        // Events: "e" (with audio, so volume and balance follow) and "f".
        w.varint(2);
        w.f32(0.25f);
        w.mark("event key event");
        w.varint(event_key_event);
        w.signed_varint(7);
        w.f32(0.5f);
        w.str("override");
        if (event_key_event == 0) w.floats({0.3f, 0.2f});
        w.f32(0.75f);
        w.varint(1);
        w.signed_varint(0);
        w.f32(0);
        w.null_str();

        w.str("second");
        w.varint(1);
        w.varint(0);  // slots
        w.varint(1);  // bones
        w.varint(0);
        w.varint(1);
        w.u8(0);
        w.varint(1);
        w.varint(0);
        w.floats({2, 45});
        for (int i = 0; i < 7; ++i) w.varint(0);  // IK, transform, path, physics, deform, draw order, events
    }
};

}  // namespace spinegpu::test
