// Running `neuron-explorer view` on an NTFF as the real tool behaves, not as
// its help text reads.  It writes every Parquet table with its columns and
// no rows, fills them over minutes, Summary last, and then keeps serving its
// UI: without `--ingest-only` it never exits, and even with it one public
// script saw it hang on big DMA graphs (neuron-explorer-parquet.md section
// 12).  So nx:
//   - passes `--ingest-only`, `--disable-ui`, `--force` and
//     `--processing-status-file` where the tool's `view --help` lists them;
//   - judges completion by the status file (every profile "success"), or by
//     the directory itself: every table with a valid footer, Summary with
//     rows, unchanged between two looks;
//   - then ends the viewer's whole process group, and always ends it (an
//     error, a timeout, a signal unwinding nx);
//   - gives up after a timeout with a message that says so.
// One output directory per NTFF: a shared one is overwritten rank after rank.
#pragma once

#include <string>

namespace nx {

struct ViewOptions {
    // Seconds the viewer may take to write a profile (nx-convert --view-timeout).
    double timeout_s = 7200;
    // How often nx looks at the output (the tests shorten it).
    int poll_ms = 200;
};

// Writes NTFF + NEFF's profile as Parquet tables into `out_dir` with `tool`
// (neuron-explorer).  Throws Error naming the NTFF: the tool failed (its last
// output lines), timed out, or stopped with the directory incomplete.
void explorer_view_parquet(const std::string& tool, const std::string& neff, const std::string& ntff,
                           const std::string& out_dir, const ViewOptions& options);

}  // namespace nx
