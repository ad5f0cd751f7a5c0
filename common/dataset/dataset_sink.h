// DatasetSink: the ProfileSink that writes each profile into an nx dataset
// (dataset_layout.h): its events and counter samples by track then time,
// encoded as they come (each track a lane of the Parquet writer, put in
// order by a TrackOrderWindow: no sort at the profile's end), its tracks,
// and the small per-profile tables (metrics, engines, breakdown,
// utilization, collectives, findings, opcodes, profiles) from its summary.  A
// profile's files are written whole to temporary names and put in place
// together when it ends (dataset_commit.h); an aborted or interrupted
// profile leaves nothing a reader sees.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/dataset/dataset_folder.h"
#include "common/dataset/dataset_plan.h"
#include "common/dataset/track_order_window.h"
#include "common/parquet/file_metadata.h"
#include "common/profile/profile_sink.h"

namespace nx {

struct DatasetOptions {
    parquet::Codec codec = parquet::Codec::zstd;
    int64_t row_group_rows = 122880;
    // Each track's events and counter samples in pages of this many, encoded
    // as they come: what is left to encode when the profile ends is at most
    // a page and a window (TrackOrderWindow) a track.
    int64_t track_page_rows = 4096;
    size_t order_window = TrackOrderWindow::kDefaultWindow;
};

class DatasetSink : public ProfileSink {
public:
    explicit DatasetSink(std::string root, DatasetOptions options = {});
    ~DatasetSink() override;

    void begin_profile(const ProfileInfo& info) override;
    void event(const Event& e) override;
    void end_profile(const ProfileInfo& info, const ProfileSummary& summary) override;
    void abort_profile() override;

    int64_t profiles_written() const { return profiles_written_; }
    // The profiles written since the last call (a plan entry's).
    std::vector<dataset::WrittenProfile> take_written() { return std::exchange(written_, {}); }
    int64_t bytes_written() const { return bytes_; }
    const dataset::Folder& folder() const { return folder_; }
    // The mark this writer's temporary files carry (dataset_folder.h).
    const std::string& tag() const { return tag_.tag(); }

private:
    struct Open;  // the profile being written: its events' files, tracks, window
    // DIR/<table>/rank=<r>, made, noted as holding this writer's temporary files.
    DirHandle partition(std::string_view table, int rank);
    std::string root_;
    DatasetOptions options_;
    dataset::Folder folder_;
    dataset::WriterTag tag_;
    std::unique_ptr<Open> open_;
    int64_t profiles_written_ = 0, bytes_ = 0;
    std::vector<dataset::WrittenProfile> written_;
};

}  // namespace nx
