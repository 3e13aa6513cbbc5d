// Batch updates of many characters (batch_update.hpp): a crowd of mixed skeleton types (physics, paths, IK, skins,
// events) updated on 1, 2, 3 and 8 threads, with the worker pool and with oneTBB, ends bit for bit where the plain
// sequential loop over the public runtime API ends; notifications are delivered after the batch, on the calling
// thread, in character order, exactly as a sequential update reports them; the steady state allocates nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "spinegpu/data/skeleton_loader.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/batch_update.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "crowd_test_support.hpp"
#include "test_support.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPINEGPU_TEST_ALLOCATOR_HOOKS 1
// The sanitizer runtimes' hook interface (<sanitizer/allocator_interface.h>, which GCC does not install).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                                         void (*free_hook)(const volatile void*));
#endif

namespace spinegpu {
namespace {

using namespace test;

constexpr double k_dt = 1.0 / 60;

// The reference: the plain sequential loop over the public runtime API, as the pose command steps one character;
// after each frame, every character's notifications in character order.
std::vector<Delivered> run_sequential(Crowd& crowd, std::uint32_t frames) {
    std::vector<Delivered> events;
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        steer(crowd, frame);
        for (CharacterIndex i = 0; i < crowd.size(); ++i) {
            AnimationState& state = crowd.state(i);
            SkeletonPose& pose = crowd.pose(i);
            state.update(k_dt);
            state.apply(pose);
            update_time(pose, k_dt);
            update_world_transform(pose, Physics::update);
        }
        for (CharacterIndex i = 0; i < crowd.size(); ++i) {
            for (const StateNotification& n : crowd.state(i).notifications) events.push_back({i, n});
            crowd.state(i).notifications.clear();
        }
    }
    return events;
}

std::vector<Delivered> run_batched(Crowd& crowd, std::uint32_t frames, BatchUpdater& updater) {
    std::vector<Delivered> events;
    for (std::uint32_t frame = 0; frame < frames; ++frame) {
        steer(crowd, frame);
        updater.update(crowd, FrameStep{k_dt, Physics::update},
                       [&](CharacterIndex i, const StateNotification& n) { events.push_back({i, n}); });
    }
    return events;
}

void expect_same_crowd(const Crowd& expected, const Crowd& actual, const std::string& what) {
    ASSERT_EQ(expected.size(), actual.size());
    for (CharacterIndex i = 0; i < expected.size(); ++i) {
        const std::string difference = first_difference(expected.pose(i), actual.pose(i));
        ASSERT_EQ(difference, "") << what << ": character " << i << " (" << k_skeleton_files[i % skeletons().size()]
                                  << ")";
    }
}

constexpr std::size_t k_characters = 54;  // 6 of each of the 9 types
constexpr std::uint32_t k_frames = 100;

void expect_thread_count_does_not_change_poses(ThreadBackend backend) {
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_FALSE(skeletons().empty());
    Crowd expected = make_mixed_crowd(k_characters);
    const std::vector<Delivered> expected_events = run_sequential(expected, k_frames);
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        for (std::uint32_t grain : {0u, 1u, 5u}) {
            BatchUpdater updater(BatchDesc{threads, backend, grain});
            Crowd crowd = make_mixed_crowd(k_characters);
            const std::vector<Delivered> events = run_batched(crowd, k_frames, updater);
            const std::string what = std::string(thread_backend_name(backend)) + ", " + std::to_string(threads) +
                                     " threads, grain " + std::to_string(grain);
            expect_same_crowd(expected, crowd, what);
            EXPECT_EQ(events, expected_events) << what;
        }
    }
}

TEST(BatchUpdate, pool_gives_bit_identical_poses_for_1_2_3_and_8_threads_on_mixed_skeletons) {
    expect_thread_count_does_not_change_poses(ThreadBackend::pool);
}

TEST(BatchUpdate, tbb_gives_bit_identical_poses_for_1_2_3_and_8_threads_on_mixed_skeletons) {
    if (!has_thread_backend(ThreadBackend::tbb)) GTEST_SKIP() << "built without oneTBB";
    expect_thread_count_does_not_change_poses(ThreadBackend::tbb);
}

