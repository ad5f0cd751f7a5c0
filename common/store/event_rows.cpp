#include "common/store/event_rows.h"

#include <cstdint>

#include "common/io/error.h"

namespace nx {

namespace {

constexpr std::string_view kEventColumns =
    "event(profile_id, track_id, type, ts, dur, name, opcode, hlo_id, layer_id, bytes,"
    " flops, model_flops, dma_kind, tensor, depth, args, transpose, src_tbl, src_row, lane_id, parent_back)";

}  // namespace

EventRows::EventRows(SqliteDb& db, const std::string& source)
    : db_(db), source_(source), one_(db, insert_rows_sql(kEventColumns, kColumns, 1)),
      many_(db, insert_rows_sql(kEventColumns, kColumns, kRows)) {
    static_assert(kColumns < 32, "a row's NULL parameters are bits of a uint32_t");
    rows_.reserve(kRows);
}

bool EventRows::add(const Event& e, const EventRowIds& ids) {
    Row& r = rows_.emplace_back();
    r.e = e;
    r.ids = ids;
    for (int i = 0; i < kEventStrings; ++i) {
        std::string_view v = e.*kEventStringFields[i];
        r.off[i] = static_cast<uint32_t>(text_.size());
        if (!v.empty()) text_.append(v);
        r.e.*kEventStringFields[i] = std::string_view(nullptr, v.size());  // pointed into text_ by flush()
    }
    return rows_.size() >= kRows || text_.size() >= kMaxQueuedText;
}

void EventRows::clear() {
    rows_.clear();
    text_.clear();
}

// Too big is the input's fault, not the database's: name the event's input
// and line, as for any bad record.  SQLite would otherwise bind NULL and lose
// the value without a word.
Error EventRows::too_big(const Event& e) const {
    return Error("an event holds more than the database stores in one value (" +
                     std::to_string(sqlite3_limit(db_.handle(), SQLITE_LIMIT_LENGTH, -1)) + " bytes, NX_MAX_RECORD_MIB)",
                 source_, e.line);
}

void EventRows::bind(SqliteStmt& stmt, uint32_t& nulls, int base, const Row& r) {
    sqlite3_stmt* s = stmt.handle();
    const Event& e = r.e;
    auto null = [&](int i) {
        if (nulls & (1u << i)) return;
        sqlite3_bind_null(s, base + i);
        nulls |= 1u << i;
    };
    auto bound = [&](int i) { nulls &= ~(1u << i); };
    auto text = [&](int i, std::string_view v) {
        if (v.empty()) {
            null(i);
            return;
        }
        bound(i);
        if (v.size() > static_cast<size_t>(INT32_MAX) ||
            sqlite3_bind_text(s, base + i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC) == SQLITE_TOOBIG)
            throw too_big(e);
    };
    auto int64 = [&](int i, int64_t v) {
        bound(i);
        sqlite3_bind_int64(s, base + i, v);
    };
    auto real = [&](int i, double v) {
        bound(i);
        sqlite3_bind_double(s, base + i, v);
    };
    auto id_or_null = [&](int i, int64_t v) {
        if (v != 0) int64(i, v);
        else null(i);
    };
    int64(1, r.ids.profile);
    int64(2, r.ids.track);
    text(3, to_string(e.type));
    int64(4, e.ts_ns);
    int64(5, e.dur_ns);
    // The name usually repeats the opcode: stored once (slice.name restores it).
    text(6, e.name == e.opcode ? std::string_view() : e.name);
    text(7, e.opcode);
    id_or_null(8, r.ids.hlo);
    id_or_null(9, r.ids.layer);
    if (e.bytes >= 0) int64(10, e.bytes); else null(10);
    if (e.flops >= 0) real(11, e.flops); else null(11);
    if (e.model_flops >= 0) real(12, e.model_flops); else null(12);
    text(13, to_string(e.dma_kind));
    text(14, e.tensor);
    // The trace's depth, not the source's.
    id_or_null(15, r.ids.depth);
    // An event whose source row is kept in place stores where it is, not
    // its args (source_args() reads them from there).
    if (r.ids.src_ref > 0) {
        null(16);
        int64(18, r.ids.src_ref);
        int64(19, e.src_row);
    } else {
        text(16, e.args_json);
        null(18);
        null(19);
    }
    if (e.transpose) int64(17, 1); else null(17);
    id_or_null(20, r.ids.lane);
    id_or_null(21, r.ids.parent_back);
}

bool EventRows::step(SqliteStmt& stmt) {
    sqlite3_stmt* s = stmt.handle();
    if (sqlite3_step(s) == SQLITE_DONE) {
        sqlite3_reset(s);
        return true;
    }
    int code = sqlite3_errcode(db_.handle());
    sqlite3_reset(s);
    if (code == SQLITE_TOOBIG) return false;
    db_.fail("cannot insert event");
}

void EventRows::flush(const std::function<void(const Event&, int64_t id, uint32_t tag)>& inserted) {
    if (rows_.empty()) return;
    // The queue's text no longer grows: point each event's strings into it.
    for (Row& r : rows_)
        for (int i = 0; i < kEventStrings; ++i)
            r.e.*kEventStringFields[i] = std::string_view(text_.data() + r.off[i], (r.e.*kEventStringFields[i]).size());
    std::vector<int64_t> ids(rows_.size());
    bool done = false;
    if (rows_.size() == kRows) {
        for (int k = 0; k < kRows; ++k) bind(many_, many_nulls_[k], k * kColumns, rows_[static_cast<size_t>(k)]);
        if (step(many_)) {
            // One statement's rows take consecutive rowids: nothing else
            // inserts into the table between them.
            int64_t last = sqlite3_last_insert_rowid(db_.handle());
            for (int k = 0; k < kRows; ++k) ids[static_cast<size_t>(k)] = last - (kRows - 1) + k;
            done = true;
        }
        // Else a row was too big to store.  The rows before it stayed (OR
        // FAIL keeps them); the load fails and its profile is rolled back
        // anyway.  Inserting one at a time below finds that row, to name it.
    }
    if (!done) {
        for (size_t k = 0; k < rows_.size(); ++k) {
            bind(one_, one_nulls_, 0, rows_[k]);
            if (!step(one_)) throw too_big(rows_[k].e);
            ids[k] = sqlite3_last_insert_rowid(db_.handle());
        }
    }
    for (size_t k = 0; k < rows_.size(); ++k) inserted(rows_[k].e, ids[k], rows_[k].ids.tag);
    clear();
}

}  // namespace nx
