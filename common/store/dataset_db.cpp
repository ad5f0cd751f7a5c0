#include "common/store/dataset_db.h"

#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "common/dataset/dataset_layout.h"
#include "common/io/error.h"
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
    std::set<Key> profiles;
    for (const dataset::Table& t : dataset::tables()) {
        listed.push_back(dataset::list_table(root, t.name));
        if (std::string_view(t.name) == "profiles")
            for (const dataset::TableFile& f : listed.back()) profiles.insert({f.rank, f.profile_id});
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
            ParquetTableFile file{f.path, std::vector<SqlValue>(2), {}};
            if (f.rank) file.constants[0] = *f.rank;  // else NULL, the null partition
            file.constants[1] = f.profile_id;
            spec.files.push_back(std::move(file));
            with_file.insert({f.rank, f.profile_id});
        }
        std::vector<std::string> absent_ranks;
        for (const auto& [rank, id] : profiles) {
            if (with_file.count({rank, id})) continue;
            std::vector<SqlValue> constants(2);
            if (rank) constants[0] = *rank;
            constants[1] = id;
            spec.absent.push_back(std::move(constants));
            absent_ranks.push_back(rank ? std::to_string(*rank) : "NULL");
        }
        spec.missing = std::make_shared<MissingColumns>();
        missing_.push_back({t.name, spec.files.size(), spec.missing, std::move(absent_ranks)});
        create_parquet_table(db_->handle(), std::move(spec));
    }
    make_read_only(*db_);
}

std::vector<std::string> DatasetDb::missing_column_notes() const {
    std::vector<std::string> notes;
    for (const TableMissing& t : missing_) {
        if (!t.missing->absent_read.empty()) {
            // The ranks of the first few, so that a thousand ranks' note stays a line.
            std::string ranks;
            size_t shown = 0;
            for (size_t k : t.missing->absent_read) {
                if (++shown > 8) break;
                ranks += (ranks.empty() ? "" : ", ") + t.absent_ranks[k];
            }
            if (t.missing->absent_read.size() > 8) ranks += ", ...";
            notes.push_back(t.table + ": " + std::to_string(t.missing->absent_read.size()) +
                            " profile(s) the query covered have no file (rank " + ranks +
                            "; written by an nx from before the table): their rows are missing, not none; convert "
                            "those profiles again to fill them");
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
