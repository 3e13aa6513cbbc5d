// oneTBB back-end of BatchUpdater: tbb::parallel_for over index ranges inside a task_arena limited to the updater's
// thread count. Built only when CMake found oneTBB (SPINEGPU_HAVE_TBB).
#include "batch_tbb.hpp"

#if SPINEGPU_HAVE_TBB
#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#endif

namespace spinegpu {

#if SPINEGPU_HAVE_TBB

class TbbArena {
public:
    // `threads` at most tbb_thread_limit() (BatchUpdater caps it): TBB has no more workers than that.
    explicit TbbArena(unsigned threads) : arena_(static_cast<int>(threads)) {}
    tbb::task_arena& arena() { return arena_; }

private:
    tbb::task_arena arena_;
};

bool has_thread_backend(ThreadBackend backend) {
    return backend == ThreadBackend::pool || backend == ThreadBackend::tbb;
}

TbbArena* create_tbb_arena(unsigned threads) { return new TbbArena(threads); }

unsigned tbb_thread_limit() { return static_cast<unsigned>(std::max(1, tbb::info::default_concurrency())); }

void TbbArenaDeleter::operator()(TbbArena* arena) const { delete arena; }

void run_in_tbb_arena(TbbArena& arena, std::size_t count, std::size_t grain, RangeJob job) {
    arena.arena().execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, grain),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                              job.run(job.context, range.begin(), range.end());
                          });
    });
}

#else

class TbbArena {};

bool has_thread_backend(ThreadBackend backend) { return backend == ThreadBackend::pool; }

TbbArena* create_tbb_arena(unsigned) { return nullptr; }

unsigned tbb_thread_limit() { return 1; }

void TbbArenaDeleter::operator()(TbbArena* arena) const { delete arena; }

void run_in_tbb_arena(TbbArena&, std::size_t, std::size_t, RangeJob) {}

#endif

}  // namespace spinegpu
