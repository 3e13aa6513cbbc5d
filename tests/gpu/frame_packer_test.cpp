// Frame packing: bytes per character against the seed's bar (32 + 24 x bones), pack_character staying inside what
// max_words_per_character and drawn_bones promise, for every example skeleton and animation, and the draw list sent
// only when it differs from the setup list of the character's skin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "skin_shader_model.hpp"
#include "spinegpu/gpu/gpu_structs.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

TEST(FramePacker, colours_pack_clamped_and_rounded_and_nan_packs_as_zero) {
    // As GLSL's packUnorm4x8: clamped to 0..1, times 255, rounded; R in the low byte.
    EXPECT_EQ(pack_rgba8({1, 0, 0.5f, 1}), 0xFF8000FFu);
    EXPECT_EQ(pack_rgba8({-3, 7, 0.2f / 255, 0.6f / 255}), 0x0100FF00u);
    // A skeleton file can animate a colour through a NaN curve value: packing it must not convert NaN to an integer
    // (undefined behaviour) and gives 0 in that channel. On x86 a conversion of NaN happens to give 0 as well, so
    // the scalar form's sanitizer build (-DSPINEGPU_SCALAR=ON -DSPINEGPU_SANITIZE=ON, float-cast-overflow) is where
    // converting NaN would fail this test; the SSE2 form converts with cvttps2dq after a max that turns NaN into 0.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(pack_rgba8({nan, 1, nan, 1}), 0xFF00FF00u);
    EXPECT_EQ(pack_rgba8({-nan, -nan, -nan, -nan}), 0u);
}

TEST(FramePacker, colours_pack_as_the_per_channel_reference_at_every_rounding_boundary) {
    // pack_rgba8 has an SSE2 form; the reference is the scalar clamp, multiply, add and truncation per channel.
    auto channel = [](float v) -> std::uint32_t {
        v = v > 0 ? (v < 1 ? v : 1) : 0;
        return static_cast<std::uint32_t>(v * 255.0f + 0.5f);
    };
    std::vector<float> values = {0.0f, -0.0f, 1.0f, 2.0f, -1.0f, std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::denorm_min(),
                                 std::numeric_limits<float>::min(), std::nextafter(1.0f, 0.0f),
                                 std::nextafter(1.0f, 2.0f)};
    for (int k = 0; k <= 255; ++k) {  // the values that round to either side of k + 0.5
        const float boundary = (static_cast<float>(k) + 0.5f) / 255.0f;
        float v = boundary;
        for (int i = 0; i < 4; ++i) v = std::nextafter(v, 0.0f);
        for (int i = 0; i < 9; ++i, v = std::nextafter(v, 2.0f)) values.push_back(v);
    }
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float r = values[i], g = values[(i + 1) % values.size()], b = values[(i + 7) % values.size()];
        for (float a : {values[(i + 13) % values.size()], nan}) {
            const std::uint32_t expected = channel(r) | channel(g) << 8 | channel(b) << 16 | channel(a) << 24;
            ASSERT_EQ(pack_rgba8({r, g, b, a}), expected) << r << " " << g << " " << b << " " << a;
        }
    }
}

TEST(FramePacker, draw_list_words_and_counts_agree_with_draw_entry_for_every_example_sequences_included) {
    // The packer writes the draw list through its own loop (a fast one, written again when a sequence shows), or
    // points at its skin's setup list; draw_entry per position, and the attachments' sizes summed, are the second
    // path.
    SPINEGPU_REQUIRE_EXAMPLES();
    for_each_example_pose(60, 20, [](const GpuType& t, const Player& player, const std::string& where) {
        const auto slots = static_cast<std::uint32_t>(t.data().slots.size());
        PackedFrame frame(t.type, t.data(), 1);
        pack_character(t.type, 0, player.pose, Color{}, frame.cursor);
        std::uint32_t vertices = 0, indices = 0;
        for (std::uint32_t p = 0; p < (slots + 1) / 2 * 2; ++p) {
            const std::uint16_t id = p < slots ? draw_entry(t.type, player.pose, p) : k_no_attachment;
            EXPECT_EQ(draw_list_entry(t.type, frame.characters[0], frame.words.data(), p), id)
                << where << " position " << p;
            if (id == k_no_attachment) continue;
            vertices += t.type.attachments[id].vertex_count;
            indices += t.type.attachments[id].index_count;
        }
        EXPECT_EQ(frame.cursor.out_vertex_count, vertices) << where;
        EXPECT_EQ(frame.cursor.out_index_count, indices) << where;
        return !::testing::Test::HasFailure();
    });
}

