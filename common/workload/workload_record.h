// Workload records (nx(7) RECORDS, kind "workload") to and from the Workload
// struct, and what follows from a workload's shape: FLOPs and tile counts.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "common/records/jsonl.h"
#include "common/workload/workload.h"

namespace nx {

// Reads a workload from a record (kind "workload", or a run/capture record,
// whose workload fields are read the same way), with its op's defaults
// filled (with_defaults).  Fields nx does not know are kept in carried_json.
// Throws Error (no file/line; the caller adds them) for wrong types or a
// missing name/op.
Workload workload_from_record(const rapidjson::Value& rec);

// Writes the workload's fields (kind excluded) into an open JSON object.
void write_workload_fields(JsonWriter& w, const Workload& wl);
// A whole workload record: {"kind":"workload", ...}.
std::string workload_record_json(const Workload& wl);

// Largest shape dimension nx accepts (2^24).  Far beyond any device's memory
// for a real tensor, and small enough that tile counts and element products
// stay inside int64_t.
constexpr int64_t kMaxDimension = int64_t{1} << 24;

// Tile counts the matmul study reports: ceil(M/128), ceil(K/128), ceil(N/512)
// and their product (the seed profiler's num_tiles_* columns).
struct Tiles {
    int64_t M = 0, K = 0, N = 0, total = 0;
};
std::optional<Tiles> workload_tiles(const Workload& wl);

// Useful FLOPs of one execution (2*M*N*K for a matmul; the MLP's three
// projections; 0 when not meaningful), for achieved TFLOP/s.
double workload_flops(const Workload& wl);

// The one check of a workload's shape, from the op table: a known op and
// dtype, the op's required sizes positive, every size given positive and no
// larger than kMaxDimension, the op's own checks (pattern names, for-loop
// sizes).  Give it with_defaults(w) where sizes may be left out.  Every
// backend relies on it; the model adds only what the model knows (fits,
// variants).  Throws Error("<name>: <what is wrong>").
void validate_workload(const Workload& wl);

}  // namespace nx
