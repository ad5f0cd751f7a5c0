#include "common/model/scheduler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace nx::model {

namespace {

int64_t to_ns(Time t) { return static_cast<int64_t>(std::llround(t)); }

bool reads_hbm(DmaKind k) {
    return k == DmaKind::hbm_read || k == DmaKind::weight_load || k == DmaKind::spill_reload;
}
bool writes_hbm(DmaKind k) { return k == DmaKind::hbm_write || k == DmaKind::spill_save; }

}  // namespace

Scheduler::Scheduler(const CostModel& cost, ImportHandler* events)
    : cost_(cost), stream_(events, cost.placement().lnc), dma_engines_(cost.dma_engines()) {}

void Scheduler::select_core(int core) {
    if (core < 0 || core >= cost_.placement().lnc) throw std::logic_error("model: no physical core " + std::to_string(core));
    cur_ = core;
    c_ = &cores_[static_cast<size_t>(core)];
}

void Scheduler::count_wait(Op op, Time start, Time end) {
    if (op == Op::event_semaphore || op == Op::semaphore_wait) stats_.core_wait_ns[static_cast<size_t>(cur_)] += end - start;
}

Time Scheduler::fixed(int unit, Op op, Time start, Time end) {
    ++stats_.instructions;
    ++stats_.unit_instructions[unit];
    if (op != Op::event_semaphore) {
        stats_.unit_busy_ns[unit] += end - start;
        stats_.core_busy_ns[static_cast<size_t>(cur_)][unit] += end - start;
    }
    count_wait(op, start, end);
    PendingEvent e;
    e.op = op;
    push(unit, start, end, e);
    return end;
}

namespace {
constexpr int kFixed = -1, kUntilTail = -2;
}  // namespace

// One step of an engine's launch frame (cost_model.h, "Kernel launch and
// drain"): an instruction of fixed duration, or an EVENT_SEMAPHORE that waits
// until a meeting point (`until`: an index into the frame's meeting times, or
// kUntilTail: the frame's end less the fixed steps after it).
struct FrameStep {
    Op op;
    double ns;
    int until = kFixed;
};

