// The SQL functions nx adds to every connection: REGEXP on RE2, and the
// table functions of engine_intervals.cpp, region_store.cpp and
// dependency_store.cpp.
#include "common/store/sql_functions.h"

#include <re2/re2.h>

#include <string>

#include "common/store/dependency_store.h"
#include "common/store/dma_series.h"
#include "common/store/engine_intervals.h"
#include "common/store/kept_sources.h"
#include "common/store/region_store.h"

namespace nx {

namespace {

void regexp_function(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (argc != 2 || sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    // The compiled pattern is cached on the statement while the pattern
    // argument stays the same (sqlite3_set_auxdata).
    auto* re = static_cast<RE2*>(sqlite3_get_auxdata(ctx, 0));
    if (!re) {
        const char* pattern = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
        int len = sqlite3_value_bytes(argv[0]);
        RE2::Options opts;
        opts.set_log_errors(false);
        re = new RE2(re2::StringPiece(pattern, static_cast<size_t>(len)), opts);
        if (!re->ok()) {
            std::string msg = "invalid regular expression: " + re->error();
            delete re;
            sqlite3_result_error(ctx, msg.c_str(), -1);
            return;
        }
        sqlite3_set_auxdata(ctx, 0, re, [](void* p) { delete static_cast<RE2*>(p); });
        re = static_cast<RE2*>(sqlite3_get_auxdata(ctx, 0));
        if (!re) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    const char* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    int len = sqlite3_value_bytes(argv[1]);
    sqlite3_result_int(ctx, RE2::PartialMatch(re2::StringPiece(text, static_cast<size_t>(len)), *re) ? 1 : 0);
}

}  // namespace

void register_sql_functions(sqlite3* db) {
    sqlite3_create_function_v2(db, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr, regexp_function,
                               nullptr, nullptr, nullptr);
    register_engine_functions(db);
    register_region_functions(db);
    register_dependency_functions(db);
    register_source_functions(db);
    register_dma_functions(db);
}

}  // namespace nx
