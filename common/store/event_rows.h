// The event table's inserts (store_schema.cpp), 32 rows to a statement.
// SQLite pays for every statement it executes (starting, halting and
// resetting the program, finding the table's last rowid): 13% of inserting
// an Explorer profile's event rows one at a time.  One INSERT of 32 rows
// pays it once.  Rows are queued with copies of their strings (an event's
// text is the caller's only during the call) and inserted when 32 are
// queued, when a megabyte of text is (one at a time then: memory stays flat
// however long the args), or when the caller flushes; each is handed back
// with the id it got, in the order they came.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/error.h"
#include "common/profile/event.h"
#include "common/store/sqlite_db.h"

namespace nx {

// What one event row holds beyond the event itself: the ids the caller
// resolved (0 for NULL) and a tag it gets back with the row's id.
struct EventRowIds {
    int64_t profile = 0;
    int64_t track = 0;
    int64_t hlo = 0;
    int64_t layer = 0;
    int64_t src_ref = 0;  // source_ref.id when the source row is kept in place (src_tbl, src_row; no args)
    // Its place in nx's trace when known as it arrives (lane_placer.h).
    int64_t depth = 0;
    int64_t lane = 0;         // track.id of its overflow lane
    int64_t parent_back = 0;  // its id minus its parent's
    uint32_t tag = 0;
};

class EventRows {
public:
    static constexpr int kRows = 32;
    // Rows with long text go in sooner: the queue holds at most about this
    // much of it (plus one event's), so memory does not grow with the args.
    static constexpr size_t kMaxQueuedText = size_t{1} << 20;

    // `source` names the input in errors about an event (by its line); it
    // must outlive this.
    EventRows(SqliteDb& db, const std::string& source);

    // Queues `e`'s row.  Returns true when kRows rows or kMaxQueuedText of
    // text are queued: flush() then.
    bool add(const Event& e, const EventRowIds& ids);
    size_t queued() const { return rows_.size(); }

    // Inserts the queued rows and calls `inserted` for each, in the order
    // they were added, with its event (strings valid during the call) and
    // id.  Throws Error naming the event's line when a value is too big to
    // store (the profile's load fails: the caller rolls it back).
    void flush(const std::function<void(const Event&, int64_t id, uint32_t tag)>& inserted);

    // Forgets the queue (a profile rolled back).
    void clear();

private:
    static constexpr int kColumns = 21;
    struct Row {
        Event e;
        EventRowIds ids;
        uint32_t off[kEventStrings];  // where each of its strings (kEventStringFields) starts in text_
    };
    // Binds row r's values at parameters base+1 .. base+kColumns of `s`.
    // `nulls` says which of them hold NULL already (bit i: base+i): a
    // binding outlives sqlite3_reset, and most rows leave the same ten
    // columns NULL, so those are not bound again.
    void bind(SqliteStmt& s, uint32_t& nulls, int base, const Row& r);
    // Steps and resets `s`: true when its rows went in, false when one was
    // too big to store (SQLITE_TOOBIG); any other failure throws.
    bool step(SqliteStmt& s);
    Error too_big(const Event& e) const;

    SqliteDb& db_;
    const std::string& source_;
    SqliteStmt one_, many_;
    uint32_t one_nulls_ = 0;
    uint32_t many_nulls_[kRows] = {};  // per row of the statement
    std::vector<Row> rows_;
    std::string text_;
};

}  // namespace nx
