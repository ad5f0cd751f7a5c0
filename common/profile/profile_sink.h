// The two interfaces of the import pipeline.
//
//   importer / sim model --(ImportHandler)--> ProfileBuilder --(ProfileSink)--> sinks
//
// Importers and the performance model drive an ImportHandler: they announce a
// profile, report the source's own metrics, stream events, and end it.
// ProfileBuilder computes the summary (ProfileMetrics) and fans every event out
// to the sinks: the study database, event JSONL, trace writers, ...
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/profile/event.h"
#include "common/profile/profile.h"

namespace nx {

// Rows of a source table nx keeps as the source wrote them (Neuron
// Explorer's OpcodeSummary, Flow, TensorInfo, the hierarchy tables...): the
// table's column names and each row as a JSON object of its non-null
// columns.  Sent in batches; one table may come in several.
struct SourceRows {
    std::string table;
    std::vector<std::string> columns;
    std::vector<std::string> rows;
};

// A source table nx can read again by row number, where it is (Neuron
// Explorer's Parquet): sinks that refer rather than copy (the study
// database) store where it is.  Its events carry Event::src_table and
// src_row; a carried table's rows may also come as SourceRows (for sinks
// that copy, and the rules that read them).
struct KeptSource {
    int32_t id = 0;                    // per profile, from 0: Event::src_table
    std::string table;
    bool events = false;               // its rows are events and `columns` their args; else carried whole
    std::vector<std::string> columns;  // what is read back, in order
    std::vector<std::string> files;    // in split order
    int64_t rows = 0;
};

// A flow arrow between two slices of one profile (Chrome's flow events:
// a kernel launch to its kernel).  Its ends are events of the profile given
// by their ordinal: 0 for the profile's first event, counting every event
// the importer emitted (counter samples too), so each sink maps them to its
// own ids.  Flows come after both of their events.
struct Flow {
    std::string id;          // the source's flow id, as text ("7", "0x1f")
    std::string category;    // the flow events' "cat" ("ac2g")
    std::string name;
    int64_t from = 0;        // the slice the flow leaves
    int64_t to = 0;          // the slice it arrives at
    // The same events counted among the profile's non-counter events
    // (ProfileBuilder fills these): a database profile's events have
    // contiguous ids, so an event's id is the first one plus this.
    int64_t from_slice = -1;
    int64_t to_slice = -1;
};

class ImportHandler {
public:
    virtual ~ImportHandler() = default;
    virtual void begin_profile(const ProfileInfo& info) = 0;
    virtual void source_metric(std::string_view name, double value) = 0;
    virtual void event(const Event& e) = 0;
    // Tables kept as they are (only some formats have them).
    virtual void source_rows(const SourceRows& rows) { (void)rows; }
    // A table that can be read again where it is (before its rows and events).
    virtual void kept_source(const KeptSource& k) { (void)k; }
    // Whether anything reads `table`'s rows as SourceRows: when not, an
    // importer with a KeptSource for it need not decode them.
    virtual bool wants_source_rows(std::string_view table) const { (void)table; return true; }
    // A flow between two events already sent (only some formats have them).
    virtual void flow(const Flow& f) { (void)f; }
    // One execution of a profile that holds many (a session), in any order.
    virtual void execution(const ExecutionWindow& w) { (void)w; }
    // Updates header fields learnt late (e.g. a profile record after its events).
    virtual void update_info(const ProfileInfo& info) = 0;
    virtual void end_profile() = 0;
    // The current profile is bad: drop it (sinks undo what they wrote).
    virtual void abort_profile() = 0;
};

class ProfileSink {
public:
    virtual ~ProfileSink() = default;
    virtual void begin_profile(const ProfileInfo& info) = 0;
    virtual void event(const Event& e) = 0;
    // Sinks that keep source tables (the study database) override this.
    virtual void source_rows(const SourceRows& rows) { (void)rows; }
    // Sinks that refer to kept sources instead of copying them override this.
    virtual void kept_source(const KeptSource& k) { (void)k; }
    // True for a sink that needs every carried table's rows (it copies them).
    virtual bool copies_source_rows() const { return false; }
    // False for a sink that reads an event's args from its kept source row
    // (Event::src_table) rather than Event::args_json.
    virtual bool wants_kept_args() const { return true; }
    // Sinks that show flows (database, event records, traces) override this.
    virtual void flow(const Flow& f) { (void)f; }
    virtual void end_profile(const ProfileInfo& info, const ProfileSummary& summary) = 0;
    virtual void abort_profile() {}
    // All profiles are done: commit, close files.  Not called after a failure.
    virtual void finish() {}
};

}  // namespace nx
