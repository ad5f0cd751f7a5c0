// libFuzzer target: the Parquet reader (common/parquet/) on arbitrary bytes,
// every column of every row group read through TableReader.  Corrupt files
// must end in an Error, never a crash, an out-of-bounds read or a hang.
// Seeds: the fixtures of test/fixtures/parquet (copied to the corpus).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/io/error.h"
#include "common/parquet/table_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    int fd = memfd_create("fuzz.parquet", 0);
    if (fd < 0) return 0;
    if (write(fd, data, size) != static_cast<ssize_t>(size)) {
        close(fd);
        return 0;
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        nx::parquet::TableReader t({path}, {}, nx::parquet::TableReader::Others::add);
        const std::vector<std::string>& names = t.names();
        // A footer may claim billions of rows of zero-width values: read
        // enough to exercise every page kind, not forever.
        for (int64_t rows = 0; rows < 200000 && t.next(); ++rows) {
            for (size_t i = 0; i < names.size(); ++i) {
                const nx::parquet::ColumnCursor* c = t.column(i);
                if (!c || c->is_null()) continue;
                if (c->info().is_list) {
                    for (size_t k = 0; k < c->list_size(); ++k)
                        if (!c->element_null(k) && c->holds_bytes()) (void)c->element_str(k).size();
                } else if (c->holds_integers()) {
                    (void)c->i64();
                } else if (c->holds_reals()) {
                    (void)c->f64();
                } else {
                    (void)c->str().size();
                }
            }
        }
    } catch (const nx::Error&) {
        // a corrupt file
    }
    close(fd);
    return 0;
}
