// The table of error counters and their bookkeeping (error_counts.h).
#include "common/records/error_counts.h"

#include "common/io/diag.h"

namespace nx {

namespace {

constexpr ErrorCounterDef kCounters[kErrorKinds] = {
    {ErrorKind::bad_record, "bad_record", ErrorSeverity::error, "skipped record: ", "skipped %n bad record%s"},
    {ErrorKind::damaged_table, "damaged_table", ErrorSeverity::error, "", "skipped the rest of %n damaged table%s"},
    {ErrorKind::failed_input, "failed_input", ErrorSeverity::error, nullptr, "skipped %n of %t input%s"},
    {ErrorKind::failed_capture, "failed_capture", ErrorSeverity::error, nullptr, "%n of %t capture%s failed"},
    {ErrorKind::failed_workload, "failed_workload", ErrorSeverity::error, nullptr, "%n of %t workload%s failed"},
};

}  // namespace

const ErrorCounterDef& error_counter_def(ErrorKind kind) { return kCounters[static_cast<int>(kind)]; }

void ErrorCounts::add(ErrorKind kind, const std::string& message, const std::string& where, int64_t line) {
    int64_t n = ++counts_[static_cast<int>(kind)];
    if (n > kNamedPerKind) return;
    const ErrorCounterDef& d = error_counter_def(kind);
    if (d.warning_prefix) print_warning(d.warning_prefix + message, where, line);
    else print_error(message, where, line);
}

void ErrorCounts::set_total(ErrorKind kind, int64_t total) { totals_[static_cast<int>(kind)] = total; }

bool ErrorCounts::any_error() const {
    for (const ErrorCounterDef& d : kCounters)
        if (d.severity == ErrorSeverity::error && count(d.kind) > 0) return true;
    return false;
}

std::string ErrorCounts::summary(ErrorKind kind, int64_t n) const {
    const ErrorCounterDef& d = error_counter_def(kind);
    if (n < 0) n = count(kind);
    int64_t total = totals_[static_cast<int>(kind)];
    int64_t plural_of = d.summary.find("%t") != std::string_view::npos ? total : n;
    std::string out;
    for (size_t i = 0; i < d.summary.size(); ++i) {
        if (d.summary[i] != '%' || i + 1 == d.summary.size()) {
            out += d.summary[i];
            continue;
        }
        char c = d.summary[++i];
        if (c == 'n') out += std::to_string(n);
        else if (c == 't') out += std::to_string(total);
        else if (c == 's') out += plural_of == 1 ? "" : "s";
    }
    return out;
}

void ErrorCounts::print_summary() const {
    for (const ErrorCounterDef& d : kCounters)
        if (count(d.kind) > 0) print_note(summary(d.kind));
}

ErrorCounts::Snapshot ErrorCounts::snapshot() const {
    Snapshot s{};
    for (int k = 0; k < kErrorKinds; ++k) s[static_cast<size_t>(k)] = counts_[k];
    return s;
}

std::string ErrorCounts::grown_since_json(const Snapshot& before) const {
    std::string out;
    for (const ErrorCounterDef& d : kCounters) {
        int64_t n = count(d.kind) - before[static_cast<size_t>(d.kind)];
        if (n > 0) out += (out.empty() ? "{\"" : ",\"") + std::string(d.name) + "\":" + std::to_string(n);
    }
    return out.empty() ? out : out + "}";
}

std::string ErrorCounts::grown_since_text(const Snapshot& before) const {
    std::string out;
    for (const ErrorCounterDef& d : kCounters) {
        int64_t n = count(d.kind) - before[static_cast<size_t>(d.kind)];
        if (n > 0) out += (out.empty() ? "" : "; ") + summary(d.kind, n);
    }
    return out;
}

ErrorCounts& error_counts() {
    static ErrorCounts counts;
    return counts;
}

}  // namespace nx
