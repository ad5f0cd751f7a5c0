#include "common/dataset/dataset_sink.h"

#include <optional>
#include <system_error>

#include "common/dataset/dataset_commit.h"
#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_names.h"
#include "common/dataset/dataset_plan.h"
#include "common/import/profile_identity.h"
#include "common/io/atomic_file.h"
#include "common/io/error.h"
#include "common/io/version.h"
#include "common/parquet/parquet_writer.h"
#include "common/profile/interval_union.h"
#include "common/profile/metric_defs.h"
#include "common/profile/profile_findings.h"
#include "common/profile/profile_record.h"
#include "common/profile/rules.h"
#include "common/trace/track_table.h"

namespace nx {

namespace {

using parquet::ParquetWriter;

// A track past this many in a profile shares one lane of the events' (or
// counters') writer with the others past it, whose row groups then do not
// claim their order: a lane's pages cost a few KB each.  A Neuron core has a
// few dozen rows and DMA queues.
constexpr uint32_t kMaxLanes = 2048;
// Events that come later than the window on their track end the row group
// (each stays sorted) this many times in a profile; after that, the row
// group they land in is written without the claim.
constexpr int kMaxOrderBreaks = 16;

// One table's file of the profile being written, its columns by name.
class TableWriter {
public:
    // The table's file of `profile` in `partition`, under a temporary name
    // that carries the writer's tag until the profile is published.
    TableWriter(const dataset::Table& t, const DirHandle& partition, const std::string& stem, const std::string& tag,
                const DatasetOptions& o, const std::string& profile, int64_t page_rows = 0)
        : table_(t), writer_(partition, stem + ".parquet", tag, t.columns, writer_options(t, o, page_rows)),
          profile_(profile) {}

