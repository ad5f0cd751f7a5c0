// nx-convert's progress on a terminal for long imports: a sink beside the
// others that counts the events going by and, at most a few times a second,
// shows how far the current input got (bytes of its file, events, the rate,
// and the time left when the file's size is known) through the tools' one
// Progress line (common/io/progress.h: stderr on a terminal, or forced by
// --progress; never in piped output otherwise).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "common/io/progress.h"
#include "common/io/input.h"
#include "common/profile/profile_sink.h"

namespace nx {

class ImportProgress : public ProfileSink {
public:
    explicit ImportProgress(int force) : progress_(0, force) {}

    // An input starts: a file read through `in` (its size from the file
    // system when it is a regular file), or a directory (in null: events only).
    void start(const std::string& name, const InputSource* in);
    void stop() { in_ = nullptr; }

    void begin_profile(const ProfileInfo&) override {}
    void event(const Event&) override;
    void end_profile(const ProfileInfo&, const ProfileSummary&) override { show(); }
    void finish() override { progress_.done(); }

    // Events between clock reads: the clock stays off the hot path.
    static constexpr uint64_t kEventsPerCheck = 4096;

private:
    void show();
    Progress progress_;
    std::string name_;
    const InputSource* in_ = nullptr;
    uint64_t total_bytes_ = 0, events_ = 0;
    std::chrono::steady_clock::time_point started_, shown_;
};

}  // namespace nx