namespace {
// The engines that take part in a kernel's preamble and drain (TensorE as its
// PE row, as neuron-profile shows them).
constexpr int kKernelEngines[] = {kTrackScalar, kTrackVector, kTrackGpSimd, kTrackTensor, kTrackSync};

void barrier_round(std::vector<FrameStep>& out, int meeting) {
    out.push_back({Op::drain, kDrainInstrNs});
    out.push_back({Op::event_semaphore, 0, meeting});
    out.push_back({Op::event_semaphore, kBarrierAckNs});
    out.push_back({Op::drain, kDrainInstrNs});
}

// Before the kernel: the barrier rounds, then wait for the launch and set
// the ordering mode; ScalarE loads its first activation table.  (The WRITE
// the capture's Sync engine issues next is no flag: it is "I-56-0-trig" of
// the dot, the trigger of the graph's static DMA, and comes with that DMA.)
// On a logical core of two physical cores the PE row then meets the other
// core (cost_model.h, kCrossCoreWriteNs): every core's frame is the same, so
// the other's write arrives the signal latency after its own.
std::vector<FrameStep> preamble_steps(int unit, bool cross_core) {
    std::vector<FrameStep> out;
    if (unit == kTrackTensor) {
        out.push_back({Op::write, kWriteNs});
        out.push_back({Op::nop, kNopNs});
    }
    for (int r = 0; r < kPreambleBarrierRounds; ++r) {
        barrier_round(out, r);
        if (unit == kTrackGpSimd && r == 0) out.push_back({Op::tensor_load, kPreambleRegisterLoadNs});
    }
    if (cross_core && unit == kTrackTensor) {
        out.push_back({Op::write, kCrossCoreWriteNs});
        out.push_back({Op::event_semaphore, kCrossCoreSignalNs});
    }
    out.push_back({Op::event_semaphore, 0, kUntilTail});
    out.push_back({Op::set_ordering_mode, kSetOrderingModeNs});
    if (unit == kTrackScalar) out.push_back({Op::act_table_load, kActTableLoadNs});
    return out;
}

// After the kernel: wait for its last event (meeting 0), GpSimdE's run-state
// check, clear the kernel's semaphores, one barrier round (meeting 1), the
// Sync engine's flag writes, notify the runtime, branch and reset the
// ordering mode.
std::vector<FrameStep> drain_steps(int unit) {
    std::vector<FrameStep> out;
    out.push_back({Op::event_semaphore, 0, 0});
    if (unit == kTrackGpSimd) {
        out.push_back({Op::nop, kNopNs});
        out.push_back({Op::tensor_store, kRegisterStoreNs});
        out.push_back({Op::tensor_load, kRegisterLoadNs});
        out.push_back({Op::compare_branch, kCompareBranchNs});
        out.push_back({Op::write, kWriteNs});
    }
    out.push_back({Op::drain, kDrainInstrNs});
    out.push_back({Op::semaphore_range_clear, kSemaphoreRangeClearNs});
    barrier_round(out, 1);
    if (unit == kTrackSync) {
        out.push_back({Op::write, kWriteNs});
        out.push_back({Op::write, kWriteNs});
    }
    out.push_back({Op::event_semaphore, 0, kUntilTail});
    out.push_back({Op::notify, kNotifyNs});
    out.push_back({Op::compare_branch, kCompareBranchNs});
    out.push_back({Op::set_ordering_mode, kSetOrderingModeNs});
    out.push_back({Op::set_ordering_mode, kSetOrderingModeNs});
    return out;
}

// Per engine, its preamble (on a logical core of one physical core, and of
// two) and drain steps, built once.
struct FrameScripts {
    std::array<std::vector<FrameStep>, kUnitCount> preamble, preamble_lnc2, drain;
    FrameScripts() {
        for (int u : kKernelEngines) {
            preamble[static_cast<size_t>(u)] = preamble_steps(u, false);
            preamble_lnc2[static_cast<size_t>(u)] = preamble_steps(u, true);
            drain[static_cast<size_t>(u)] = drain_steps(u);
        }
    }
};
const FrameScripts& frame_scripts() {
    static const FrameScripts scripts;
    return scripts;
}
}  // namespace

Time Scheduler::run_frame(int unit, Time t, const std::vector<FrameStep>& steps, const Time* meetings, Time end) {
    for (size_t i = 0; i < steps.size(); ++i) {
        const FrameStep& st = steps[i];
        if (st.until == kFixed) {
            t = fixed(unit, st.op, t, t + st.ns);
            continue;
        }
        Time target = st.until >= 0 ? meetings[st.until] : end;
        if (st.until == kUntilTail)
            for (size_t j = i + 1; j < steps.size(); ++j) target -= steps[j].ns;
        if (target > t) t = fixed(unit, Op::event_semaphore, t, target);
    }
    return t;
}

Time Scheduler::begin_kernel(Time at) {
    at = std::max(at, floor_);
    const Time preamble = cost_.kernel_preamble_ns();
    const Time start = at + preamble;
    // The barrier rounds meet at even fractions of the preamble.
    Time meetings[kPreambleBarrierRounds];
    for (int r = 0; r < kPreambleBarrierRounds; ++r) meetings[r] = at + preamble * (r + 1) / (kPreambleBarrierRounds + 1);
    const int cores = cost_.placement().lnc;
    const auto& scripts = cores > 1 ? frame_scripts().preamble_lnc2 : frame_scripts().preamble;
    kernel_open_ = true;
    for (int c = 0; c < cores; ++c) {
        select_core(c);
        c_->drained = false;
        for (int u : kKernelEngines)
            c_->unit_free[u] = run_frame(u, std::max(at, c_->unit_free[u]), scripts[static_cast<size_t>(u)], meetings, start);
        c_->unit_free[kTrackTensorMatrix] = std::max(c_->unit_free[kTrackTensorMatrix], start);
    }
    // A core the kernel does not use ends its frame at once.
    for (int c = lanes(); c < cores; ++c) drain_core(c);
    select_core(0);
    return start;
}

