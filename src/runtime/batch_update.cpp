// Crowd, the update job, the std::jthread worker pool and BatchUpdater (batch_update.hpp). The oneTBB back-end is in
// batch_tbb.cpp.
#include "spinegpu/runtime/batch_update.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <utility>

#include "batch_tbb.hpp"
#include "world_group.hpp"

namespace spinegpu {

// --- Crowd ---

CharacterIndex Crowd::add(const SkeletonData& data, MixTable mixes) {
    assert(poses_.size() < 0xffffffffu);
    poses_.push_back(create_pose(data));
    states_.emplace_back(data, std::move(mixes));
    return static_cast<CharacterIndex>(poses_.size() - 1);
}

void Crowd::reserve(std::size_t count) {
    poses_.reserve(count);
    states_.reserve(count);
}

CharacterIndex Crowd::remove(CharacterIndex i) {
    assert(i < poses_.size());
    const auto last = static_cast<CharacterIndex>(poses_.size() - 1);
    if (i != last) {
        poses_[i] = std::move(poses_[last]);
        states_[i] = std::move(states_[last]);
    }
    poses_.pop_back();
    states_.pop_back();
    order_.moved(last, i);
    return last;
}

SkeletonPose& Crowd::pose(CharacterIndex i) {
    assert(i < poses_.size());
    return poses_[i];
}

const SkeletonPose& Crowd::pose(CharacterIndex i) const {
    assert(i < poses_.size());
    return poses_[i];
}

AnimationState& Crowd::state(CharacterIndex i) {
    assert(i < states_.size());
    return states_[i];
}

const AnimationState& Crowd::state(CharacterIndex i) const {
    assert(i < states_.size());
    return states_[i];
}

// --- The job ---

namespace {

// One character's frame up to its world transforms: the animation state advanced and applied, physics time.
inline void animate_character(SkeletonPose& pose, AnimationState& state, const FrameStep& step) {
    state.update(step.dt);
    state.apply(pose);
    update_time(pose, step.dt);
}

// Records that the pose's world transforms are now computed at its skeleton position and scale.
inline void mark_posed(SkeletonPose& pose) {
    pose.posed_at = {pose.x, pose.y, pose.scale_x, pose.scale_y, true, false, 0.0};
}

// One character's posed frame, as update_characters documents it; after frames passed over (PoseFilter), from the
// setup pose with physics reset.
inline void update_character(SkeletonPose& pose, AnimationState& state, const FrameStep& step) {
    const bool again = pose.posed_at.skipped;
    if (again) set_to_setup_pose(pose);
    animate_character(pose, state, step);
    update_world_transform(pose, again && step.physics != Physics::none ? Physics::reset : step.physics);
    mark_posed(pose);
}

// Moves the stale world transforms of a character passed over with its skeleton position: every active bone's by
// how far x and y moved since they were computed or last moved. False, moving nothing, where they cannot follow: the
// skeleton scale changed, or the move is not finite. A new world_stamp, the same shape_stamp; the drift grows by the
// move's rounding bound: dx and each sum are rounded once, each by at most 2^-24 of its magnitude (u), so a bone
// lands within u (|dx| (1 + u) + |x + dx|) of its exact shift; 2^-23 (|dx| + the largest such |x + dx|) bounds
// that with room to spare (a sum whose result is subnormal is exact). The drift's own sum is rounded up past its
// rounding (the factor 1 + 2^-50 outweighs two roundings of 2^-53), so each move adds at least its bound to it.
bool follow_position(SkeletonPose& pose) {
    PosedAt& at = pose.posed_at;
    if (pose.scale_x != at.scale_x || pose.scale_y != at.scale_y) return false;
    if (pose.x == at.x && pose.y == at.y) return true;
    const float dx = pose.x - at.x, dy = pose.y - at.y;
    if (!std::isfinite(dx) || !std::isfinite(dy)) return false;
    float reach = 0;  // the largest |x| or |y| of a moved bone (NaN ones left out, as culling leaves them out)
    for (std::size_t b = 0; b < pose.world.size(); ++b) {
        if (!pose.bone_active[b]) continue;  // (inactive bones keep what they hold, as posing leaves them)
        BoneWorld& world = pose.world[b];
        world.x += dx;
        world.y += dy;
        reach = std::max(reach, std::fabs(world.x));  // (std::max keeps `reach` over a NaN)
        reach = std::max(reach, std::fabs(world.y));
    }
    at.x = pose.x;
    at.y = pose.y;
    at.drift = (at.drift + 0x1p-23 * (static_cast<double>(std::max(std::fabs(dx), std::fabs(dy))) + reach)) *
               (1 + 0x1p-50);
    pose.world_stamp = next_world_stamp();
    return true;
}

// Whether the step's filter passes over character `i` this frame (its stale world transforms moved first).
inline bool passes_over(const FrameStep& step, CharacterIndex i, SkeletonPose& pose) {
    return step.filter.posed != nullptr && pose.posed_at.computed && follow_position(pose) &&
           !step.filter.posed(step.filter.context, i, pose);
}

// A frame of a character passed over: its animation state and physics time advance, its pose stays.
void pass_over(SkeletonPose& pose, AnimationState& state, const FrameStep& step) {
    state.update(step.dt);
    state.apply_without_pose();
    update_time(pose, step.dt);
    pose.posed_at.skipped = true;
}

}  // namespace

void update_characters(std::span<SkeletonPose> poses, std::span<AnimationState> states, const FrameStep& step) {
    assert(poses.size() == states.size());
    for (std::size_t i = 0; i < poses.size(); ++i) {
        if (passes_over(step, static_cast<CharacterIndex>(i), poses[i]))
            pass_over(poses[i], states[i], step);
        else
            update_character(poses[i], states[i], step);
    }
}

void update_in_order(Crowd& crowd, std::span<const CharacterIndex> order, std::size_t begin, std::size_t end,
                     const FrameStep& step) {
    assert(end <= order.size());
    UpdateOrder& keys = crowd.update_order();
    std::uint32_t changes = 0;
    // Consecutive posed characters with one update cache (the order groups characters by skeleton) take their world
    // transforms together; everything else is each character's own, in order. Characters passed over, and those
    // posed again after being passed over (their physics reset), are done alone.
    std::array<SkeletonPose*, detail::k_world_group_size> group;
    for (std::size_t k = begin; k < end;) {
        std::size_t count = 0;
        const std::size_t first = k;
        do {
            const CharacterIndex i = order[k];
            SkeletonPose& pose = crowd.pose(i);
            // (Before the filter is asked, so that it is asked once per character and frame.)
            if (count != 0 && !detail::share_update_cache(*group[0], pose)) break;
            if (passes_over(step, i, pose)) {
                pass_over(pose, crowd.state(i), step);
                continue;
            }
            if (pose.posed_at.skipped) {
                update_character(pose, crowd.state(i), step);
                continue;
            }
            animate_character(pose, crowd.state(i), step);
            group[count++] = &pose;
        } while (++k < end && count < group.size());
        if (count != 0) detail::update_world_transforms(std::span(group.data(), count), step.physics);
        for (std::size_t g = 0; g < count; ++g) mark_posed(*group[g]);
        for (std::size_t g = first; g < k; ++g)
            changes += keys.record(order[g], crowd.pose(order[g]), crowd.state(order[g]));
    }
    if (changes != 0) keys.add_changes(changes);
}

// --- WorkerPool ---

namespace {

// How long a thread spins before it sleeps: 4096 pause instructions, about 20 to 200 microseconds (a pause lasts
// 10 to 140 cycles, by CPU). Waking a sleeping thread costs tens to hundreds of microseconds (more in a virtual
// machine, where an idle CPU is halted), several percent of a batch. A worker that spins a little after a batch
// catches the next one of a busy frame loop awake (oneTBB's workers do the same), and the caller spins while it waits
// for the last ranges, which are short.
constexpr int k_spin_iterations = 4096;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() or the spin budget is spent; returns done().
template <class Done>
bool spin_until(Done done) {
    for (int i = 0; i < k_spin_iterations; ++i) {
        if (done()) return true;
        cpu_relax();
    }
    return done();
}

}  // namespace

WorkerPool::WorkerPool(unsigned threads) {
    const unsigned workers = threads > 1 ? threads - 1 : 0;
    workers_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i)
        workers_.emplace_back([this](std::stop_token stop) { work(std::move(stop)); });
}

