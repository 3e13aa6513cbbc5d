// The embedded default: the demo rig that tools/rig_gen draws, rigs and animates at build time, embedded in
// spinegpu_demo_rig. Its files are present and consistent, and our own loaders read it with every feature the rig
// is built to exercise (the official runtime's view of it is tests/cli/oracle_loads_demo_rig.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "spinegpu/data/atlas.hpp"
#include "spinegpu/data/attachment_binding.hpp"
#include "spinegpu/data/image.hpp"
#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/demo_rig.hpp"

namespace spinegpu {
namespace {

std::span<const std::uint8_t> file_bytes(std::string_view name) {
    for (const EmbeddedFile& file : demo_rig_files())
        if (file.name == name) return file.bytes;
    return {};
}

std::string_view file_text(std::string_view name) {
    std::span<const std::uint8_t> bytes = file_bytes(name);
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

Atlas demo_atlas() {
    Result<Atlas> atlas = parse_atlas(file_text("spinegpu-demo.atlas"), "spinegpu-demo.atlas");
    EXPECT_TRUE(atlas.ok()) << (atlas.ok() ? "" : atlas.error().message());
    return atlas.ok() ? std::move(atlas).value() : Atlas{};
}

SkeletonData demo_skeleton() {
    Result<SkeletonData> data = load_skeleton_json(file_text("spinegpu-demo.json"), "spinegpu-demo.json");
    EXPECT_TRUE(data.ok()) << (data.ok() ? "" : data.error().message());
    return data.ok() ? std::move(data).value() : SkeletonData{};
}

// The timelines of animation `name`, or none when it does not exist.
std::vector<const TimelineData*> timelines_of(const SkeletonData& data, std::string_view name) {
    std::vector<const TimelineData*> out;
    Index a = data.animation_names.find(name);
    if (a == k_none) return out;
    Range r = data.animations[static_cast<std::size_t>(a)].timelines;
    for (std::uint32_t i = 0; i < r.count; ++i) out.push_back(&data.timelines[r.offset + i]);
    return out;
}

bool has_timeline(const SkeletonData& data, std::string_view animation, TimelineType type) {
    std::vector<const TimelineData*> timelines = timelines_of(data, animation);
    return std::any_of(timelines.begin(), timelines.end(), [type](const TimelineData* t) { return t->type == type; });
}

TEST(DemoRig, embeds_the_json_atlas_and_png_in_that_order) {
    std::span<const EmbeddedFile> files = demo_rig_files();
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0].name, "spinegpu-demo.json");
    EXPECT_EQ(files[1].name, "spinegpu-demo.atlas");
    EXPECT_EQ(files[2].name, "spinegpu-demo.png");
    for (const EmbeddedFile& file : files) EXPECT_GT(file.bytes.size(), 100u) << file.name;
    EXPECT_EQ(file_text("spinegpu-demo.json").substr(0, 1), "{");
    const std::uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::span<const std::uint8_t> png = file_bytes("spinegpu-demo.png");
    ASSERT_GE(png.size(), 8u);
    EXPECT_TRUE(std::equal(png.begin(), png.begin() + 8, png_magic));
}

TEST(DemoRig, embedded_files_are_the_ones_generated_in_the_build) {
    const std::filesystem::path dir = std::filesystem::path(SPINEGPU_BINARY_DIR) / "demo_rig";
    for (const EmbeddedFile& file : demo_rig_files()) {
        std::ifstream in(dir / std::string(file.name), std::ios::binary);
        ASSERT_TRUE(in) << "missing " << (dir / std::string(file.name));
        std::vector<std::uint8_t> on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_TRUE(std::equal(on_disk.begin(), on_disk.end(), file.bytes.begin(), file.bytes.end())) << file.name;
    }
}

TEST(DemoRig, atlas_has_one_straight_alpha_page_and_the_png_decodes_to_its_size) {
    Atlas atlas = demo_atlas();
    ASSERT_EQ(atlas.pages.size(), 1u);
    const AtlasPage& page = atlas.pages[0];
    EXPECT_EQ(page.name, "spinegpu-demo.png");
    EXPECT_FALSE(page.pma);
    EXPECT_EQ(page.min_filter, TextureFilter::mip_map_linear_linear) << "the demo draws the rig minified";
    EXPECT_EQ(page.mag_filter, TextureFilter::linear);
    Result<Image> image = decode_image(file_bytes("spinegpu-demo.png"), "spinegpu-demo.png");
    ASSERT_TRUE(image.ok()) << image.error().message();
    EXPECT_EQ(image->width, page.width);
    EXPECT_EQ(image->height, page.height);
    EXPECT_LE(page.width, 2048u);
    EXPECT_LE(page.height, 2048u);
}

TEST(DemoRig, atlas_regions_lie_inside_the_page_with_padding_and_have_transparent_gaps) {
    // 16 texels of padding around every region, within the page and between regions (the page is mipmapped: its
    // level-3 texels, sampled bilinearly, must not reach a neighbour), transparent.
    constexpr std::int32_t k_padding = 16;
    Atlas atlas = demo_atlas();
    Result<Image> image = decode_image(file_bytes("spinegpu-demo.png"), "spinegpu-demo.png");
    ASSERT_TRUE(image.ok());
    ASSERT_FALSE(atlas.regions.empty());
    bool some_stripped = false;
    for (std::size_t i = 0; i < atlas.regions.size(); ++i) {
        const AtlasRegion& r = atlas.regions[i];
        const std::string& name = atlas.all_region_names[i];
        EXPECT_GE(r.x, k_padding) << name;
        EXPECT_GE(r.y, k_padding) << name;
        EXPECT_LE(r.x + r.width + k_padding, static_cast<std::int32_t>(image->width)) << name;
        EXPECT_LE(r.y + r.height + k_padding, static_cast<std::int32_t>(image->height)) << name;
        EXPECT_EQ(r.degrees, 0) << name;
        some_stripped = some_stripped || r.original_width > r.width || r.original_height > r.height;
        for (std::size_t j = 0; j < i; ++j) {
            const AtlasRegion& o = atlas.regions[j];
            const bool apart = r.x >= o.x + o.width + k_padding || o.x >= r.x + r.width + k_padding ||
                               r.y >= o.y + o.height + k_padding || o.y >= r.y + r.height + k_padding;
            EXPECT_TRUE(apart) << name << " and " << atlas.all_region_names[j] << " are closer than the padding";
        }
        // The texels around the region (the padding) are fully transparent.
        for (std::int32_t y = r.y - k_padding; y < r.y + r.height + k_padding; ++y)
            for (std::int32_t x = r.x - k_padding; x < r.x + r.width + k_padding; ++x) {
                if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height) continue;
                const std::size_t at = (static_cast<std::size_t>(y) * image->width + static_cast<std::size_t>(x)) * 4;
                ASSERT_EQ(image->rgba[at + 3], 0) << name << " bleeds into its padding at " << x << ", " << y;
            }
    }
    EXPECT_TRUE(some_stripped) << "regions are packed with their transparent borders stripped (offsets)";
}