void Scheduler::drain_core(int core) {
    const int was = cur_;
    select_core(core);
    const Time last = std::max(stats_.core_end[static_cast<size_t>(core)], floor_);
    const Time end = last + cost_.kernel_drain_ns();
    // Meeting 0: the core's last event; meeting 1: the drain's barrier, halfway.
    const Time meetings[] = {last, last + cost_.kernel_drain_ns() / 2};
    for (int u : kKernelEngines)
        c_->unit_free[u] = run_frame(u, std::max(c_->unit_free[u], floor_), frame_scripts().drain[static_cast<size_t>(u)],
                                     meetings, end);
    c_->drained = true;
    select_core(was);
}

void Scheduler::lane_done(int core) {
    if (kernel_open_ && !cores_[static_cast<size_t>(core)].drained) drain_core(core);
}

Time Scheduler::end_kernel() {
    for (int c = 0; c < cost_.placement().lnc; ++c)
        if (!cores_[static_cast<size_t>(c)].drained) drain_core(c);
    kernel_open_ = false;
    select_core(0);
    return stats_.end;
}

Time Scheduler::trigger_ns(int unit) const {
    // A DMA trigger is one queue write: one static access overhead at the
    // issuing engine's clock.
    const Target& t = cost_.target();
    double ghz = t.profiler_clock_ghz;
    switch (unit) {
        case kTrackVector: ghz = t.vector_clock_ghz; break;
        case kTrackScalar: ghz = t.scalar_clock_ghz; break;
        case kTrackGpSimd: ghz = t.gpsimd_clock_ghz; break;
        default: break;
    }
    return static_cast<double>(kAccessStaticCycles) / ghz;
}

Time Scheduler::start_on(int unit, Time ready) {
    Time s = std::max(c_->unit_free[unit], ready);
    if (s < floor_) {
        s = floor_;
        ++stats_.floor_clamps;
    }
    return s;
}

void Scheduler::push(int track, Time start, Time end, PendingEvent& e) {
    if (end > stats_.end) stats_.end = end;
    Time& core_end = stats_.core_end[static_cast<size_t>(cur_)];
    if (end > core_end) core_end = end;
    if (!stream_.enabled()) return;
    e.ts = to_ns(start);
    e.dur = to_ns(end) - e.ts;
    stream_.push(cur_ * kTracksPerCore + track, e);
}

int Scheduler::psum_take() {
    int bank = c_->psum_next;
    c_->psum_next = (c_->psum_next + 1) % kPsumBanks;
    return bank;
}

void Scheduler::set_floor(Time floor) {
    // Every working core's PSUM banks are held (their next group waits on them).
    for (const Core& core : cores_)
        if (&core - cores_.data() < lanes())
            for (Time t : core.psum_free) floor = std::min(floor, std::max(t, core.unit_free[kTrackTensorMatrix]));
    if (!(floor > floor_) || std::isinf(floor)) return;
    floor_ = floor;
    stream_.advance(to_ns(floor_));
}

void Scheduler::FloorPoint::await_suspend(std::coroutine_handle<> h) noexcept {
    Lane& l = s.lane(s.core_index());
    l.floor = value;
    l.leaf = h;
}

void Scheduler::BarrierPoint::await_suspend(std::coroutine_handle<> h) {
    // The write to the other core's semaphore, once this core's results are out.
    const int unit = kTrackGpSimd;
    Time w = s.start_on(unit, ready);
    Time w_end = s.fixed(unit, Op::write, w, w + kCrossCoreWriteNs);
    s.c_->unit_free[unit] = w_end;
    Lane& l = s.lane(s.core_index());
    l.at_barrier = true;
    l.arrival = w_end + kCrossCoreSignalNs;
    l.leaf = h;
}

