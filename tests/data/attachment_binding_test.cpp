// Binding attachments to atlas regions. Expected numbers come from the geometry of the packed regions (where each
// pixel of the original image lands in the page), worked out by hand, not from the formulas the binder uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "test_support.hpp"

namespace spinegpu {
namespace {

// Every region has an original image of 50 x 60 pixels, trimmed to 30 x 40 with 3 pixels stripped on the left and
// 5 at the bottom: in the original image (y down) the kept pixels are x in [3, 33] and y in [15, 55].
constexpr const char* k_atlas_text =
    "page.png\n"
    "size: 256, 128\n"
    "filter: Linear, Linear\n"
    "turned\n"
    "  bounds: 10, 20, 30, 40\n"
    "  offsets: 3, 5, 50, 60\n"
    "  rotate: 90\n"
    "upright\n"
    "  bounds: 100, 10, 30, 40\n"
    "  offsets: 3, 5, 50, 60\n"
    "flipped\n"
    "  bounds: 140, 10, 30, 40\n"
    "  offsets: 3, 5, 50, 60\n"
    "  rotate: 180\n"
    "left\n"
    "  bounds: 180, 10, 30, 40\n"
    "  offsets: 3, 5, 50, 60\n"
    "  rotate: 270\n"
    "wing01\n"
    "  bounds: 0, 100, 10, 10\n"
    "wing02\n"
    "  bounds: 20, 100, 12, 8\n"
    "  offsets: 1, 1, 14, 10\n"
    "wing03\n"
    "  bounds: 40, 100, 10, 10\n"
    "  rotate: 90\n"
    "s99\n"
    "  bounds: 60, 100, 4, 4\n"
    "s100\n"
    "  bounds: 70, 100, 4, 4\n";

Atlas test_atlas(const std::string& file = "test.atlas") {
    Result<Atlas> atlas = parse_atlas(k_atlas_text, file);
    EXPECT_TRUE(atlas.ok()) << (atlas.ok() ? "" : atlas.error().message());
    return atlas.ok() ? std::move(atlas).value() : Atlas{};
}

// A one-slot, one-skin skeleton to which tests add attachments.
struct SkeletonBuilder {
    SkeletonData data;

    SkeletonBuilder() {
        data.bones.emplace_back();
        data.bone_names.add("root");
        data.slots.emplace_back();
        data.slot_names.add("slot");
        data.skins.emplace_back();
        data.skin_names.add("default");
        data.default_skin = 0;
    }

    Index add(AttachmentData a, std::string_view name, std::string_view path = {}) {
        a.name = data.attachment_names.intern(name);
        a.path = data.attachment_paths.intern(path.empty() ? name : path);
        auto index = static_cast<Index>(data.attachments.size());
        data.attachments.push_back(a);
        data.skins[0].entries.push_back(SkinEntry{0, a.name, index});
        return index;
    }

    Index region(std::string_view name, std::string_view path, float x, float y, float width, float height,
                 float rotation = 0, float scale_x = 1, float scale_y = 1) {
        AttachmentData a;
        a.type = AttachmentType::region;
        a.x = x, a.y = y, a.width = width, a.height = height, a.rotation = rotation;
        a.scale_x = scale_x, a.scale_y = scale_y;
        return add(a, name, path);
    }

    Range uvs(const std::vector<float>& values) {
        Range r{static_cast<std::uint32_t>(data.floats.size()), static_cast<std::uint32_t>(values.size())};
        data.floats.insert(data.floats.end(), values.begin(), values.end());
        return r;
    }

    Index mesh(std::string_view name, std::string_view path, Range region_uvs) {
        AttachmentData a;
        a.type = AttachmentType::mesh;
        a.region_uvs = region_uvs;
        a.world_vertices_length = region_uvs.count;
        return add(a, name, path);
    }

    Index sequence(std::int32_t count, std::int32_t start, std::int32_t digits) {
        SequenceData s;
        s.id = static_cast<std::int32_t>(data.sequences.size());
        s.count = count, s.start = start, s.digits = digits;
        data.sequences.push_back(s);
        return static_cast<Index>(data.sequences.size() - 1);
    }

