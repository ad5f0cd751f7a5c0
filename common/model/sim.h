// The `sim` backend: a calibrated NeuronCore performance model.
//
// simulate() lowers a workload (matmul, mlp, pattern, elementwise, conv2d, pool2d, ssm_scan, dwconv1d) to the
// instruction stream a Neuron kernel issues, schedules it on the engines and
// DMA queues of one NeuronCore of the target, and returns the predicted
// latency with counts; with an ImportHandler it also streams the timeline's
// events (the same rows a real profile has) so ProfileBuilder computes the
// summary metrics exactly as nx-convert does for measured profiles.
// calibration.h compares predictions with the public measurements listed in
// common/model/calibration.jsonl and fits the model's free parameters.  The
// model, its sources, assumptions and blind spots are described in nx-sim(7).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/io/output.h"
#include "common/model/calibration.h"
#include "common/model/event_stream.h"
#include "common/model/matmul.h"
#include "common/profile/profile_sink.h"
#include "common/target/targets.h"
#include "common/workload/workload.h"

namespace nx::model {

// One physical core's part of a run: busy time by timeline row (TensorMatrix
// .. host, as event_stream.h numbers them), semaphore waits, last event.
struct CoreTimes {
    std::array<double, kTrackDma0> busy_ns{};
    double wait_ns = 0;
    double end_ns = 0;
};

struct SimResult {
    // Device time of one execution (for the per-iteration-launch pattern:
    // including the host dispatch of every launch).
    double latency_ns = 0;
    double device_ns = 0;        // the part spent executing on the device
    int64_t instructions = 0;    // compute instructions + per-engine DMA transfers
    int64_t dma_transfers = 0;   // per-engine DMA transfers
    TileCounts tiles;            // matmul (and mlp: the first projection); zeros otherwise
    std::string variant;         // variant actually used ("auto" resolved; mlp: one per projection)
    double model_flops = 0;
    double hardware_flops = 0;
    double hbm_bytes = 0;        // read + written
    double hbm_read_bytes = 0;
    double hbm_write_bytes = 0;
    double sbuf_peak_bytes = 0;  // planned SBUF occupancy (all partitions)
    double sbuf_read_bytes = 0;
    double sbuf_write_bytes = 0;
    // Busy time (sum of instruction durations) per timeline row.
    double tensor_busy_ns = 0;   // MultiplyMoving (TensorMatrix row)
    double vector_busy_ns = 0;
    double scalar_busy_ns = 0;
    double gpsimd_busy_ns = 0;
    int64_t floor_clamps = 0;          // see scheduler.h; 0 for a faithful schedule
    size_t peak_buffered_events = 0;   // reorder-buffer high water mark (streaming only)
    int lnc = 1;                       // physical cores of the logical core
    int lanes = 1;                     // of which the kernel's work used (sharded: lnc)
    std::array<CoreTimes, kMaxLnc> cores{};
};

// The target a workload names (its `target`, trn2 when empty).  Throws
// nx::Error("<workload>: unknown target ...") for other names.
const Target& workload_target(const Workload& w);
// The physical cores of the workload's logical core: its `lnc`, or the
// target's default.  Throws nx::Error naming the workload when the target
// cannot group that many.
int workload_lnc(const Workload& w, const Target& target);

// Validates the workload (throws nx::Error("<workload name>: <what is wrong>"))
// and simulates one execution on `target`.  When `events` is non-null, every
// event of the timeline is streamed to it in timestamp order (the caller has
// called begin_profile and will call end_profile), and the metrics events
// cannot carry are reported through events->source_metric(): SBUF fullness
// and traffic, weight and input/output sizes, the cycle count.
SimResult simulate(const Workload& w, const Target& target, ImportHandler* events = nullptr);
// The same with other parameter values than the fitted ones (the fit).
SimResult simulate(const Workload& w, const Target& target, ImportHandler* events, const ModelParams& params);

}  // namespace nx::model
