// dma_counters() (dma_series.h): DmaCounters run over a profile's DMA events
// as the trace layout runs it, its samples handed to SQL as they come.
#include "common/store/dma_series.h"

#include <deque>
#include <memory>
#include <string>

#include "common/profile/event.h"
#include "common/store/profile_scan.h"
#include "common/store/table_function.h"
#include "common/trace/trace_counters.h"

namespace nx {

namespace {

struct Sample {
    int64_t ts;
    const std::string* name;
    double value;
};

// A TraceWriter that only queues counter samples.
class SampleQueue : public TraceWriter {
public:
    std::deque<Sample> samples;
    void begin_process(const TraceProcess&) override {}
    void track(const TraceTrack&) override {}
    void slice_begin(const TraceTrack&, const SpooledEvent&, int64_t, int64_t, std::span<const FlowEnd>) override {}
    void slice_end(const TraceTrack&, int64_t) override {}
    void counter(const TraceTrack& t, int64_t ts, double value) override { samples.push_back({ts, &t.name, value}); }
    void end_process() override {}
    void finish() override {}
};

class DmaRows : public RowSource {
public:
    DmaRows(sqlite3* db, const DbProfile& p)
        : events_(db, "SELECT e.ts, e.dur, e.bytes FROM " + p.schema + ".event e JOIN " + p.schema +
                          ".track t ON t.id = e.track_id WHERE " + p.where("e.") +
                          " AND t.engine = 'dma' ORDER BY e.ts, e.id") {
        p.bind(events_);
        throughput_.name = std::string(kDmaThroughputTrack);
        pending_.name = std::string(kDmaPendingTrack);
        counters_ = std::make_unique<DmaCounters>(queue_, throughput_, pending_);
    }

    bool next() override {
        if (!queue_.samples.empty()) queue_.samples.pop_front();
        while (queue_.samples.empty() && !done_) {
            if (events_.step()) {
                // The end as the layout takes it (event_end), so the counters
                // of a profile read back from a database match the ones drawn
                // while it was converted.
                int64_t ts = events_.i64(0);
                counters_->transfer(ts, event_end(ts, events_.i64(1)), events_.null(2) ? -1 : events_.i64(2));
            } else {
                counters_->finish();
                done_ = true;
            }
        }
        return !queue_.samples.empty();
    }

    void column(sqlite3_context* ctx, int col) const override {
        const Sample& s = queue_.samples.front();
        if (col == 0) sqlite3_result_int64(ctx, s.ts);
        else if (col == 1) sqlite3_result_text(ctx, s.name->data(), static_cast<int>(s.name->size()), SQLITE_TRANSIENT);
        else sqlite3_result_double(ctx, s.value);
    }

private:
    ConnStmt events_;
    SampleQueue queue_;
    TraceTrack throughput_, pending_;
    std::unique_ptr<DmaCounters> counters_;
    bool done_ = false;
};

std::unique_ptr<RowSource> open_dma_rows(sqlite3* db, const std::vector<sqlite3_value*>& args) {
    DbProfile p(db, sqlite3_value_int64(args[0]));
    if (!p.found) return nullptr;
    return std::make_unique<DmaRows>(db, p);
}

const TableFunction kDmaCounters = {"dma_counters", "CREATE TABLE x(ts INTEGER, name TEXT, value REAL, profile_id HIDDEN)",
                                    3, 1, open_dma_rows};

}  // namespace

void register_dma_functions(sqlite3* db) { register_table_function(db, kDmaCounters); }

}  // namespace nx