    const SkeletonData& finish() {
        finish_skeleton_data(data);
        return data;
    }
};

AtlasBinding bind_ok(const SkeletonData& skeleton, const Atlas& atlas) {
    Result<AtlasBinding> binding = bind_atlas(skeleton, atlas);
    EXPECT_TRUE(binding.ok()) << (binding.ok() ? "" : binding.error().message());
    return binding.ok() ? std::move(binding).value() : AtlasBinding{};
}

const BoundRegion& only_frame(const AtlasBinding& binding, Index attachment) {
    const Range& frames = binding.frames[static_cast<std::size_t>(attachment)];
    EXPECT_EQ(frames.count, 1u);
    return binding.regions[frames.offset];
}

// The region-space UVs used by the mesh tests, and the original-image pixel each one stands for.
const std::vector<float> k_region_uvs = {0, 0, 1, 0, 1, 1, 0, 1, 0.5f, 0.25f};

void expect_mesh_uvs(const AtlasBinding& binding, const BoundRegion& bound,
                     std::vector<std::pair<double, double>> page_pixels) {
    ASSERT_EQ(bound.mesh_uvs.count, page_pixels.size() * 2);
    for (std::size_t i = 0; i < page_pixels.size(); ++i) {
        SCOPED_TRACE("vertex " + std::to_string(i));
        EXPECT_NEAR(binding.mesh_uvs[bound.mesh_uvs.offset + 2 * i], page_pixels[i].first / 256, 1e-7);
        EXPECT_NEAR(binding.mesh_uvs[bound.mesh_uvs.offset + 2 * i + 1], page_pixels[i].second / 128, 1e-7);
    }
}

// Original-image pixel of a region-space UV: x = u * 50, y = v * 60 (y down).
std::vector<std::pair<double, double>> page_pixels(double (*place)(double, double, bool)) {
    std::vector<std::pair<double, double>> out;
    for (std::size_t i = 0; i < k_region_uvs.size(); i += 2) {
        double px = k_region_uvs[i] * 50, py = k_region_uvs[i + 1] * 60;
        out.emplace_back(place(px, py, true), place(px, py, false));
    }
    return out;
}

TEST(AttachmentBinding, region_attachment_on_a_rotated_region) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index head = b.region("head", "turned", 1, 2, 100, 120);
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    const BoundRegion& bound = only_frame(binding, head);
    EXPECT_EQ(bound.region, atlas.find_region("turned"));
    EXPECT_EQ(bound.page, 0);
    // The attachment is 100 x 120 for a 50 x 60 image: 2 units per pixel. Centred on (1, 2), its image spans x in
    // [-49, 51], y in [-58, 62]; the kept pixels start 3 px (6 units) from the left and 5 px (10 units) from the
    // bottom and are 30 x 40 px (60 x 80 units).
    const float expected_offset[8] = {-43, -48, -43, 32, 17, 32, 17, -48};  // bl, tl, tr, br
    for (int i = 0; i < 8; ++i) EXPECT_EQ(bound.offset[i], expected_offset[i]) << i;
    // Packed rotated, the image's bottom-left corner sits at the page rectangle's right-bottom (u2, v2), its
    // top-left at (u, v2), its top-right at (u, v) and its bottom-right at (u2, v). The rectangle is 40 x 30 px.
    const float u = 10.0f / 256, v = 20.0f / 128, u2 = 50.0f / 256, v2 = 50.0f / 128;
    const float expected_uvs[8] = {u2, v2, u, v2, u, v, u2, v};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(bound.uvs[i], expected_uvs[i]) << i;
}

TEST(AttachmentBinding, region_attachment_rotated_and_scaled) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index arm = b.region("arm", "upright", 0, 0, 100, 120, 90, 2, 1);
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    const BoundRegion& bound = only_frame(binding, arm);
    // Scale x 2: the image spans x in [-100, 100] (4 units per pixel across), y in [-60, 60] (2 per pixel). Kept
    // pixels: x in [-88, 32], y in [-50, 30]. Rotating by 90 degrees maps (x, y) to (-y, x).
    const float expected_offset[8] = {50, -88, -30, -88, -30, 32, 50, 32};
    for (int i = 0; i < 8; ++i) EXPECT_NEAR(bound.offset[i], expected_offset[i], 1e-4) << i;
    const float u = 100.0f / 256, v = 10.0f / 128, u2 = 130.0f / 256, v2 = 50.0f / 128;
    const float expected_uvs[8] = {u, v2, u, v, u2, v, u2, v2};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(bound.uvs[i], expected_uvs[i]) << i;
}

