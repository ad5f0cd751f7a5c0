// The timeline: places each instruction and DMA transfer of a lowered program
// on the NeuronCore's engines and DMA queues, and streams the resulting events.
//
// Instructions are submitted in program order.  Every engine (TensorE's
// LoadStationary and MultiplyMoving rows, VectorE, ScalarE, GpSimdE, the Sync
// engine that triggers DMAs) executes its own stream in order, so an
// instruction starts at the latest of: its engine becoming free, its
// dependencies (the semaphores it waits on: completion times the lowering
// passes as `ready`), and the scheduling floor.  That is a list schedule in
// one pass, O(1) per instruction, with no graph kept in memory.
//
// A kernel starts with a preamble and ends with a drain on every engine
// (begin_kernel, end_kernel): the fixed cost measured kernels show.
//
// Physical cores: a logical core of LNC=2 is two physical cores, each with
// its own engines, DMA queues, PSUM banks and share of HBM, and each runs the
// launch frame.  The scheduler places instructions on one of them at a time
// (select_core).  A kernel that is not sharded runs on the first; the other
// runs only its frame, as the real trn2 LNC=2 capture shows for an NKI
// kernel launched without a grid.  A sharded kernel's halves are lowered as
// coroutines (lowering.h), one per core, interleaved by their floors, and
// meet at core barriers where they exchange data through HBM.
//
// DMA: a transfer is triggered by an engine (loads by the Sync engine, stores
// by the engine that produced the data, or on NC-v3 and later by the Sync
// engine when that engine cannot command the DGE: dma_trigger; waiting on the
// Sync engine is a semaphore wait), which is busy for the trigger and the
// descriptor issue,
// reaches its queue after the fixed cross-engine latency, and is split over
// the DMA engines of its physical core that serve the partitions it touches
// (8 partitions per engine).  Each queue moves its rows at the engine's rated
// bandwidth plus a per-descriptor cost.  HBM traffic moves at the sustained
// rate of its access pattern (contiguous or strided), each physical core's at
// its share of the logical core's HBM:
// the Sync engine's prefetches are served in issue order; a store (triggered
// by a compute engine) does not queue behind that prefetch backlog but shares
// HBM with it half and half while both are busy (round-robin queues), so the
// store takes up to twice its own time and the backlog finishes later by as
// much as the store took.  Every time is a continuous function of the inputs
// (no priority cliffs where a nanosecond's difference costs a whole transfer);
// what remains are small alignment effects, as on hardware.
//
// The floor: a lowering periodically tells the scheduler the earliest time any
// instruction it has yet to submit can start (set_floor): the least, over the
// completion times it still holds as future dependencies, of that time and
// the consuming engine becoming free (Floor helps compute it).  Every later
// instruction depends on one of those, or on an instruction not yet placed,
// so events before the floor are final and are emitted: memory stays bounded
// by the work in flight, not by the length of the program.  An instruction is
// never placed before the floor; if one would have been (a dependency the
// lowering forgot to hold), its start is raised and counted in
// SimStats::floor_clamps, which tests keep at zero.
#pragma once

#include <array>
#include <cmath>
#include <coroutine>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "common/model/cost_model.h"
#include "common/model/event_stream.h"
#include "common/profile/event.h"
#include "common/profile/profile_sink.h"

