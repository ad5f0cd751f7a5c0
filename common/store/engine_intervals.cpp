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
#include "common/store/store.h"

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
        // Merged databases (nx-query --db A --db B) offset ids by 2^40 per
        // database; read the one this profile lives in directly, by rowid.
        int64_t k = profile_id / Store::kIdStride;
        int64_t local = profile_id - k * Store::kIdStride;
        std::string schema = k == 0 ? "main" : "db" + std::to_string(k);
        Stmt prof(db, "SELECT first_event_id, last_event_id, start_ns, end_ns FROM " + schema + ".profile WHERE id = ?");
        sqlite3_bind_int64(prof.s, 1, local);
        if (sqlite3_step(prof.s) != SQLITE_ROW) return;
        found = true;
        bool ranged = sqlite3_column_type(prof.s, 0) != SQLITE_NULL;
        int64_t first = sqlite3_column_int64(prof.s, 0), last = sqlite3_column_int64(prof.s, 1);
        start_ns = sqlite3_column_int64(prof.s, 2);
        end_ns = sqlite3_column_int64(prof.s, 3);

        std::unordered_map<int64_t, Engine> engine_of;
        Stmt tracks(db, "SELECT id, engine FROM " + schema + ".track WHERE profile_id = ?");
        sqlite3_bind_int64(tracks.s, 1, local);
        while (sqlite3_step(tracks.s) == SQLITE_ROW) {
            const char* e = reinterpret_cast<const char*>(sqlite3_column_text(tracks.s, 1));
            engine_of[sqlite3_column_int64(tracks.s, 0)] = parse_engine(e ? e : "").value_or(Engine::none);
        }
        std::string sql = "SELECT ts, dur, track_id, type, opcode FROM " + schema + ".event WHERE profile_id = ?1 AND type IN ('instruction', 'dma', 'active')";
        if (ranged) sql += " AND id BETWEEN ?2 AND ?3";
        Stmt ev(db, sql);
        sqlite3_bind_int64(ev.s, 1, local);
        if (ranged) {
            sqlite3_bind_int64(ev.s, 2, first);
            sqlite3_bind_int64(ev.s, 3, last);
        }
        int64_t last_track = -1;
        Engine engine = Engine::none;
        int rc;
        auto text = [&](int col) {
            const unsigned char* t = sqlite3_column_text(ev.s, col);
            return t ? std::string_view(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(ev.s, col)))
                     : std::string_view();
        };
        while ((rc = sqlite3_step(ev.s)) == SQLITE_ROW) {
            int64_t ts = sqlite3_column_int64(ev.s, 0), dur = sqlite3_column_int64(ev.s, 1);
            int64_t track = sqlite3_column_int64(ev.s, 2);
            if (track != last_track) {
                auto it = engine_of.find(track);
                engine = it == engine_of.end() ? Engine::none : it->second;
                last_track = track;
            }
            if (engine == Engine::none) continue;
            EventType type = parse_event_type(text(3)).value_or(EventType::instruction);
            busy.add(type, engine, ts, dur, text(4));
        }
        if (rc != SQLITE_DONE) throw Error(sqlite3_errmsg(db));
    }

    bool present(size_t e) const { return busy.present(static_cast<Engine>(e)); }

    struct Stmt {
        sqlite3_stmt* s = nullptr;
        Stmt(sqlite3* db, const std::string& sql) {
            if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) throw Error(sqlite3_errmsg(db));
        }
        ~Stmt() { sqlite3_finalize(s); }
    };
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

class SummaryRows : public Producer {
public:
    explicit SummaryRows(std::unique_ptr<EngineIntervals> d) : d_(std::move(d)) {}
    bool next(Row& r) override {
        while (e_ < kEngineCount && !d_->present(e_)) ++e_;
        if (e_ >= kEngineCount) return false;
        Engine e = static_cast<Engine>(e_);
        r.text = std::string(to_string(e));
        r.i[0] = d_->busy.instructions(e);
        r.i[1] = d_->busy.busy(e).total();
        r.i[2] = d_->busy.duration_sum(e);
        ++e_;
        return true;
    }

private:
    std::unique_ptr<EngineIntervals> d_;
    size_t e_ = 0;
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

// ---- the SQLite virtual-table plumbing shared by the four functions

enum class Kind { summary, busy, masks, timeline };

struct FunctionDef {
    const char* name;
    Kind kind;
    const char* schema;  // visible columns, then HIDDEN arguments
    int visible;         // number of visible columns
    int args;            // hidden arguments (the first is required)
};

constexpr FunctionDef kFunctions[] = {
    {"engine_summary", Kind::summary,
     "CREATE TABLE x(engine TEXT, instructions INTEGER, busy_ns INTEGER, busy_sum_ns INTEGER, profile_id HIDDEN)", 4, 1},
    {"engine_busy", Kind::busy, "CREATE TABLE x(engine TEXT, lo INTEGER, hi INTEGER, profile_id HIDDEN)", 3, 1},
    {"engine_masks", Kind::masks,
     "CREATE TABLE x(mask INTEGER, dur_ns INTEGER, engines TEXT, compute INTEGER, dma INTEGER, profile_id HIDDEN)", 5, 1},
    {"engine_timeline", Kind::timeline,
     "CREATE TABLE x(engine TEXT, bucket INTEGER, start_ns INTEGER, end_ns INTEGER, busy_ns INTEGER,"
     " profile_id HIDDEN, buckets HIDDEN)",
     5, 2},
};

struct Table {
    sqlite3_vtab base{};
    const FunctionDef* def;
    sqlite3* db;
};

struct Cursor {
    sqlite3_vtab_cursor base{};
    std::unique_ptr<Producer> producer;
    Row row;
    bool eof = true;
    sqlite3_int64 rowid = 0;
};

int x_connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
    const FunctionDef* def = static_cast<const FunctionDef*>(aux);
    int rc = sqlite3_declare_vtab(db, def->schema);
    if (rc != SQLITE_OK) return rc;
    auto* t = new Table;
    t->def = def;
    t->db = db;
    *out = &t->base;
    return SQLITE_OK;
}