Time Scheduler::BarrierPoint::await_resume() {
    if (s.lanes() == 1) return ready;
    const int unit = kTrackGpSimd;
    Lane& l = s.lane(s.core_index());
    // Waiting on its own semaphore until the other core's write arrived.
    Time from = std::max(s.c_->unit_free[unit], s.floor_);
    if (l.release > from) {
        s.fixed(unit, Op::event_semaphore, from, l.release);
        s.c_->unit_free[unit] = l.release;
    }
    return l.release;
}

Time Scheduler::run(const Instr& in) {
    Time s = start_on(in.unit, in.ready);
    bool shared = cost_.target().vector_gpsimd_share_sbuf && (in.unit == kTrackVector || in.unit == kTrackGpSimd);
    if (shared) s = std::max(s, c_->shared_port_free);
    Time end = s + in.dur;
    c_->unit_free[in.unit] = end;
    if (shared) c_->shared_port_free = end;

    ++stats_.instructions;
    ++stats_.unit_instructions[in.unit];
    stats_.unit_busy_ns[in.unit] += in.dur;
    stats_.core_busy_ns[static_cast<size_t>(cur_)][in.unit] += in.dur;
    stats_.sbuf_read_bytes += static_cast<double>(in.sbuf_read);
    stats_.sbuf_write_bytes += static_cast<double>(in.sbuf_write);

    PendingEvent e;
    e.op = in.op;
    e.type = in.type;
    e.layer = in.layer;
    e.hlo = in.hlo;
    push(in.unit, s, end, e);
    return end;
}

Time Scheduler::matmul(const MatmulInstr& mm) {
    const int pack = cost_.k_pack(mm.dtype);
    const int64_t partitions = (mm.k_rows + pack - 1) / pack;
    // SBUF bytes an operand of `cols` columns reads: `pack` elements of
    // the dtype's bits per partition and column.
    auto operand_bytes = [&](int64_t cols) { return static_cast<double>(partitions * cols * pack * dtype_bits(mm.dtype) / 8); };
    Time ls_end = 0;
    if (mm.load_stationary) {
        // The next stationary loads in the background of the running
        // MultiplyMoving, but not before it started.
        Time s = start_on(kTrackTensor, std::max(mm.stationary_ready, c_->last_mm_start));
        Time d = cost_.load_stationary_ns(mm.m_cols, mm.dtype);
        ls_end = s + d;
        c_->unit_free[kTrackTensor] = ls_end;
        ++stats_.instructions;
        ++stats_.unit_instructions[kTrackTensor];
        stats_.unit_busy_ns[kTrackTensor] += d;
        stats_.core_busy_ns[static_cast<size_t>(cur_)][kTrackTensor] += d;
        stats_.sbuf_read_bytes += operand_bytes(mm.m_cols);
        PendingEvent e;
        e.op = Op::load_stationary;
        e.flops = 0;
        e.model_flops = 0;
        e.layer = mm.layer;
        e.hlo = mm.hlo;
        push(kTrackTensor, s, ls_end, e);
    } else {
        ls_end = mm.stationary_ready;
    }
    Time s = start_on(kTrackTensorMatrix, std::max({ls_end, mm.moving_ready, mm.psum_ready}));
    Time d = cost_.multiply_moving_ns(mm.n_cols, mm.dtype);
    Time end = s + d;
    c_->unit_free[kTrackTensorMatrix] = end;
    c_->last_mm_start = s;
    double flops = 2.0 * static_cast<double>(mm.k_rows) * static_cast<double>(mm.m_cols) * static_cast<double>(mm.n_cols);
    ++stats_.instructions;
    ++stats_.unit_instructions[kTrackTensorMatrix];
    stats_.unit_busy_ns[kTrackTensorMatrix] += d;
    stats_.core_busy_ns[static_cast<size_t>(cur_)][kTrackTensorMatrix] += d;
    stats_.sbuf_read_bytes += operand_bytes(mm.n_cols);
    const bool moves_data = mm.op != Op::multiply_moving;
    stats_.hardware_flops += flops;
    if (moves_data) stats_.transpose_flops += flops;
    else stats_.model_flops += flops;
    PendingEvent e;
    e.op = mm.op;
    e.flops = flops;
    e.model_flops = moves_data ? 0 : flops;
    e.transpose = moves_data;
    e.layer = mm.layer;
    e.hlo = mm.hlo;
    push(kTrackTensorMatrix, s, end, e);
    return end;
}