namespace nx::model {

// Compute units are the first kTrackDma0 tracks (TensorMatrix ... host).
inline constexpr int kUnitCount = kTrackDma0;
// PSUM: 8 banks of 2 KiB per partition [nki-arch].
inline constexpr int kPsumBanks = 8;

// An instruction on one compute unit.
struct Instr {
    int unit = kTrackVector;
    Op op = Op::tensor_copy;
    Time dur = 0;
    Time ready = 0;  // latest completion among the instruction's dependencies
    uint32_t layer = kNoLayer;
    uint16_t hlo = 0;
    EventType type = EventType::instruction;
    int64_t sbuf_read = 0;   // bytes read from SBUF
    int64_t sbuf_write = 0;  // bytes written to SBUF
};

// A LoadStationary (unless the stationary is already in the array) followed by
// a MultiplyMoving into a PSUM bank.
struct MatmulInstr {
    Time stationary_ready = 0;
    Time moving_ready = 0;
    Time psum_ready = 0;  // the accumulation bank is free (first pass of a group)
    int64_t k_rows = 0;   // contraction rows in this pass
    int64_t m_cols = 0;   // stationary columns (output partitions)
    int64_t n_cols = 0;   // moving columns
    DType dtype = DType::bf16;
    bool load_stationary = true;
    // multiply_moving, or a matmul that only moves data (transpose: against
    // an identity; partition_select: against a one-hot column): those count
    // as hardware and transpose FLOPs, not model FLOPs.
    Op op = Op::multiply_moving;
    uint32_t layer = kNoLayer;
    uint16_t hlo = 0;
};

enum class Packets : uint8_t { per_engine, per_row, static_chunks };

// One DMA transfer of `partitions` rows of `row_bytes` each.
struct Transfer {
    int64_t partition0 = 0;
    int64_t partitions = 0;
    int64_t row_bytes = 0;
    // When positive: instead of one range, this many partitions at the start
    // of each of the four SBUF quadrants (an MX scale tensor's layout).
    int64_t quadrant_rows = 0;
    DmaKind kind = DmaKind::hbm_read;  // hbm_read/weight_load/spill_reload: HBM -> SBUF; hbm_write/spill_save: SBUF -> HBM; on_chip
    Time ready = 0;
    // The unit whose instruction stream triggers the transfer: loads come
    // from the Sync engine (the prefetcher), stores from the unit that
    // produced the data, so a store waiting for compute never holds up the
    // next loads.
    int trigger = kTrackSync;
    // A tile of rows strided across a larger tensor (HBM moves it at the
    // strided rate), or one contiguous range.
    bool strided = true;
    // How the transfer appears in the trace.  Hand-written kernels: one event
    // per DMA engine.  Compiler-lowered graphs (patterns.cpp) as a
    // neuron-profile capture shows them: a DMA_DIRECT2D's descriptors, one
    // packet per partition row, then per DMA engine a 4-byte write
    // incrementing the consumer's semaphore (one more descriptor's time); a
    // static DMA's engine share in packets of at most kStaticPacketBytes, the
    // semaphore increment riding on the last.
    Packets packets = Packets::per_engine;
    // The trigger instruction: a queue write (DMA_TRIGGER; WRITE, as the
    // capture names it, for a compiler-lowered graph's static DMA) or, on
    // GpSimdE, a DMA_DIRECT2D whose descriptors the engine writes itself.
    Op trigger_op = Op::dma_trigger;
    // What the trigger costs its engine.  issue: the trigger and the fitted
    // descriptor issue (ModelParams::dma_issue_ns), as busy time.  prebuilt:
    // descriptors built at compile time, the trigger one 4-byte queue write
    // (kWriteNs).  untimed: the issue occupies the engine but shows as a 0 ns
    // instant and is no busy time (the capture's DMA_DIRECT2Ds: 0 ns each,
    // GpSimdE's next instruction 649 ns later).
    enum class TriggerCost : uint8_t { issue, prebuilt, untimed };
    TriggerCost trigger_cost = TriggerCost::issue;
    uint32_t layer = kNoLayer;
    TensorRef tensor;
};

// The semaphore write a DMA engine issues after its share of a DMA_DIRECT2D
// (the 4-byte packets of a neuron-profile capture).
inline constexpr int64_t kSemaphorePacketBytes = 4;
// A static DMA's packets (the capture's constant identity: 32 packets of
// 2048 B for 64 KiB).
inline constexpr int64_t kStaticPacketBytes = 2048;

struct SimStats {
    Time end = 0;                 // last completion
    int64_t instructions = 0;     // compute instructions + per-engine DMA transfers
    int64_t dma_transfers = 0;    // per-engine pieces
    int64_t dma_issued = 0;       // transfers triggered
    std::array<int64_t, kUnitCount> unit_instructions{};
    std::array<double, kUnitCount> unit_busy_ns{};  // every physical core's
    // Per physical core: busy time by unit, semaphore waits (EVENT_SEMAPHORE,
    // SemaphoreWait: the frame's barriers and the waits on other engines) and
    // the last completion.
    std::array<std::array<double, kUnitCount>, kMaxLnc> core_busy_ns{};
    std::array<double, kMaxLnc> core_wait_ns{};
    std::array<Time, kMaxLnc> core_end{};
    double hbm_read_bytes = 0;
    double hbm_write_bytes = 0;
    double sbuf_read_bytes = 0;
    double sbuf_write_bytes = 0;
    double hardware_flops = 0;
    double model_flops = 0;
    double transpose_flops = 0;
    int64_t floor_clamps = 0;
};

struct FrameStep;

class Scheduler {
public:
    // The logical core and its lanes are the cost model's placement.
    Scheduler(const CostModel& cost, ImportHandler* events);
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    const CostModel& cost() const { return cost_; }
    EventStream& stream() { return stream_; }
    bool tracing() const { return stream_.enabled(); }