TEST(DemoRig, our_json_loader_reads_it_with_every_feature_the_rig_is_built_for) {
    SkeletonData data = demo_skeleton();
    ASSERT_FALSE(data.bones.empty());
    EXPECT_EQ(data.version, "4.2.22");
    EXPECT_GE(data.bones.size(), 20u);
    EXPECT_GT(data.height, 200.0f);
    EXPECT_LT(data.height, 400.0f);

    // Two-bone IK on both legs.
    ASSERT_GE(data.ik_constraints.size(), 1u);
    for (const IkConstraintData& ik : data.ik_constraints) EXPECT_EQ(ik.bones.count, 2u);

    // Blend modes and two-color tint.
    std::set<BlendMode> blends;
    bool dark = false;
    for (const SlotData& slot : data.slots) {
        blends.insert(slot.blend);
        dark = dark || slot.has_dark;
    }
    EXPECT_TRUE(blends.count(BlendMode::additive));
    EXPECT_TRUE(blends.count(BlendMode::multiply));
    EXPECT_TRUE(dark);

    // A weighted mesh, a clipping attachment with an end slot, region attachments, a 4-frame sequence.
    bool weighted_mesh = false, clipping = false, region = false;
    for (const AttachmentData& a : data.attachments) {
        weighted_mesh = weighted_mesh || (a.type == AttachmentType::mesh && a.bones.count > 0 && a.triangles.count >= 3);
        clipping = clipping || (a.type == AttachmentType::clipping && a.end_slot != k_none);
        region = region || a.type == AttachmentType::region;
    }
    EXPECT_TRUE(weighted_mesh);
    EXPECT_TRUE(clipping);
    EXPECT_TRUE(region);
    ASSERT_EQ(data.sequences.size(), 1u);
    EXPECT_EQ(data.sequences[0].count, 4);
    EXPECT_EQ(data.sequences[0].start, 0);
    EXPECT_EQ(data.sequences[0].digits, 2);

    // Animations: three loops and a one-shot with events.
    for (const char* name : {"idle", "walk", "run", "attack"})
        EXPECT_NE(data.animation_names.find(name), k_none) << name;
    EXPECT_TRUE(has_timeline(data, "idle", TimelineType::deform));
    EXPECT_TRUE(has_timeline(data, "idle", TimelineType::attachment));
    EXPECT_TRUE(has_timeline(data, "idle", TimelineType::rgba));
    EXPECT_TRUE(has_timeline(data, "walk", TimelineType::deform));
    EXPECT_TRUE(has_timeline(data, "walk", TimelineType::event));
    EXPECT_TRUE(has_timeline(data, "walk", TimelineType::translate));
    EXPECT_TRUE(has_timeline(data, "run", TimelineType::sequence));
    EXPECT_TRUE(has_timeline(data, "attack", TimelineType::rgba2));
    EXPECT_TRUE(has_timeline(data, "attack", TimelineType::draw_order));
    EXPECT_TRUE(has_timeline(data, "attack", TimelineType::event));

    // Some keys are Bezier curves.
    bool bezier = false;
    for (const TimelineData& t : data.timelines)
        for (std::uint32_t f = 0; f < t.frame_count && t.curves.count > 0; ++f)
            bezier = bezier || data.curves[t.curves.offset + f] >= k_curve_bezier;
    EXPECT_TRUE(bezier);

    // Events with int, float and string values, keyed in the attack.
    ASSERT_NE(data.event_names.find("hit"), k_none);
    const EventData& hit = data.events[static_cast<std::size_t>(data.event_names.find("hit"))];
    EXPECT_EQ(hit.int_value, 10);
    EXPECT_FLOAT_EQ(hit.float_value, 0.5f);
    EXPECT_EQ(hit.string_value, "slash");
    std::set<std::string> attack_events;
    for (const TimelineData* t : timelines_of(data, "attack"))
        if (t->type == TimelineType::event)
            for (std::uint32_t k = 0; k < t->aux.count; ++k)
                attack_events.insert(data.event_names[data.event_keys[t->aux.offset + k].event]);
    EXPECT_EQ(attack_events, (std::set<std::string>{"hit", "swing"}));
}

TEST(DemoRig, every_attachment_binds_to_the_embedded_atlas) {
    SkeletonData data = demo_skeleton();
    Atlas atlas = demo_atlas();
    Result<AtlasBinding> binding = bind_atlas(data, atlas);
    ASSERT_TRUE(binding.ok()) << binding.error().message();
    EXPECT_EQ(binding->frames.size(), data.attachments.size());
}

}  // namespace
}  // namespace spinegpu