namespace {

// The partition ranges a transfer writes or reads: one, or the first rows
// of each SBUF quadrant (an MX scale tensor).
struct PartitionRanges {
    std::array<std::pair<int64_t, int64_t>, kSbufQuadrants> ranges{};  // first partition, rows
    int count = 1;
    int64_t rows() const {
        int64_t total = 0;
        for (int i = 0; i < count; ++i) total += ranges[static_cast<size_t>(i)].second;
        return total;
    }
};

PartitionRanges partition_ranges(const Transfer& t) {
    PartitionRanges r;
    r.ranges[0] = {t.partition0, t.partitions};
    if (t.quadrant_rows > 0) {
        if (t.quadrant_rows > kPartitions / kSbufQuadrants) throw std::logic_error("model: DMA transfer beyond a quadrant");
        r.count = kSbufQuadrants;
        for (int q = 0; q < kSbufQuadrants; ++q) r.ranges[static_cast<size_t>(q)] = {q * (kPartitions / kSbufQuadrants), t.quadrant_rows};
    }
    return r;
}

}  // namespace

// The trigger unit issues the transfer in its program order; on the Sync
// engine, time spent blocked on the transfer's dependencies is shown as a
// semaphore wait.  Returns when the trigger is done.
Time Scheduler::trigger_dma(const Transfer& t) {
    const int unit = t.trigger;
    Time trig = start_on(unit, t.ready);
    if (unit == kTrackSync && stream_.enabled() && trig > c_->unit_free[unit]) {
        Time wait_from = std::max(c_->unit_free[unit], static_cast<Time>(stream_.emitted_until()));
        if (trig > wait_from) {
            PendingEvent w;
            w.op = Op::semaphore_wait;
            w.type = EventType::semaphore;
            w.layer = t.layer;
            count_wait(w.op, wait_from, trig);
            push(unit, wait_from, trig, w);
        }
    }
    // Transfer::TriggerCost says what the engine pays (scheduler.h).
    const Time trig_ns = t.trigger_cost == Transfer::TriggerCost::prebuilt ? kWriteNs
                                                                            : trigger_ns(unit) + cost_.dma_issue_ns();
    Time trig_end = trig + trig_ns;
    c_->unit_free[unit] = trig_end;
    ++stats_.instructions;
    ++stats_.unit_instructions[unit];
    const bool instant = t.trigger_cost == Transfer::TriggerCost::untimed;
    if (!instant) {
        stats_.unit_busy_ns[unit] += trig_ns;
        stats_.core_busy_ns[static_cast<size_t>(cur_)][unit] += trig_ns;
    }
    ++stats_.dma_issued;
    PendingEvent e;
    e.op = t.trigger_op;
    e.layer = t.layer;
    push(unit, trig, instant ? trig : trig_end, e);
    return trig_end;
}

