// What nx reads of a Neuron Explorer export, described once: each field it
// maps, by table, with the names it has had across versions, the unit nx
// expects, whether the table can be read without it, and which figures it
// feeds.  Explorer's schema moves fast (7.4.0 in SDK 2.31, 12.0.1 in 2.33)
// and nobody here has seen every version, so the importer maps a table
// through this description against what the export itself says it holds
// (its columns and its SchemaFields rows: type, unit): a field under a
// known other name is used, one in another unit is converted, one that is
// missing costs the figures it feeds and is named, and a table whose
// required field is missing is left out and named; nothing of that aborts
// the profile.  The export's columns nx does not map stay with each event as
// args; its tables nx does not map go to the study database as they are.
//
// SchemaReport gathers what was used, converted, lacked and ignored, and
// every value of an enumerated field nx does not know; the profile carries
// it ("explorer_schema"), its notes say what each gap costs, and
// nx-convert --explain prints it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/import/explorer_table.h"

namespace nx::explorer {

// The units nx reads values in.  `none`: a name, a count, an index.
enum class Unit { none, ns, s, bytes, bytes_per_s, ghz, flops, percent };

struct ExpectedField {
    std::string_view table;
    std::string_view name;                   // nx's name for it (7.4.0's)
    std::vector<std::string_view> aliases;   // the same field under other names
    Kind kind;
    Unit unit;
    bool required;                           // the table cannot be read without it
    std::string_view feeds;                  // what nx computes from it
};

// Every field nx maps, table by table.
const std::vector<ExpectedField>& expected_fields();

// A unit as the export spells it ("ns" or "nanoseconds", "us", "ms", "s",
// "B", "KiB", "B/s" or "bytes_per_second", "GHz" or "gigahertz", "%" or
// "percent", ...) as a multiple of nx's unit of the
// same kind; none when it is not that kind or not understood.
std::optional<double> unit_factor(std::string_view spelled, Unit into);
// A metric's unit (metric_defs.h: "s", "bytes", "%") as a Unit.
Unit unit_of_metric(std::string_view metric_unit);

class SchemaReport {
public:
    // A field of `table` used under `actual` (its own name, or an alias).
    void used(std::string_view table, const ExpectedField& f, std::string_view actual);
    void converted(std::string_view table, std::string_view field, std::string_view from_unit, std::string_view to_unit);
    void unit_not_understood(std::string_view table, std::string_view field, std::string_view unit,
                             std::string_view feeds);
    void lacked(std::string_view table, const ExpectedField& f);
    // Present, but of a type nx cannot read as the field's kind.
    void retyped(std::string_view table, const ExpectedField& f, std::string_view actual, std::string_view type);
    void table_left_out(std::string_view table, const ExpectedField& required);
    void ignored_columns(std::string_view table, const std::vector<std::string>& columns);
    void ignored_table(std::string_view table);
    // A value of an enumerated field nx does not know, and what was done with
    // its rows; counted.
    void unknown_value(std::string_view table, std::string_view field, std::string_view value, std::string_view kept_as);

    // One line per gap and what it costs, for the profile's notes.
    std::vector<std::string> notes(std::string_view schema_version) const;
    // Everything, as a JSON object (the profile's "explorer_schema").
    std::string json(std::string_view schema_version, bool version_known) const;

private:
    struct UnknownValue {
        std::string kept_as;
        int64_t rows = 0;
    };
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> used_;  // table -> (field, actual)
    std::vector<std::string> converted_, unit_issues_, retyped_;
    std::vector<std::pair<std::string, std::string>> lacked_;        // "Table.field", feeds
    std::vector<std::pair<std::string, std::string>> left_out_;      // table, its missing required field
    std::map<std::string, std::vector<std::string>> ignored_columns_;
    std::set<std::string> ignored_tables_;
    std::map<std::string, UnknownValue> unknown_;  // "Table.field = 'value'"
};

// The columns of `table` nx maps (expected_fields()), resolved against the
// export: for each, the name to read it by, required as the table needs it,
// and the factor that brings its unit to nx's (the profile's SchemaFields
// says the unit; none said: nx's).  Records each field in `report`.  None
// when a required field is missing (the table is left out, and named).
// The name of a spec that reads nothing (a field the export lacks, or holds
// in a unit nx cannot convert): no Parquet column is named so.
inline constexpr std::string_view kNotRead = "\x01(not read)";
struct MappedColumns {
    std::vector<ColumnSpec> specs;
    std::vector<double> scale;
};
// The columns of a table's files (every file's), by name.
using PresentColumns = std::map<std::string, parquet::ColumnInfo>;
PresentColumns columns_of(const std::vector<std::string>& files);

// A field present under a type nx cannot read as the kind it maps is
// treated as absent (retyped: named in the report).
std::optional<MappedColumns> map_columns(std::string_view table, const std::vector<std::string_view>& wanted,
                                         const PresentColumns& present, const SchemaFacts& facts,
                                         SchemaReport& report);

}  // namespace nx::explorer
