// The model's event output: a bounded reorder buffer between the scheduler and
// an ImportHandler.
//
// The scheduler places instructions in program order, so events arrive out of
// timestamp order across tracks (a DMA issued after a matmul may start before
// it) but in order within each track (every engine and DMA queue is in-order).
// EventStream keeps one FIFO per track and, when the scheduler raises the
// watermark (no future event can start before it), merges the track heads and
// emits everything before the watermark in (timestamp, track) order.  Memory
// is bounded by the events between the watermark and the scheduling frontier,
// not by the length of the program.
//
// Strings are compact ids into small tables (operation names are static;
// tensor and HLO names are registered once per run; layer names are interned
// and released once no pending event uses them).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "common/model/cost_model.h"
#include "common/profile/event.h"
#include "common/profile/profile_sink.h"

namespace nx::model {

// Timeline rows of one physical core, as the profiler names them.  DMA rows
// are per queue and engine: a transfer triggered by unit U is queued on U's
// queue of each DMA engine it uses ("qSyncIO3": the Sync engine's queue on
// DMA engine 3).  A logical core of two physical cores has the rows twice;
// the second core's are named as the importers name them ("pcore1/Vector").
enum TrackId : uint8_t {
    kTrackTensorMatrix,
    kTrackTensor,
    kTrackVector,
    kTrackScalar,
    kTrackGpSimd,
    kTrackSync,
    kTrackHost,
    kTrackDma0,
};
// 16 DMA engines per physical core (Target::dma_engines_per_core).
inline constexpr int kMaxDmaEngines = 16;
// DMA queues by trigger engine: Sync, Scalar (Activation), Vector, GpSimd.
inline constexpr int kDmaQueueKinds = 4;
// Rows of one physical core, and of a logical core of kMaxLnc of them: row
// `t` of physical core `c` is c * kTracksPerCore + t.
inline constexpr int kTracksPerCore = kTrackDma0 + kDmaQueueKinds * kMaxDmaEngines;
inline constexpr int kTrackCount = kTracksPerCore * kMaxLnc;

// The name and engine of a row (of any physical core).
std::string_view track_name(int track);
Engine track_engine(int track);
// The DMA queue kind (0..kDmaQueueKinds-1) of transfers triggered by
// compute unit `trigger`, and the row of that queue on DMA engine `engine`.
int queue_kind(int trigger);
int dma_track(int trigger, int engine);

// What an event is: its name and opcode in the profile.
enum class Op : uint8_t {
    multiply_moving,
    load_stationary,
    transpose,
    tensor_copy,
    tensor_tensor,
    tensor_scalar,
    tensor_reduce,
    activation,
    memset,
    bn_stats,
    bn_aggr,
    partition_select,
    dma_trigger,
    loop_branch,
    semaphore_wait,
    dma_hbm_to_sbuf,
    dma_sbuf_to_hbm,
    dma_sbuf_to_sbuf,
    nrt_execute,
    // Kernel preamble and drain, named as neuron-profile shows them.
    drain,
    event_semaphore,
    set_ordering_mode,
    act_table_load,
    semaphore_range_clear,
    notify,
    // Compiler-lowered graphs (patterns.cpp): a register load from device
    // memory (a dynamic slice's index), register arithmetic, a DMA whose
    // descriptors the issuing engine writes itself (software DGE), and the
    // 4-byte write that increments the consumer's semaphore when a DMA
    // engine's share of a transfer is done.
    tensor_load,
    register_alu,
    dma_direct2d,
    dma_semaphore_write,
    // The Mamba scan (scan.cpp): VectorE's tensor_tensor_scan, and a
    // partition-dimension broadcast TensorE does as a matmul against ones.
    tensor_tensor_scan,
    partition_broadcast,
    // The rest of a kernel's launch frame as a capture shows it
    // (Scheduler::begin_kernel, end_kernel): a 4-byte register/flag write to
    // device memory, an idle slot, a register store, a register compare and
    // branch.
    write,
    nop,
    tensor_store,
    compare_branch,
};
std::string_view op_name(Op op);
std::string_view op_opcode(Op op);

inline constexpr uint32_t kNoLayer = UINT32_MAX;

// A tile of a named tensor: "rhs[3,1]p8" (tile row, tile column, first
// partition), so the reload of a region is visible as the same name.
struct TensorRef {
    uint16_t name = 0;  // 0: no tensor
    uint16_t partition = 0;
    int32_t row = 0;
    int32_t col = 0;
};

struct PendingEvent {
    int64_t ts = 0;
    int64_t dur = 0;
    int64_t bytes = -1;
    double flops = -1;
    double model_flops = -1;
    uint32_t layer = kNoLayer;
    TensorRef tensor;
    uint16_t hlo = 0;  // 0: none
    Op op = Op::tensor_copy;
    EventType type = EventType::instruction;
    DmaKind dma_kind = DmaKind::unknown;
    bool transpose = false;
};

class EventStream {
public:
    // `handler` may be null: then nothing is buffered and every call is cheap.
    // `physical_cores`: of the logical core; with more than one, every event
    // says which it ran on (Event::pcore), as LNC=2 profiles do.
    explicit EventStream(ImportHandler* handler, int physical_cores = 1);
    EventStream(const EventStream&) = delete;
    EventStream& operator=(const EventStream&) = delete;

    bool enabled() const { return handler_ != nullptr; }

    // Layer names are interned in program order; an id stays valid until no
    // pending event uses it and a later name was interned.
    uint32_t layer(std::string_view name);
    // Tensor and HLO names: a small table for the whole run.
    uint16_t name(std::string_view text);

    // Appends an event to its track.  Events of one track must come in
    // non-decreasing ts; a track's event may not start before the emitted
    // watermark (the scheduler guarantees both).
    void push(int track, const PendingEvent& e);
    // Emits every buffered event with ts < watermark (ns, rounded).
    void advance(int64_t watermark);
    // Emits everything left.
    void finish();

    // The bound below which events were already emitted.
    int64_t emitted_until() const { return emitted_until_; }
    size_t pending() const { return pending_; }
    size_t peak_pending() const { return peak_pending_; }
    int64_t emitted() const { return emitted_; }

private:
    // A FIFO of one track's events (a growable ring: memory follows the
    // largest backlog, not the number of events seen).
    struct Ring {
        std::vector<PendingEvent> slots;
        size_t head = 0;
        size_t size = 0;
        bool empty() const { return size == 0; }
        const PendingEvent& front() const { return slots[head]; }
        void push(const PendingEvent& e);
        void pop();
    };

    void emit(int track, const PendingEvent& e);
    void release_layers();
    // Sets a track's key in the tournament tree and replays its path.
    void update_head(int track);

    ImportHandler* handler_;
    bool say_core_;
    Ring tracks_[kTrackCount];
    // A tournament (winner) tree over the track heads: leaf key is
    // (head ts << kTrackBits | track), or kEmpty; the root is the next event
    // in (ts, track) order.  One update costs log2(kLeaves) comparisons.
    static constexpr int kTrackBits = 8;
    static constexpr int kLeaves = 1 << kTrackBits;
    static constexpr uint64_t kEmpty = UINT64_MAX;
    std::vector<uint64_t> tree_;
    size_t pending_ = 0;
    size_t peak_pending_ = 0;
    int64_t emitted_ = 0;
    int64_t emitted_until_ = INT64_MIN;

    std::deque<std::string> layers_;
    uint32_t layer_base_ = 0;  // id of layers_.front()
    std::vector<std::string> names_;
    char tensor_text_[128];  // scratch for "name[r,c]pN"
};

}  // namespace nx::model
