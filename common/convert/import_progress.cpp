#include "common/convert/import_progress.h"

#include <filesystem>
#include <system_error>

namespace nx {

namespace {

// At most this often: a line rewritten faster than it can be read is noise.
constexpr auto kEvery = std::chrono::milliseconds(200);

}  // namespace

void ImportProgress::start(const std::string& name, const InputSource* in) {
    if (!progress_.on()) return;
    // The file's name, not its path: the figures after it must fit the line.
    std::string base = std::filesystem::path(name).filename().string();
    name_ = base.empty() ? name : base;
    progress_.step(name_);
    in_ = in;
    events_ = 0;
    total_bytes_ = 0;
    if (in && !in->is_stdin()) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(in->path(), ec)) {
            auto size = std::filesystem::file_size(in->path(), ec);
            if (!ec) total_bytes_ = size;
        }
    }
    started_ = std::chrono::steady_clock::now();
    shown_ = {};  // the first check shows at once
}

void ImportProgress::event(const Event&) {
    if (++events_ % kEventsPerCheck != 0 || !progress_.on()) return;
    if (std::chrono::steady_clock::now() - shown_ >= kEvery) show();
}

void ImportProgress::show() {
    if (!progress_.on() || name_.empty()) return;
    shown_ = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(shown_ - started_).count();
    progress_.measure(name_, in_ ? in_->position() : 0, total_bytes_, events_, seconds);
}

}  // namespace nx
