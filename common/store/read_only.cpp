// The read-only session: PRAGMA query_only plus an authorizer that allows
// reading and an allow-list of functions, so SQL a user hands nx-query can
// never change a file.
#include "common/store/read_only.h"

#include <cctype>
#include <set>
#include <string>

namespace nx {

namespace {

// SQLite names (pragmas, tables) compare case-insensitively.
std::string lowercase(const char* name) {
    std::string s = name ? name : "";
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The SQL functions a read-only session may call: SQLite's core scalar,
// aggregate, window, date, math and JSON functions, and nx's REGEXP.  Left
// out on purpose: fts3_tokenizer (returns and accepts raw pointers),
// load_extension, the FTS/R-Tree auxiliaries (match, snippet, offsets,
// matchinfo, highlight, bm25, fts5, rtreenode, rtreedepth, rtreecheck) and
// anything registered later without review.  Virtual tables a session can
// reach: pragma_* (through the PRAGMA rules below), json_each/json_tree and
// nx's engine_* table functions (engine_intervals.cpp), all read-only; a
// read-only session cannot create one.
const std::set<std::string, std::less<>> kReadOnlyFunctions = {
    // core scalar
    "abs", "changes", "char", "coalesce", "format", "glob", "hex", "ifnull", "iif", "instr", "last_insert_rowid",
    "length", "like", "likelihood", "likely", "lower", "ltrim", "max", "min", "nullif", "printf", "quote", "random",
    "randomblob", "replace", "round", "rtrim", "sign", "soundex", "sqlite_compileoption_get",
    "sqlite_compileoption_used", "sqlite_source_id", "sqlite_version", "substr", "substring", "total_changes", "trim",
    "typeof", "unicode", "unlikely", "upper", "zeroblob", "octet_length", "unhex", "concat", "concat_ws",
    // aggregate and window
    "avg", "count", "group_concat", "string_agg", "sum", "total", "row_number", "rank", "dense_rank",
    "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value",
    // date and time
    "date", "time", "datetime", "julianday", "unixepoch", "strftime", "current_date", "current_time",
    "current_timestamp", "timediff",
    // math
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp",
    "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan",
    "tanh", "trunc",
    // JSON
    "json", "json_array", "json_array_length", "json_extract", "json_insert", "json_object", "json_patch",
    "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid", "json_group_array",
    "json_group_object", "json_each", "json_tree", "->", "->>",
    // nx (source_args reads the Parquet files the database refers to, nothing else)
    "regexp", "source_args",
};

// Read-only connections refuse anything that could change a file: the
// authorizer is the second lock behind PRAGMA query_only.
int read_only_authorizer(void*, int action, const char* a, const char* b, const char*, const char*) {
    switch (action) {
        case SQLITE_READ:
        case SQLITE_SELECT:
        case SQLITE_RECURSIVE:
            return SQLITE_OK;
        case SQLITE_FUNCTION:
            // b is the function's name: only the allow-list (kReadOnlyFunctions).
            return kReadOnlyFunctions.count(lowercase(b)) ? SQLITE_OK : SQLITE_DENY;
        case SQLITE_PRAGMA: {
            // Reading pragmas (table_info, ...) is fine; query_only may not be
            // lifted.  Pragma names are case-insensitive.
            // Pragmas that change the file or lift the lock; the first six
            // may still be read.
            static const std::set<std::string, std::less<>> kLocked = {
                "query_only",     "journal_mode",    "user_version",       "application_id", "schema_version",
                "locking_mode",   "writable_schema", "wal_checkpoint",     "incremental_vacuum", "optimize"};
            static const std::set<std::string, std::less<>> kReadable = {
                "query_only", "journal_mode", "user_version", "application_id", "schema_version", "locking_mode"};
            std::string p = lowercase(a);
            bool setting = b != nullptr;  // PRAGMA x = value (reading has no value)
            if (!kLocked.count(p)) return SQLITE_OK;
            return !setting && kReadable.count(p) ? SQLITE_OK : SQLITE_DENY;
        }
        case SQLITE_TRANSACTION:
        case SQLITE_SAVEPOINT:
            return SQLITE_OK;
        case SQLITE_UPDATE: {
            // SQLite itself asks this while connecting a table-valued function
            // (engine_summary ...).  Real schema changes stay impossible:
            // writable_schema is denied and query_only blocks every write.
            std::string t = lowercase(a);
            return t == "sqlite_master" || t == "sqlite_temp_master" ? SQLITE_OK : SQLITE_DENY;
        }
        default:
            return SQLITE_DENY;
    }
}

}  // namespace

void make_read_only(SqliteDb& db) {
    db.exec("PRAGMA query_only = 1");
    sqlite3_set_authorizer(db.handle(), read_only_authorizer, nullptr);
}

}  // namespace nx
