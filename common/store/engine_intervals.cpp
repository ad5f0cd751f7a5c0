// engine_summary, engine_busy, engine_masks and engine_timeline: the busy
// intervals of a stored profile's engines as SQL table functions.
#include "common/store/engine_intervals.h"

#include <array>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/io/error.h"
#include "common/profile/engine_busy.h"
#include "common/profile/event.h"
#include "common/profile/interval_union.h"
#include "common/store/described_tables.h"
#include "common/store/profile_scan.h"
#include "common/store/table_function.h"

namespace nx {

namespace {

constexpr int64_t kMaxBuckets = 100000;

// All intervals of one profile, per engine.
// Busy time follows engine_busy.h, as the profile record's figures do.
struct EngineIntervals {
    EngineBusy busy;
    int64_t start_ns = 0, end_ns = 0;
    bool found = false;

    EngineIntervals(sqlite3* db, int64_t profile_id) { load(db, profile_id); }

    void load(sqlite3* db, int64_t profile_id) {
        // Merged databases: the one this profile lives in, read directly by rowid.
        DbProfile p(db, profile_id);
        if (!p.found) return;
        found = true;
        start_ns = p.start;
        end_ns = p.end;

        std::unordered_map<int64_t, Engine> engine_of;
        ConnStmt tracks(db, "SELECT id, engine FROM " + p.schema + ".track WHERE profile_id = ?");
        tracks.bind(1, p.local);
        while (tracks.step()) engine_of[tracks.i64(0)] = parse_engine(tracks.text(1)).value_or(Engine::none);
        ConnStmt ev(db, "SELECT ts, dur, track_id, type, opcode FROM " + p.schema + ".event WHERE " + p.where("") +
                            " AND type IN ('instruction', 'dma', 'active')");
        p.bind(ev);
        int64_t last_track = -1;
        Engine engine = Engine::none;
        while (ev.step()) {
            int64_t ts = ev.i64(0), dur = ev.i64(1);
            int64_t track = ev.i64(2);
            if (track != last_track) {
                auto it = engine_of.find(track);
                engine = it == engine_of.end() ? Engine::none : it->second;
                last_track = track;
            }
            if (engine == Engine::none) continue;
            EventType type = parse_event_type(ev.text(3)).value_or(EventType::instruction);
            busy.add(type, engine, ts, dur, ev.text(4));
        }
    }