TEST(FramePacker, a_character_in_its_skins_setup_pose_sends_no_draw_list_and_points_at_that_skins_setup_list) {
    // Every example with no skin and with each of its skins: the list that draw_entry gives is the one the header
    // points at, and no word of it is sent.
    SPINEGPU_REQUIRE_EXAMPLES();
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) continue;
        const SkeletonData& data = t->data();
        const auto slots = static_cast<std::uint32_t>(data.slots.size());
        ASSERT_EQ(t->type.setup_lists.size(), (data.skins.size() + 1) * ((slots + 1) / 2)) << e.binary;
        for (Index skin = k_none; skin < static_cast<Index>(data.skins.size()); ++skin) {
            const std::string where = e.binary.filename().string() + " skin " + std::to_string(skin);
            const SkeletonPose pose = setup_pose(data, skin);
            PackedFrame frame(t->type, data, 1);
            pack_character(t->type, 0, pose, Color{}, frame.cursor);
            const GpuCharacter& header = frame.characters[0];
            EXPECT_EQ(header.draw_first, k_setup_list_bit | static_cast<std::uint32_t>(skin + 1) * ((slots + 1) / 2))
                << where;
            EXPECT_EQ(frame.cursor.word_count, 2 * t->type.color_slots.size()) << where << ": only the colours";
            for (std::uint32_t p = 0; p < slots; ++p)
                EXPECT_EQ(draw_list_entry(t->type, header, frame.words.data(), p), draw_entry(t->type, pose, p))
                    << where << " position " << p;
        }
    }
}

// Packs `pose` alone and expects its draw list sent, at the start of the words, with every entry draw_entry gives.
void expect_list_sent(const GpuType& t, const SkeletonPose& pose, const std::string& what) {
    const auto slots = static_cast<std::uint32_t>(t.data().slots.size());
    PackedFrame frame(t.type, t.data(), 1);
    pack_character(t.type, 0, pose, Color{}, frame.cursor);
    const GpuCharacter& header = frame.characters[0];
    EXPECT_EQ(header.draw_first, 0u) << what;
    EXPECT_EQ(frame.cursor.word_count, (slots + 1) / 2 + 2 * t.type.color_slots.size()) << what;
    for (std::uint32_t p = 0; p < slots; ++p)
        EXPECT_EQ(draw_list_entry(t.type, header, frame.words.data(), p), draw_entry(t.type, pose, p))
            << what << " position " << p;
}

