#include "common/store/dataset_db.h"

#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "common/dataset/dataset_layout.h"
#include "common/io/error.h"
#include "common/io/version.h"
#include "common/parquet/table_reader.h"
#include "common/store/parquet_table.h"
#include "common/store/read_only.h"
#include "common/store/sql_functions.h"

namespace nx {

namespace {

const char* sql_type(parquet::ValueType t) {
    switch (t) {
        case parquet::ValueType::float64:
        case parquet::ValueType::float32: return "REAL";
        case parquet::ValueType::string: return "TEXT";
        default: return "INTEGER";
    }
}

}  // namespace

DatasetDb::DatasetDb(const std::string& root) : root_(root) {
    if (!dataset::is_dataset(root))
        throw Error("not an nx dataset (no profiles folder; nx-convert --dataset DIR writes one)", root);
    db_ = std::make_unique<SqliteDb>(":memory:", SqliteDb::Mode::create);
    register_sql_functions(db_->handle());
    // Every profile an nx writes has a file in every table it knows, in its
    // rank's partition (the profiles file last): a profile without one was
    // written before the table was.
    // Each table's folder is listed once.
    using Key = std::pair<std::optional<int64_t>, std::string>;  // rank, profile id
    std::vector<std::vector<dataset::TableFile>> listed;
    std::map<Key, std::string> profiles;  // its profiles file
    for (const dataset::Table& t : dataset::tables()) {
        dataset::TableListing l = dataset::list_table(root, t.name);
        skipped_.insert(skipped_.end(), l.skipped.begin(), l.skipped.end());
        listed.push_back(std::move(l.files));
        if (std::string_view(t.name) == "profiles")
            for (const dataset::TableFile& f : listed.back()) profiles.emplace(Key{f.rank, f.profile_id}, f.path);
    }
    for (size_t n = 0; n < dataset::tables().size(); ++n) {
        const dataset::Table& t = dataset::tables()[n];
        ParquetTableSpec spec;
        spec.name = t.name;
        std::set<Key> with_file;
        for (const parquet::WriterColumn& c : t.columns) {
            spec.columns.push_back(c.name);
            spec.types.push_back(sql_type(c.type));
        }
        // The partition column as engines show it, and the profile each
        // file holds (its name): both prune files.
        spec.constants = {dataset::kPartitionKey, "profile"};
        spec.constant_types = {"INTEGER", "TEXT"};
        for (const dataset::TableFile& f : listed[n]) {
            // A profile is in the dataset when its profiles file is: the
            // files of one whose conversion did not finish are not read.
            if (!profiles.count({f.rank, f.profile_id})) {
                ++unfinished_files_;
                unfinished_.insert(f.profile_id);
                continue;
            }
            ParquetTableFile file{f.path, std::vector<SqlValue>(2), {}};
            if (f.rank) file.constants[0] = *f.rank;  // else NULL, the null partition
            file.constants[1] = f.profile_id;
            spec.files.push_back(std::move(file));
            with_file.insert({f.rank, f.profile_id});
        }
        std::vector<std::string> absent_ranks, absent_profiles;
        for (const auto& [key, profiles_file] : profiles) {
            const auto& [rank, id] = key;
            if (with_file.count({rank, id})) continue;
            std::vector<SqlValue> constants(2);
            if (rank) constants[0] = *rank;
            constants[1] = id;
            spec.absent.push_back(std::move(constants));
            absent_ranks.push_back(rank ? std::to_string(*rank) : "NULL");
            absent_profiles.push_back(profiles_file);
        }
        spec.missing = std::make_shared<MissingColumns>();
        missing_.push_back({t.name, spec.files.size(), spec.missing, std::move(absent_ranks), std::move(absent_profiles)});
        create_parquet_table(db_->handle(), std::move(spec));
    }
    make_read_only(*db_);
}

namespace {

// The nx that wrote a profile (its profiles file's nx_version); empty when
// it cannot be read.
std::string written_by(const std::string& profiles_file) {
    try {
        parquet::TableReader t({profiles_file}, {"nx_version"});
        if (t.next() && t.column(0) && !t.column(0)->is_null()) return std::string(t.column(0)->str());
    } catch (const Error&) {
    }
    return {};
}

}  // namespace

std::vector<std::string> DatasetDb::missing_column_notes() const {
    std::vector<std::string> notes;
    for (const std::string& s : skipped_) notes.push_back("not read: " + s);
    if (unfinished_files_ > 0)
        notes.push_back(std::to_string(unfinished_files_) + " file(s) of " + std::to_string(unfinished_.size()) +
                        " profile(s) with no profiles file beside them were not read (a conversion that did not "
                        "finish, or a profiles file removed): nx-convert --dataset " + root_ +
                        " --repair removes them, and --missing converts planned profiles again");
    for (const TableMissing& t : missing_) {
        if (!t.missing->absent_read.empty()) {
            // The ranks of the first few, so that a thousand ranks' note stays a line.
            std::string ranks;
            size_t shown = 0, removed = 0;
            for (size_t k : t.missing->absent_read) {
                // Written by this nx, which writes every table: the file was removed since.
                if (written_by(t.absent_profiles[k]) == nx_version()) ++removed;
                if (++shown > 8) continue;
                ranks += (ranks.empty() ? "" : ", ") + t.absent_ranks[k];
            }
            if (t.missing->absent_read.size() > 8) ranks += ", ...";
            size_t older = t.missing->absent_read.size() - removed;
            std::string why = removed && older   ? std::to_string(removed) + " written by this nx, whose file was removed; " +
                                                       std::to_string(older) + " by another nx, which may predate the table, or removed"
                              : removed         ? "written by this nx: the file was removed"
                                                : "written by another nx, which may predate the table, or the file was removed";
            notes.push_back(t.table + ": " + std::to_string(t.missing->absent_read.size()) +
                            " profile(s) the query covered have no file (rank " + ranks + "; " + why +
                            "): their rows are missing, not none; convert those profiles again to fill them");
        }
        if (t.missing->files_by_column.empty()) continue;
        std::set<size_t> files;
        std::string columns;
        for (const auto& [column, in] : t.missing->files_by_column) {
            columns += (columns.empty() ? "" : ", ") + column;
            files.insert(in.begin(), in.end());
        }
        notes.push_back(t.table + ": " + std::to_string(files.size()) + " of " + std::to_string(t.files) +
                        " files lack " + columns +
                        " (written by an nx from before the table had them): read as NULL there, which named "
                        "queries take as not known; convert those profiles again to fill them");
    }
    return notes;
}

}  // namespace nx
