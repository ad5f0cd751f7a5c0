#include "common/record_sinks.h"

#include "common/profile_record.h"

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

void EventRecordSink::event(const Event& e) {
    buffer_.Clear();
    writer_.Reset(buffer_);
    write_event_record(writer_, profile_id_, e);
    out_.write(std::string_view(buffer_.GetString(), buffer_.GetSize()));
    out_.put('\n');
    out_.end_record();
}

void EventRecordSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    out_.write(profile_record_json(info, summary));
    out_.put('\n');
    out_.end_record();
}

}  // namespace nx