// Rows [p, group_end) on DMA engine `engine`, after the engine's earlier
// transfers on the same queue and (through HBM) after HBM's share: one
// event, or packets sharing the engine's span in proportion to their
// bytes, then the semaphore write.  Returns the end.
Time Scheduler::dma_on_engine(const Transfer& t, const DmaIssue& d, int engine, std::pair<int64_t, int64_t> rows_at) {
    const auto [p, group_end] = rows_at;
    int64_t rows = group_end - p;
    Time s = std::max(d.issue, c_->dma_free[d.queue][engine]);
    const Time sem = t.packets == Packets::per_row ? cost_.dma_engine_ns(1, kSemaphorePacketBytes) : 0;
    Time end = s + cost_.dma_engine_ns(rows, t.row_bytes);
    if (d.hbm) end = std::max(end, d.hbm_end);
    end += sem;
    c_->dma_free[d.queue][engine] = end;
    PendingEvent e;
    e.op = d.op;
    e.type = EventType::dma;
    e.dma_kind = t.kind;
    e.layer = t.layer;
    e.tensor = t.tensor;
    e.tensor.partition = static_cast<uint16_t>(p);
    const int track = dma_track(t.trigger, engine);
    if (t.packets == Packets::per_engine) {
        ++stats_.instructions;
        ++stats_.dma_transfers;
        e.bytes = rows * t.row_bytes;
        push(track, s, end, e);
        return end;
    }
    const int64_t bytes = rows * t.row_bytes;
    const int64_t chunk = t.packets == Packets::per_row ? t.row_bytes : kStaticPacketBytes;
    const Time per_byte = (end - sem - s) / static_cast<double>(bytes);
    for (int64_t at = 0; at < bytes; at += chunk) {
        ++stats_.instructions;
        ++stats_.dma_transfers;
        e.bytes = std::min(chunk, bytes - at);
        if (t.packets == Packets::per_row) e.tensor.partition = static_cast<uint16_t>(p + at / chunk);
        push(track, s + per_byte * static_cast<double>(at), s + per_byte * static_cast<double>(at + e.bytes), e);
    }
    if (sem > 0) {
        ++stats_.instructions;
        ++stats_.dma_transfers;
        PendingEvent w;
        w.op = Op::dma_semaphore_write;
        w.type = EventType::dma;
        w.dma_kind = DmaKind::on_chip;
        w.bytes = kSemaphorePacketBytes;
        w.layer = t.layer;
        push(track, end - sem, end, w);
    }
    return end;
}

int Scheduler::dma_trigger(int producer) const {
    if (!cost_.hardware_dge()) return producer;
    return producer == kTrackScalar || producer == kTrackGpSimd ? producer : kTrackSync;
}

Time Scheduler::dma(const Transfer& requested) {
    Transfer t = requested;
    t.trigger = dma_trigger(requested.trigger);
    const PartitionRanges ranges = partition_ranges(t);
    const int64_t rows_total = ranges.rows();
    if (rows_total <= 0 || t.row_bytes <= 0) return t.ready;
    if (t.partition0 < 0 || t.partition0 + t.partitions > kPartitions)
        throw std::logic_error("model: DMA transfer outside the 128 partitions");

    const int unit = t.trigger;
    DmaIssue d;
    d.issue = trigger_dma(t) + cost_.dma_fixed_latency_ns();
    d.queue = queue_kind(unit);
    const double total = static_cast<double>(rows_total * t.row_bytes);
    d.hbm = reads_hbm(t.kind) || writes_hbm(t.kind);
    if (d.hbm) {
        const Time dur = total / cost_.hbm_bytes_per_ns(t.strided);
        d.hbm_end = queue_kind(unit) == queue_kind(kTrackSync) ? hbm_prefetch(d.issue, dur) : hbm_priority(d.queue, d.issue, dur);
        if (reads_hbm(t.kind)) stats_.hbm_read_bytes += total;
        else stats_.hbm_write_bytes += total;
    }
    if (reads_hbm(t.kind) || t.kind == DmaKind::on_chip) stats_.sbuf_write_bytes += total;
    if (writes_hbm(t.kind) || t.kind == DmaKind::on_chip) stats_.sbuf_read_bytes += total;
    d.op = reads_hbm(t.kind) ? Op::dma_hbm_to_sbuf : writes_hbm(t.kind) ? Op::dma_sbuf_to_hbm : Op::dma_sbuf_to_sbuf;

    // Each DMA engine serves its group of partitions; the last takes the rest.
    Time done = d.issue;
    const int64_t per_engine = cost_.partitions_per_dma_engine();
    for (int range = 0; range < ranges.count; ++range) {
        const int64_t first = ranges.ranges[static_cast<size_t>(range)].first;
        const int64_t last = first + ranges.ranges[static_cast<size_t>(range)].second;
        for (int64_t p = first; p < last;) {
            int engine = static_cast<int>(std::min<int64_t>(p / per_engine, dma_engines_ - 1));
            int64_t group_end = std::min<int64_t>(last, (p / per_engine + 1) * per_engine);
            if (engine == dma_engines_ - 1) group_end = last;
            done = std::max(done, dma_on_engine(t, d, engine, {p, group_end}));
            p = group_end;
        }
    }
    return done;
}

