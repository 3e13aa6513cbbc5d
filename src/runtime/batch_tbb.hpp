// The oneTBB back-end of BatchUpdater (batch_tbb.cpp). Without oneTBB at build time the functions exist but
// has_thread_backend(ThreadBackend::tbb) is false and create_tbb_arena returns null.
#pragma once

#include <cstddef>

#include "spinegpu/runtime/batch_update.hpp"

namespace spinegpu {

// A task_arena with `threads` slots (the caller's included; at most tbb_thread_limit()), or null when this build has
// no oneTBB. Allocates.
TbbArena* create_tbb_arena(unsigned threads);

// The most threads an arena runs: TBB's default concurrency (the hardware threads it may use), which has no more
// workers than that; 1 without oneTBB.
unsigned tbb_thread_limit();

// Runs `job` over [0, count) with tbb::parallel_for in `arena`, ranges of about `grain` indices; returns when done.
void run_in_tbb_arena(TbbArena& arena, std::size_t count, std::size_t grain, RangeJob job);

}  // namespace spinegpu
