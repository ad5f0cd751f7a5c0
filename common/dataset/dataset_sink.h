// DatasetSink: the ProfileSink that writes each profile into an nx dataset
// (dataset_layout.h): its events sorted by track then time (spooled to disk
// in bounded memory, event_spool.h), its tracks and counter samples, and the
// small per-profile tables (metrics, engines, breakdown, utilization,
// collectives, findings, profiles) from its summary.  A profile's files are
// written whole to temporary names and renamed into place when it ends, the
// profiles file last; an aborted or interrupted profile leaves nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/parquet/file_metadata.h"
#include "common/profile/profile_sink.h"
#include "common/trace/event_spool.h"

namespace nx {

struct DatasetOptions {
    parquet::Codec codec = parquet::Codec::zstd;
    int64_t row_group_rows = 122880;
};

class DatasetSink : public ProfileSink {
public:
    explicit DatasetSink(std::string root, DatasetOptions options = {});
    ~DatasetSink() override;

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;

    int64_t profiles_written() const { return written_; }
    // The ids of the profiles written since the last call (a plan entry's).
    std::vector<std::string> take_written_ids() { return std::exchange(written_ids_, {}); }
    int64_t bytes_written() const { return bytes_; }

private:
    std::string root_;
    DatasetOptions options_;
    std::unique_ptr<EventSpool> spool_;
    int64_t written_ = 0, bytes_ = 0;
    std::vector<std::string> written_ids_;
};

}  // namespace nx
