// nx-convert's work, as a library: resolve each input (file, "-", directory of
// profile_rank_<i> files, a capture directory of NTFFs and NEFFs paired by
// hash, NTFF+NEFF, a stream of capture records), pick its format, and run the
// importer into a ProfileBuilder.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/convert/explorer_view.h"
#include "common/convert/import_progress.h"
#include "common/import/importer.h"
#include "common/io/error.h"
#include "common/io/input.h"
#include "common/profile/profile_builder.h"
#include "common/workload/run_record.h"

namespace nx {

struct ConvertOptions {
    std::string format;     // forced input format; empty: sniff
    // Where run records (nx-run output) go: the study database's history.
    // Unset: run records are an error (they need --db).
    std::function<void(RunRow row)> on_run;
    std::string neff;       // NEFF for NTFF inputs
    ViewOptions view;       // running neuron-explorer view on NTFFs (--view-timeout)
    bool keep_going = false;
    ProfileInfo base;       // --name, --target, --backend, --dtype
    // Where files named in capture records may be read from (record_paths.h).
    std::vector<std::string> roots;
    // A study database argument: only these of its profiles (name or id).
    std::vector<std::string> profiles;
    // Shows each input's progress (a sink the caller added to the builder);
    // null: none.
    ImportProgress* progress = nullptr;
};

struct ConvertStats {
    int inputs = 0;
    int runs = 0;           // run records passed to on_run
};

class Converter {
public:
    Converter(ProfileBuilder& builder, ConvertOptions options);

    // Converts one command-line argument.  Throws Error unless keep_going
    // (then failures are reported, counted and skipped).
    void convert_argument(const std::string& arg);
    const ConvertStats& stats() const { return stats_; }

private:
    void convert_one(const std::string& path, const std::string& format, const ProfileInfo& base,
                     const std::string& neff);
    // One profile of a directory: its failure ends the run, or with
    // keep_going is reported and skipped while the others are read.
    void convert_part(const std::function<void()>& part);
    // A directory that is not one Explorer profile's own: a tree of
    // profiles in any layout nx-convert --plan recognises, each with the
    // rank its plan gives it (fanout_plan.h), or --rank where the plan gives
    // none.
    void convert_capture_tree(const std::string& dir, const ProfileInfo& base);
    void convert_explorer_dir(const std::string& dir, const ProfileInfo& base);
    void import_explorer(const std::string& dir, const ProfileInfo& base, const std::string& identity);
    void convert_captures(InputSource& in);
    void convert_runs(InputSource& in);
    // A study database: its stored profiles, replayed (stored_profiles.h).
    void convert_database(const std::string& path);
    void convert_ntff(const std::string& ntff, const std::string& neff, const ProfileInfo& base);
    void import_stream(InputSource& in, const std::string& format, const ProfileInfo& base,
                       const std::string& identity);
    // Runs one importer: names the input in errors
    // that do not say where, and ends the profile it left open.
    void run_import(const std::string& input, const std::function<void()>& import);
    // Throws the format's hint when nx recognises an input to refuse it (a
    // Parquet table without its directory, a Perfetto trace).
    void refuse(const FormatDef* format, const std::string& where) const;
    void failed(const Error& e);

    ProfileBuilder& builder_;
    ConvertOptions options_;
    ConvertStats stats_;
};

}  // namespace nx
