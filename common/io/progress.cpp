#include "common/io/progress.h"

#include <cmath>
#include <cstdio>

#include "common/io/diag.h"

namespace nx {

Progress::Progress(size_t total, int force) : total_(total), on_(force > 0 || (force == 0 && stderr_is_terminal())) {}

Progress::~Progress() { done(); }

namespace {

// "512 B", "12.3 KiB", "40.0 MiB", "1.50 GiB"
std::string bytes_text(double bytes) {
    constexpr double kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
    char buf[32];
    if (bytes < kKiB) std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    else if (bytes < kMiB) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / kKiB);
    else if (bytes < kGiB) std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / kMiB);
    else std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
    return buf;
}

// "1,234,567"
std::string grouped(uint64_t n) {
    std::string d = std::to_string(n), out;
    for (size_t i = 0; i < d.size(); ++i) {
        if (i && (d.size() - i) % 3 == 0) out += ',';
        out += d[i];
    }
    return out;
}

std::string duration(double s) {
    constexpr double kMinute = 60, kHour = 3600;
    char buf[32];
    if (s < kMinute) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < kHour) std::snprintf(buf, sizeof buf, "%.0f min %.0f s", std::floor(s / kMinute), std::fmod(s, kMinute));
    else std::snprintf(buf, sizeof buf, "%.0f h %.0f min", std::floor(s / kHour), std::fmod(s, kHour) / kMinute);
    return buf;
}

}  // namespace

void Progress::step(const std::string& what) {
    ++count_;
    if (!on_) return;
    show(what);
}

void Progress::show(const std::string& what) {
    // A stream's length is not known in advance (total 0): the count alone.
    std::string count = std::to_string(count_) + (total_ ? "/" + std::to_string(total_) : std::string());
    std::string line = "\r" + program_name() + ": [" + count + "] " + what;
    constexpr size_t kWidest = 120;
    if (line.size() > kWidest) line.resize(kWidest);
    line += "\033[K";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    dirty_ = true;
}

void Progress::measure(const std::string& what, uint64_t bytes, uint64_t total_bytes, uint64_t events, double seconds) {
    if (!on_) return;
    // A long name is cut, not the figures after it.
    constexpr size_t kLongestName = 48;
    std::string text = (what.size() > kLongestName ? what.substr(0, kLongestName - 3) + "..." : what) + "  ";
    if (bytes > 0)
        text += bytes_text(static_cast<double>(bytes)) +
                (total_bytes ? " of " + bytes_text(static_cast<double>(total_bytes)) : "") + ", ";
    text += grouped(events) + " events";
    if (seconds > 0) {
        if (bytes > 0) {
            double rate = static_cast<double>(bytes) / seconds;
            text += ", " + bytes_text(rate) + "/s";
            if (total_bytes > bytes && rate > 0)
                text += ", ETA " + duration(static_cast<double>(total_bytes - bytes) / rate);
        } else {
            text += ", " + grouped(static_cast<uint64_t>(static_cast<double>(events) / seconds)) + " events/s";
        }
    }
    show(text);
}

void Progress::done() {
    if (on_ && dirty_) std::fputs("\r\033[K", stderr);
    dirty_ = false;
}

}  // namespace nx
