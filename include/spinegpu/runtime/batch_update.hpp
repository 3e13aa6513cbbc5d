// The per-frame update of many characters at once. A Crowd owns every character's pose and animation state in
// arrays (characters of any skeleton types side by side); update_characters() advances an index range of them by
// one frame, update_in_order() a range of an order of them (the crowd's update order, update_order.hpp); a
// BatchUpdater splits the crowd's update order into ranges across threads. Characters share nothing mutable (each pose
// and state points only at its immutable SkeletonData), so any order and any split give bit for bit the same poses as
// the sequential loop, for any thread count.
//
// Animation notifications (start, interrupt, end, complete, dispose, event) are not callbacks inside the batch: each
// character's AnimationState collects its own while a worker updates it, and deliver_events() hands them out on the
// calling thread after the batch, in character order, each character's in the official listener order.
//
// Per frame nothing here allocates, looks up a name or calls a virtual function: workers are created once and woken
// per batch; a range job is a function pointer and a context pointer.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "spinegpu/data/skeleton_data.hpp"
#include "spinegpu/runtime/animation_state.hpp"
#include "spinegpu/runtime/skeleton_pose.hpp"
#include "spinegpu/runtime/update_order.hpp"

namespace spinegpu {

// The characters of a game, a scene or a benchmark: each character's pose and animation state, in two arrays indexed
// by CharacterIndex and owned here. Characters may be of different skeleton types; each SkeletonData must outlive
// the crowd, in place. Movable, not copyable (poses and states are large; copy a character's parts explicitly if
// needed).
class Crowd {
public:
    Crowd() = default;
    Crowd(Crowd&&) = default;
    Crowd& operator=(Crowd&&) = default;
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    // Adds a character of skeleton `data` in the setup pose with no skin, and an animation state with no tracks and
    // mix durations `mixes`. Returns its index. Allocates; invalidates references and spans into the crowd.
    CharacterIndex add(const SkeletonData& data, MixTable mixes = {});
    // Reserves room for `count` characters, so that adding up to that many does not move the others.
    void reserve(std::size_t count);
    // Removes character `i` (a despawn) by moving the last character into its place, so the others keep their
    // indices. Returns the index the moved character had (size() - 1 before the call; `i` itself when it was the
    // last). Invalidates references into the crowd, pointers to the two poses (a renderer's draw list) and the
    // update order's characters() until its next refresh(). Between batches, and not from a notification listener
    // (collect despawns, remove after the delivery). Precondition: i < size().
    CharacterIndex remove(CharacterIndex i);

    std::size_t size() const { return poses_.size(); }
    bool empty() const { return poses_.empty(); }

    // Character `i`'s pose and animation state. Precondition: i < size(). Valid until the next add() or remove().
    SkeletonPose& pose(CharacterIndex i);
    const SkeletonPose& pose(CharacterIndex i) const;
    AnimationState& state(CharacterIndex i);
    const AnimationState& state(CharacterIndex i) const;

    // All poses and all states, indexed by CharacterIndex (the two spans have size() elements).
    std::span<SkeletonPose> poses() { return poses_; }
    std::span<const SkeletonPose> poses() const { return poses_; }
    std::span<AnimationState> states() { return states_; }
    std::span<const AnimationState> states() const { return states_; }

    // The order in which batches update the characters (see update_order.hpp); BatchUpdater refreshes it before each
    // batch, and a pose job of the renderer (update_in_order) may follow it too.
    UpdateOrder& update_order() { return order_; }
    const UpdateOrder& update_order() const { return order_; }

private:
    std::vector<SkeletonPose> poses_;
    std::vector<AnimationState> states_;
    UpdateOrder order_;
};

// Which characters a frame poses: a crowd update may pass over characters nobody sees (outside the view), keeping
// their animations running without posing them, at a fraction of a posed frame's cost (docs/PERFORMANCE.md).
struct PoseFilter {
    // Whether character `i` is posed this frame. Asked once per frame of a character that a crowd update posed
    // before and whose skeleton scale has not changed since nor its position moved by a non-finite amount (the
    // others are posed without asking), with its world transforms as last posed, moved by how far its skeleton x, y
    // moved since (so a game may test them against its view, as gpu::OffscreenFilter does). When it returns false,
    // the frame advances the character's animation state without posing it (AnimationState::apply_without_pose:
    // events, completions and ends are notified as usual) and its physics time; its pose keeps the last posed
    // values. The first frame that poses it again starts from the setup pose (set_to_setup_pose) with its physics
    // constraints reset (Physics::reset, unless the step's mode is none), then applies its animation state: it is
    // posed as a new character playing the same tracks at the same times would be. Where nothing else changes the
    // pose, that is the pose every frame posed would have given (properties the current animations do not key are
    // mixed back to their setup values); it differs where earlier frames leave something behind: what the game set
    // on the pose by hand, a track cleared without mixing out, physics, the rotation direction a running mix
    // remembers. Runs on the updating threads, for several characters at once: it must only read.
    bool (*posed)(void* context, CharacterIndex i, const SkeletonPose& pose) = nullptr;  // null: pose every one
    void* context = nullptr;
};

// What one frame does to every character.
struct FrameStep {
    constexpr FrameStep() = default;
    constexpr FrameStep(double dt_, Physics physics_, PoseFilter filter_ = {})
        : dt(dt_), physics(physics_), filter(filter_) {}

