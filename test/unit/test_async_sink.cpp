// AsyncSink (common/store/async_sink.h): the inner sink on its own thread
// sees what it would see without it, and an error fails only its profile,
// however far the producer got before it heard of it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/store/async_sink.h"

namespace {

using nx::Event;

// Logs every call; throws at the event numbered `fail_at_event` of the
// profile named `fail_profile`, or at that profile's end.
class LoggingSink : public nx::ProfileSink {
public:
    std::string fail_profile;
    int64_t fail_at_event = -1;  // -1: at its end
    std::vector<std::string> log;
    int64_t events = 0;

    void begin_profile(const nx::ProfileInfo& info) override {
        current_ = info.name;
        events = 0;
        log.push_back("begin " + info.name);
    }
    void event(const Event&) override {
        if (current_ == fail_profile && events == fail_at_event) throw nx::Error("inner sink failed in " + current_);
        ++events;
    }
    void end_profile(const nx::ProfileInfo& info, const nx::ProfileSummary&) override {
        if (info.name == fail_profile && fail_at_event < 0) throw nx::Error("inner sink failed ending " + info.name);
        log.push_back("end " + info.name + " after " + std::to_string(events));
    }
    void abort_profile() override { log.push_back("abort " + current_ + " after " + std::to_string(events)); }
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
    inner.fail_at_event = 3;
    nx::AsyncSink sink(inner);
    // Far more events than the queue holds: the producer hears of the error
    // at a later event and aborts the profile.
    const int64_t many = static_cast<int64_t>(nx::AsyncSink::kBatchEvents * (nx::AsyncSink::kMaxQueued + 4));
    EXPECT_EQ(send(sink, "b", many), "inner sink failed in b");
    EXPECT_EQ(send(sink, "c", many), "");
    sink.finish();
    EXPECT_EQ(inner.log, (std::vector<std::string>{"begin b", "abort b after 3", "begin c",
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

}  // namespace