TEST(AttachmentBinding, mesh_uvs_on_an_upright_region) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index mesh = b.mesh("m", "upright", b.uvs(k_region_uvs));
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    // Pixel (px, py) of the original lands at page (100 + px - 3, 10 + py - 15).
    expect_mesh_uvs(binding, only_frame(binding, mesh), page_pixels([](double px, double py, bool across) {
                        return across ? 100 + px - 3 : 10 + py - 15;
                    }));
}

TEST(AttachmentBinding, mesh_uvs_on_a_region_rotated_90) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index mesh = b.mesh("m", "turned", b.uvs(k_region_uvs));
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    // Rotated 90 (clockwise, as packed): going down the image goes right in the page, going right in the image
    // goes up. The kept image's top-left pixel (3, 15) is at the page rectangle's bottom-left (10, 20 + 30).
    expect_mesh_uvs(binding, only_frame(binding, mesh), page_pixels([](double px, double py, bool across) {
                        return across ? 10 + (py - 15) : 50 - (px - 3);
                    }));
    // So vertex (0, 0), the image's top-left corner, is at (-5, 53) px: outside the rectangle, in the trimmed part.
    EXPECT_NEAR(binding.mesh_uvs[0], -5.0 / 256, 1e-7);
    EXPECT_NEAR(binding.mesh_uvs[1], 53.0 / 128, 1e-7);
}

TEST(AttachmentBinding, mesh_uvs_on_regions_rotated_180_and_270) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Range uvs = b.uvs(k_region_uvs);
    Index flipped = b.mesh("f", "flipped", uvs);
    Index left = b.mesh("l", "left", uvs);
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    // 180: the kept image's bottom-right pixel (33, 55) is at the rectangle's top-left (140, 10).
    expect_mesh_uvs(binding, only_frame(binding, flipped), page_pixels([](double px, double py, bool across) {
                        return across ? 140 + (33 - px) : 10 + (55 - py);
                    }));
    // 270 (counter-clockwise): the kept image's bottom-left pixel (3, 55) is at the rectangle's top-left (180, 10);
    // going up the image goes right in the page, going right in the image goes down.
    expect_mesh_uvs(binding, only_frame(binding, left), page_pixels([](double px, double py, bool across) {
                        return across ? 180 + (55 - py) : 10 + (px - 3);
                    }));
}

TEST(AttachmentBinding, mesh_uvs_are_rounded_to_float_once) {
    // spineboy's front-shin: rotated on a 1024 x 256 page. The official runtime works in double and rounds the
    // result to float once; rounding `1 - uv` to float first lands one float lower for this vertex.
    Result<Atlas> atlas = parse_atlas("p.png\nsize: 1024, 256\nshin\nbounds: 665, 128, 41, 92\nrotate: 90\n", "a");
    ASSERT_TRUE(atlas.ok());
    SkeletonBuilder b;
    const float ru = 0.013583113439381123f, rv = 0.81038308143615723f;
    Index mesh = b.mesh("shin", "shin", b.uvs({ru, rv}));
    AtlasBinding binding = bind_ok(b.finish(), *atlas);
    const BoundRegion& bound = only_frame(binding, mesh);
    // Page pixel (665 + 92 rv, 128 + 41 (1 - ru)), to float from long double.
    EXPECT_EQ(binding.mesh_uvs[bound.mesh_uvs.offset], static_cast<float>((665 + 92.0L * rv) / 1024));
    EXPECT_EQ(binding.mesh_uvs[bound.mesh_uvs.offset + 1], static_cast<float>((128 + 41 * (1.0L - ru)) / 256));
    EXPECT_EQ(binding.mesh_uvs[bound.mesh_uvs.offset + 1], 0.6579808592796326f);  // the official runtime's value
}