    double dt = 0;                     // seconds (double, as the official runtime adds it; see AnimationState)
    Physics physics = Physics::update; // the physics mode of update_world_transform
    PoseFilter filter;                 // none: every character is posed
};

// The job over an index range: advances characters poses[i], states[i] for every i of the spans by one frame, in
// index order, each as `spinegpu pose` steps it (README): states[i].update(dt),
// states[i].apply(poses[i]), update_time(poses[i], dt), update_world_transform(poses[i], physics); or, for a
// character the step's filter passes over (asked with i, its position in the spans), without posing it.
// Notifications accumulate in states[i].notifications. Touches only those characters, so disjoint ranges may run on
// different threads at once. Preconditions: the spans have the same size; states[i] was made for poses[i]'s
// SkeletonData.
void update_characters(std::span<SkeletonPose> poses, std::span<AnimationState> states, const FrameStep& step);

// The job over positions [begin, end) of `order`, a permutation of the crowd's indices (normally
// crowd.update_order().characters(), taken after this frame's refresh): updates each character order[k] as
// update_characters does (the step's filter asked with order[k]), with the same bits (a NaN result only as a NaN),
// and records its key in the crowd's update order for its next refresh. Up to four consecutive posed characters of
// one skeleton and skin pose their bones together (AVX2 where the CPU has it, one character per lane;
// src/runtime/world_group.hpp). Ranges of one order may run on different threads at once. A renderer PoseJob that
// calls this must set its `order` to the same span, so that each character is packed by the thread that updated it.
// Precondition: end <= order.size().
void update_in_order(Crowd& crowd, std::span<const CharacterIndex> order, std::size_t begin, std::size_t end,
                     const FrameStep& step);

// Hands character `i`'s collected notifications to `listener(CharacterIndex, const StateNotification&)` in the
// official listener order, then clears them. The listener may change animation states (set_animation...):
// notifications that this causes for character `i` are delivered in the same call. It must not add or remove
// characters (collect despawns and remove them after the delivery). Allocates nothing.
template <class Listener>
void deliver_character_events(Crowd& crowd, CharacterIndex i, Listener& listener) {
    std::vector<StateNotification>& notifications = crowd.state(i).notifications;
    // By index and by copy: the listener may append to this vector.
    for (std::size_t k = 0; k < notifications.size(); ++k) {
        const StateNotification notification = notifications[k];
        listener(i, notification);
    }
    notifications.clear();
}

// Hands every character's collected notifications to `listener(CharacterIndex, const StateNotification&)`, on the
// calling thread: characters in index order, each one's notifications in the official listener order; then clears
// them. The listener may change animation states: see deliver_character_events; notifications it causes for other
// characters are delivered when the loop reaches them or by a later delivery. The listener must not add or remove
// characters. Allocates nothing.
template <class Listener>
void deliver_events(Crowd& crowd, Listener&& listener) {
    const std::size_t count = crowd.size();
    for (CharacterIndex i = 0; i < count; ++i) deliver_character_events(crowd, i, listener);
}

// A range job without allocation or virtual dispatch: run(context, begin, end) processes indices [begin, end).
// Ranges passed to one job are disjoint and may run concurrently. A job must not throw.
struct RangeJob {
    void (*run)(void* context, std::size_t begin, std::size_t end) = nullptr;
    void* context = nullptr;
};

// A small pool of persistent std::jthread workers, woken once per batch. The calling thread works too, so a pool of
// `threads` threads starts threads - 1 workers; with 1 it runs every job on the caller. Workers and the caller claim
// ranges of `grain` indices from a shared counter, smaller ones in the last round (see run()), until none is left
// (mixed skeleton types cost differently per character, so ranges are handed out as threads become free rather than
// split evenly up front). After a batch the workers spin briefly (20 to 200 microseconds), then sleep until the next
// one.
// One batch at a time: run() must not be called from two threads at once, nor from inside a job.
class WorkerPool {
public:
    // Starts threads - 1 workers (threads 0 is taken as 1). Allocates here only.
    explicit WorkerPool(unsigned threads);
    // Stops and joins the workers.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Threads that work on a batch, the caller included.
    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

    // Runs `job` over [0, count) in ranges of at most `grain` indices (grain 0 is taken as 1) and returns when every
    // range is done. The last round, from the last multiple of `grain` at or before count - threads() x grain (all of
    // [0, count) when that is negative), goes in ranges of a quarter of the grain (at least 4, at most the grain), so
    // that the threads finish closer together. Jobs of at most one range run on the caller without waking anyone.
    // Allocates nothing.
    void run(std::size_t count, std::size_t grain, RangeJob job);

private:
    void work(std::stop_token stop);
    void claim_ranges();