    size_t col(std::string_view name) const { return dataset::column_index(table_, name); }
    ParquetWriter& w() { return writer_; }
    // Starts a row with its profile column set.
    ParquetWriter& row() {
        writer_.set_string(0, profile_);
        return writer_;
    }
    // Text, null when empty.
    void text(size_t column, std::string_view v) {
        if (v.empty()) writer_.set_null(column);
        else writer_.set_string(column, v);
    }
    void text(std::string_view column, std::string_view v) { text(col(column), v); }
    void int64_or_null(std::string_view column, int64_t v, bool present) {
        if (present) writer_.set_int64(col(column), v);
        else writer_.set_null(col(column));
    }
    // The columns from `first` on, from a row's fields (summary_rows.h).
    template <class Row>
    void fields(const Row& row, std::type_identity_t<Fields<Row>> fields, size_t first) {
        for (size_t k = 0; k < fields.size(); ++k) set(first + k, fields[k].get(row));
    }
    // A row per element: the profile, then its fields.
    template <class Row>
    void rows(const std::vector<Row>& rows, std::type_identity_t<Fields<Row>> fields) {
        for (const Row& r : rows) {
            row();
            this->fields<Row>(r, fields, 1);
            writer_.end_row();
        }
    }
    const dataset::Table& table() const { return table_; }
    // The file complete under its temporary name.
    AtomicFile& finish() { return writer_.finish(); }
    int64_t bytes() const { return writer_.bytes_written(); }

private:
    void set(size_t column, const FieldValue& v) {
        if (const auto* i = std::get_if<int64_t>(&v)) {
            if (table_.columns[column].type == parquet::ValueType::int32) writer_.set_int32(column, static_cast<int32_t>(*i));
            else writer_.set_int64(column, *i);
        } else if (const auto* d = std::get_if<double>(&v)) {
            writer_.set_double(column, *d);
        } else if (const auto* s = std::get_if<std::string_view>(&v)) {
            writer_.set_string(column, *s);
        } else {
            writer_.set_null(column);
        }
    }
    static parquet::WriterOptions writer_options(const dataset::Table& t, const DatasetOptions& o, int64_t page_rows) {
        parquet::WriterOptions w;
        w.codec = o.codec;
        w.row_group_rows = o.row_group_rows;
        if (page_rows > 0) w.page_values = page_rows;
        w.sorted_by = t.sorted_by;
        w.created_by = std::string("nx ") + nx_version();
        w.key_value = {{"nx.table", t.name}};
        return w;
    }
    const dataset::Table& table_;
    ParquetWriter writer_;
    const std::string& profile_;
};

void write_metrics(TableWriter& t, const ProfileSummary& s) {
    for (const MetricValue& m : s.metrics) {
        ParquetWriter& w = t.row();
        w.set_string(t.col("name"), m.name);
        w.set_double(t.col("value"), m.value);
        t.text("unit", metric_unit(m.name));
        w.set_string(t.col("origin"), m.measured ? "source" : "derived");
        w.end_row();
    }
    for (const UnavailableMetric& u : s.unavailable) {
        if (s.find(u.name)) continue;  // nx derived the figure the profiler lacks
        ParquetWriter& w = t.row();
        w.set_string(t.col("name"), u.name);
        t.text("unit", metric_unit(u.name));
        w.set_string(t.col("origin"), "unavailable");
        w.end_row();
    }
}

void write_breakdown(TableWriter& t, TableWriter& util, const ProfileSummary& s) {
    if (!s.breakdown) return;
    const TimeBreakdown& b = *s.breakdown;
    t.row();
    t.fields<TimeBreakdown>(b, kBreakdownFields, 1);
    t.w().end_row();
    if (b.compute_percent.empty()) return;
    TimeBuckets buckets(s.start_ns, s.end_ns, static_cast<int64_t>(b.compute_percent.size()));
    for (size_t k = 0; k < b.compute_percent.size(); ++k) {
        ParquetWriter& u = util.row();
        u.set_int32(util.col("bucket"), static_cast<int32_t>(k));
        u.set_int64(util.col("start_ns"), buckets.edge(static_cast<int64_t>(k)));
        u.set_int64(util.col("end_ns"), buckets.edge(static_cast<int64_t>(k) + 1));
        u.set_double(util.col("compute_percent"), b.compute_percent[k]);
        u.set_double(util.col("collective_percent"), k < b.collective_percent.size() ? b.collective_percent[k] : 0);
        u.end_row();
    }
}

void write_collectives(TableWriter& t, const ProfileSummary& s) {
    int32_t seq = 0;
    for (const CollectiveOp& op : s.collectives) {
        t.row().set_int32(1, seq++);
        t.fields<CollectiveOp>(op, kCollectiveFields, 2);
        t.w().end_row();
    }
}

// As the profile report lists them: the profiler's own warnings, then the
// rules' findings fitted to the workload, ranked.
void write_findings(TableWriter& t, const ProfileInfo& info, const ProfileSummary& s) {
    t.rows<Finding>(profile_findings(info, s), kFindingFields);
}

void write_tracks(TableWriter& tracks, const TrackTable& table) {
    const std::vector<ProfileTrack>& ts = table.tracks();
    for (size_t k = 0; k < ts.size(); ++k) {
        ParquetWriter& w = tracks.row();
        w.set_int32(tracks.col("track_id"), static_cast<int32_t>(k));
        w.set_string(tracks.col("name"), ts[k].name);
        if (ts[k].engine != Engine::none) w.set_string(tracks.col("engine"), to_string(ts[k].engine));
        w.set_string(tracks.col("kind"), ts[k].counter ? "counter" : "slice");
        w.set_int64(tracks.col("events"), ts[k].events);
        w.end_row();
    }
}

void write_profile_row(TableWriter& t, const ProfileInfo& info, const ProfileSummary& s) {
    ProfileIdentity id = profile_identity(info);
    const RuntimePath& where = id.where;
    ParquetWriter& w = t.row();
    t.text("name", info.name);
    t.text("source", info.source);
    t.text("format", info.format);
    t.text("backend", info.backend);
    t.text("target", info.target);
    t.text("dtype", info.dtype);
    t.text("instance_id", where.instance_id);
    t.int64_or_null("process_id", where.process_id, where.process_id >= 0);
    // Only a system profile's events carry a worker's global id: a device
    // profile has one when a system profile links it.
    t.int64_or_null("worker_gid", id.worker_gid.value_or(0), id.worker_gid.has_value());
    t.int64_or_null("logical_core", where.logical_core, where.logical_core >= 0);
    t.int64_or_null("physical_cores", info.core.physical_cores, info.core.physical_cores > 0);
    t.text("neff_hash", where.neff_hash);
    t.text("instance_type", id.instance_type);
    t.int64_or_null("neuron_device_idx", id.device_idx.value_or(0), id.device_idx.has_value());
    t.int64_or_null("neuroncore_idx", id.core_idx.value_or(0), id.core_idx.has_value());
    t.text("neff_header_hash", id.neff_header_hash);
    t.int64_or_null("clock_offset_ns", id.clock_offset_ns.value_or(0), id.clock_offset_ns.has_value());
    if (id.capture_settings) t.text("capture_settings", *id.capture_settings);
    w.set_string(t.col("capture_dir"), capture_directory(info.source));
    t.int64_or_null("first_step", s.first_step(), s.first_step() >= 0);
    t.int64_or_null("last_step", s.last_step(), s.last_step() >= 0);
    w.set_int64(t.col("start_ns"), s.start_ns);
    w.set_int64(t.col("end_ns"), s.end_ns);
    w.set_int64(t.col("events"), s.events);
    w.set_string(t.col("nx_version"), nx_version());
    w.set_string(t.col("record"), profile_record_json(info, s));
    w.end_row();
}

}  // namespace

// The events and counter samples of the profile being written: their files,
// open from its start, each track a lane; the window that puts each track's
// events in order; the profile's tracks.
struct DatasetSink::Open : TrackOrderWindow::Target {
    Open(const ProfileInfo& info, std::string stem_, const DirHandle& events_in, const DirHandle& counters_in,
         const std::string& tag, const DatasetOptions& o)
        : id(info.id), stem(std::move(stem_)), rank(info.rank),
          events(table("events"), events_in, stem, tag, o, id, o.track_page_rows),
          counters(table("counters"), counters_in, stem, tag, o, id, o.track_page_rows),
          window(*this, o.order_window) {
        c_track = events.col("track_id"), c_type = events.col("type"), c_ts = events.col("ts");
        c_dur = events.col("dur"), c_name = events.col("name"), c_opcode = events.col("opcode");
        c_hlo = events.col("hlo_name"), c_layer = events.col("layer"), c_bytes = events.col("bytes");
        c_flops = events.col("flops"), c_model = events.col("model_flops"), c_kind = events.col("dma_kind");
        c_tensor = events.col("tensor"), c_depth = events.col("depth"), c_transpose = events.col("transpose");
        c_args = events.col("args");
    }

