#include "common/store/async_sink.h"

#include <string>
#include <utility>
#include <vector>

namespace nx {

struct AsyncSink::Batch {
    struct Packed {
        Event e;
        // The event's strings (kEventStringFields) as offsets into the batch arena.
        uint32_t off[kEventStrings];
        uint32_t len[kEventStrings];
    };
    std::vector<Packed> events;
    std::string arena;
    // Flows after the events (a batch never has an event after a flow).
    std::vector<Flow> flows;
};

struct AsyncSink::Message {
    enum Kind { begin, batch, end, abort, finish, task } kind;
    ProfileInfo info;
    std::function<void()> work;
    ProfileSummary summary;
    std::unique_ptr<Batch> events;
};

AsyncSink::AsyncSink(ProfileSink& inner)
    : inner_(inner), kept_args_(inner.wants_kept_args()), worker_([this] { run(); }) {}

AsyncSink::~AsyncSink() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    can_pop_.notify_all();
    can_push_.notify_all();
    worker_.join();
}

void AsyncSink::push(std::unique_ptr<Message> m, bool even_after_error) {
    std::unique_lock<std::mutex> lock(mu_);
    can_push_.wait(lock, [&] { return queue_.size() < kMaxQueued || (error_ && !even_after_error) || stopping_; });
    if (fatal_) std::rethrow_exception(fatal_);
    if (error_ && !even_after_error) std::rethrow_exception(error_);
    if (m->kind == Message::end) ++ends_sent_;
    if (m->kind == Message::abort) ++aborts_sent_;
    if (m->kind == Message::task) ++tasks_sent_;
    queue_.push_back(std::move(m));
    lock.unlock();
    can_pop_.notify_one();
}

void AsyncSink::flush_batch() {
    if (!batch_ || (batch_->events.empty() && batch_->flows.empty())) return;
    auto m = std::make_unique<Message>();
    m->kind = Message::batch;
    m->events = std::move(batch_);
    push(std::move(m));
}

void AsyncSink::begin_profile(const ProfileInfo& info) {
    auto m = std::make_unique<Message>();
    m->kind = Message::begin;
    m->info = info;
    push(std::move(m));
    producer_in_profile_ = true;
}

void AsyncSink::event(const Event& e) {
    if (batch_ && !batch_->flows.empty()) flush_batch();  // keeps events and flows in order
    if (!batch_) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (!spare_.empty()) {
                batch_ = std::move(spare_.back());
                spare_.pop_back();
            }
        }
        if (!batch_) {
            batch_ = std::make_unique<Batch>();
            // Grown as needed: batches of wide events are cut by their strings long
            // before kBatchEvents, and a full reservation would sit unused in the queue.
            batch_->events.reserve(1024);
            batch_->arena.reserve(kBatchArenaBytes + kArenaSlack);
        }
    }
    Batch::Packed& p = batch_->events.emplace_back();
    p.e = e;
    // A sink that refers to kept sources reads such an event's args from its
    // row there: they need not cross (an Explorer instruction's are ~700 bytes).
    bool drop_args = e.src_table >= 0 && !kept_args_;
    for (int i = 0; i < kEventStrings; ++i) {
        std::string_view v = e.*kEventStringFields[i];
        if (drop_args && kEventStringFields[i] == &Event::args_json) v = {};
        p.off[i] = static_cast<uint32_t>(batch_->arena.size());
        p.len[i] = static_cast<uint32_t>(v.size());
        // Most of an event's strings are empty.
        if (!v.empty()) batch_->arena.append(v.data(), v.size());
        p.e.*kEventStringFields[i] = {};
    }
    if (batch_->events.size() >= kBatchEvents || batch_->arena.size() >= kBatchArenaBytes) flush_batch();
}

void AsyncSink::flow(const Flow& f) {
    if (!batch_) batch_ = std::make_unique<Batch>();
    batch_->flows.push_back(f);
    if (batch_->flows.size() >= kBatchEvents) flush_batch();
}

void AsyncSink::source_rows(const SourceRows& rows) {
    // Rows come in batches already: each travels as one task, in order.
    post([this, copy = rows] { inner_.source_rows(copy); });
}

void AsyncSink::kept_source(const KeptSource& k) {
    post([this, copy = k] { inner_.kept_source(copy); });
}

void AsyncSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    producer_in_profile_ = false;
    try {
        flush_batch();
    } catch (...) {
        // The worker's error: rethrown below, once the profile is closed (a
        // failed profile's last events would only be skipped).
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) throw;
        batch_.reset();
    }
    auto m = std::make_unique<Message>();
    m->kind = Message::end;
    m->info = info;
    m->summary = summary;
    // The end goes even after an error: the worker closes the profile with
    // it (ProfileBuilder aborts no profile whose end was called).
    push(std::move(m), true);
    // Waits for the worker to end the profile: an error it meets there, or
    // before, surfaces now, while the importer that sent the profile can
    // still name its input, not at some later call; and the next profile
    // starts clean.
    settle(ends_done_, ends_sent_, Settle::rethrow);
}

void AsyncSink::abort_profile() {
    producer_in_profile_ = false;
    batch_.reset();
    auto m = std::make_unique<Message>();
    m->kind = Message::abort;
    push(std::move(m), true);
    // Once the worker has aborted it, the profile's error (the one the
    // producer was told, that made it abort) is done with.
    settle(aborts_done_, aborts_sent_, Settle::drop);
}