TEST(Crowd, a_removed_character_leaves_the_others_as_they_would_have_been) {
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_FALSE(skeletons().empty());
    Crowd expected = make_mixed_crowd(k_characters);
    Crowd crowd = make_mixed_crowd(k_characters);
    std::vector<CharacterIndex> was(k_characters);  // crowd's character i is expected's was[i]
    for (CharacterIndex i = 0; i < was.size(); ++i) was[i] = i;
    BatchUpdater updater(BatchDesc{3});
    BatchUpdater reference(BatchDesc{1});
    auto ignore = [](CharacterIndex, const StateNotification&) {};
    for (std::uint32_t frame = 0; frame < 60; ++frame) {
        if (frame == 20 || frame == 40) {
            // A character in the middle, the first, and the last (which moves nothing).
            for (int k = 0; k < 3; ++k) {
                const std::size_t size = crowd.size();
                const auto gone = static_cast<CharacterIndex>(k == 0 ? 7 : k == 1 ? 0 : size - 1);
                const CharacterIndex moved = crowd.remove(gone);
                EXPECT_EQ(moved, size - 1);
                EXPECT_EQ(crowd.size(), size - 1);
                was[gone] = was[moved];
                was.pop_back();
            }
        }
        updater.update(crowd, FrameStep{k_dt, Physics::update}, ignore);
        reference.update(expected, FrameStep{k_dt, Physics::update}, ignore);
    }
    ASSERT_EQ(crowd.size(), k_characters - 6);
    for (CharacterIndex i = 0; i < crowd.size(); ++i) {
        ASSERT_EQ(crowd.pose(i).data, expected.pose(was[i]).data) << i;
        EXPECT_EQ(first_difference(expected.pose(was[i]), crowd.pose(i)), "") << "character " << i << " (was "
                                                                                << was[i] << ")";
        EXPECT_EQ(crowd.state(i).current(0).valid(), expected.state(was[i]).current(0).valid()) << i;
    }
}

TEST(BatchUpdate, events_are_delivered_after_the_batch_on_the_calling_thread_in_character_order) {
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_FALSE(skeletons().empty());
    Crowd expected = make_mixed_crowd(k_characters);
    const std::vector<Delivered> expected_events = run_sequential(expected, k_frames);

    Crowd crowd = make_mixed_crowd(k_characters);
    BatchUpdater updater(BatchDesc{3, ThreadBackend::pool, 2});
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<Delivered> events;
    int wrong_thread = 0, before_batch_end = 0, out_of_order = 0;
    for (std::uint32_t frame = 0; frame < k_frames; ++frame) {
        steer(crowd, frame);
        const std::size_t first = events.size();
        const double frame_time = static_cast<double>(frame + 1) * k_dt;
        updater.update(crowd, FrameStep{k_dt, Physics::update}, [&](CharacterIndex i, const StateNotification& n) {
            if (std::this_thread::get_id() != caller) ++wrong_thread;
            // Every character has finished this frame (all physics times advanced) before the first delivery.
            for (const SkeletonPose& pose : crowd.poses())
                if (pose.time < frame_time - 1e-9) ++before_batch_end;
            if (events.size() > first && events.back().character > i) ++out_of_order;
            events.push_back({i, n});
        });
        for (CharacterIndex i = 0; i < crowd.size(); ++i)
            ASSERT_TRUE(crowd.state(i).notifications.empty()) << "delivered notifications are cleared";
    }
    EXPECT_EQ(wrong_thread, 0);
    EXPECT_EQ(before_batch_end, 0);
    EXPECT_EQ(out_of_order, 0);
    EXPECT_EQ(events, expected_events);

    // The schedule produced every kind of notification, so the comparison above covers them all.
    int kinds[6] = {};
    for (const Delivered& d : events) ++kinds[static_cast<int>(d.notification.type)];
    for (int kind = 0; kind < 6; ++kind) EXPECT_GT(kinds[kind], 0) << "no notification of type " << kind;
}

TEST(BatchUpdate, listener_may_set_animations_and_their_notifications_arrive_in_the_same_delivery) {
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_FALSE(skeletons().empty());
    Crowd crowd = make_mixed_crowd(9);
    BatchUpdater updater(BatchDesc{2, ThreadBackend::pool, 1});
    int restarts = 0, starts_after_restart = 0;
    for (std::uint32_t frame = 0; frame < 240; ++frame) {
        updater.update(crowd, FrameStep{k_dt, Physics::update}, [&](CharacterIndex i, const StateNotification& n) {
            if (n.type == StateNotification::Type::start && restarts > 0) ++starts_after_restart;
            if (n.type == StateNotification::Type::complete && n.track == 0 && restarts < 20) {
                ++restarts;
                crowd.state(i).set_animation(0, n.animation, false);
            }
        });
    }
    ASSERT_GT(restarts, 0);
    EXPECT_GE(starts_after_restart, restarts);
}