    static const dataset::Table& table(std::string_view name) {
        const dataset::Table* t = dataset::find_table(name);
        if (!t) throw Error("internal: no dataset table " + std::string(name));
        return *t;
    }

    void add(const Event& e) {
        uint32_t track = tracks.track_of(e);
        tracks.count(track);
        window.add(e, track);
    }

    // A track's event, in its place: into its lane of the events' or the
    // counters' file.
    void row(const SpooledEvent& e) override { write_run(&e, 1, e.type == EventType::counter); }

    // A run of a track's events: written a column at a time where they come
    // in order (as TrackOrderWindow lets them out), in pieces of at most what
    // the lane's page and the row group take (an event alone is a run of
    // one); the same rows as the writer's row-by-row calls would write (and
    // below its lanes_bytes, the same bytes).
    void rows(const SpooledEvent* e, size_t n) override {
        size_t i = 0;
        while (i < n) {
            const bool counter = e[i].type == EventType::counter;
            size_t j = i + 1;
            while (j < n && (e[j].type == EventType::counter) == counter && e[j].track == e[i].track &&
                   e[j].ts >= e[j - 1].ts)
                ++j;
            write_run(e + i, j - i, counter);
            i = j;
        }
    }

    void write_run(const SpooledEvent* e, size_t n, bool counter) {
        TableWriter& file = counter ? counters : events;
        ParquetWriter& w = file.w();
        const uint32_t lane = std::min(e[0].track, kMaxLanes);
        w.lane(lane);
        // The shared lane's row groups claim no order: the one the run's
        // first event comes to before the order check, and each that an
        // event after it lands in (not the one a break moved a lone event to).
        if (lane == kMaxLanes) w.group_unsorted();
        // Only its first event can come before what its track has in the
        // row group: the rest follow it in order.
        keep_order(w, counter, e[0]);
        size_t group = w.row_groups();
        for (size_t done = 0; done < n;) {
            const size_t m = std::min(n - done, w.rows_to_boundary());
            if (lane == kMaxLanes && (done > 0 || m > 1)) w.group_unsorted();
            group = w.row_groups();
            w.begin_rows(m);
            if (counter) put_counters(w, e + done, m);
            else put_events(w, e + done, m);
            w.end_rows();
            done += m;
        }
        (counter ? last_counter : last_event)[e[0].track] = {e[n - 1].ts, group};
    }

    void put_counters(ParquetWriter& w, const SpooledEvent* e, size_t m) {
        profile_views.assign(m, id);
        w.put_string(0, profile_views.data());
        col_i32.assign(m, static_cast<int32_t>(e[0].track));
        w.put_int32(1, col_i32.data());
        col_i64.resize(m);
        col_f64.resize(m);
        for (size_t k = 0; k < m; ++k) col_i64[k] = e[k].ts, col_f64[k] = e[k].value;
        w.put_int64(2, col_i64.data());
        w.put_double(3, col_f64.data());
    }