TEST(AttachmentBinding, sequence_frames_each_get_their_region) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index wing = b.region("wing", "wing", 0, 0, 10, 10);
    b.data.attachments[static_cast<std::size_t>(wing)].sequence = b.sequence(3, 1, 2);
    Index mesh = b.mesh("wing-mesh", "wing", b.uvs({0, 0, 1, 1}));
    b.data.attachments[static_cast<std::size_t>(mesh)].sequence = b.sequence(3, 1, 2);
    AtlasBinding binding = bind_ok(b.finish(), atlas);

    const Range frames = binding.frames[static_cast<std::size_t>(wing)];
    ASSERT_EQ(frames.count, 3u);
    const char* names[3] = {"wing01", "wing02", "wing03"};
    for (std::uint32_t f = 0; f < 3; ++f) {
        EXPECT_EQ(binding.regions[frames.offset + f].region, atlas.find_region(names[f])) << f;
        EXPECT_EQ(binding.regions[frames.offset + f].page, 0);
    }
    // Frame 1: wing01 fills its 10 x 10 image, upright at (0, 100).
    const BoundRegion& f0 = binding.regions[frames.offset];
    const float offset0[8] = {-5, -5, -5, 5, 5, 5, 5, -5};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(f0.offset[i], offset0[i]) << i;
    EXPECT_EQ(f0.uvs[0], 0.0f);
    EXPECT_EQ(f0.uvs[1], 110.0f / 128);
    // Frame 2: wing02 keeps 12 x 8 of a 14 x 10 image, 1 px in from the left and bottom; 10/14 units per pixel
    // across, 1 unit per pixel up.
    const BoundRegion& f1 = binding.regions[frames.offset + 1];
    EXPECT_NEAR(f1.offset[0], -5 + 10.0 / 14, 1e-6);
    EXPECT_NEAR(f1.offset[1], -4, 1e-6);
    EXPECT_NEAR(f1.offset[4], -5 + 130.0 / 14, 1e-6);
    EXPECT_NEAR(f1.offset[5], 4, 1e-6);
    EXPECT_EQ(f1.uvs[0], 20.0f / 256);
    // Frame 3: wing03 is rotated, so its UVs start at (u2, v2).
    const BoundRegion& f2 = binding.regions[frames.offset + 2];
    EXPECT_EQ(f2.uvs[0], 50.0f / 256);
    EXPECT_EQ(f2.uvs[1], 110.0f / 128);
    EXPECT_EQ(f2.uvs[2], 40.0f / 256);

    // The mesh's frames each have their own UVs.
    const Range mesh_frames = binding.frames[static_cast<std::size_t>(mesh)];
    ASSERT_EQ(mesh_frames.count, 3u);
    const BoundRegion& m0 = binding.regions[mesh_frames.offset];
    const BoundRegion& m1 = binding.regions[mesh_frames.offset + 1];
    ASSERT_EQ(m0.mesh_uvs.count, 4u);
    ASSERT_EQ(m1.mesh_uvs.count, 4u);
    EXPECT_NE(m0.mesh_uvs.offset, m1.mesh_uvs.offset);
    // wing01: (0, 0) -> page (0, 100); (1, 1) -> (10, 110).
    EXPECT_NEAR(binding.mesh_uvs[m0.mesh_uvs.offset + 0], 0.0, 1e-7);
    EXPECT_NEAR(binding.mesh_uvs[m0.mesh_uvs.offset + 1], 100.0 / 128, 1e-7);
    EXPECT_NEAR(binding.mesh_uvs[m0.mesh_uvs.offset + 2], 10.0 / 256, 1e-7);
    EXPECT_NEAR(binding.mesh_uvs[m0.mesh_uvs.offset + 3], 110.0 / 128, 1e-7);
    // wing02: the image's top-left (0, 0) is 1 px left of and 1 px above the kept rectangle at (20, 100).
    EXPECT_NEAR(binding.mesh_uvs[m1.mesh_uvs.offset + 0], 19.0 / 256, 1e-7);
    EXPECT_NEAR(binding.mesh_uvs[m1.mesh_uvs.offset + 1], 99.0 / 128, 1e-7);
}