TEST(WorkerPool, runs_every_index_exactly_once_per_batch) {
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        WorkerPool pool(threads);
        EXPECT_EQ(pool.threads(), threads);
        for (std::size_t count : {0u, 1u, 7u, 64u, 1000u}) {
            for (std::size_t grain : {0u, 1u, 3u, 64u}) {
                // Each index is touched by the one thread that claimed it: plain ints (TSan checks the claim).
                std::vector<int> hits(count, 0);
                for (int batch = 0; batch < 20; ++batch) {
                    pool.run(count, grain,
                             RangeJob{[](void* context, std::size_t begin, std::size_t end) {
                                          auto& h = *static_cast<std::vector<int>*>(context);
                                          for (std::size_t i = begin; i < end; ++i) ++h[i];
                                      },
                                      &hits});
                }
                for (std::size_t i = 0; i < count; ++i)
                    ASSERT_EQ(hits[i], 20) << threads << " threads, count " << count << ", grain " << grain;
            }
        }
    }
}

TEST(WorkerPool, ranges_are_the_grain_until_the_last_round_and_quarters_in_it) {
    // The last threads() x grain indices (one range per thread) go in quarter ranges (at least 4, at most the grain),
    // so that the threads finish together; the ranges before them are the grain exactly, and all of them cover every
    // index once.
    for (unsigned threads : {2u, 3u, 8u}) {
        WorkerPool pool(threads);
        for (std::size_t count : {5u, 40u, 100u, 1000u, 1003u}) {
            for (std::size_t grain : {1u, 4u, 8u, 16u, 17u, 64u}) {
                struct Seen {
                    std::mutex mutex;
                    std::vector<std::pair<std::size_t, std::size_t>> ranges;
                } seen;
                pool.run(count, grain, RangeJob{[](void* context, std::size_t begin, std::size_t end) {
                                                    auto& s = *static_cast<Seen*>(context);
                                                    std::lock_guard lock(s.mutex);
                                                    s.ranges.emplace_back(begin, end);
                                                },
                                                &seen});
                std::sort(seen.ranges.begin(), seen.ranges.end());
                const std::string where = std::to_string(threads) + " threads, count " + std::to_string(count) +
                                          ", grain " + std::to_string(grain);
                const std::size_t quarter = std::min<std::size_t>(grain, std::max<std::size_t>(grain / 4, 4));
                const std::size_t last_round = count > threads * grain ? count - threads * grain : 0;
                std::size_t next = 0;
                bool quarters = false;
                for (auto [begin, end] : seen.ranges) {
                    ASSERT_EQ(begin, next) << where;
                    ASSERT_LT(begin, end) << where;
                    next = end;
                    if (count <= grain) {
                        EXPECT_EQ(end, count) << where << ": one range, on the caller";
                        continue;
                    }
                    if (!quarters && end - begin < grain) {
                        quarters = true;
                        EXPECT_GT(begin + grain, last_round) << where << ": quarters from " << begin;
                    }
                    if (quarters || begin >= last_round)
                        EXPECT_LE(end - begin, quarter) << where << ", range at " << begin;
                    else
                        EXPECT_EQ(end - begin, grain) << where << ", range at " << begin;
                }
                EXPECT_EQ(next, count) << where;
            }
        }
    }
}

TEST(BatchUpdate, worker_pool_is_the_updaters_own_threads_with_the_pool_backend_and_null_with_tbb) {
    BatchUpdater updater(BatchDesc{3, ThreadBackend::pool, 0});
    WorkerPool* pool = updater.worker_pool();
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->threads(), 3u);
    EXPECT_EQ(updater.worker_pool(), pool);  // the same pool every time, not a new one
    std::vector<int> hits(100, 0);
    pool->run(hits.size(), 7, RangeJob{[](void* context, std::size_t begin, std::size_t end) {
                                           auto& h = *static_cast<std::vector<int>*>(context);
                                           for (std::size_t i = begin; i < end; ++i) ++h[i];
                                       },
                                       &hits});
    EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), 100);
    if (has_thread_backend(ThreadBackend::tbb)) {
        BatchUpdater tbb(BatchDesc{3, ThreadBackend::tbb, 0});
        EXPECT_EQ(tbb.worker_pool(), nullptr);
    }
}