    // Batch parameters, written by run() before it publishes the batch by advancing epoch_.
    RangeJob job_;
    std::size_t count_ = 0;
    std::size_t grain_ = 1;
    std::size_t tail_ = 0;  // first index of the tail: a multiple of grain_, claimed in tail_grain_ ranges from there
    std::size_t tail_grain_ = 1;
    // Each on its own cache line: claimed by every thread per range, or waited on.
    alignas(64) std::atomic<std::size_t> next_{0};         // first index before tail_ not yet claimed
    alignas(64) std::atomic<std::size_t> tail_next_{0};    // first index of the tail not yet claimed
    alignas(64) std::atomic<std::uint32_t> epoch_{0};      // advanced per batch (and at shutdown)
    alignas(64) std::atomic<std::uint32_t> pending_{0};    // workers not yet done with the current batch
    // Last: destroyed (joined) first, while the fields above still exist.
    std::vector<std::jthread> workers_;
};

// The thread back-ends a BatchUpdater can use.
enum class ThreadBackend : std::uint8_t {
    pool,  // WorkerPool: persistent std::jthreads (the default: see docs/batch_update_notes.md)
    tbb,   // oneTBB: parallel_for in a task_arena of `threads` slots
};

// Whether this build has `backend` (tbb needs oneTBB when the library is built).
bool has_thread_backend(ThreadBackend backend);
// "pool" or "tbb".
const char* thread_backend_name(ThreadBackend backend);

// How a BatchUpdater runs. Zero fields mean the defaults.
struct BatchDesc {
    unsigned threads = 0;                        // 0: std::thread::hardware_concurrency() (at least 1)
    ThreadBackend backend = ThreadBackend::pool; // one this build lacks (has_thread_backend) runs on the pool
    std::uint32_t grain = 0;                     // characters per range a thread claims (the pool's last round:
                                                 // fewer, WorkerPool::run); 0: 8
};

class TbbArena;  // oneTBB's task_arena, behind a pointer so that this header does not include TBB
struct TbbArenaDeleter {
    void operator()(TbbArena* arena) const;
};

// Updates a whole crowd per frame with `threads` threads. Owns its threads (created here, reused every batch). One
// updater may serve several crowds, one batch at a time.
// With oneTBB, `threads` is capped at TBB's default concurrency (the hardware threads): TBB starts no more workers.
class BatchUpdater {
public:
    // A backend this build lacks (has_thread_backend false) is replaced by the pool.
    explicit BatchUpdater(const BatchDesc& desc = {});

    // The threads that run a batch (the caller's included): BatchDesc::threads, or its default, capped with oneTBB.
    unsigned threads() const { return threads_; }
    // The backend that runs: BatchDesc::backend, or the pool in its place.
    ThreadBackend backend() const { return backend_; }

    // Advances every character of `crowd` by one frame (refreshes the crowd's update order, then update_in_order over
    // ranges of it on all threads) and returns when all are done. Notifications stay collected in each character's
    // state: deliver them with deliver_events(), or use the overload below. The result is bit for bit that of one
    // update_characters call over the whole crowd. Allocates only when the crowd has grown since the last batch.
    void update(Crowd& crowd, const FrameStep& step);

    // update(crowd, step), then delivers the notifications on the calling thread as deliver_events(crowd, listener)
    // does, but visits only characters that have some: the batch marks them while each character's state is still
    // in its thread's cache, so the delivery does not walk every state. Notifications that the listener causes for
    // other characters may wait for the next delivery. Allocates only when the crowd has grown.
    template <class Listener>
    void update(Crowd& crowd, const FrameStep& step, Listener&& listener) {
        update(crowd, step);
        for (CharacterIndex i = 0; i < crowd.size(); ++i)
            if (notified_[i]) deliver_character_events(crowd, i, listener);
    }

    // Runs any range job over [0, count) on this updater's threads (what update() uses). Returns when done.
    void run(std::size_t count, RangeJob job);

    // This updater's worker pool (backend pool; null with oneTBB or one thread), to share with per-frame work such as
    // Renderer::set_worker_pool: a second pool of as many threads would compete for the cores while the first one's
    // workers spin after a batch. Batches on it must not overlap this updater's.
    WorkerPool* worker_pool() { return pool_.get(); }

private:
    unsigned threads_ = 1;
    ThreadBackend backend_ = ThreadBackend::pool;
    std::uint32_t grain_ = 8;
    std::unique_ptr<WorkerPool> pool_;
    std::unique_ptr<TbbArena, TbbArenaDeleter> tbb_;
    // Per character after a batch: 1 if it has notifications. Written by the workers, one byte per character.
    std::vector<std::uint8_t> notified_;
};

}  // namespace spinegpu