TEST(FramePacker, a_changed_attachment_draw_order_or_sequence_frame_and_a_combined_skin_send_the_draw_list) {
    SPINEGPU_REQUIRE_EXAMPLES();
    auto spineboy = load_gpu_type("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas");
    ASSERT_TRUE(spineboy);
    const SkeletonData& data = spineboy->data();
    const auto slots = static_cast<std::uint32_t>(data.slots.size());
    // The first two draw-order positions that show different entries.
    const SkeletonPose setup = setup_pose(data, k_none);
    std::uint32_t shown = slots, other = slots;
    for (std::uint32_t p = 0; p < slots && other == slots; ++p) {
        if (draw_entry(spineboy->type, setup, p) == k_no_attachment) continue;
        if (shown == slots) shown = p;
        else if (draw_entry(spineboy->type, setup, p) != draw_entry(spineboy->type, setup, shown)) other = p;
    }
    ASSERT_LT(other, slots);
    SkeletonPose hidden = setup;
    set_slot_attachment(hidden, setup.draw_order[shown], k_none);
    expect_list_sent(*spineboy, hidden, "an attachment hidden");
    SkeletonPose reordered = setup;
    std::swap(reordered.draw_order[shown], reordered.draw_order[other]);
    expect_list_sent(*spineboy, reordered, "two draw-order positions swapped");
    // A combined skin has no setup list, even one whose attachments are the default skin's.
    SkeletonPose combined = create_pose(data);
    const Index default_only[] = {data.default_skin};
    set_combined_skin(combined, default_only);
    set_to_setup_pose(combined);
    expect_list_sent(*spineboy, combined, "a combined skin");

    // Goblins have 23 slots: the last word holds one entry and the padding, and a change there alone is seen.
    auto goblins = load_gpu_type("goblins/goblins-pro.skel", "goblins/goblins.atlas");
    ASSERT_TRUE(goblins);
    const SkeletonData& goblin = goblins->data();
    ASSERT_EQ(goblin.slots.size() % 2, 1u);
    SkeletonPose last = setup_pose(goblin, goblin.skin_names.find("goblin"));
    const Index last_slot = last.draw_order.back();
    ASSERT_NE(last.slots[static_cast<std::size_t>(last_slot)].attachment, k_none);
    set_slot_attachment(last, last_slot, k_none);
    expect_list_sent(*goblins, last, "the last position's attachment hidden");

    // The dragon's wings are sequences: another frame alone changes the list (the packer's second writing pass).
    auto dragon = load_gpu_type("dragon/dragon-ess.skel", "dragon/dragon.atlas");
    ASSERT_TRUE(dragon);
    const SkeletonPose still = setup_pose(dragon->data(), k_none);
    const Index wing = dragon->data().slot_names.find("left-wing");
    ASSERT_NE(wing, k_none);
    const auto at = static_cast<std::uint32_t>(
        std::find(still.draw_order.begin(), still.draw_order.end(), wing) - still.draw_order.begin());
    SkeletonPose flapping = still;
    flapping.slots[static_cast<std::size_t>(wing)].sequence_index = 3;
    ASSERT_NE(draw_entry(dragon->type, flapping, at), draw_entry(dragon->type, still, at));
    expect_list_sent(*dragon, flapping, "a sequence frame");
}

TEST(FramePacker, spineboy_pro_packs_no_more_than_the_seeds_bar_and_each_types_cost_is_reported) {
    SPINEGPU_REQUIRE_EXAMPLES();
    std::printf("%-30s %5s %5s %5s | %6s %6s %6s %6s %6s | %6s %6s | %8s %5s\n", "skeleton type", "bones", "drawn",
                "slots", "header", "bones", "draw", "colour", "deform", "total", "bar", "measured", "lists");
    std::uint32_t spineboy = 0;
    for (const ExampleSkeleton& e : example_skeletons()) {
        auto t = load_gpu_type(e.binary.string(), e.atlas.string());
        if (!t) continue;
        const SkeletonData& data = t->data();
        const auto slots = static_cast<std::uint32_t>(data.slots.size());
        const auto bones = static_cast<std::uint32_t>(data.bones.size());
        const auto drawn = static_cast<std::uint32_t>(t->type.drawn_bones.size());
        const std::uint32_t header = sizeof(GpuCharacter), bone_bytes = drawn * k_bone_bytes;
        const std::uint32_t draw = 4 * ((slots + 1) / 2);
        // Draw list: in "total"; in "measured" only in frames where it differs from the setup list of the skin
        // ("lists": how many of the frames sent it). Colour: two words per colour-animated slot, always packed.
        // Deform: a word per deform-animated slot and the floats, only in frames where a slot is deformed (in
        // "measured", not in "total").
        const auto colour = static_cast<std::uint32_t>(8 * t->type.color_slots.size());
        const auto deform = static_cast<std::uint32_t>(4 * t->type.deform_slots.size());
        const std::uint32_t total = packed_bytes_per_character(t->type, data);
        EXPECT_EQ(total, header + bone_bytes + draw + colour) << e.binary;
        EXPECT_LE(drawn, bones) << e.binary;

        // Measured: bytes actually packed per frame over 60 steps of the first animation (deform floats included).
        std::uint64_t packed = 0;
        int lists = 0;
        Player player(data, showcase_skin(data), 0);
        constexpr int k_frames = 60;
        for (int i = 0; i < k_frames; ++i) {
            player.step(1.0 / 60);
            PackedFrame frame(t->type, data, 1);
            pack_character(t->type, 0, player.pose, Color{}, frame.cursor);
            packed += header + std::uint64_t{frame.cursor.bone_count} * k_bone_bytes + 4ull * frame.cursor.word_count;
            lists += (frame.characters[0].draw_first & k_setup_list_bit) == 0 ? 1 : 0;
        }
        const std::string name = e.binary.filename().string();
        std::printf("%-30s %5u %5u %5u | %6u %6u %6u %6u %6u | %6u %6u | %8.1f %5d\n", name.c_str(), bones, drawn,
                    slots, header, bone_bytes, draw, colour, deform, total, 32 + 24 * bones,
                    static_cast<double>(packed) / k_frames, lists);
        if (name == "spineboy-pro.skel") {
            EXPECT_EQ(bones, 67u);
            spineboy = total;
        }
    }
    std::cout << "spineboy-pro: " << spineboy << " bytes per character per frame (bar: 1640)\n";
    EXPECT_GT(spineboy, 0u);
    EXPECT_LE(spineboy, 1640u);
}