// With oneTBB the updater reports the threads that run a batch: a request past TBB's concurrency (the hardware
// threads) is capped, as TBB starts no more workers.
TEST(BatchUpdate, tbb_reports_its_thread_count_capped_at_the_hardware_threads) {
    if (!has_thread_backend(ThreadBackend::tbb)) GTEST_SKIP() << "built without oneTBB";
    BatchUpdater many(BatchDesc{1000, ThreadBackend::tbb, 0});
    EXPECT_EQ(many.backend(), ThreadBackend::tbb);
    EXPECT_GE(many.threads(), 1u);
    EXPECT_LE(many.threads(), std::max(1u, std::thread::hardware_concurrency()));
    BatchUpdater one(BatchDesc{1, ThreadBackend::tbb, 0});
    EXPECT_EQ(one.threads(), 1u);
}

TEST(WorkerPool, workers_take_part_in_a_batch) {
    WorkerPool pool(2);
    std::atomic<int> ranges_off_caller{0};
    const std::thread::id caller = std::this_thread::get_id();
    struct Context {
        std::atomic<int>* off_caller;
        std::thread::id caller;
    } context{&ranges_off_caller, caller};
    // Slow ranges, so that the worker wakes before the caller has claimed them all.
    for (int batch = 0; batch < 50 && ranges_off_caller.load() == 0; ++batch) {
        pool.run(16, 1, RangeJob{[](void* c, std::size_t, std::size_t) {
                                     auto& ctx = *static_cast<Context*>(c);
                                     if (std::this_thread::get_id() != ctx.caller) ctx.off_caller->fetch_add(1);
                                     std::this_thread::sleep_for(std::chrono::microseconds(200));
                                 },
                                 &context});
    }
    EXPECT_GT(ranges_off_caller.load(), 0);
}

#if SPINEGPU_TEST_ALLOCATOR_HOOKS
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
void count_malloc(const volatile void*, std::size_t) {
    if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
void ignore_free(const volatile void*) {}
#endif

// Counts every heap allocation of the process (all threads) through the sanitizer allocator's hooks: the
// non-sanitizer build cannot count allocations on other threads without replacing malloc.
void expect_steady_state_allocates_nothing(ThreadBackend backend) {
#if SPINEGPU_TEST_ALLOCATOR_HOOKS
    SPINEGPU_REQUIRE_EXAMPLES();
    ASSERT_FALSE(skeletons().empty());
    static const bool installed = __sanitizer_install_malloc_and_free_hooks(&count_malloc, &ignore_free) != 0;
    ASSERT_TRUE(installed);
    g_allocations = 0;
    g_counting = true;
    std::vector<int>* volatile probe = new std::vector<int>(3);  // volatile: not elided
    delete probe;
    g_counting = false;
    ASSERT_EQ(g_allocations.load(), 2) << "the hooks count allocations";
    Crowd crowd = make_mixed_crowd(k_characters);
    BatchUpdater updater(BatchDesc{3, backend, 2});
    long delivered = 0;
    auto listener = [&](CharacterIndex, const StateNotification&) { ++delivered; };
    // Warm up: looping animations only (steer() is not called), so every state reaches its steady size.
    for (int frame = 0; frame < 240; ++frame) updater.update(crowd, FrameStep{k_dt, Physics::update}, listener);
    g_allocations = 0;
    g_counting = true;
    for (int frame = 0; frame < 120; ++frame) updater.update(crowd, FrameStep{k_dt, Physics::update}, listener);
    g_counting = false;
    EXPECT_EQ(g_allocations.load(), 0) << "allocations in 120 steady-state batches (" << thread_backend_name(backend)
                                       << ")";
    EXPECT_GT(delivered, 0);
#else
    (void)backend;
    GTEST_SKIP() << "counting allocations on every thread needs the sanitizer allocator hooks "
                    "(build with -DSPINEGPU_SANITIZE=ON or -fsanitize=thread)";
#endif
}

TEST(BatchUpdate, pool_steady_state_allocates_nothing) { expect_steady_state_allocates_nothing(ThreadBackend::pool); }

TEST(BatchUpdate, tbb_steady_state_allocates_nothing) {
    if (!has_thread_backend(ThreadBackend::tbb)) GTEST_SKIP() << "built without oneTBB";
    expect_steady_state_allocates_nothing(ThreadBackend::tbb);
}

}  // namespace
}  // namespace spinegpu