void Scheduler::wait(int unit, Time ready, uint32_t layer) {
    const Time from = std::max(c_->unit_free[unit], floor_);
    if (!(ready > from)) return;
    ++stats_.instructions;
    ++stats_.unit_instructions[unit];
    c_->unit_free[unit] = ready;
    count_wait(Op::event_semaphore, from, ready);
    PendingEvent e;
    e.op = Op::event_semaphore;
    e.layer = layer;
    push(unit, from, ready, e);
}

Time Scheduler::hbm_priority(int qk, Time issue, Time dur) {
    // In order within its queue kind, never behind the prefetch backlog: it
    // shares HBM half and half with the prefetches already in flight (each
    // moves at half the rate while both are busy), then runs alone.
    const Time a = std::max(issue, c_->hbm_free[qk]);
    const Time shared = std::min(std::max(c_->hbm_prefetch_end - a, 0.0), dur);
    const Time end = a + dur + shared;
    c_->hbm_prefetch_end += shared;
    c_->hbm_free[qk] = end;
    // Prefetches issued later that meet its solo part share it too.
    const Time solo = a + 2 * shared;
    if (end > solo) {
        SharedSpan span{solo, end, qk};
        auto it = std::upper_bound(c_->hbm_shared.begin(), c_->hbm_shared.end(), span,
                                   [](const SharedSpan& x, const SharedSpan& y) { return x.begin < y.begin; });
        c_->hbm_shared.insert(it, span);
    }
    return end;
}

Time Scheduler::hbm_prefetch(Time issue, Time dur) {
    // After every prefetch issued before it.  While a store runs alone, the
    // two share HBM half and half: both progress at half the rate, so the
    // store really finishes later by what the prefetch took (its own event
    // keeps the time computed when it was issued; its span and its queue
    // carry the difference, so bytes over time stay at the sustained rate).
    Time t = std::max(issue, c_->hbm_prefetch_end);
    Time remaining = dur;
    for (SharedSpan& span : c_->hbm_shared) {
        if (span.end <= t) continue;
        if (span.begin >= t + remaining) break;
        if (span.begin > t) {
            remaining -= span.begin - t;
            t = span.begin;
        }
        const Time store_left = span.end - t;
        const Time both = std::min(remaining, store_left);
        t += 2 * both;
        remaining -= both;
        span.begin = t;
        span.end = t + (store_left - both);
        c_->hbm_free[span.queue] = std::max(c_->hbm_free[span.queue], span.end);
        if (remaining <= 0) break;
    }
    c_->hbm_prefetch_end = t + remaining;
    while (!c_->hbm_shared.empty() && c_->hbm_shared.front().end <= c_->hbm_prefetch_end) c_->hbm_shared.pop_front();
    return c_->hbm_prefetch_end;
}

void Scheduler::finish() { stream_.finish(); }

}  // namespace nx::model
