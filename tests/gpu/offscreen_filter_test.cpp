// OffscreenFilter: a crowd walking across the view, updated with the filter (in the packing pass, and before draw()
// by a BatchUpdater), draws frame for frame the image the same crowd draws when every character is posed, while the
// characters outside the view are passed over; the view it tests is the one draw() culls against.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
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
    ASSERT_TRUE(renderer->finalize().ok());
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
    OffscreenFilter offscreen(*renderer, types);
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

}  // namespace
}  // namespace spinegpu::test