int x_disconnect(sqlite3_vtab* v) {
    delete reinterpret_cast<Table*>(v);
    return SQLITE_OK;
}

int x_best_index(sqlite3_vtab* v, sqlite3_index_info* info) {
    const FunctionDef* def = reinterpret_cast<Table*>(v)->def;
    int found = 0;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& c = info->aConstraint[i];
        int arg = c.iColumn - def->visible;
        if (arg < 0 || arg >= def->args || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c.usable) return SQLITE_CONSTRAINT;  // try another join order
        info->aConstraintUsage[i].argvIndex = arg + 1;
        info->aConstraintUsage[i].omit = 1;
        found |= 1 << arg;
    }
    info->idxNum = found;
    if (!(found & 1)) {
        // No profile id: a plan SQLite avoids when it has another, and that
        // xFilter refuses with a message (SQLite drops messages set here).
        info->estimatedCost = 1e300;
        info->estimatedRows = 1;
        return SQLITE_OK;
    }
    info->estimatedCost = 1000;
    info->estimatedRows = 1000;
    return SQLITE_OK;
}

int x_open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
    auto* c = new Cursor;
    *out = &c->base;
    return SQLITE_OK;
}

int x_close(sqlite3_vtab_cursor* cur) {
    delete reinterpret_cast<Cursor*>(cur);
    return SQLITE_OK;
}

int x_next(sqlite3_vtab_cursor* cur) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    try {
        c->eof = !c->producer || !c->producer->next(c->row);
    } catch (const std::exception& e) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    ++c->rowid;
    return SQLITE_OK;
}

int x_filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    Table* t = reinterpret_cast<Table*>(cur->pVtab);
    c->producer.reset();
    c->rowid = 0;
    c->eof = true;
    if (!(idx_num & 1)) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s() needs a profile id, e.g. %s(p.id)", t->def->name, t->def->name);
        return SQLITE_ERROR;
    }
    if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
    int64_t profile = sqlite3_value_int64(argv[0]);
    int64_t buckets = 50;
    if ((idx_num & 2) && argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) buckets = sqlite3_value_int64(argv[1]);
    if (buckets < 1 || buckets > kMaxBuckets) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("buckets must be between 1 and %lld", static_cast<long long>(kMaxBuckets));
        return SQLITE_ERROR;
    }
    try {
        auto d = std::make_unique<EngineIntervals>(t->db, profile);
        if (!d->found) return SQLITE_OK;
        switch (t->def->kind) {
            case Kind::summary: c->producer = std::make_unique<SummaryRows>(std::move(d)); break;
            case Kind::busy: c->producer = std::make_unique<BusyRows>(std::move(d)); break;
            case Kind::masks: c->producer = std::make_unique<MaskRows>(std::move(d)); break;
            case Kind::timeline: c->producer = std::make_unique<TimelineRows>(std::move(d), buckets); break;
        }
    } catch (const std::exception& e) {
        cur->pVtab->zErrMsg = sqlite3_mprintf("%s", e.what());
        return SQLITE_ERROR;
    }
    return x_next(cur);
}

int x_eof(sqlite3_vtab_cursor* cur) { return reinterpret_cast<Cursor*>(cur)->eof ? 1 : 0; }

int x_column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
    Cursor* c = reinterpret_cast<Cursor*>(cur);
    const FunctionDef* def = reinterpret_cast<Table*>(cur->pVtab)->def;
    const Row& r = c->row;
    auto text = [&] { sqlite3_result_text(ctx, r.text.c_str(), static_cast<int>(r.text.size()), SQLITE_TRANSIENT); };
    if (col >= def->visible) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    switch (def->kind) {
        case Kind::summary:
        case Kind::busy:
        case Kind::timeline:
            // text first, then integers
            if (col == 0) text();
            else sqlite3_result_int64(ctx, r.i[static_cast<size_t>(col - 1)]);
            break;
        case Kind::masks:
            if (col == 2) text();
            else sqlite3_result_int64(ctx, r.i[static_cast<size_t>(col)]);
            break;
    }
    return SQLITE_OK;
}

int x_rowid(sqlite3_vtab_cursor* cur, sqlite3_int64* rowid) {
    *rowid = reinterpret_cast<Cursor*>(cur)->rowid;
    return SQLITE_OK;
}

const sqlite3_module kModule = {
    0,              // iVersion
    nullptr,        // xCreate: eponymous only (a table-valued function)
    x_connect, x_best_index, x_disconnect,
    nullptr,        // xDestroy
    x_open, x_close, x_filter, x_next, x_eof, x_column, x_rowid,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
};

}  // namespace

void register_engine_functions(sqlite3* db) {
    for (const FunctionDef& f : kFunctions)
        sqlite3_create_module(db, f.name, &kModule, const_cast<FunctionDef*>(&f));
}

}  // namespace nx