    // A string column, null where empty.
    void put_text(ParquetWriter& w, size_t column, const SpooledEvent* e, size_t m,
                  std::string_view SpooledEvent::*field) {
        col_str.resize(m);
        present.resize(m);
        bool any_null = false;
        for (size_t k = 0; k < m; ++k) {
            col_str[k] = e[k].*field;
            present[k] = !col_str[k].empty();
            any_null = any_null || !present[k];
        }
        w.put_string(column, col_str.data(), any_null ? present.data() : nullptr);
    }

    void put_events(ParquetWriter& w, const SpooledEvent* e, size_t m) {
        profile_views.assign(m, id);
        w.put_string(0, profile_views.data());
        col_i32.assign(m, static_cast<int32_t>(e[0].track));
        w.put_int32(c_track, col_i32.data());
        col_str.resize(m);
        for (size_t k = 0; k < m; ++k) col_str[k] = to_string(e[k].type);
        w.put_string(c_type, col_str.data());
        col_i64.resize(m);
        for (size_t k = 0; k < m; ++k) col_i64[k] = e[k].ts;
        w.put_int64(c_ts, col_i64.data());
        for (size_t k = 0; k < m; ++k) col_i64[k] = e[k].dur();
        w.put_int64(c_dur, col_i64.data());
        put_text(w, c_name, e, m, &SpooledEvent::name);
        put_text(w, c_opcode, e, m, &SpooledEvent::opcode);
        put_text(w, c_hlo, e, m, &SpooledEvent::hlo_name);
        put_text(w, c_layer, e, m, &SpooledEvent::layer);
        present.resize(m);
        for (size_t k = 0; k < m; ++k) col_i64[k] = e[k].bytes, present[k] = e[k].bytes >= 0;
        w.put_int64(c_bytes, col_i64.data(), present.data());
        col_f64.resize(m);
        for (size_t k = 0; k < m; ++k) col_f64[k] = e[k].flops, present[k] = e[k].flops >= 0;
        w.put_double(c_flops, col_f64.data(), present.data());
        for (size_t k = 0; k < m; ++k) col_f64[k] = e[k].model_flops, present[k] = e[k].model_flops >= 0;
        w.put_double(c_model, col_f64.data(), present.data());
        for (size_t k = 0; k < m; ++k)
            col_str[k] = to_string(e[k].dma_kind), present[k] = e[k].dma_kind != DmaKind::unknown;
        w.put_string(c_kind, col_str.data(), present.data());
        put_text(w, c_tensor, e, m, &SpooledEvent::tensor);
        col_i32.resize(m);
        for (size_t k = 0; k < m; ++k) col_i32[k] = e[k].depth;
        w.put_int32(c_depth, col_i32.data());
        col_u8.resize(m);
        for (size_t k = 0; k < m; ++k) col_u8[k] = 1, present[k] = e[k].transpose;
        w.put_bool(c_transpose, col_u8.data(), present.data());
        put_text(w, c_args, e, m, &SpooledEvent::args_json);
    }

    // An event later than the window on its track would go before events
    // of its track already in the row group (the claim is track, then start
    // time): the row group ends before it, so that each stays in order.
    void keep_order(ParquetWriter& w, bool counter, const SpooledEvent& e) {
        std::vector<Last>& lasts = counter ? last_counter : last_event;
        if (e.track >= lasts.size()) lasts.resize(e.track + 1);
        Last& last = lasts[e.track];
        if (last.group == w.row_groups() && e.ts < last.ts) {
            if (++breaks <= kMaxOrderBreaks) w.end_group();
            else w.group_unsorted();
        }
        last = {e.ts, w.row_groups()};
    }

    struct Last {
        int64_t ts = 0;
        size_t group = SIZE_MAX;  // the row group it went to
    };

