// Sinks that write records: profile records (nx-convert's default stdout) and
// the nx event stream (--to events).  Both write to an Output.  SummarySink
// is the base of those that write from a profile's summary alone.
#pragma once

#include <rapidjson/stringbuffer.h>

#include "common/io/output.h"
#include "common/profile/profile_sink.h"
#include "common/records/jsonl.h"

namespace nx {

// A sink that writes from each profile's summary, at its end, to an Output,
// and reads none of its events.
class SummarySink : public ProfileSink {
public:
    explicit SummarySink(Output& out) : out_(out) {}
    void begin_profile(const ProfileInfo&) override {}
    void event(const Event&) override {}

protected:
    Output& out_;
};

// One profile record per profile.  Records are held until finish(), so a run
// that fails (and rolls its database load back) prints none: stdout agrees
// with the database.  They are small (a few KiB each).
class ProfileRecordSink : public SummarySink {
public:
    using SummarySink::SummarySink;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void finish() override;

private:
    std::string pending_;
};

// Every event as a record, then the profile's flows, then the profile record:
// a stream nx-convert reads back as format nx-jsonl.
class EventRecordSink : public ProfileSink {
public:
    explicit EventRecordSink(Output& out) : out_(out), writer_(buffer_) {}
    void begin_profile(const ProfileInfo& info) override { profile_id_ = info.id; }
    void event(const Event& e) override;
    void flow(const Flow& f) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;

private:
    // One record and its newline.
    template <class Write>
    void line(Write&& write);

    Output& out_;
    std::string profile_id_;
    rapidjson::StringBuffer buffer_;
    JsonWriter writer_;
};

}  // namespace nx