TEST(AttachmentBinding, sequence_frame_names_are_zero_padded_to_digits) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index s = b.region("s", "s", 0, 0, 4, 4);
    b.data.attachments[static_cast<std::size_t>(s)].sequence = b.sequence(2, 99, 2);  // s99, s100
    Index w = b.region("w", "wing", 0, 0, 4, 4);
    b.data.attachments[static_cast<std::size_t>(w)].sequence = b.sequence(1, 2, 2);  // wing02
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    const Range frames = binding.frames[static_cast<std::size_t>(s)];
    ASSERT_EQ(frames.count, 2u);
    EXPECT_EQ(binding.regions[frames.offset].region, atlas.find_region("s99"));
    EXPECT_EQ(binding.regions[frames.offset + 1].region, atlas.find_region("s100"));
    EXPECT_EQ(only_frame(binding, w).region, atlas.find_region("wing02"));

    SkeletonBuilder no_pad;
    Index one = no_pad.region("w", "wing0", 0, 0, 4, 4);
    no_pad.data.attachments[static_cast<std::size_t>(one)].sequence = no_pad.sequence(1, 1, 0);  // wing01
    AtlasBinding unpadded = bind_ok(no_pad.finish(), atlas);
    EXPECT_EQ(only_frame(unpadded, one).region, atlas.find_region("wing01"));
}

TEST(AttachmentBinding, linked_mesh_uses_its_own_path_and_its_parents_uvs) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Range uvs = b.uvs(k_region_uvs);
    Index parent = b.mesh("parent", "upright", uvs);
    Index linked = b.mesh("linked", "turned", uvs);
    b.data.attachments[static_cast<std::size_t>(linked)].parent_mesh = parent;
    Index bare = b.mesh("bare", "turned", Range{});
    b.data.attachments[static_cast<std::size_t>(bare)].parent_mesh = parent;
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    EXPECT_EQ(only_frame(binding, parent).region, atlas.find_region("upright"));
    for (Index mesh : {linked, bare}) {
        const BoundRegion& bound = only_frame(binding, mesh);
        EXPECT_EQ(bound.region, atlas.find_region("turned"));
        expect_mesh_uvs(binding, bound, page_pixels([](double px, double py, bool across) {
                            return across ? 10 + (py - 15) : 50 - (px - 3);
                        }));
    }
}

TEST(AttachmentBinding, attachments_without_images_have_no_frames) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    AttachmentData box;
    box.type = AttachmentType::bounding_box;
    Index box_index = b.add(box, "box", "nowhere");
    AttachmentData point;
    point.type = AttachmentType::point;
    Index point_index = b.add(point, "point", "nowhere");
    AtlasBinding binding = bind_ok(b.finish(), atlas);
    EXPECT_EQ(binding.frames.size(), 2u);
    EXPECT_EQ(binding.frames[static_cast<std::size_t>(box_index)].count, 0u);
    EXPECT_EQ(binding.frames[static_cast<std::size_t>(point_index)].count, 0u);
    EXPECT_TRUE(binding.regions.empty());
}

TEST(AttachmentBinding, missing_region_error_names_path_attachment_and_atlas) {
    Atlas atlas = test_atlas("spineboy.atlas");
    SkeletonBuilder b;
    b.region("head", "head", 0, 0, 10, 10);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what, "region \"head\" (attachment \"head\") not found in atlas spineboy.atlas");
    EXPECT_EQ(binding.error().file, "spineboy.atlas");
    EXPECT_NE(binding.error().where.find("skin \"default\""), std::string::npos);
    EXPECT_NE(binding.error().where.find("slot \"slot\""), std::string::npos);

    SkeletonBuilder seq;
    Index wing = seq.region("left-wing", "wing", 0, 0, 10, 10);
    seq.data.attachments[static_cast<std::size_t>(wing)].sequence = seq.sequence(4, 1, 2);  // wing04 is absent
    Result<AtlasBinding> missing_frame = bind_atlas(seq.finish(), atlas);
    ASSERT_FALSE(missing_frame.ok());
    EXPECT_EQ(missing_frame.error().what,
              "region \"wing04\" (attachment \"left-wing\") not found in atlas spineboy.atlas");
}

