// libFuzzer target: nx-query's SQL parameter handling (--param K=V binding,
// unknown names) on a read-only study database, with SQL and parameters taken
// from the input.  Refusals and SQL errors must be nx::Error, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/io/error.h"
#include "common/io/output.h"
#include "common/store/query.h"
#include "common/store/store.h"

namespace {

// A small database made once per process.
const std::string& database() {
    static std::string path = [] {
        char tmpl[] = "/tmp/nx-fuzz-sql-XXXXXX";
        int fd = mkstemp(tmpl);
        if (fd >= 0) close(fd);
        unlink(tmpl);
        {
            nx::Store s(tmpl, nx::Store::Access::read_write);
            s.db().exec("INSERT INTO meta(key, value) VALUES ('fuzz', '1')");
        }
        return std::string(tmpl);
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    // First line: SQL; further lines: K=V parameters.
    size_t nl = text.find('\n');
    std::string sql = text.substr(0, nl);
    nx::QueryParams params;
    size_t pos = nl == std::string::npos ? text.size() : nl + 1;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        std::string kv = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        size_t eq = kv.find('=');
        if (eq != std::string::npos && eq > 0) params[kv.substr(0, eq)] = kv.substr(eq + 1);
        pos = end == std::string::npos ? text.size() : end + 1;
    }
    try {
        static nx::Store store(database(), nx::Store::Access::read_only);
        (void)nx::query_rows(store.db(), sql.empty() ? "SELECT :p" : sql, params, "fuzz");
    } catch (const nx::Error&) {
    }
    return 0;
}