    // The physical core the next instructions go to (0 .. lanes - 1), and
    // how many there are.
    void select_core(int core);
    int core_index() const { return cur_; }
    int lanes() const { return cost_.placement().lanes; }

    // The kernel's preamble from `at` on every engine of every physical core
    // (see cost_model.h); a core without work (beyond the lanes) drains right
    // after it.  Returns when the kernel's own instructions may start.
    Time begin_kernel(Time at);
    // The drain of every working core not drained yet, each after its own
    // last event; returns the kernel's end.
    Time end_kernel();
    // A lane's work is all placed: its core drains now (when a kernel is open).
    void lane_done(int core);

    // Each returns the completion time.
    Time run(const Instr& in);
    Time matmul(const MatmulInstr& mm);
    Time dma(const Transfer& t);
    // The unit that triggers a transfer `producer` asks for: the producer,
    // or the Sync engine where the producer cannot command the DGE.
    int dma_trigger(int producer) const;
    // `unit` blocked on a producer's semaphore until `ready`: an
    // EVENT_SEMAPHORE instruction (a wait, not work), as compiler-lowered
    // graphs show before a consumer's first use of a producer's result.
    void wait(int unit, Time ready, uint32_t layer);

    // PSUM accumulation banks, rotated by every matmul group the core runs:
    // a group's first pass waits until the bank's previous contents were
    // evacuated (psum_release).
    int psum_take();
    Time psum_ready(int bank) const { return c_->psum_free[static_cast<size_t>(bank)]; }
    void psum_release(int bank, Time t) { c_->psum_free[static_cast<size_t>(bank)] = t; }

    // Raises the floor (see above; the PSUM banks are held here) and emits
    // the events before it.  A lowering that runs as a coroutine announces
    // its floor with `co_await floor(t)` instead: its driver raises the
    // floor to the least of the lanes' (lowering.h).
    void set_floor(Time floor);
    struct FloorPoint {
        Scheduler& s;
        Time value;
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<> h) noexcept;
        void await_resume() const noexcept {}
    };
    FloorPoint floor(Time t) { return FloorPoint{*this, t}; }
    // The cores meet (nki.isa.core_barrier): this core's GpSimdE writes the
    // other's semaphore once `ready` (its results are in HBM), then waits
    // until the other's write reached it.  `co_await core_barrier(t)` gives
    // the time both cores' results are visible to both.
    struct BarrierPoint {
        Scheduler& s;
        Time ready;
        bool await_ready() const noexcept { return s.lanes() == 1; }
        void await_suspend(std::coroutine_handle<> h);
        Time await_resume();
    };
    BarrierPoint core_barrier(Time ready) { return BarrierPoint{*this, ready}; }
    // A held completion time as a bound on its consumer's next start.
    Time effective(Time token, int consumer) const {
        return token > c_->unit_free[consumer] ? token : c_->unit_free[consumer];
    }
    // Emits every remaining event.
    void finish();

