// nx-report --ranks: the ranks of a multi-rank capture (profiles whose
// records carry a worker rank) in one table and one heat map, from each
// rank's summary (rank_analysis.h): each rank's total time and skew, where
// its time went (compute, collectives, exposed DMA, idle), how much of its
// communication computing hid, how long it waited in collectives, the
// straggler by HTA's definition and the engine or phase behind it.  Neuron
// Explorer shows one device-only capture at a time.
#pragma once

#include <string>
#include <vector>

#include "common/format/row_format.h"
#include "common/report/document.h"
#include "common/report/rank_analysis.h"

namespace nx {

// A rank a dataset's plan holds that the dataset lacks (a task could not
// convert it): the HTML page draws it as an empty row of its capture and
// graph (rank_analysis.h: RankCapture).
struct UnconvertedRank {
    int rank = -1;
    std::string capture, graph;
};

void add_rank_report(Document& doc, const std::vector<RankAnalysis>& captures,
                     const std::vector<UnconvertedRank>& unconverted = {});
// Rows: kind "rank", capture, rank, profile, total_ns, vs_fastest, behind_ns,
// straggler (0/1), collective_ops, collective_ns, collective_percent,
// compute_ns, overlap_percent, dma_exposed_ns, idle_ns, wait_ns,
// latest_collectives, neff_hash, iterations, steps, the capture's straggler
// figures, slowest_iterations (iterations_across_ranks.h).
void write_rank_rows(const std::vector<RankAnalysis>& captures, RowWriter& out);

}  // namespace nx