WorkerPool::~WorkerPool() {
    for (std::jthread& worker : workers_) worker.request_stop();
    epoch_.fetch_add(1, std::memory_order_release);
    epoch_.notify_all();
    // workers_'s destructor joins them.
}

void WorkerPool::claim_ranges() {
    for (;;) {
        const std::size_t begin = next_.fetch_add(grain_, std::memory_order_relaxed);
        if (begin >= tail_) break;
        job_.run(job_.context, begin, begin + grain_);  // tail_ is a multiple of grain_
    }
    for (;;) {
        const std::size_t begin = tail_next_.fetch_add(tail_grain_, std::memory_order_relaxed);
        if (begin >= count_) return;
        job_.run(job_.context, begin, std::min(begin + tail_grain_, count_));
    }
}

void WorkerPool::work(std::stop_token stop) {
    std::uint32_t seen = 0;
    for (;;) {
        if (!spin_until([&] { return epoch_.load(std::memory_order_acquire) != seen; }))
            epoch_.wait(seen, std::memory_order_acquire);
        seen = epoch_.load(std::memory_order_acquire);
        if (stop.stop_requested()) return;
        claim_ranges();
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
}

void WorkerPool::run(std::size_t count, std::size_t grain, RangeJob job) {
    if (count == 0) return;
    grain = std::max<std::size_t>(grain, 1);
    if (workers_.empty() || count <= grain) {
        job.run(job.context, 0, count);
        return;
    }
    job_ = job;
    count_ = count;
    grain_ = grain;
    // The last round of ranges (one per thread) in quarters: a thread that takes a range as the others run out of
    // work makes them all wait for it, up to a whole range's time. At least four indices (or the grain), so that the
    // update still composes four characters per group (world_group.hpp).
    const std::size_t last_round = grain * threads();
    tail_ = count > last_round ? (count - last_round) / grain * grain : 0;
    tail_grain_ = std::min<std::size_t>(grain, std::max<std::size_t>(grain / 4, 4));
    next_.store(0, std::memory_order_relaxed);
    tail_next_.store(tail_, std::memory_order_relaxed);
    pending_.store(static_cast<std::uint32_t>(workers_.size()), std::memory_order_relaxed);
    epoch_.fetch_add(1, std::memory_order_release);  // publishes the fields above to the workers
    epoch_.notify_all();
    claim_ranges();
    // Every worker passes through claim_ranges once per epoch, so none still reads job_ after this returns. What is
    // left is at most one range per worker: spin, and sleep only if that takes long.
    auto done = [&] { return pending_.load(std::memory_order_acquire) == 0; };
    if (spin_until(done)) return;
    for (std::uint32_t left = pending_.load(std::memory_order_acquire); left != 0;
         left = pending_.load(std::memory_order_acquire))
        pending_.wait(left, std::memory_order_acquire);
}

// --- BatchUpdater ---

const char* thread_backend_name(ThreadBackend backend) {
    switch (backend) {
        case ThreadBackend::pool: return "pool";
        case ThreadBackend::tbb: return "tbb";
    }
    return "?";
}

namespace {

constexpr std::uint32_t k_default_grain = 8;

struct CrowdJob {
    Crowd* crowd;
    std::span<const CharacterIndex> order;
    std::uint8_t* notified;
    FrameStep step;
};

void run_crowd_job(void* context, std::size_t begin, std::size_t end) {
    const CrowdJob& job = *static_cast<const CrowdJob*>(context);
    update_in_order(*job.crowd, job.order, begin, end, job.step);
    for (std::size_t k = begin; k < end; ++k) {
        const CharacterIndex i = job.order[k];
        job.notified[i] = job.crowd->state(i).notifications.empty() ? 0 : 1;
    }
}

}  // namespace

BatchUpdater::BatchUpdater(const BatchDesc& desc)
    : threads_(desc.threads != 0 ? desc.threads : std::max(1u, std::thread::hardware_concurrency())),
      backend_(has_thread_backend(desc.backend) ? desc.backend : ThreadBackend::pool),
      grain_(desc.grain != 0 ? desc.grain : k_default_grain) {
    if (backend_ == ThreadBackend::tbb) threads_ = std::min(threads_, tbb_thread_limit());
    if (threads_ == 1) return;  // run() calls the job directly
    if (backend_ == ThreadBackend::tbb)
        tbb_.reset(create_tbb_arena(threads_));
    else
        pool_ = std::make_unique<WorkerPool>(threads_);
}

void BatchUpdater::run(std::size_t count, RangeJob job) {
    if (count == 0) return;
    if (pool_)
        pool_->run(count, grain_, job);
    else if (tbb_)
        run_in_tbb_arena(*tbb_, count, grain_, job);
    else
        job.run(job.context, 0, count);
}

void BatchUpdater::update(Crowd& crowd, const FrameStep& step) {
    if (notified_.size() < crowd.size()) notified_.resize(crowd.size());
    crowd.update_order().refresh(crowd.size());
    CrowdJob job{&crowd, crowd.update_order().characters(), notified_.data(), step};
    run(crowd.size(), RangeJob{&run_crowd_job, &job});
}

}  // namespace spinegpu
