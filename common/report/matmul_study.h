// The matmul study's report: latency and TFLOP/s against shape, tiling
// cliffs (where crossing a tile boundary costs far more than the size grew),
// LLM layer cost per sequence length and the sequence buckets that minimise
// padded compute; and the seed profiler's CSV.
#pragma once

#include <string>
#include <vector>

#include "common/report/buckets.h"
#include "common/report/document.h"
#include "common/format/row_format.h"
#include "common/report/run_view.h"

namespace nx {

struct MatmulStudyOptions {
    bool all = false;
    std::string seq_dist;               // the sequence-length distribution's file, for messages
    std::vector<SeqCount> seq_counts;   // its requests, read once (empty: no bucket recommendations)
    int buckets = 4;                    // how many buckets to recommend
};

void add_matmul_study(Document& doc, const std::vector<RunView>& runs, const MatmulStudyOptions& o);

// A tiling cliff: one dimension grew across a tile boundary and latency grew
// much more than the size did.
struct TilingCliff {
    std::string dim;             // "M", "K" or "N"
    int64_t from = 0, to = 0;    // the dimension's values
    int64_t tiles_from = 0, tiles_to = 0;
    double size_ratio = 0, latency_ratio = 0;
    std::string from_run, to_run;
    // The kernel variant of each run (empty when the run does not say): a
    // jump where it changes is the variant switching, not the tile boundary.
    std::string variant_from, variant_to;
    bool variant_switch() const { return !variant_from.empty() && !variant_to.empty() && variant_from != variant_to; }
};
std::vector<TilingCliff> find_tiling_cliffs(const std::vector<RunView>& runs);

// M,K,N,latency_ms,num_tiles_M,num_tiles_K,num_tiles_N,total_tiles (the seed
// profiler's columns), then nx's own.
void write_matmul_csv(const std::vector<RunView>& runs, RowWriter& out);

}  // namespace nx
