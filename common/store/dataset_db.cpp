#include "common/store/dataset_db.h"

#include <set>

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
    // Every profile an nx writes has a file in every table it knows (the
    // profiles file last): a profile without one was written before the
    // table was.
    std::set<std::string> profiles;
    for (const dataset::TableFile& f : dataset::list_table(root, "profiles")) profiles.insert(f.profile_id);
    profiles_ = profiles.size();
    for (const dataset::Table& t : dataset::tables()) {
        ParquetTableSpec spec;
        spec.name = t.name;
        std::set<std::string> with_file;
        for (const parquet::WriterColumn& c : t.columns) {
            spec.columns.push_back(c.name);
            spec.types.push_back(sql_type(c.type));
        }
        // The partition column as engines show it, and the profile each
        // file holds (its name): both prune files.
        spec.constants = {dataset::kPartitionKey, "profile"};
        spec.constant_types = {"INTEGER", "TEXT"};
        for (const dataset::TableFile& f : dataset::list_table(root, t.name)) {
            ParquetTableFile file{f.path, std::vector<SqlValue>(2), {}};
            if (f.rank) file.constants[0] = *f.rank;  // else NULL, the null partition
            file.constants[1] = f.profile_id;
            spec.files.push_back(std::move(file));
            with_file.insert(f.profile_id);
        }
        size_t without = 0;
        for (const std::string& id : profiles) without += with_file.count(id) ? 0 : 1;
        spec.missing = std::make_shared<MissingColumns>();
        missing_.push_back({t.name, spec.files.size(), spec.missing, without});
        create_parquet_table(db_->handle(), std::move(spec));
    }
    make_read_only(*db_);
}

std::vector<std::string> DatasetDb::missing_column_notes() const {
    std::vector<std::string> notes;
    for (const TableMissing& t : missing_) {
        if (t.missing->scanned && t.profiles_without_file > 0)
            notes.push_back(t.table + ": " + std::to_string(t.profiles_without_file) + " of " + std::to_string(profiles_) +
                            " profiles have no file (written by an nx from before the table): their rows are missing, "
                            "not none; convert those profiles again to fill them");
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
