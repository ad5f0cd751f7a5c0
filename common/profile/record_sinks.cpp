#include "common/profile/record_sinks.h"

#include "common/profile/profile_record.h"

namespace nx {

void ProfileRecordSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    pending_ += profile_record_json(info, summary);
    pending_ += '\n';
}

void ProfileRecordSink::finish() {
    out_.write(pending_);
    out_.end_record();
    pending_.clear();
}

template <class Write>
void EventRecordSink::line(Write&& write) {
    buffer_.Clear();
    writer_.Reset(buffer_);
    write(writer_);
    out_.write(std::string_view(buffer_.GetString(), buffer_.GetSize()));
    out_.put('\n');
    out_.end_record();
}

void EventRecordSink::event(const Event& e) {
    line([&](JsonWriter& w) { write_event_record(w, profile_id_, e); });
}

void EventRecordSink::flow(const Flow& f) {
    line([&](JsonWriter& w) { write_flow_record(w, profile_id_, f); });
}

void EventRecordSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    out_.write(profile_record_json(info, summary));
    out_.put('\n');
    out_.end_record();
}

}  // namespace nx
