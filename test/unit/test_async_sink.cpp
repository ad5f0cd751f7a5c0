// AsyncSink (common/store/async_sink.h): the inner sink on its own thread
// sees what it would see without it, and an error fails only its profile,
// however far the producer got before it heard of it; and ProfileBuilder
// drops a profile from the sinks after one whose end failed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/io/error.h"
#include "common/profile/profile_builder.h"
#include "common/store/async_sink.h"

namespace {

using nx::Event;

// Logs every call; throws once, at the event numbered `fail_at_event` of the
// profile named `fail_profile`, or at that profile's end; then counts on, so
// that events it is given after its error show in the log.  Its abort
// throws when `abort_fails`.
class LoggingSink : public nx::ProfileSink {
public:
    std::string fail_profile;
    int64_t fail_at_event = -1;  // -1: at its end
    bool abort_fails = false;
    std::chrono::microseconds per_event{0};
    std::vector<std::string> log;
    int64_t events = 0;
    std::atomic<bool> threw{false};

    void begin_profile(const nx::ProfileInfo& info) override {
        current_ = info.name;
        events = 0;
        log.push_back("begin " + info.name);
    }
    void event(const Event&) override {
        if (per_event.count()) std::this_thread::sleep_for(per_event);
        if (current_ == fail_profile && events == fail_at_event && !threw) {
            threw = true;
            throw nx::Error("inner sink failed in " + current_);
        }
        ++events;
    }
    void end_profile(const nx::ProfileInfo& info, const nx::ProfileSummary&) override {
        if (info.name == fail_profile && fail_at_event < 0) throw nx::Error("inner sink failed ending " + info.name);
        log.push_back("end " + info.name + " after " + std::to_string(events));
    }
    void abort_profile() override {
        log.push_back("abort " + current_ + " after " + std::to_string(events));
        if (abort_fails) throw nx::Error("inner sink cannot abort " + current_);
    }
    void finish() override { log.push_back("finish"); }

private:
    std::string current_;
};

nx::ProfileInfo named(const std::string& name) {
    nx::ProfileInfo info;
    info.name = name;
    return info;
}

// Sends one profile of n events as ProfileBuilder and Converter do: an error
// from event() aborts the profile; one from end_profile() does not (the
// builder has no profile left to abort).  Returns the error's text, or "".
std::string send(nx::AsyncSink& sink, const std::string& name, int64_t n) {
    sink.begin_profile(named(name));
    Event e;
    e.type = nx::EventType::instruction;
    e.name = "op";
    try {
        for (int64_t i = 0; i < n; ++i) {
            e.ts_ns = i;
            sink.event(e);
        }
    } catch (const nx::Error& err) {
        sink.abort_profile();
        return err.what();
    }
    try {
        sink.end_profile(named(name), nx::ProfileSummary{});
    } catch (const nx::Error& err) {
        return err.what();
    }
    return "";
}

TEST(AsyncSink, AnErrorHeardAtTheProfilesEndFailsThatProfileOnly) {
    LoggingSink inner;
    inner.fail_profile = "b";
    inner.fail_at_event = 5;
    nx::AsyncSink sink(inner);
    // Few events: they cross in one batch at the end, so the producer hears
    // of the error only when it ends the profile.
    EXPECT_EQ(send(sink, "a", 10), "");
    EXPECT_EQ(send(sink, "b", 10), "inner sink failed in b");
    EXPECT_EQ(send(sink, "c", 10), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "end a after 10", "begin b", "abort b after 5", "begin c",
                                                   "end c after 10", "finish"}));
}

TEST(AsyncSink, AnErrorHeardWhileSendingEventsFailsThatProfileOnly) {
    LoggingSink inner;
    inner.fail_profile = "b";
    inner.fail_at_event = 2000;
    // Slow enough that the queue is full of b's batches when it fails: the
    // worker must skip them, not hand them to the sink.
    inner.per_event = std::chrono::microseconds(5);
    nx::AsyncSink sink(inner);
    // Far more events than the queue holds: the producer hears of the error
    // at a later event and aborts the profile.
    const int64_t many = static_cast<int64_t>(nx::AsyncSink::kBatchEvents * (nx::AsyncSink::kMaxQueued + 4));
    EXPECT_EQ(send(sink, "b", many), "inner sink failed in b");
    inner.per_event = std::chrono::microseconds(0);  // the worker is idle: b was aborted
    EXPECT_EQ(send(sink, "c", many), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin b", "abort b after 2000", "begin c",
                                                   "end c after " + std::to_string(many), "finish"}));
}