TEST(FramePacker, pack_character_stays_within_max_words_and_writes_exactly_the_drawn_bones) {
    SPINEGPU_REQUIRE_EXAMPLES();
    for_each_example_pose(90, 15, [](const GpuType& t, const Player& player, const std::string& where) {
        const std::uint32_t max_words = max_words_per_character(t.type, t.data());
        const auto drawn = static_cast<std::uint32_t>(t.type.drawn_bones.size());
        const auto slots = static_cast<std::uint32_t>(t.data().slots.size());
        // Two characters in one frame: the second starts where the first ended.
        PackedFrame frame(t.type, t.data(), 2);
        pack_character(t.type, 3, player.pose, Color{}, frame.cursor);
        const std::uint32_t first_words = frame.cursor.word_count;
        EXPECT_LE(first_words, max_words) << where;
        pack_character(t.type, 3, player.pose, Color{}, frame.cursor);
        EXPECT_EQ(frame.cursor.character_count, 2u) << where;
        EXPECT_EQ(frame.cursor.bone_count, 2 * drawn) << where;
        EXPECT_EQ(frame.cursor.word_count, 2 * first_words) << where;
        EXPECT_TRUE(frame.guards_intact()) << where << ": packing wrote past the space it promised";

        const GpuCharacter& second = frame.characters[1];
        EXPECT_EQ(second.type, 3u) << where;
        EXPECT_EQ(second.bone_first, drawn) << where;
        // The draw list is sent unless it is the setup list of the pose's skin.
        const bool sent = (second.draw_first & k_setup_list_bit) == 0;
        if (sent) {
            EXPECT_EQ(second.draw_first, first_words) << where;
        } else {
            EXPECT_EQ(second.draw_first, k_setup_list_bit | static_cast<std::uint32_t>(player.pose.skin + 1) *
                                                                 ((slots + 1) / 2))
                << where;
        }
        EXPECT_EQ(second.out_vertex_first * 2, frame.cursor.out_vertex_count) << where;
        EXPECT_EQ(second.out_index_first * 2, frame.cursor.out_index_count) << where;
        EXPECT_EQ(second.color_first == k_no_section, (t.type.flags & k_type_colors) == 0) << where;
        // The deform section is there only while a slot is deformed.
        if ((t.type.flags & k_type_deform) == 0) {
            EXPECT_EQ(second.deform_first, k_no_section) << where;
        }
        if (second.color_first != k_no_section) {
            EXPECT_EQ(second.color_first, first_words + (sent ? (slots + 1) / 2 : 0)) << where;
        }
        for (std::uint32_t b = 0; b < drawn; ++b) {
            const BoneWorld& w = player.pose.world[static_cast<std::size_t>(t.type.drawn_bones[b])];
            EXPECT_EQ(std::memcmp(&frame.bones[std::size_t{drawn + b} * 6], &w, k_bone_bytes), 0)
                << where << " drawn bone " << b;
        }
        return !::testing::Test::HasFailure();
    });
}

}  // namespace
}  // namespace spinegpu::test
