#include "common/store/profile_scan.h"

#include <rapidjson/document.h>

#include <memory>
#include <unordered_map>

#include "common/io/error.h"
#include "common/profile/profile_record.h"
#include "common/profile/rule_inputs.h"
#include "common/store/kept_sources.h"
#include "common/store/store.h"

namespace nx {

DbProfile::DbProfile(sqlite3* db, int64_t profile_id) {
    ProfileLocation at = locate_profile(profile_id);
    schema = at.schema;
    local = at.local;
    ConnStmt p(db, "SELECT first_event_id, last_event_id, start_ns, end_ns, uid, name, target, dtype, record FROM " +
                   schema + ".profile WHERE id = ?");
    p.bind(1, local);
    if (!p.step()) return;
    found = true;
    ranged = !p.null(0);
    first = p.i64(0);
    last = p.i64(1);
    start = p.i64(2);
    end = p.i64(3);
    info.id = std::string(p.text(4));
    info.name = std::string(p.text(5));
    info.target = std::string(p.text(6));
    info.dtype = std::string(p.text(7));
    record = std::string(p.text(8));
    // The peaks a region is divided by are the profile's own.
    rapidjson::Document doc;
    doc.Parse(record.data(), record.size());
    if (!doc.HasParseError() && doc.IsObject()) info.core = read_core_facts(doc);
}

int64_t stored_profile_rowid(Store& store, const std::string& uid) {
    ConnStmt q(store.db().handle(), "SELECT id FROM profile WHERE uid = ?");
    q.bind(1, std::string_view(uid));
    if (!q.step()) throw Error("no profile with id " + uid + " in the database", store.path());
    return q.i64(0);
}

void scan_profile_events(sqlite3* db, const DbProfile& p, const std::function<void(const Event&)>& fn,
                         std::string_view where, bool kept_args) {
    std::unordered_map<int64_t, std::pair<Engine, std::string>> tracks;
    ConnStmt t(db, "SELECT id, engine, name FROM " + p.schema + ".track WHERE profile_id = ?");
    t.bind(1, p.local);
    while (t.step())
        tracks[t.i64(0)] = {parse_engine(t.text(1)).value_or(Engine::none), std::string(t.text(2))};
    bool kept = has_kept_columns(db, p.schema);
    ConnStmt ev(db, "SELECT ts, dur, track_id, type, opcode, bytes, flops, model_flops, dma_kind, tensor, " +
                    (kept_args ? event_args_sql(db, p.schema, "") : std::string("args")) + ", name, " +
                    (kept ? std::string("src_tbl, src_row") : std::string("NULL, NULL")) + " FROM " +
                    p.schema + ".event WHERE " + p.where("") +
                           (where.empty() ? std::string() : " AND (" + std::string(where) + ")"));
    p.bind(ev);
    int64_t last_track = INT64_MIN;
    const std::pair<Engine, std::string>* track = nullptr;
    static const std::pair<Engine, std::string> kNoTrack{Engine::none, {}};
    while (ev.step()) {
        Event e;
        e.ts_ns = ev.i64(0);
        e.dur_ns = ev.i64(1);
        int64_t tid = ev.i64(2);
        if (tid != last_track) {
            auto it = tracks.find(tid);
            track = it == tracks.end() ? &kNoTrack : &it->second;
            last_track = tid;
        }
        e.engine = track->first;
        e.track = track->second;
        e.type = parse_event_type(ev.text(3)).value_or(EventType::instruction);
        e.opcode = ev.text(4);
        e.name = ev.null(11) ? e.opcode : ev.text(11);
        if (!ev.null(5)) e.bytes = ev.i64(5);
        if (!ev.null(6)) e.flops = ev.f64(6);
        if (!ev.null(7)) e.model_flops = ev.f64(7);
        if (!ev.null(8)) e.dma_kind = parse_dma_kind(ev.text(8)).value_or(DmaKind::unknown);
        e.tensor = ev.text(9);
        e.args_json = ev.text(10);
        if (!kept_args && !ev.null(12)) {
            e.src_table = static_cast<int32_t>(ev.i64(12));
            e.src_row = ev.i64(13);
        }
        if (e.flops >= 0 && !e.args_json.empty()) {
            std::string_view kind = json_field(e.args_json, "instruction_type");
            if (kind.empty()) kind = json_field(e.args_json, "tensor_instruction_type");
            e.transpose = kind == "TRANSPOSE" || json_field(e.args_json, "transpose") == "true";
        }
        fn(e);
    }
}

void scan_source_rows(sqlite3* db, const DbProfile& p, std::string_view tbl,
                      const std::function<void(std::string_view)>& fn) {
    // Kept where it is (kept_sources.h), or copied into source_row.
    if (scan_kept_rows(db, p.schema, p.local, tbl, fn)) return;
    std::unique_ptr<ConnStmt> q;
    try {
        q = std::make_unique<ConnStmt>(db, "SELECT data FROM " + p.schema +
                                                  ".source_row WHERE tbl = ?1 AND profile_id = ?2");
    } catch (const Error&) {
        return;  // a database from before source tables
    }
    q->bind(1, tbl).bind(2, p.local);
    while (q->step()) fn(q->text(0));
}

}  // namespace nx