TEST(AsyncSink, AnErrorEndingAProfileIsThatProfilesAndTheNextGoesOn) {
    LoggingSink inner;
    inner.fail_profile = "a";  // at its end
    nx::AsyncSink sink(inner);
    EXPECT_EQ(send(sink, "a", 10), "inner sink failed ending a");
    EXPECT_EQ(send(sink, "b", 10), "");
    sink.finish();
    // As without the thread: the sink whose end failed is not asked to abort.
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "begin b", "end b after 10", "finish"}));
}

TEST(AsyncSink, TheProducersOwnAbortReachesTheInnerSink) {
    LoggingSink inner;
    nx::AsyncSink sink(inner);
    sink.begin_profile(named("a"));
    sink.event(Event{});
    sink.abort_profile();  // the importer met bad input
    EXPECT_EQ(send(sink, "b", 2), "");
    sink.finish();
    // The event still waiting in its batch never crosses: the profile is dropped.
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "abort a after 0", "begin b", "end b after 2", "finish"}));
}

TEST(AsyncSink, AnErrorWaitingWhenTheProfileEndsIsHeardThereAndTheLastBatchNeverCrosses) {
    LoggingSink inner;
    inner.fail_profile = "a";
    inner.fail_at_event = 0;
    nx::AsyncSink sink(inner);
    sink.begin_profile(named("a"));
    Event e;
    // One full batch (which fails in the worker), then a few events that
    // wait in the next batch while the producer hears of nothing yet.
    for (size_t i = 0; i < nx::AsyncSink::kBatchEvents + 5; ++i) sink.event(e);
    while (!inner.threw) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_THROW(sink.end_profile(named("a"), nx::ProfileSummary{}), nx::Error);
    EXPECT_EQ(send(sink, "b", 3), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "abort a after 0", "begin b", "end b after 3", "finish"}));
}

TEST(AsyncSink, AnAbortWaitsForTheWorkerSoAnErrorStillQueuedIsTheAbortedProfiles) {
    // The importer meets bad input and aborts while a batch that will fail
    // in the (slow) inner sink is still queued: its error must not fail the
    // next profile.
    LoggingSink inner;
    inner.fail_profile = "a";
    inner.fail_at_event = 100;
    inner.per_event = std::chrono::microseconds(20);
    nx::AsyncSink sink(inner);
    sink.begin_profile(named("a"));
    Event e;
    for (size_t i = 0; i < nx::AsyncSink::kBatchEvents + 1; ++i) sink.event(e);
    sink.abort_profile();
    EXPECT_TRUE(inner.threw);
    inner.per_event = std::chrono::microseconds(0);
    EXPECT_EQ(send(sink, "b", 3), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "abort a after 100", "begin b", "end b after 3", "finish"}));
}

TEST(AsyncSink, ATaskBetweenProfilesIsWaitedForAndItsErrorIsItsCallsOnly) {
    LoggingSink inner;
    nx::AsyncSink sink(inner);
    int ran = 0;
    EXPECT_THROW(sink.post([] { throw nx::Error("run record refused"); }), nx::Error);
    sink.post([&] { ++ran; });  // the next task is not failed by it
    EXPECT_EQ(ran, 1);
    EXPECT_EQ(send(sink, "a", 3), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin a", "end a after 3", "finish"}));
}

TEST(AsyncSink, AnInnerSinkThatCannotAbortIsBrokenForEveryCallAfter) {
    LoggingSink inner;
    inner.fail_profile = "a";
    inner.fail_at_event = 1;
    inner.abort_fails = true;
    nx::AsyncSink sink(inner);
    EXPECT_EQ(send(sink, "a", 3), "inner sink cannot abort a");
    EXPECT_THROW(sink.begin_profile(named("b")), nx::Error);
    EXPECT_THROW(sink.finish(), nx::Error);
}

// A sink that records whether its profile ended or was dropped.
class EndOrAbort : public nx::ProfileSink {
public:
    explicit EndOrAbort(bool fail_end) : fail_end_(fail_end) {}
    std::string what;
    void begin_profile(const nx::ProfileInfo&) override { what = "open"; }
    void event(const Event&) override {}
    void end_profile(const nx::ProfileInfo&, const nx::ProfileSummary&) override {
        if (fail_end_) throw nx::Error("cannot end");
        what = "ended";
    }
    void abort_profile() override { what = "aborted"; }

private:
    bool fail_end_;
};

TEST(ProfileBuilder, TheSinksAfterOneWhoseEndFailedDropTheProfile) {
    EndOrAbort first(false), failing(true), last(false);
    nx::ProfileBuilder b;
    for (EndOrAbort* s : {&first, &failing, &last}) b.add_sink(s);
    b.begin_profile(named("p"));
    Event e;
    e.type = nx::EventType::instruction;
    b.event(e);
    EXPECT_THROW(b.end_profile(), nx::Error);
    EXPECT_EQ(first.what, "ended");
    EXPECT_EQ(failing.what, "open");
    EXPECT_EQ(last.what, "aborted");
}

}  // namespace