    Time unit_free(int unit) const { return c_->unit_free[unit]; }
    // One static access (a queue write, a register operation, a branch) at
    // `unit`'s clock.
    Time trigger_ns(int unit) const;
    const SimStats& stats() const { return stats_; }
    size_t peak_buffered_events() const { return stream_.peak_pending(); }

    // What the coroutine driver (lowering.cpp) keeps per lane: the lane's
    // last announced floor, the innermost suspended coroutine to resume,
    // and at a core barrier its arrival and the release both cores agree on.
    struct Lane {
        Time floor = 0;
        std::coroutine_handle<> leaf;
        bool at_barrier = false;
        Time arrival = 0;   // this core's semaphore write reached the other core's queue
        Time release = 0;   // both writes arrived: the barrier's end on every core
    };
    Lane& lane(int core) { return lanes_[static_cast<size_t>(core)]; }

private:
    Time start_on(int unit, Time ready);
    // HBM completion of a transfer of `dur` ns issued at `issue`.
    Time hbm_priority(int queue_kind, Time issue, Time dur);
    Time hbm_prefetch(Time issue, Time dur);
    void push(int track, Time start, Time end, PendingEvent& e);
    // A fixed-cost instruction of the preamble or drain; returns its end.
    Time fixed(int unit, Op op, Time start, Time end);
    // One engine's preamble or drain steps from `t`; the waits meet at
    // `meetings` and the last one leaves room for the steps after it before
    // `end`.  Returns when the engine is free.
    Time run_frame(int unit, Time t, const std::vector<FrameStep>& steps, const Time* meetings, Time end);

    // The drain of one physical core after its last event.
    void drain_core(int core);
    // Semaphore waits count per core, never as busy time.
    void count_wait(Op op, Time start, Time end);

    // dma()'s steps: the trigger on its unit, then the rows of each DMA
    // engine once the transfer is issued.
    struct DmaIssue {
        Time issue = 0;    // the trigger's end plus the fixed latency
        Time hbm_end = 0;  // through HBM: when HBM has moved the bytes
        int queue = 0;     // the trigger's queue kind
        bool hbm = false;
        Op op{};
    };
    Time trigger_dma(const Transfer& t);
    Time dma_on_engine(const Transfer& t, const DmaIssue& d, int engine, std::pair<int64_t, int64_t> rows_at);

    struct SharedSpan {
        Time begin, end;
        int queue;
    };
    // One physical core's engines and queues.
    struct Core {
        std::array<Time, kUnitCount> unit_free{};
        // Each DMA queue (trigger kind x engine) serves its transfers in order.
        std::array<std::array<Time, kMaxDmaEngines>, kDmaQueueKinds> dma_free{};
        // HBM (see dma()): each store queue kind's backlog; the end of the
        // prefetch backlog; intervals beyond it where a store runs and a
        // later prefetch would share HBM with it, by start time.
        std::array<Time, kDmaQueueKinds> hbm_free{};
        Time hbm_prefetch_end = 0;
        std::deque<SharedSpan> hbm_shared;
        Time shared_port_free = 0;  // VectorE/GpSimdE SBUF port on NC-v2
        Time last_mm_start = 0;
        std::array<Time, kPsumBanks> psum_free{};
        int psum_next = 0;
        bool drained = false;
    };

    const CostModel& cost_;
    EventStream stream_;
    SimStats stats_;
    std::array<Core, kMaxLnc> cores_;
    std::array<Lane, kMaxLnc> lanes_;
    Core* c_ = &cores_[0];
    int cur_ = 0;
    bool kernel_open_ = false;
    Time floor_ = 0;
    int dma_engines_;
};

// The least effective time over the dependencies a lowering still holds.
class Floor {
public:
    explicit Floor(const Scheduler& s) : s_(s) {}
    Floor& hold(Time token, int consumer) {
        Time t = s_.effective(token, consumer);
        if (t < value_) value_ = t;
        return *this;
    }
    template <typename Range>
    Floor& hold_all(const Range& tokens, int consumer) {
        for (Time t : tokens) hold(t, consumer);
        return *this;
    }
    Time value() const { return value_; }

private:
    const Scheduler& s_;
    Time value_ = INFINITY;
};

}  // namespace nx::model