TEST(AttachmentBinding, missing_region_error_lists_the_other_missing_regions) {
    Atlas atlas = test_atlas("spineboy.atlas");
    SkeletonBuilder b;
    b.region("head", "head", 0, 0, 10, 10);
    b.region("eye", "eye", 0, 0, 10, 10);
    b.region("mouth", "mouth", 0, 0, 10, 10);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what, "region \"head\" (attachment \"head\") not found in atlas spineboy.atlas; 2 more "
                                    "missing: \"eye\" \"mouth\"");
}

TEST(AttachmentBinding, missing_region_error_lists_each_missing_path_once_and_outlasts_later_errors) {
    Atlas atlas = test_atlas("spineboy.atlas");
    SkeletonBuilder b;
    b.region("head", "head", 0, 0, 10, 10);
    b.region("eye", "eye", 0, 0, 10, 10);
    b.region("left-eye", "eye", 0, 0, 10, 10);     // the same missing path again
    b.region("head-again", "head", 0, 0, 10, 10);  // and the first one
    Index broken = b.region("wing", "wing", 0, 0, 10, 10);
    b.data.attachments[static_cast<std::size_t>(broken)].sequence = b.sequence(0, 1, 2);  // no frames: an error too
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what,
              "region \"head\" (attachment \"head\") not found in atlas spineboy.atlas; 1 more missing: \"eye\"");
}

TEST(AttachmentBinding, missing_region_error_says_when_the_atlas_has_no_regions_at_all) {
    Result<Atlas> empty = parse_atlas("", "empty.atlas");
    ASSERT_TRUE(empty.ok()) << empty.error().message();  // a skeleton without images may use an empty atlas
    SkeletonBuilder b;
    b.region("head", "head", 0, 0, 10, 10);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), empty.value());
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what,
              "region \"head\" (attachment \"head\") not found in atlas empty.atlas (it has no regions)");
}

TEST(AttachmentBinding, missing_region_error_uses_spines_attachment_name) {
    Atlas atlas = test_atlas("goblins.atlas");
    SkeletonBuilder b;
    Index head = b.region("head", "goblin/head", 0, 0, 10, 10);
    b.data.attachments[static_cast<std::size_t>(head)].spine_name = b.data.attachment_names.intern("goblin/head");
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what,
              "region \"goblin/head\" (attachment \"goblin/head\") not found in atlas goblins.atlas");
}

TEST(AttachmentBinding, absurd_sequences_fail_without_building_every_frame) {
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index wing = b.region("wing", "wing", 0, 0, 10, 10);
    b.data.attachments[static_cast<std::size_t>(wing)].sequence = b.sequence(2000000000, 1, 2);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_NE(binding.error().what.find("region \"wing04\""), std::string::npos) << binding.error().what;

    SkeletonBuilder wide;
    Index w = wide.region("wing", "wing", 0, 0, 10, 10);
    wide.data.attachments[static_cast<std::size_t>(w)].sequence = wide.sequence(1, 1, 2000000000);
    Result<AtlasBinding> padded = bind_atlas(wide.finish(), atlas);
    ASSERT_FALSE(padded.ok());
    EXPECT_NE(padded.error().what.find("digits"), std::string::npos);

    SkeletonBuilder none;
    Index n = none.region("wing", "wing", 0, 0, 10, 10);
    none.data.attachments[static_cast<std::size_t>(n)].sequence = none.sequence(0, 1, 2);
    EXPECT_FALSE(bind_atlas(none.finish(), atlas).ok());
}

