// The report for a trace without Neuron engines (Chrome trace JSON, PyTorch
// profiler / Kineto): busy share per track, GPU streams, GPU kernel, memcpy and
// memset tables like `nsys stats`, top names by total and self time, and the
// largest idle gaps (trace_stats.h computes them), as Document sections and as
// records.
#pragma once

#include <vector>

#include "common/profile/profile.h"
#include "common/report/document.h"
#include "common/report/profile_report.h"
#include "common/report/report_input.h"
#include "common/format/row_format.h"

namespace nx {

// A profile the trace report is for: a Chrome trace with no engine rows
// (a Neuron trace written by nx-convert --to chrome-json has them).
bool is_trace_profile(const ProfileInfo& info, const ProfileSummary& summary);

// The trace sections of a profile's report (after its heading and facts).
void add_trace_report(Document& doc, const ProfileEntry& p, const ReportOptions& options);

// The same figures as records, one result per kind (trace_summary,
// trace_track, trace_gpu_stream, trace_gpu_op, trace_name, trace_gap) over
// every trace profile that came with its events.
void write_trace_records(const std::vector<ProfileEntry>& profiles, const ReportOptions& options, RowWriter& out);

}  // namespace nx