    std::string id;
    std::string stem;  // its files' name (dataset_names.h)
    int rank;          // the rank it began at: the events' files are in its partition
    TrackTable tracks;
    TableWriter events, counters;
    TrackOrderWindow window;
    std::vector<Last> last_event, last_counter;
    int breaks = 0;
    // A run's columns as put_*() takes them (write_run), reused.
    std::vector<std::string_view> profile_views, col_str;
    std::vector<int32_t> col_i32;
    std::vector<int64_t> col_i64;
    std::vector<double> col_f64;
    std::vector<uint8_t> col_u8, present;
    // An exception while its events were written: the window and the files
    // are unfit for more, and the profile cannot end well.
    bool failed = false;
    size_t c_track, c_type, c_ts, c_dur, c_name, c_opcode, c_hlo, c_layer, c_bytes, c_flops, c_model, c_kind, c_tensor,
        c_depth, c_transpose, c_args;
};

DatasetSink::DatasetSink(std::string root, DatasetOptions options)
    : root_(std::move(root)), options_(options), folder_(root_, true), tag_(folder_) {
    // What writers before this one left: commits a kill interrupted are
    // finished, and the hidden files of writers that have gone removed.
    dataset::recover_commits(folder_, false, tag_.tag());
    dataset::sweep_gone_writers(folder_, [&] { return dataset::journaled_temporaries(folder_); });
}

DatasetSink::~DatasetSink() = default;

DirHandle DatasetSink::partition(std::string_view table, int rank) {
    const std::string part = dataset::partition_folder(rank);
    // Noted before the first temporary file goes in: a sweep finds it there
    // if this writer is killed.
    tag_.note_folder(table, part);
    return folder_.partition(table, part, true);
}

void DatasetSink::begin_profile(const ProfileInfo& info) {
    open_.reset();
    std::string stem = dataset::file_stem(info.id);
    open_ = std::make_unique<Open>(info, std::move(stem), partition("events", info.rank), partition("counters", info.rank),
                                   tag_.tag(), options_);
}

void DatasetSink::event(const Event& e) {
    if (!open_) throw Error("internal: an event for the dataset with no profile begun");
    if (open_->failed) throw Error("the profile's events could not be written to the dataset (the error above)");
    try {
        open_->add(e);
    } catch (...) {
        open_->failed = true;
        throw;
    }
}

void DatasetSink::abort_profile() { open_.reset(); }

void DatasetSink::end_profile(const ProfileInfo& info, const ProfileSummary& summary) {
    // Every table's file is written in full under a temporary name first; a
    // failure on the way removes them all (the writers are not published).
    std::unique_ptr<Open> open = std::move(open_);
    if (!open) throw Error("internal: a profile ended for the dataset with none begun");
    if (open->failed) throw Error("the profile's events could not be written to the dataset (the error above)");
    // The events' rows carry the id the profile began with.
    if (info.id != open->id) throw Error("internal: the profile's id changed as it was read: " + open->id + ", " + info.id);
    open->window.drain();
    std::vector<std::unique_ptr<TableWriter>> files;
    const std::vector<dataset::Table>& all = dataset::tables();
    for (const dataset::Table& t : all) {
        bool streamed = t.name == "events" || t.name == "counters";
        files.push_back(streamed ? nullptr
                                 : std::make_unique<TableWriter>(t, partition(t.name, info.rank), open->stem,
                                                                 tag_.tag(), options_, info.id));
    }
    auto file = [&](std::string_view name) -> TableWriter& {
        if (name == "events") return open->events;
        if (name == "counters") return open->counters;
        for (size_t k = 0; k < all.size(); ++k)
            if (name == all[k].name) return *files[k];
        throw Error("internal: no dataset table " + std::string(name));
    };
    write_metrics(file("metrics"), summary);
    file("engines").rows<EngineStat>(summary.engines, kEngineFields);
    write_breakdown(file("breakdown"), file("utilization"), summary);
    write_collectives(file("collectives"), summary);
    write_findings(file("findings"), info, summary);
    file("opcodes").rows<KeyStat>(summary.opcodes, kOpcodeFields);
    file("executions").rows<ExecutionStat>(summary.executions, kExecutionFields);
    write_tracks(file("tracks"), open->tracks);
    write_profile_row(file("profiles"), info, summary);
    // Every file complete and synced, then put in place together
    // (dataset_commit.h).  The events' files were opened at the rank the
    // profile began with: they go where it ended.
    std::vector<dataset::StagedFile> staged;
    int64_t bytes = 0;
    for (const dataset::Table& t : all) {
        TableWriter& f = file(t.name);
        bool streamed = &f == &open->events || &f == &open->counters;
        AtomicFile& done = f.finish();
        bytes += f.bytes();
        staged.push_back({t.name, dataset::partition_folder(streamed ? open->rank : info.rank), &done});
    }
    dataset::publish_profile(folder_, open->stem, info.rank, staged, tag_.tag());
    bytes_ += bytes;
    ++profiles_written_;
    written_.push_back({info.id, info.rank});
}

}  // namespace nx
