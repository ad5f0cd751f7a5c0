// Where nx-convert's profiles go, wired in one place: a --to trace or event
// stream (into a file or onto stdout), the study database and the Parquet
// dataset (each written on a thread of its own where the process has a
// second CPU), profile records or one line per profile on stdout, and the
// progress line last.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/convert/convert.h"
#include "common/convert/import_progress.h"
#include "common/io/output.h"
#include "common/profile/profile_builder.h"

namespace nx {

class AsyncSink;
class AtomicFile;
class DatasetSink;
class DbSink;
class PipeGuardSink;
class Store;

struct OutputRequest {
    std::string db;       // --db FILE
    std::string dataset;  // --dataset DIR
    std::string to;       // --to FORMAT
    std::string output;   // -o FILE: where --to writes (empty: stdout)
    bool copy_source = false;
    bool explain = false;  // --explain: what each figure is made of, instead of records
    bool records = false;  // --records: profile records even on a terminal
    int threads = 0;       // 1: one thread; 2: the database or dataset written on a second; 0: as the CPUs allow
    int progress = 0;      // 1: always, -1: never, 0: on a terminal
};

class ConvertOutputs {
public:
    // Opens the outputs `r` asks for and adds them to `builder` in the order
    // a profile must reach them: the dataset before the database (a profile
    // the dataset could not write is rolled back in the database), both
    // before the records on stdout (a profile they failed to store prints
    // none), the progress line last.
    ConvertOutputs(const OutputRequest& r, ProfileBuilder& builder, Output& stdout_);
    ~ConvertOutputs();
    ConvertOutputs(const ConvertOutputs&) = delete;
    ConvertOutputs& operator=(const ConvertOutputs&) = delete;

    ImportProgress& progress() { return progress_; }
    // The dataset being written (--dataset), else nullptr.
    DatasetSink* dataset() { return dataset_.get(); }
    // Where run records read among the inputs go: the database's run
    // history (on its writer thread), or nowhere without --db.
    std::function<void(RunRow)> run_history();
    // Every output finished and committed: the database, the dataset, the
    // --to file, then the records and the progress line.
    void finish();

private:
    void add_stdout_sink(ProfileSink* sink);
    ProfileSink* add_writer(ProfileSink& sink, std::unique_ptr<AsyncSink>& async);

    ProfileBuilder& builder_;
    bool guard_stdout_ = false;   // with --db, a closed stdout must not stop the load
    bool writer_thread_ = false;
    std::unique_ptr<AtomicFile> to_file_;
    std::unique_ptr<ProfileSink> to_sink_;
    std::unique_ptr<ProfileSink> records_;
    std::vector<std::unique_ptr<PipeGuardSink>> guards_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<DbSink> db_;
    std::unique_ptr<AsyncSink> db_async_;
    ProfileSink* db_writer_ = nullptr;
    std::unique_ptr<DatasetSink> dataset_;
    std::unique_ptr<AsyncSink> dataset_async_;
    ProfileSink* dataset_writer_ = nullptr;
    ImportProgress progress_;
};

}  // namespace nx