TEST(AttachmentBinding, long_sequence_on_a_big_mesh_fails_before_its_uvs_are_allocated) {
    // 1,000 frames of a 65,536-vertex mesh would be 131 million UV floats (wing01..03 exist, so the frames alone
    // would not stop it early).
    Atlas atlas = test_atlas();
    SkeletonBuilder b;
    Index mesh = b.mesh("wing", "wing", b.uvs(std::vector<float>(131072, 0.5f)));
    b.data.attachments[static_cast<std::size_t>(mesh)].sequence = b.sequence(1000, 1, 2);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_NE(binding.error().what.find("1000 frames of 131072 floats) pass the limit"), std::string::npos)
        << binding.error().what;
}

TEST(AttachmentBinding, many_attachments_sharing_a_long_sequence_fail_at_the_limit_of_frames_bound) {
    // Each attachment alone is bound frame by frame; 21 of them, each 50,000 frames of the atlas's 50,000 regions,
    // would bind 1,050,000 frames (84 MB), past k_max_binding_regions: the 21st fails when the limit is reached.
    std::string text = "p.png\nsize: 64, 64\n";
    constexpr int k_frames = 50000;
    for (int f = 0; f < k_frames; ++f) {
        char region[48];
        std::snprintf(region, sizeof region, "p%05d\n  bounds: 0, 0, 1, 1\n", f);
        text += region;
    }
    Result<Atlas> atlas = parse_atlas(text, "long.atlas");
    ASSERT_TRUE(atlas.ok()) << atlas.error().message();
    SkeletonBuilder b;
    for (int a = 0; a < 21; ++a) {
        Index wing = b.region("wing" + std::to_string(a), "p", 0, 0, 1, 1);
        b.data.attachments[static_cast<std::size_t>(wing)].sequence = b.sequence(k_frames, 0, 5);
    }
    ASSERT_GT(21u * k_frames, k_max_binding_regions);
    ASSERT_LE(20u * k_frames, k_max_binding_regions);
    Result<AtlasBinding> binding = bind_atlas(b.finish(), *atlas);
    ASSERT_FALSE(binding.ok());
    const std::size_t frame = k_max_binding_regions - 20 * k_frames;
    EXPECT_NE(binding.error().what.find("frame " + std::to_string(frame) + " of attachment \"wing20\" passes the "
                                        "limit of " + std::to_string(k_max_binding_regions) + " frames"),
              std::string::npos)
        << binding.error().what;
}

