#include "common/report/device_report.h"

#include <algorithm>

#include "common/format/units.h"

namespace nx {

namespace {

std::string ns_text(int64_t ns) { return format_ns(static_cast<double>(ns)); }
std::string share(int64_t part, int64_t whole) {
    return whole > 0 ? format_percent(100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "n/a";
}
std::string mean_text(int64_t sum, int64_t n) { return n > 0 ? ns_text(sum / n) : "n/a"; }

// Past this many steps the text shows the first and the slowest ones.
constexpr size_t kStepsShown = 20;

}  // namespace

void add_device_report(Document& doc, const DeviceSummary& d) {
    const DeviceTimes& t = d.times;
    doc.heading("Device streams (" + std::string(d.family == "mtia" ? "MTIA" : "GPU") +
                    ", as HTA counts them: the work launched before the last, incomplete step)",
                2);
    if (d.counted == 0) {
        doc.paragraph("no device work counted: " + std::to_string(d.events) + " device events, " +
                      std::to_string(d.left_late) + " launched too late, " + std::to_string(d.left_unlaunched) +
                      " without their launch in the trace");
        return;
    }
    std::vector<Fact> facts = {
        {"device window", ns_text(t.span_ns) + " (HTA's kernel time: first start to last end of the work counted)"},
        {"idle", share(t.idle_ns, t.span_ns) + " (" + ns_text(t.idle_ns) + ")"},
        {"computation", share(t.computation_ns, t.span_ns) + " (" + ns_text(t.computation_ns) + ")"},
        {"non-computation", share(t.span_ns - t.computation_ns - t.idle_ns, t.span_ns) +
                                " (communication, memory and other work while nothing computes)"},
        {"communication", share(t.communication_ns, t.span_ns) + " (" + ns_text(t.communication_ns) + ")"},
        {"memory", share(t.memory_ns, t.span_ns) + " (" + ns_text(t.memory_ns) + ")"},
    };
    if (t.communication_ns > 0)
        facts.push_back({"comm/comp overlap", share(t.overlap_ns, t.communication_ns) +
                                                  " of the communication time computes too"});
    facts.push_back({"work counted", format_count(static_cast<double>(d.counted)) + " of " +
                                         format_count(static_cast<double>(d.events)) + " device events" +
                                         (d.left_step >= 0 ? " (step " + std::to_string(d.left_step) + " left out)" : "")});
    doc.facts(facts);

    TableBlock types;
    types.columns = {"kernel type", "time", "share"};
    types.numeric = {false, true, true};
    int64_t typed = 0;
    for (const DeviceKernelType& k : d.kernel_types) typed += k.ns;
    for (const DeviceKernelType& k : d.kernel_types) types.rows.push_back({k.type, ns_text(k.ns), share(k.ns, typed)});
    doc.heading("Kernel types (HTA's breakdown: time each set of kinds runs)", 3);
    doc.table(types);

    TableBlock streams;
    streams.columns = {"stream", "work", "busy", "host wait", "kernel wait", "other wait", "queue mean", "queue max",
                       "at max"};
    streams.numeric = {true, true, true, true, true, true, true, true, true};
    for (const DeviceStreamStat& s : d.streams)
        streams.rows.push_back({std::to_string(s.stream), format_count(static_cast<double>(s.events)), ns_text(s.busy_ns),
                                ns_text(s.host_wait_ns), ns_text(s.kernel_wait_ns), ns_text(s.other_wait_ns),
                                s.queue_points ? format_value(s.queue_mean) : "", s.queue_points ? std::to_string(s.queue_max) : "",
                                s.queue_points ? ns_text(s.queue_at_max_ns) : ""});
    doc.heading("Streams (idle gaps by cause: host wait, the next work launched after the last ended; kernel wait, "
                "a gap under 30 us; launch queue)",
                3);
    doc.table(streams);

    const DeviceLaunchStat& l = d.launches;
    if (l.launches > 0) {
        doc.heading("Launches", 3);
        doc.facts({{"launches", format_count(static_cast<double>(l.launches))},
                   {"CPU time", "mean " + mean_text(l.cpu_sum_ns, l.launches) + ", max " + ns_text(l.cpu_max_ns) + ", " +
                                    format_count(static_cast<double>(l.cpu_outliers)) + " over 50 us"},
                   {"device time", "mean " + mean_text(l.gpu_sum_ns, l.launches) + ", max " + ns_text(l.gpu_max_ns)},
                   {"launch delay", "mean " + mean_text(l.delay_sum_ns, l.launches) + ", max " + ns_text(l.delay_max_ns) +
                                        ", " + format_count(static_cast<double>(l.delay_outliers)) + " over 100 us"}});
    }

    if (!d.steps.empty()) {
        std::vector<size_t> shown(d.steps.size());
        for (size_t k = 0; k < shown.size(); ++k) shown[k] = k;
        if (shown.size() > kStepsShown) {
            // The first steps and the longest ones, in step order.
            std::stable_sort(shown.begin() + kStepsShown / 2, shown.end(), [&](size_t a, size_t b) {
                return d.steps[a].times.span_ns > d.steps[b].times.span_ns;
            });
            shown.resize(kStepsShown);
            std::sort(shown.begin(), shown.end());
        }
        TableBlock steps;
        steps.columns = {"step", "window", "computation", "communication", "overlap", "exposed", "idle"};
        steps.numeric = {true, true, true, true, true, true, true};
        for (size_t k : shown) {
            const DeviceStep& s = d.steps[k];
            steps.rows.push_back({std::to_string(s.step), ns_text(s.times.span_ns),
                                  share(s.times.computation_ns, s.times.span_ns),
                                  share(s.times.communication_ns, s.times.span_ns),
                                  share(s.times.overlap_ns, s.times.span_ns), share(s.times.exposed_ns, s.times.span_ns),
                                  share(s.times.idle_ns, s.times.span_ns)});
        }
        doc.heading("Steps (each step's work: from its first start to its last end)" +
                        std::string(d.steps.size() > kStepsShown
                                        ? ", the first " + std::to_string(kStepsShown / 2) + " and the longest of " +
                                              std::to_string(d.steps.size())
                                        : ""),
                    3);
        doc.table(steps);
    }
}

}  // namespace nx
