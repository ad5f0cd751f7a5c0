// Runs a ProfileSink on its own thread.  nx-convert parses on one core while
// SQLite writes on the other: events are copied into batches (strings packed
// into one arena per batch) and handed over through a bounded queue, so memory
// stays bounded and the slower side sets the pace.  Batches the worker is
// done with go back to the producer, buffers and all, so memory stays flat
// rather than drifting with the allocator.
//
// Errors behave as the inner sink's own would without the thread: one fails
// its profile only.  An exception in the worker is rethrown at the
// producer's next call; end_profile waits for the worker, so a profile's
// errors surface before the next input.  The worker then skips the rest of
// that profile and aborts it in the inner sink at the profile's end or
// abort, and the next profile goes on as if nothing had happened (nx-convert
// --keep-going, a fan-out task's other profiles).  A task posted between
// profiles (a run record) is waited for, and its error is its own call's.
// Only an inner sink that cannot abort a profile is broken for good: that
// error is rethrown at every call after it.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/profile/profile_sink.h"

namespace nx {

class AsyncSink : public ProfileSink {
public:
    explicit AsyncSink(ProfileSink& inner);
    ~AsyncSink() override;

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void source_rows(const SourceRows& rows) override;
    void kept_source(const KeptSource& k) override;
    bool copies_source_rows() const override { return inner_.copies_source_rows(); }
    bool wants_kept_args() const override { return kept_args_; }
    void flow(const Flow& f) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;
    // Waits until the worker has applied everything (and inner.finish()).
    void finish() override;
    // Runs `task` on the worker thread, in order with the profiles (for work
    // that must use the inner sink's connection, e.g. appending run records).
    void post(std::function<void()> task);

    // A batch is an Event and offsets per event (~300 B): 1,024 of them, the
    // few batches in flight stay in the caches and their pages are touched
    // once.  8,192 a batch cost a 100K-event profile 2,000-3,700 more page
    // faults and 7-10% of its conversion time (a dataset or a database).
    static constexpr size_t kBatchEvents = 1024;
    static constexpr size_t kMaxQueued = 4;
    // A batch is also handed over when its strings reach this size: rows with
    // large args (Explorer instructions carry ~700 B) would otherwise queue
    // kMaxQueued x kBatchEvents of them (MBs) between the threads.
    static constexpr size_t kBatchArenaBytes = 128u << 10;
    // Room past kBatchArenaBytes, so that the event that fills a batch fits
    // without the arena growing.
    static constexpr size_t kArenaSlack = 64u << 10;

private:
    struct Batch;
    struct Message;
    class Worker;  // the worker thread's side (async_sink.cpp)
    // Queues m; rethrows the worker's error first unless `even_after_error`
    // (an end or abort: the messages that close a failed profile).
    void push(std::unique_ptr<Message> m, bool even_after_error = false);
    void flush_batch();
    // Waits until the worker has done every message of a kind sent (done ==
    // sent: ends, aborts or tasks), then rethrows a broken inner sink's error,
    // and takes the worker's error: rethrown, or dropped (an abort's: the
    // profile it failed is given up).
    enum class Settle { rethrow, drop };
    void settle(const int64_t& done, const int64_t& sent, Settle error);
    void run();

    ProfileSink& inner_;
    bool kept_args_;  // inner_.wants_kept_args()
    std::unique_ptr<Batch> batch_;
    std::vector<std::unique_ptr<Batch>> spare_;  // emptied by the worker, for reuse (under mu_)
    std::mutex mu_;
    std::condition_variable can_push_, can_pop_;
    std::deque<std::unique_ptr<Message>> queue_;
    bool stopping_ = false;
    bool done_ = false;
    int64_t ends_sent_ = 0;  // profiles ended by the producer
    int64_t ends_done_ = 0;  // and by the worker (under mu_)
    int64_t aborts_sent_ = 0, aborts_done_ = 0;  // the same for aborts
    int64_t tasks_sent_ = 0, tasks_done_ = 0;    // and for tasks
    bool producer_in_profile_ = false;  // between begin and end or abort (the producer's)
    // The worker's error, until the producer has been told and the profile
    // it failed is closed (under mu_); and the inner sink's failure to
    // abort a profile, for good.
    std::exception_ptr error_;
    std::exception_ptr fatal_;
    std::thread worker_;
};

}  // namespace nx
