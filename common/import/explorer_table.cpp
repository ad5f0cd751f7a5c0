// Table (explorer_table.h): opening an Explorer table with its mapped
// columns checked, and reading a row's time interval.
#include "common/import/explorer_table.h"

#include "common/io/error.h"

namespace nx::explorer {

namespace {

std::string_view kind_name(Kind k) {
    switch (k) {
        case Kind::integer: return "integers";
        case Kind::number: return "numbers";
        case Kind::text: return "text";
    }
    return "";
}

}  // namespace

Table::Table(const std::vector<std::string>& files, const std::vector<ColumnSpec>& specs, const SchemaFacts& facts,
      const std::string& table, bool all_columns)
    : name_(table) {
    std::vector<std::string> names;
    for (const ColumnSpec& s : specs) names.emplace_back(s.name);
    mapped_ = names.size();
    reader_ = std::make_unique<TableReader>(files, std::move(names),
                                            all_columns ? TableReader::Others::add : TableReader::Others::skip);
    reader_->first_file();
    json_ = std::make_unique<parquet::RowJson>(reader_->names());
    for (size_t i = 0; i < specs.size(); ++i) check(i, specs[i], facts);
}

void Table::check(size_t h, const ColumnSpec& spec, const SchemaFacts& facts) {
    const ColumnInfo* info = reader_->info(h);
    std::string file = reader_->file();
    if (!info) {
        if (spec.required)
            throw Error("column " + std::string(spec.name) + ": missing (the " + name_ + " table needs it)", file);
        return;
    }
    bool ints = info->type == parquet::PhysicalType::int32 || info->type == parquet::PhysicalType::int64 ||
                info->type == parquet::PhysicalType::boolean;
    bool reals = info->type == parquet::PhysicalType::float32 || info->type == parquet::PhysicalType::float64;
    if (!kind_fits(spec.kind, *info))
        throw Error("column " + std::string(spec.name) + ": expected " + std::string(kind_name(spec.kind)) +
                        ", the file has " + (info->is_list ? "a LIST of " : "") + to_string(info->type),
                    file);
    // The profile's own description must agree with the file.
    auto it = facts.find({name_, spec.name});
    if (it != facts.end()) {
        const FieldFacts& f = it->second;
        bool says_int = f.type == "integer", says_num = f.type == "number", says_text = f.type == "string";
        bool agrees = (says_int && ints) || (says_num && (reals || ints)) || (says_text && !(ints || reals)) ||
                      (!says_int && !says_num && !says_text);
        if (!agrees)
            throw Error("column " + std::string(spec.name) + ": SchemaFields says " + f.type +
                            (f.format.empty() ? "" : " (" + f.format + ")") + ", the file has " + to_string(info->type),
                        file);
    }
}

bool kind_fits(Kind kind, const parquet::ColumnInfo& info) {
    bool ints = info.type == parquet::PhysicalType::int32 || info.type == parquet::PhysicalType::int64 ||
                info.type == parquet::PhysicalType::boolean;
    bool reals = info.type == parquet::PhysicalType::float32 || info.type == parquet::PhysicalType::float64;
    return !info.is_list && (kind == Kind::integer ? ints : kind == Kind::number ? (ints || reals) : !(ints || reals));
}

const char* row_interval(const Table& tab, size_t start, size_t end, size_t dur, Event& e, size_t& bad_column) {
    auto s = tab.integer(start);
    if (!s) {
        bad_column = start;
        return "no start time";
    }
    e.ts_ns = *s;
    if (auto en = tab.integer(end)) {
        e.dur_ns = *en - *s;
    } else if (auto d = tab.integer(dur)) {
        e.dur_ns = *d;
    } else {
        bad_column = end;
        return "neither end_ts nor duration_ns";
    }
    if (e.dur_ns < 0) {
        bad_column = end;
        return "ends before it starts";
    }
    return nullptr;
}

}  // namespace nx::explorer