TEST(AttachmentBinding, page_without_size_is_an_error) {
    Result<Atlas> atlas = parse_atlas("p.png\nr\nbounds: 0, 0, 4, 4\n", "nosize.atlas");
    ASSERT_TRUE(atlas.ok());
    SkeletonBuilder b;
    b.region("r", "r", 0, 0, 4, 4);
    const SkeletonData& skeleton = b.finish();
    Result<AtlasBinding> binding = bind_atlas(skeleton, *atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_NE(binding.error().what.find("has no size"), std::string::npos);
    ASSERT_TRUE(set_atlas_page_size(*atlas, 0, 8, 8).ok());
    EXPECT_TRUE(bind_atlas(skeleton, *atlas).ok());
}

// Every region and mesh attachment has its frames, on a page of the atlas, with finite numbers.
void expect_complete(const SkeletonData& skeleton, const Atlas& atlas, const AtlasBinding& binding) {
    ASSERT_EQ(binding.frames.size(), skeleton.attachments.size());
    for (std::size_t i = 0; i < skeleton.attachments.size(); ++i) {
        const AttachmentData& a = skeleton.attachments[i];
        const Range frames = binding.frames[i];
        if (a.type != AttachmentType::region && a.type != AttachmentType::mesh) {
            EXPECT_EQ(frames.count, 0u);
            continue;
        }
        std::uint32_t expected = a.sequence == k_none
                                     ? 1u
                                     : static_cast<std::uint32_t>(skeleton.sequences[static_cast<std::size_t>(
                                                                                          a.sequence)].count);
        ASSERT_EQ(frames.count, expected) << skeleton.attachment_names[a.name];
        for (std::uint32_t f = 0; f < frames.count; ++f) {
            const BoundRegion& bound = binding.regions[frames.offset + f];
            ASSERT_GE(bound.region, 0);
            ASSERT_LT(static_cast<std::size_t>(bound.region), atlas.regions.size());
            EXPECT_EQ(bound.page, atlas.regions[static_cast<std::size_t>(bound.region)].page);
            if (a.type == AttachmentType::region) {
                for (float x : bound.offset) EXPECT_TRUE(std::isfinite(x));
                for (float x : bound.uvs) EXPECT_TRUE(x >= 0 && x <= 1);
            } else {
                EXPECT_EQ(bound.mesh_uvs.count, a.world_vertices_length) << skeleton.attachment_names[a.name];
                ASSERT_LE(std::size_t{bound.mesh_uvs.offset} + bound.mesh_uvs.count, binding.mesh_uvs.size());
                for (std::uint32_t k = 0; k < bound.mesh_uvs.count; ++k)
                    EXPECT_TRUE(std::isfinite(binding.mesh_uvs[bound.mesh_uvs.offset + k]));
            }
        }
    }
}

TEST(AttachmentBinding, binds_every_example_to_its_straight_and_pma_atlas) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::vector<test::ExampleSkeleton> examples = test::example_skeletons();
    ASSERT_FALSE(examples.empty());
    for (const test::ExampleSkeleton& example : examples) {
        for (const auto& skeleton_path : {example.json, example.binary}) {
            SCOPED_TRACE(skeleton_path.string());
            Result<SkeletonData> skeleton = load_skeleton_file(skeleton_path.string());
            ASSERT_TRUE(skeleton.ok()) << skeleton.error().message();
            for (const auto& atlas_path : {example.atlas, example.pma_atlas}) {
                SCOPED_TRACE(atlas_path.string());
                Result<Atlas> atlas = load_atlas_file(atlas_path.string());
                ASSERT_TRUE(atlas.ok()) << atlas.error().message();
                Result<AtlasBinding> binding = bind_atlas(*skeleton, *atlas);
                ASSERT_TRUE(binding.ok()) << binding.error().message();
                expect_complete(*skeleton, *atlas, *binding);
            }
        }
    }
}

TEST(AttachmentBinding, example_with_a_path_absent_from_the_atlas_names_it) {
    SPINEGPU_REQUIRE_EXAMPLES();
    const std::string dir = test::examples_dir().string();
    Result<SkeletonData> spineboy = load_skeleton_file(dir + "/spineboy/spineboy-pro.json");
    ASSERT_TRUE(spineboy.ok()) << spineboy.error().message();
    Result<Atlas> atlas = load_atlas_file(dir + "/spineboy/spineboy.atlas");
    ASSERT_TRUE(atlas.ok()) << atlas.error().message();

    // Point the first region attachment at a region the atlas lacks.
    SkeletonData& data = *spineboy;
    auto it = std::find_if(data.attachments.begin(), data.attachments.end(),
                           [](const AttachmentData& a) { return a.type == AttachmentType::region; });
    ASSERT_NE(it, data.attachments.end());
    it->path = data.attachment_paths.intern("no-such-region");
    const std::string name = data.attachment_names[it->spine_name != k_none ? it->spine_name : it->name];
    Result<AtlasBinding> binding = bind_atlas(data, *atlas);
    ASSERT_FALSE(binding.ok());
    EXPECT_EQ(binding.error().what, "region \"no-such-region\" (attachment \"" + name +
                                        "\") not found in atlas " + dir + "/spineboy/spineboy.atlas");
    EXPECT_NE(binding.error().where.find("skin \"default\""), std::string::npos) << binding.error().message();

    // Another skeleton's atlas lacks spineboy's regions.
    Result<Atlas> raptor = load_atlas_file(dir + "/raptor/raptor.atlas");
    ASSERT_TRUE(raptor.ok());
    Result<SkeletonData> fresh = load_skeleton_file(dir + "/spineboy/spineboy-pro.json");
    ASSERT_TRUE(fresh.ok());
    Result<AtlasBinding> wrong = bind_atlas(*fresh, *raptor);
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().what.find("not found in atlas " + dir + "/raptor/raptor.atlas"), std::string::npos);
}

}  // namespace
}  // namespace spinegpu
