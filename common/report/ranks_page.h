// The ranks page: what nx-report --ranks adds to its HTML report (make
// dataset's DATASET/ranks.html), for the person who opens it after a job's
// fan-out.  The answer first: headline cards (ranks, skew, the straggler and
// its largest change) and the ranks worth reading (rank_analysis.h:
// notable_ranks, the same ranks the text report shows), each against the
// median rank; then the picture: ranks x time (compute, and collective wait
// where collectives matched), a thin row a rank up to thousands, grouped by
// node and process, the straggler and the outliers marked, a title on each
// row; ranks x executions for each NEFF of a session; then every rank in a
// table that opens on request and sorts by any column, profile paths
// shortened to what differs between ranks.  One file, no network: the
// pictures are inline images, the only script sorts the table.
#pragma once

#include <vector>

#include "common/report/document.h"
#include "common/report/rank_analysis.h"

namespace nx {

// The page's style and its sorting script, once a page.
void add_ranks_page_assets(Document& doc);

// Several graphs (or windows of steps): each one's verdict in a line, so
// every straggler is on the first screen.
void add_ranks_overview(Document& doc, const std::vector<RankAnalysis>& captures);

// `absent`: ranks with no profile here (sorted), drawn as empty rows.
// `section` numbers the captures of one page (element ids).
void add_rank_answer(Document& doc, const RankAnalysis& a, const std::vector<int>& absent, int section);
void add_rank_pictures(Document& doc, const RankAnalysis& a, const std::vector<int>& absent, int section);
void add_rank_table(Document& doc, const RankAnalysis& a, int section);

}  // namespace nx
