// What went wrong while a tool ran, as named counters with a severity (the
// idea of Perfetto's stats table): every kind of bad record, failed input,
// capture or workload a tool can meet is a row of one table
// (error_counts.cpp).  Tools count into the process's ErrorCounts; the first
// kNamedPerKind of each kind are named on standard error as they happen, the
// rest only counted; at exit run_tool (cli.h) prints one line per counter
// that is not zero, and any error-severity count makes the exit status 1.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace nx {

enum class ErrorKind {
    bad_record,       // a record skipped under --keep-going (nx-convert, nx-report, nx-run)
    damaged_table,    // an Explorer table whose rest was skipped under --keep-going
    failed_input,     // an input nx-convert could not read, skipped under --keep-going
    failed_capture,   // a run nx-capture could not profile
    failed_workload,  // a workload nx-run could not run
};
inline constexpr int kErrorKinds = 5;

enum class ErrorSeverity { info, error };

struct ErrorCounterDef {
    ErrorKind kind;
    std::string_view name;  // "bad_record"
    ErrorSeverity severity;
    // How one is named as it happens: a warning with this prefix ("skipped
    // record: "), or an error when null.
    const char* warning_prefix;
    // The summary line: %n the count, %t the total (e.g. inputs read), %s
    // "s" when the count (or total, when given) is not one.
    std::string_view summary;
};

const ErrorCounterDef& error_counter_def(ErrorKind kind);

constexpr int64_t kNamedPerKind = 5;

class ErrorCounts {
public:
    // Counts one; names it on standard error (a warning or an error, as its
    // row says) while fewer than kNamedPerKind of its kind have been named.
    void add(ErrorKind kind, const std::string& message, const std::string& where = {}, int64_t line = 0);
    // Counts n more without naming them (the caller has said what they were).
    void count_more(ErrorKind kind, int64_t n) { counts_[static_cast<int>(kind)] += n; }
    // What the counts are out of (inputs read, captures tried), for the summary.
    void set_total(ErrorKind kind, int64_t total);
    int64_t count(ErrorKind kind) const { return counts_[static_cast<int>(kind)]; }
    bool any_error() const;
    // One line per counter that is not zero, as notes on standard error.
    void print_summary() const;
    // The summary line of one counter ("skipped 2 bad records"); of `n`
    // instead of the count when given.
    std::string summary(ErrorKind kind, int64_t n = -1) const;

    // The counts now, to see later what one profile's import added (each
    // profile record keeps its own counts: ProfileBuilder).
    using Snapshot = std::array<int64_t, kErrorKinds>;
    Snapshot snapshot() const;
    // The counters that grew since `before`, as a JSON object
    // ({"bad_record":3}) and as summary lines joined by "; ".  Empty when
    // none grew.
    std::string grown_since_json(const Snapshot& before) const;
    std::string grown_since_text(const Snapshot& before) const;

private:
    int64_t counts_[kErrorKinds] = {};
    int64_t totals_[kErrorKinds] = {};
};

// The process's counters (tools are single-run processes).
ErrorCounts& error_counts();

}  // namespace nx
