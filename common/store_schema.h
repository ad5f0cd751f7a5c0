// The study database schema, declared apart from the code that fills it
// (store.cpp).  Tables hold the data; views give it the names SQL written for
// Perfetto's trace processor expects (slice, track, counter, args).  nx(7)
// documents every table and column listed here.
#pragma once

#include <string_view>
#include <vector>

namespace nx {

constexpr int kSchemaVersion = 3;  // 2: source_row, source_table; 3: event_flow, the flow view

// Tables and indexes (CREATE ... IF NOT EXISTS, safe to run on every open).
extern const std::string_view kSchemaTables;
// Views (recreated when the schema version changes): drops, then creates.
extern const std::string_view kSchemaViewDrops;
extern const std::string_view kSchemaViews;

// The tables whose integer ids must be kept apart when several databases are
// queried together (nx-query --db A --db B), and which columns hold ids.
struct IdColumns {
    std::string_view table;
    std::vector<std::string_view> columns;
};
extern const std::vector<IdColumns> kIdColumns;

}  // namespace nx
