// The decode side of the Parquet ingest bench: nx's TableReader alone over an
// Explorer profile's Instruction and DmaPacket tables, with the columns
// explorer_parquet.cpp maps (or, with --all, every column, as nx-convert
// reads them to keep the rest in args).  Each value is touched (integers and
// reals summed, text lengths summed) so nothing is skipped; no mapping, no
// database.  Prints {"name":"parquet_decode","value":seconds,...}.
//   bench-parquet_decode PROFILE_DIR [--all]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/import/explorer_tables.h"
#include "common/io/error.h"
#include "common/parquet/table_reader.h"

namespace {

struct Totals {
    long long rows = 0, values = 0, ints = 0, text_bytes = 0;
    double reals = 0;
};

void decode(const nx::ExplorerTables& t, const char* table, std::vector<std::string> columns, bool all, Totals& out) {
    const std::vector<std::string>* files = t.find(table);
    if (!files) throw nx::Error(std::string("no ") + table + " table", t.dir);
    using Others = nx::parquet::TableReader::Others;
    nx::parquet::TableReader r(*files, all ? std::vector<std::string>{} : columns, all ? Others::add : Others::skip);
    columns = r.names();
    while (r.next()) {
        ++out.rows;
        for (size_t i = 0; i < columns.size(); ++i) {
            const nx::parquet::ColumnCursor* c = r.column(i);
            if (!c || c->is_null()) continue;
            ++out.values;
            if (c->is_list()) out.values += static_cast<long long>(c->list_size());
            else if (c->holds_integers()) out.ints += c->i64();
            else if (c->holds_reals()) out.reals += c->f64();
            else out.text_bytes += static_cast<long long>(c->str().size());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "--all") != 0)) {
        std::fprintf(stderr, "usage: bench-parquet_decode PROFILE_DIR [--all]\n");
        return 2;
    }
    bool all = argc == 3;
    auto t0 = std::chrono::steady_clock::now();
    Totals n;
    try {
        nx::ExplorerTables t = nx::scan_explorer_dir(argv[1]);
        // The columns read_instructions() and read_dma() map.
        decode(t, "Instruction",
               {"start_ts", "end_ts", "duration_ns", "engine", "timeline_track", "pcore_idx", "opcode", "hlo_name",
                "layer", "raw_flops", "tensor_instruction_type"},
               all, n);
        decode(t, "DmaPacket",
               {"start_ts", "end_ts", "duration_ns", "queue_name", "queue_type", "transfer_bytes", "variable",
                "pcore_idx"},
               all, n);
    } catch (const nx::Error& e) {
        std::fprintf(stderr, "bench-parquet_decode: %s\n", e.what());
        return 1;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"name\":\"parquet_decode%s\",\"value\":%.6f,\"unit\":\"s\",\"rows\":%lld,\"values\":%lld,"
                "\"checksum\":%lld}\n",
                all ? "_all" : "", s, n.rows, n.values, n.ints + n.text_bytes + static_cast<long long>(n.reals));
    return 0;
}