    bool present(size_t e) const { return busy.present(static_cast<Engine>(e)); }
};

// ---- rows each function produces (computed in xFilter, streamed where large)

struct Row {
    std::array<sqlite3_int64, 5> i{};
    std::string text;  // the one text column (engine name / engine list)
};

class Producer {
public:
    virtual ~Producer() = default;
    virtual bool next(Row& row) = 0;
};

class BusyRows : public Producer {
public:
    explicit BusyRows(std::unique_ptr<EngineIntervals> d) : d_(std::move(d)) {}
    bool next(Row& r) override {
        for (;;) {
            if (!reader_) {
                while (e_ < kEngineCount && !d_->present(e_)) ++e_;
                if (e_ >= kEngineCount) return false;
                reader_ = std::make_unique<IntervalUnion::Reader>(d_->busy.busy(static_cast<Engine>(e_)));
            }
            Interval iv;
            if (reader_->next(iv)) {
                r.text = std::string(to_string(static_cast<Engine>(e_)));
                r.i[0] = iv.begin;
                r.i[1] = iv.end;
                return true;
            }
            reader_.reset();
            ++e_;
        }
    }

private:
    std::unique_ptr<EngineIntervals> d_;
    size_t e_ = 0;
    std::unique_ptr<IntervalUnion::Reader> reader_;
};

// Sweep: time per set of engines busy at once.  Each engine's merged
// intervals are disjoint, so an engine is either in or out: one bit each.
class MaskRows : public Producer {
public:
    explicit MaskRows(std::unique_ptr<EngineIntervals> d) {
        struct Stream {
            std::unique_ptr<IntervalUnion::Reader> reader;
            Interval cur{};
            bool inside = false;
        };
        std::vector<Stream> streams(kEngineCount);
        using Edge = std::pair<int64_t, size_t>;  // time, engine
        std::priority_queue<Edge, std::vector<Edge>, std::greater<Edge>> heap;
        for (size_t e = 0; e < kEngineCount; ++e) {
            if (!d->present(e)) continue;
            streams[e].reader = std::make_unique<IntervalUnion::Reader>(d->busy.busy(static_cast<Engine>(e)));
            if (streams[e].reader->next(streams[e].cur)) heap.push({streams[e].cur.begin, e});
        }
        // Mask 0 is idle time: from the profile's start to its end, between
        // and around the busy intervals.
        int64_t mask = 0;
        int64_t t_prev = d->start_ns;
        while (!heap.empty()) {
            auto [t, e] = heap.top();
            heap.pop();
            if (t > t_prev) totals_[mask] += t - t_prev;
            t_prev = std::max(t_prev, t);
            Stream& s = streams[e];
            if (!s.inside) {
                mask |= int64_t{1} << e;
                s.inside = true;
                heap.push({s.cur.end, e});
            } else {
                mask &= ~(int64_t{1} << e);
                s.inside = false;
                if (s.reader->next(s.cur)) heap.push({s.cur.begin, e});
            }
        }
        if (d->end_ns > t_prev) totals_[0] += d->end_ns - t_prev;
        it_ = totals_.begin();
    }
    bool next(Row& r) override {
        if (it_ == totals_.end()) return false;
        r.i[0] = it_->first;
        r.i[1] = it_->second;
        r.i[3] = 0;
        r.i[4] = 0;
        r.text.clear();
        for (size_t e = 0; e < kEngineCount; ++e) {
            if (!(it_->first >> e & 1)) continue;
            if (!r.text.empty()) r.text += ',';
            r.text += to_string(static_cast<Engine>(e));
            if (is_compute_engine(static_cast<Engine>(e))) r.i[3] = 1;
            if (static_cast<Engine>(e) == Engine::dma) r.i[4] = 1;
        }
        ++it_;
        return true;
    }

private:
    std::map<int64_t, int64_t> totals_;
    std::map<int64_t, int64_t>::iterator it_;
};

class TimelineRows : public Producer {
public:
    TimelineRows(std::unique_ptr<EngineIntervals> d, int64_t n) : buckets_(d->start_ns, d->end_ns, n) {
        for (size_t e = 0; e < kEngineCount; ++e) {
            if (!d->present(e)) continue;
            engines_.emplace_back(static_cast<Engine>(e), buckets_.busy(d->busy.busy(static_cast<Engine>(e))));
        }
    }
    bool next(Row& r) override {
        if (engine_ >= engines_.size()) return false;
        auto& [engine, busy] = engines_[engine_];
        r.text = std::string(to_string(engine));
        r.i[0] = bucket_;
        r.i[1] = buckets_.edge(bucket_);
        r.i[2] = buckets_.edge(bucket_ + 1);
        r.i[3] = busy[static_cast<size_t>(bucket_)];
        if (++bucket_ >= buckets_.count()) {
            bucket_ = 0;
            ++engine_;
        }
        return true;
    }

private:
    TimeBuckets buckets_;
    std::vector<std::pair<Engine, std::vector<int64_t>>> engines_;
    size_t engine_ = 0;
    int64_t bucket_ = 0;
};

// ---- the four functions: their schemas and the rows of one call

enum class Kind { summary, busy, masks, timeline };

// A producer's rows as SQL columns.
class ProducerRows : public RowSource {
public:
    ProducerRows(std::unique_ptr<Producer> p, Kind kind) : producer_(std::move(p)), kind_(kind) {}
    bool next() override { return producer_->next(row_); }
    void column(sqlite3_context* ctx, int col) const override {
        // engine_masks has its text third; the others first, then integers.
        int text_col = kind_ == Kind::masks ? 2 : 0;
        if (col == text_col)
            sqlite3_result_text(ctx, row_.text.c_str(), static_cast<int>(row_.text.size()), SQLITE_TRANSIENT);
        else
            sqlite3_result_int64(ctx, row_.i[static_cast<size_t>(kind_ == Kind::masks ? col : col - 1)]);
    }

private:
    std::unique_ptr<Producer> producer_;
    Kind kind_;
    Row row_;
};

// engine_summary: engine_stat's rows stored at import, else the same
// figures computed from the events; its columns are engine_stat's.
class SummaryRows : public RowSource {
public:
    explicit SummaryRows(std::vector<EngineStat> rows) : rows_(std::move(rows)) {}
    bool next() override { return ++at_ <= rows_.size(); }
    void column(sqlite3_context* ctx, int col) const override {
        FieldValue v = stored_engine_fields()[static_cast<size_t>(col)].get(rows_[at_ - 1]);
        if (const auto* i = std::get_if<int64_t>(&v)) sqlite3_result_int64(ctx, *i);
        else if (const auto* d = std::get_if<double>(&v)) sqlite3_result_double(ctx, *d);
        else if (const auto* t = std::get_if<std::string_view>(&v))
            sqlite3_result_text(ctx, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
        else sqlite3_result_null(ctx);
    }

private:
    std::vector<EngineStat> rows_;
    size_t at_ = 0;
};

// engine_stat's rows for a profile; none when it has none (an older nx
// stored it, or its database has no such table).
std::vector<EngineStat> stored_summary(sqlite3* db, int64_t profile_id) {
    ProfileLocation at = locate_profile(profile_id);
    try {
        return read_engine_stats(db, at.schema, at.local);
    } catch (const Error&) {
        return {};
    }
}

std::unique_ptr<RowSource> open_rows(sqlite3* db, const std::vector<sqlite3_value*>& args, Kind kind) {
    int64_t profile = sqlite3_value_int64(args[0]);
    int64_t buckets = 50;
    if (args.size() > 1 && args[1] && sqlite3_value_type(args[1]) != SQLITE_NULL) buckets = sqlite3_value_int64(args[1]);
    if (buckets < 1 || buckets > kMaxBuckets)
        throw Error("buckets must be between 1 and " + std::to_string(kMaxBuckets));
    if (kind == Kind::summary) {
        std::vector<EngineStat> stored = stored_summary(db, profile);
        if (!stored.empty()) return std::make_unique<SummaryRows>(std::move(stored));
    }
    auto d = std::make_unique<EngineIntervals>(db, profile);
    if (!d->found) return nullptr;
    std::unique_ptr<Producer> p;
    switch (kind) {
        case Kind::summary: return std::make_unique<SummaryRows>(engine_summary_rows(d->busy));
        case Kind::busy: p = std::make_unique<BusyRows>(std::move(d)); break;
        case Kind::masks: p = std::make_unique<MaskRows>(std::move(d)); break;
        case Kind::timeline: p = std::make_unique<TimelineRows>(std::move(d), buckets); break;
    }
    return std::make_unique<ProducerRows>(std::move(p), kind);
}

template <Kind K>
std::unique_ptr<RowSource> open_kind(sqlite3* db, const std::vector<sqlite3_value*>& args) {
    return open_rows(db, args, K);
}

// engine_summary's columns are engine_stat's.
std::string summary_schema() {
    std::string sql = "CREATE TABLE x(";
    for (const Field<EngineStat>& f : stored_engine_fields())
        sql += std::string(f.name) + " " + std::string(sql_type(f.type)) + ", ";
    return sql + "profile_id HIDDEN)";
}

const std::vector<TableFunction>& functions() {
    static const std::string summary = summary_schema();
    static const std::vector<TableFunction> f = {
    {"engine_summary", summary.c_str(), static_cast<int>(stored_engine_fields().size()), 1, open_kind<Kind::summary>},
    {"engine_busy", "CREATE TABLE x(engine TEXT, lo INTEGER, hi INTEGER, profile_id HIDDEN)", 3, 1,
     open_kind<Kind::busy>},
    {"engine_masks",
     "CREATE TABLE x(mask INTEGER, dur_ns INTEGER, engines TEXT, compute INTEGER, dma INTEGER, profile_id HIDDEN)", 5, 1,
     open_kind<Kind::masks>},
    {"engine_timeline",
     "CREATE TABLE x(engine TEXT, bucket INTEGER, start_ns INTEGER, end_ns INTEGER, busy_ns INTEGER,"
     " profile_id HIDDEN, buckets HIDDEN)",
     5, 2, open_kind<Kind::timeline>},
    };
    return f;
}

}  // namespace

std::vector<EngineStat> engine_summary_rows(EngineBusy& busy) {
    std::vector<EngineStat> rows;
    for (size_t i = 0; i < kEngineCount; ++i)
        if (busy.present(static_cast<Engine>(i))) rows.push_back(busy.stat(static_cast<Engine>(i)));
    return rows;
}

void register_engine_functions(sqlite3* db) {
    for (const TableFunction& f : functions()) register_table_function(db, f);
}

}  // namespace nx
