// nx-query: SQL over study databases, with named queries and Perfetto-style
// views.  See nx-query(1).
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "common/cli/cli.h"
#include "common/dataset/dataset_layout.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/io/limits.h"
#include "common/io/output.h"
#include "common/store/dataset_db.h"
#include "common/format/units.h"
#include "common/store/query.h"
#include "common/store/temp_limit.h"
#include "common/store/store.h"

namespace {

constexpr nx::Listing kListings[] = {{"queries", nullptr, "the named queries"},
                                     {"tables", nullptr, "the dataset's tables: each column's type, nullability and meaning"}};

const nx::ToolSpec kSpec = {
    "nx-query",
    "nx-query --db FILE [--db FILE]... (NAME | --sql TEXT | --file F.sql) [--param K=V]... [--format F] [--write]\n"
    "       nx-query --dataset DIR (NAME | --sql TEXT | --file F.sql) [--param K=V]... [--format F]\n"
    "       nx-query [--dataset DIR] --list [queries|tables]",
    "Runs SQL over nx study databases, read-only unless --write.  NAME is a named query from\n"
    "queries/ (--list shows them).  Tables: profile, metric, track, event, slice_layout, counter,\n"
    "run; Perfetto-style views slice, track, counter, args, flow (as trace_processor reads nx's\n"
    "trace); REGEXP uses RE2.  With --dataset, SQL over an nx dataset's Parquet tables as they lie\n"
    "(profiles, metrics, engines, breakdown, utilization, collectives, findings, opcodes, executions, tracks,\n"
    "events, counters, each with its rank), the named queries of queries/dataset/; DuckDB runs the\n"
    "same SQL.",
    "  nx-query --db study.db engine_utilization\n"
    "  nx-query --db study.db --format table top_opcodes --param profile=vmap --param limit=5\n"
    "  nx-query --db study.db --sql \"SELECT name, COUNT(*), AVG(dur) FROM slice WHERE name REGEXP 'MATMUL|TENSOR' GROUP BY name\"\n"
    "  nx-query --db old.db --db new.db compare_profiles --param a=old_run --param b=new_run\n"
    "  nx-query --db study.db timeline --param buckets=20 | nx-report\n"
    "  nx-query --dataset ds/ rank_engine_busy --param engine=tensor\n"
    "  nx-query --dataset ds/ --sql \"SELECT rank, SUM(dur) FROM events WHERE rank IN (3, 7) GROUP BY rank\"",
    kListings,
    {},
};

struct Options {
    std::vector<std::string> dbs;
    std::string dataset;
    std::string name, sql, file, format;
    std::vector<std::string> params;
    bool write = false;
    std::string list;  // a --list kind, or empty
    // A query that never ends (a recursive CTE without its stop) must not
    // hold a cron job or a batch pipeline for ever; real queries on a 10M-event
    // profile take seconds.
    double timeout = 3600;
    // And one that spills without end must not fill the disk it spills to.
    int64_t temp_limit = nx::default_temp_limit();
};

std::optional<Options> parse(int argc, char** argv) {
    Options o;
    std::string temp_limit;
    nx::po::options_description desc("Options");
    desc.add_options()
        ("db", nx::po::value(&o.dbs)->composing(), "study database (repeat to query several together)")
        ("dataset", nx::po::value(&o.dataset), "an nx dataset (nx-convert --dataset): SQL over its Parquet tables")
        ("sql", nx::po::value(&o.sql), "SQL text to run")
        ("file", nx::po::value(&o.file), "SQL file to run")
        ("param,p", nx::po::value(&o.params)->composing(), "bind :K to V (repeatable)")
        ("format,f", nx::po::value(&o.format), "jsonl, table, csv, tsv, markdown (default: table on a terminal, else jsonl)")
        ("write", nx::po::bool_switch(&o.write), "allow the SQL to change the database")
        ("timeout", nx::po::value(&o.timeout), "stop the SQL after SECONDS (exit 1; default 3600, 0: no limit)")
        ("temp-limit", nx::po::value(&temp_limit), "stop the SQL when its temporary files (sorts, GROUP BY, recursive results) pass SIZE (4G, 500M; exit 1; default 4G, or half the free space of SQLite's temporary folder when less; 0: no limit)");
    nx::po::variables_map vm;
    if (!nx::parse_command_line(argc, argv, kSpec, desc, vm, "query")) return std::nullopt;
    std::vector<std::string> names;
    if (vm.count("query")) names = vm["query"].as<std::vector<std::string>>();
    if (names.size() > 1) throw nx::UsageError("one query name at a time (got '" + names[0] + "' and '" + names[1] + "')");
    if (!names.empty()) o.name = names[0];
    o.list = nx::requested_listing(vm);
    int sources = !o.name.empty() + !o.sql.empty() + !o.file.empty();
    if (o.list.empty()) {
        if (sources == 0) throw nx::UsageError("give a query NAME, --sql TEXT or --file F.sql (--list shows the names)");
        if (sources > 1) throw nx::UsageError("give only one of a query NAME, --sql and --file");
        if (o.dbs.empty() && o.dataset.empty()) throw nx::UsageError("--db FILE (or --dataset DIR) is required");
        if (!o.dbs.empty() && !o.dataset.empty()) throw nx::UsageError("give --db or --dataset, not both");
        if (o.write && !o.dataset.empty()) throw nx::UsageError("--write changes a database; a dataset is read-only (nx-convert --dataset writes it)");
        if (o.write && o.dbs.size() > 1) throw nx::UsageError("--write works on one database at a time");
        if (!(o.timeout >= 0) || o.timeout > 1e9) throw nx::UsageError("--timeout takes a number of seconds >= 0");
        if (vm.count("temp-limit")) {
            std::optional<int64_t> bytes = nx::parse_byte_size(temp_limit);
            if (!bytes) throw nx::UsageError("--temp-limit takes a size: 4G, 500M, 1048576 (bytes), 0 for none (got '" + temp_limit + "')");
            o.temp_limit = *bytes;
        }
    }
    return o;
}

// Every column of every dataset table, from the tables' own description
// (dataset_layout.h): what the files hold, whatever the man page says.
void list_dataset_tables(nx::RowFormat format, nx::Output& out) {
    nx::RowWriter w(format, out);
    w.columns({"table", "column", "type", "nullable", "meaning"});
    for (const nx::dataset::Table& t : nx::dataset::tables())
        for (size_t i = 0; i < t.columns.size(); ++i)
            w.row({nx::Cell::of_text(t.name), nx::Cell::of_text(t.columns[i].name),
                   nx::Cell::of_text(nx::dataset::sql_type_name(t.columns[i].type)),
                   nx::Cell::of_int(t.columns[i].nullable ? 1 : 0), nx::Cell::of_text(t.meanings[i])});
    w.finish();
}

int run(const Options& o) {
    nx::Output& out = nx::Output::standard();
    nx::RowFormat format = o.format.empty() ? nx::default_row_format(out) : nx::parse_row_format(o.format);
    // A dataset's tables are not a database's: its named queries are its own.
    std::string dir = nx::named_query_dir();
    if (!o.dataset.empty() && !dir.empty()) dir += "/dataset";
    if (o.list == "tables") {
        list_dataset_tables(format, out);
        return nx::kExitOk;
    }
    if (o.list == "queries") {
        std::vector<nx::NamedQuery> queries = nx::load_named_queries(dir);
        nx::RowWriter w(format, out);
        w.columns({"name", "description", "params", "columns"});
        for (const nx::NamedQuery& q : queries)
            w.row({nx::Cell::of_text(q.name), nx::Cell::of_text(q.description), nx::Cell::of_text(q.params),
                   nx::Cell::of_text(q.columns)});
        w.finish();
        return nx::kExitOk;
    }
    nx::QueryParams params;
    for (const std::string& p : o.params) {
        auto [k, v] = nx::split_key_value(p, "param");
        params[k] = v;
    }
    std::string sql, where;
    if (!o.name.empty()) {
        std::vector<nx::NamedQuery> queries = nx::load_named_queries(dir);
        auto it = std::find_if(queries.begin(), queries.end(), [&](const nx::NamedQuery& q) { return q.name == o.name; });
        if (it == queries.end()) {
            std::string known;
            for (const nx::NamedQuery& q : queries) known += (known.empty() ? "" : ", ") + q.name;
            throw nx::UsageError("no named query '" + o.name + "'" +
                                 (dir.empty() ? " (query directory not found; set NX_DATA_DIR)" : " (known: " + known + ")"));
        }
        sql = it->sql;
        where = it->path;
    } else if (!o.file.empty()) {
        sql = nx::read_whole_file(o.file);  // capped: --file /dev/zero is an error
        where = o.file;
    } else {
        sql = o.sql;
        where = "--sql";
    }
    // Before any connection opens: every one's temporary files are counted.
    nx::TempLimit temp_limit(o.temp_limit);
    std::unique_ptr<nx::Store> store;
    std::unique_ptr<nx::DatasetDb> dataset;
    if (!o.dataset.empty()) {
        dataset = std::make_unique<nx::DatasetDb>(o.dataset);
    } else {
        std::vector<std::string> also(o.dbs.begin() + 1, o.dbs.end());
        store = std::make_unique<nx::Store>(o.dbs.front(),
                                            o.write ? nx::Store::Access::read_write : nx::Store::Access::read_only, also);
    }
    nx::SqliteDb& db = dataset ? dataset->db() : store->db();
    nx::QueryTimeout limit(db, o.timeout);
    try {
        nx::run_sql(db, sql, params, format, out, where);
    } catch (const nx::Error& e) {
        if (temp_limit.reached())
            throw nx::Error("stopped: the query's temporary files passed --temp-limit " + nx::format_bytes(static_cast<double>(o.temp_limit)) +
                                " (a sort or recursive query that never ends? a larger --temp-limit, or 0, lifts it)",
                            where);
        if (!limit.expired()) throw;
        std::ostringstream secs;
        secs << o.timeout;
        throw nx::Error("stopped: the query ran longer than --timeout " + secs.str() +
                            " s (a recursive query that never ends? --timeout 0 lifts the limit)",
                        where);
    }
    if (dataset)
        for (const std::string& note : dataset->missing_column_notes()) nx::print_note(o.dataset + ": " + note);
    return nx::kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return nx::tool_main(kSpec, argc, argv, parse, run); }
