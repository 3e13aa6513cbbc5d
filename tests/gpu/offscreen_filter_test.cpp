// OffscreenFilter: a crowd walking across the view, updated with the filter (in the packing pass, and before draw()
// by a BatchUpdater), draws frame for frame the image the same crowd draws when every character is posed, while the
// characters outside the view are passed over; the view it tests is the one draw() culls against.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "renderer_test_support.hpp"
#include "spinegpu/gpu/offscreen_filter.hpp"
#include "spinegpu/gpu/renderer.hpp"
#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu::test {
namespace {

using namespace spinegpu::gpu;

constexpr double k_dt = 1.0 / 60;

// Sixteen spineboys in a row, most of it outside the view, on looping animations at phases of their own.
Crowd walking_crowd(const SkeletonData& data) {
    Crowd crowd;
    const Index walk = data.animation_names.find("walk"), run = data.animation_names.find("run");
    for (CharacterIndex i = 0; i < 16; ++i) {
        crowd.add(data);
        crowd.pose(i).x = -15000.0f + 1500.0f * static_cast<float>(i);
        const TrackEntryId entry = crowd.state(i).set_animation(0, i % 2 == 0 ? walk : run, true);
        crowd.state(i).entry(entry)->track_time = 0.07 * i;
    }
    return crowd;
}

TEST(OffscreenFilter, characters_outside_the_view_are_passed_over_and_the_frames_equal_those_posing_every_one) {
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    ASSERT_TRUE(spineboy);
    BatchUpdater updater(BatchDesc{2, ThreadBackend::pool, 2});
    renderer->set_worker_pool(updater.worker_pool());
    const Camera2D camera{0.12f, 80, 110};
    const WorldRect view = view_rect(camera, k_width, k_height);
    EXPECT_FLOAT_EQ(view.min_x, -80 / 0.12f);
    EXPECT_FLOAT_EQ(view.max_y, 110 / 0.12f);

    // Every character posed (the reference); passed over in the packing pass; passed over by the updater.
    Crowd all = walking_crowd(spineboy->data()), in_pack = walking_crowd(spineboy->data()),
          before = walking_crowd(spineboy->data());
    const std::vector<std::uint32_t> types(all.size(), spineboy->type);
    Result<OffscreenFilter> made = OffscreenFilter::create(*renderer, types);
    ASSERT_TRUE(made.ok()) << made.error().message();
    OffscreenFilter& offscreen = *made;
    offscreen.set_view(camera, k_width, k_height);
    auto draws_of = [&](Crowd& crowd) {
        std::vector<CharacterDraw> draws;
        for (SkeletonPose& pose : crowd.poses()) draws.push_back({&pose, spineboy->type, Color{}});
        return draws;
    };
    const std::vector<CharacterDraw> all_draws = draws_of(all), in_pack_draws = draws_of(in_pack),
                                     before_draws = draws_of(before);
    struct JobContext {
        Crowd* crowd;
        FrameStep step;
        std::span<const CharacterIndex> order;
    };
    auto pose_job = [](JobContext& context) {
        return PoseJob{[](void* raw, std::size_t begin, std::size_t end) {
                           auto& x = *static_cast<JobContext*>(raw);
                           update_in_order(*x.crowd, x.order, begin, end, x.step);
                       },
                       &context, context.order};
    };
    auto draw = [&](const std::vector<CharacterDraw>& draws, PoseJob job, std::uint32_t& culled) {
        Result<FrameStats> stats = renderer->draw(draws, camera, k_width, k_height, k_background, RenderPath::gpu, job);
        EXPECT_TRUE(stats.ok()) << stats.error().message();
        culled = stats.ok() ? stats->culled : 0;
        Result<Image> image = renderer->read_back();
        EXPECT_TRUE(image.ok()) << image.error().message();
        return image.ok() ? std::move(*image) : Image{};
    };

    std::uint32_t passed_over = 0, drawn_frames = 0, posed_again = 0;
    std::vector<bool> was_passed_over(all.size(), false);
    for (int frame = 0; frame < 90; ++frame) {
        for (Crowd* crowd : {&all, &in_pack, &before})
            for (SkeletonPose& pose : crowd->poses()) pose.x += 40;  // the row walks right, across the view
        std::uint32_t culled[3];
        all.update_order().refresh(all.size());
        JobContext all_context{&all, FrameStep{k_dt, Physics::update}, all.update_order().characters()};
        const Image reference = draw(all_draws, pose_job(all_context), culled[0]);

        in_pack.update_order().refresh(in_pack.size());
        JobContext in_pack_context{&in_pack, FrameStep{k_dt, Physics::update, offscreen.filter()},
                                   in_pack.update_order().characters()};
        const Image packed = draw(in_pack_draws, pose_job(in_pack_context), culled[1]);

        updater.update(before, FrameStep{k_dt, Physics::update, offscreen.filter()});
        const Image updated = draw(before_draws, PoseJob{}, culled[2]);

        ASSERT_EQ(reference.rgba, packed.rgba) << "frame " << frame << ", passed over in the packing pass";
        ASSERT_EQ(reference.rgba, updated.rgba) << "frame " << frame << ", passed over by the updater";
        EXPECT_EQ(culled[1], culled[0]) << "frame " << frame;
        EXPECT_EQ(culled[2], culled[0]) << "frame " << frame;
        for (CharacterIndex i = 0; i < all.size(); ++i) {
            // Passed over exactly when draw() culled it (none is passed over in its first frame).
            ASSERT_EQ(in_pack.pose(i).posed_at.skipped, before.pose(i).posed_at.skipped) << "frame " << frame;
            const bool skipped = in_pack.pose(i).posed_at.skipped;
            passed_over += skipped ? 1 : 0;
            posed_again += was_passed_over[i] && !skipped ? 1 : 0;
            was_passed_over[i] = skipped;
        }
        if (culled[0] < all.size()) ++drawn_frames;
    }
    EXPECT_GT(passed_over, 90u * 8) << "most of the row is outside the view most of the time";
    EXPECT_GT(drawn_frames, 80u);
    EXPECT_GE(posed_again, 2u) << "characters walked into the view after frames passed over";
    expect_no_validation_messages(*renderer);
}

TEST(OffscreenFilter, a_crowd_of_two_types_drawn_in_its_own_order_is_passed_over_by_crowd_index) {
    // Spineboys and mix-and-match characters in a full skin (a third of its bones inactive) alternate in the crowd,
    // walking across the view; the draw list runs backwards through the crowd. Frames as with every one posed, and
    // both types are passed over.
    SPINEGPU_REQUIRE_EXAMPLES();
    SPINEGPU_REQUIRE_RENDERER(renderer);
    std::optional<AddedType> spineboy =
        load_type(*renderer, "spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas", "spineboy-pro");
    std::optional<AddedType> girl =
        load_type(*renderer, "mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match-pma.atlas", "mm");
    ASSERT_TRUE(spineboy && girl);
    const Camera2D camera{0.12f, 80, 110};
    auto make = [&](std::vector<std::uint32_t>& types) {
        Crowd crowd;
        for (CharacterIndex i = 0; i < 16; ++i) {
            const AddedType& t = i % 2 == 0 ? *spineboy : *girl;
            crowd.add(t.data());
            types.push_back(t.type);
            if (i % 2 != 0) set_skin(crowd.pose(i), t.data().skin_names.find("full-skins/girl"));
            set_to_setup_pose(crowd.pose(i));
            crowd.pose(i).x = -15000.0f + 1500.0f * static_cast<float>(i);
            crowd.state(i).set_animation(0, t.data().animation_names.find(i % 4 < 2 ? "walk" : "run"), true);
        }
        return crowd;
    };
    std::vector<std::uint32_t> types, unused;
    Crowd all = make(unused), passed = make(types);
    Result<OffscreenFilter> offscreen = OffscreenFilter::create(*renderer, types);
    ASSERT_TRUE(offscreen.ok()) << offscreen.error().message();
    offscreen->set_view(camera, k_width, k_height);
    auto draws_of = [&](Crowd& crowd) {
        std::vector<CharacterDraw> draws;
        for (CharacterIndex i = static_cast<CharacterIndex>(crowd.size()); i-- > 0;)
            draws.push_back({&crowd.pose(i), types[i], Color{}});
        return draws;
    };
    const std::vector<CharacterDraw> all_draws = draws_of(all), passed_draws = draws_of(passed);
    BatchUpdater updater(BatchDesc{2, ThreadBackend::pool, 2});
    std::uint32_t passed_over[2] = {0, 0};
    for (int frame = 0; frame < 90; ++frame) {
        for (Crowd* crowd : {&all, &passed})
            for (SkeletonPose& pose : crowd->poses()) pose.x += 40;
        updater.update(all, FrameStep{k_dt, Physics::update});
        updater.update(passed, FrameStep{k_dt, Physics::update, offscreen->filter()});
        std::vector<Image> images;
        for (const std::vector<CharacterDraw>* draws : {&all_draws, &passed_draws}) {
            ASSERT_TRUE(renderer->draw(*draws, camera, k_width, k_height, k_background, RenderPath::gpu).ok());
            Result<Image> image = renderer->read_back();
            ASSERT_TRUE(image.ok()) << image.error().message();
            images.push_back(std::move(*image));
        }
        ASSERT_EQ(images[0].rgba, images[1].rgba) << "frame " << frame;
        for (CharacterIndex i = 0; i < passed.size(); ++i) passed_over[i % 2] += passed.pose(i).posed_at.skipped;
    }
    EXPECT_GT(passed_over[0], 90u * 3) << "spineboys passed over";
    EXPECT_GT(passed_over[1], 90u * 3) << "mix-and-match characters passed over";

    // A type index the renderer lacks is refused; a character whose pose is not of its type's skeleton is posed.
    const std::vector<std::uint32_t> wrong = {spineboy->type, 7};
    Result<OffscreenFilter> refused = OffscreenFilter::create(*renderer, wrong);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message().find("types[1]"), std::string::npos) << refused.error().message();
    const PoseFilter filter = offscreen->filter();
    // (Character 1: a mix-and-match character, left of the view after its walk.)
    EXPECT_FALSE(filter.posed(filter.context, 1, passed.pose(1)));
    EXPECT_TRUE(filter.posed(filter.context, 0, passed.pose(1))) << "asked as a spineboy";
    EXPECT_TRUE(filter.posed(filter.context, 16, passed.pose(1))) << "an index past the types";
    expect_no_validation_messages(*renderer);
}

}  // namespace
}  // namespace spinegpu::test