void AsyncSink::post(std::function<void()> task) {
    flush_batch();
    auto m = std::make_unique<Message>();
    m->kind = Message::task;
    m->work = std::move(task);
    push(std::move(m));
    // Within a profile, a task's error is the profile's, heard as any other.
    // Between profiles it belongs to no profile: the task is waited for
    // (run records are few) and its error is this call's.
    if (!producer_in_profile_) settle(tasks_done_, tasks_sent_, Settle::rethrow);
}

void AsyncSink::settle(const int64_t& done, const int64_t& sent, Settle error) {
    std::unique_lock<std::mutex> lock(mu_);
    can_push_.wait(lock, [&] { return done == sent || stopping_; });
    if (fatal_) std::rethrow_exception(fatal_);
    std::exception_ptr e = std::exchange(error_, nullptr);
    if (e && error == Settle::rethrow) std::rethrow_exception(e);
}

void AsyncSink::finish() {
    flush_batch();
    auto m = std::make_unique<Message>();
    m->kind = Message::finish;
    push(std::move(m));
    std::unique_lock<std::mutex> lock(mu_);
    can_push_.wait(lock, [&] { return done_ || stopping_; });
    if (fatal_) std::rethrow_exception(fatal_);
    if (error_) std::rethrow_exception(error_);
}

// The worker's side: each message delivered to the inner sink in order.
// Between a begin and its end or abort the worker is in a profile; once
// that profile failed in the inner sink, its remaining messages are
// skipped, and its end or abort aborts it there.
class AsyncSink::Worker {
public:
    explicit Worker(AsyncSink& sink) : s_(sink) {}

    void loop() {
        while (std::unique_ptr<Message> m = next()) deliver(*m);
    }

private:
    // The next message; none once stopping without finish() (what is
    // queued is dropped: the inner sink rolls back).
    std::unique_ptr<Message> next() {
        std::unique_ptr<Message> m;
        {
            std::unique_lock<std::mutex> lock(s_.mu_);
            s_.can_pop_.wait(lock, [&] { return !s_.queue_.empty() || s_.stopping_; });
            if (s_.stopping_ || s_.queue_.empty()) return nullptr;
            m = std::move(s_.queue_.front());
            s_.queue_.pop_front();
        }
        s_.can_push_.notify_one();
        return m;
    }

    void deliver(Message& m) {
        switch (m.kind) {
            case Message::begin: begin(m); break;
            case Message::batch: batch(m); break;
            case Message::end: end(m); break;
            case Message::abort:
                abort_inner();
                count_done(s_.aborts_done_);
                break;
            case Message::task: task(m); break;
            case Message::finish: finish(); break;
        }
    }

    void begin(Message& m) {
        abort_inner();  // none is open, unless one never ended
        in_profile_ = true;
        try {
            s_.inner_.begin_profile(m.info);
        } catch (...) {
            failed_ = true;
            set_error(s_.error_);
        }
    }

    // A batch's events (their strings in its arena) and flows; the emptied
    // batch goes back for reuse.
    void batch(Message& m) {
        try {
            if (!failed_) {
                for (Batch::Packed& p : m.events->events) {
                    for (int i = 0; i < kEventStrings; ++i)
                        p.e.*kEventStringFields[i] = std::string_view(m.events->arena.data() + p.off[i], p.len[i]);
                    s_.inner_.event(p.e);
                }
                for (const Flow& f : m.events->flows) s_.inner_.flow(f);
            }
        } catch (...) {
            failed_ = true;
            set_error(s_.error_);
        }
        m.events->events.clear();
        m.events->arena.clear();
        m.events->flows.clear();
        std::lock_guard<std::mutex> lock(s_.mu_);
        // As many as can be in flight; more would only hold memory.
        if (s_.spare_.size() < kMaxQueued + 1) s_.spare_.push_back(std::move(m.events));
    }

    // A profile that failed is aborted, as ProfileBuilder would have had
    // the error come from the inner sink directly; one whose end fails is
    // closed by that.
    void end(Message& m) {
        if (failed_) {
            abort_inner();
        } else {
            try {
                s_.inner_.end_profile(m.info, m.summary);
            } catch (...) {
                set_error(s_.error_);
            }
            in_profile_ = false;
        }
        count_done(s_.ends_done_);
    }

    void task(Message& m) {
        try {
            if (!failed_) m.work();
        } catch (...) {
            // Within a profile, it fails the profile.
            failed_ = in_profile_;
            set_error(s_.error_);
        }
        count_done(s_.tasks_done_);
    }

    void finish() {
        abort_inner();
        try {
            s_.inner_.finish();
        } catch (...) {
            set_error(s_.error_);
        }
        {
            std::lock_guard<std::mutex> lock(s_.mu_);
            s_.done_ = true;
        }
        s_.can_push_.notify_all();
    }

    void set_error(std::exception_ptr& slot) {
        {
            std::lock_guard<std::mutex> lock(s_.mu_);
            if (!slot) slot = std::current_exception();
        }
        s_.can_push_.notify_all();
    }

    // An inner sink that cannot abort a profile (a database whose rollback
    // failed) is in no state to take another: that error is for good.
    void abort_inner() {
        if (in_profile_) {
            try {
                s_.inner_.abort_profile();
            } catch (...) {
                set_error(s_.fatal_);
            }
        }
        in_profile_ = failed_ = false;
    }

    void count_done(int64_t& counter) {
        {
            std::lock_guard<std::mutex> lock(s_.mu_);
            ++counter;
        }
        s_.can_push_.notify_all();
    }

    AsyncSink& s_;
    bool in_profile_ = false, failed_ = false;
};

void AsyncSink::run() { Worker(*this).loop(); }

}  // namespace nx
