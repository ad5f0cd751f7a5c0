// nx-convert's outputs, wired in one place (convert_outputs.h).
#include "common/convert/convert_outputs.h"

#include "common/convert/explain_sink.h"
#include "common/convert/pipe_guard_sink.h"
#include "common/convert/sink_formats.h"
#include "common/convert/summary_line_sink.h"
#include "common/dataset/dataset_sink.h"
#include "common/io/atomic_file.h"
#include "common/io/file_guard.h"
#include "common/profile/record_sinks.h"
#include "common/store/async_sink.h"
#include "common/store/db_sink.h"
#include "common/store/store.h"
#include "common/io/usable_cpus.h"

namespace nx {

ConvertOutputs::ConvertOutputs(const OutputRequest& r, ProfileBuilder& builder, Output& stdout_)
    : builder_(builder), guard_stdout_(!r.db.empty()), progress_(r.progress) {
    if (!r.db.empty()) guard_database(r.db);
    if (!r.to.empty()) {
        if (!r.output.empty()) to_file_ = std::make_unique<AtomicFile>(r.output);
        to_sink_ = find_sink_format(r.to)->make(to_file_ ? to_file_->out() : stdout_);
        if (to_file_) builder_.add_sink(to_sink_.get());
        else add_stdout_sink(to_sink_.get());
    }
    // Parsing on one CPU and encoding on the other, where the process has a
    // second CPU; several conversions at once (make dataset's JOBS, Slurm
    // tasks of one CPU) each run on one thread, which spends less CPU than
    // two that take turns (nx(7), DATASET).
    writer_thread_ = (r.threads ? r.threads : usable_cpus()) >= 2;
    if (!r.db.empty()) {
        store_ = std::make_unique<Store>(r.db, Store::Access::read_write);
        store_->remove_if_left_empty();
        db_ = std::make_unique<DbSink>(*store_, r.copy_source);
    }
    if (!r.dataset.empty()) dataset_ = std::make_unique<DatasetSink>(r.dataset);
    if (dataset_) dataset_writer_ = add_writer(*dataset_, dataset_async_);
    if (db_) db_writer_ = add_writer(*db_, db_async_);
    // Loading a database or a dataset from a terminal, a person reads the
    // records: one line each.
    if (r.explain) {
        records_ = std::make_unique<ExplainSink>(stdout_);
        builder_.add_sink(records_.get());
    } else if (r.to.empty() || to_file_) {
        if ((!r.db.empty() || !r.dataset.empty()) && !r.records && stdout_.is_terminal())
            records_ = std::make_unique<SummaryLineSink>(stdout_);
        else
            records_ = std::make_unique<ProfileRecordSink>(stdout_);
        add_stdout_sink(records_.get());
    }
    // Last of the sinks: an input's progress shows once the others have its events.
    builder_.add_sink(&progress_);
}

ConvertOutputs::~ConvertOutputs() = default;

void ConvertOutputs::add_stdout_sink(ProfileSink* sink) {
    if (!guard_stdout_) return builder_.add_sink(sink);
    guards_.push_back(std::make_unique<PipeGuardSink>(*sink));
    builder_.add_sink(guards_.back().get());
}

ProfileSink* ConvertOutputs::add_writer(ProfileSink& sink, std::unique_ptr<AsyncSink>& async) {
    ProfileSink* writer = &sink;
    if (writer_thread_) writer = (async = std::make_unique<AsyncSink>(sink)).get();
    builder_.add_sink(writer);
    return writer;
}

std::function<void(RunRow)> ConvertOutputs::run_history() {
    if (!db_) return {};
    DbSink* sink = db_.get();
    AsyncSink* async = db_async_.get();
    return [sink, async](RunRow row) {
        if (async)
            async->post([sink, row = std::move(row)] { sink->append_run(row); });
        else
            sink->append_run(row);
    };
}

void ConvertOutputs::finish() {
    if (db_writer_) db_writer_->finish();
    if (dataset_writer_) dataset_writer_->finish();
    if (to_sink_) to_sink_->finish();
    if (to_file_) to_file_->commit();
    if (records_) records_->finish();
    progress_.finish();
}

}  // namespace nx
