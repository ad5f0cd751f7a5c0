#include "common/model/event_stream.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace nx::model {

namespace {

struct OpText {
    std::string_view name;
    std::string_view opcode;
};

// Names as the profiler shows them; opcodes chosen so that the pattern
// study's memory/compute classification (classify_opcode) reads them right.
// A TensorE transpose is a matmul against the identity and its opcode is
// MATMUL, as in a neuron-profile capture (real-samples 128x128x136 dot: two
// MATMULs, one of them the transpose its transpose_flops count).
constexpr OpText kOps[] = {
    {"MultiplyMoving", "MATMUL"},
    {"LoadStationary", "LoadStationary"},
    {"Transpose", "MATMUL"},
    {"TensorCopy", "TENSOR_COPY"},
    {"TensorTensor", "TENSOR_TENSOR"},
    {"TensorScalar", "TENSOR_SCALAR"},
    {"TensorReduce", "TENSOR_REDUCE"},
    {"Activation", "ACTIVATE"},
    {"Memset", "MEMSET"},
    {"BnStats", "BN_STATS_REDUCE"},
    {"BnAggr", "BN_AGGR_REDUCE"},
    {"PartitionSelect", "MATMUL_SELECT"},
    {"DmaTrigger", "DMA_TRIGGER"},
    {"LoopBranch", "BRANCH"},
    {"SemaphoreWait", "WAIT"},
    {"dma_hbm_to_sbuf", "DMA"},
    {"dma_sbuf_to_hbm", "DMA"},
    {"dma_sbuf_to_sbuf", "DMA"},
    {"nrt_execute", "nrt_execute"},
    {"DRAIN", "DRAIN"},
    {"EVENT_SEMAPHORE", "EVENT_SEMAPHORE"},
    {"SET_ORDERING_MODE", "SET_ORDERING_MODE"},
    {"ACT_TABLE_LOAD", "ACT_TABLE_LOAD"},
    {"EVENT_SEMAPHORE_RANGE_CLEAR", "EVENT_SEMAPHORE_RANGE_CLEAR"},
    {"NOTIFY", "NOTIFY"},
    {"TENSOR_LOAD", "TENSOR_LOAD"},
    {"ALU", "ALU"},
    {"DMA_DIRECT2D", "DMA_DIRECT2D"},
    {"dma_semaphore_write", "DMA"},
    {"TensorTensorScan", "TENSOR_TENSOR_SCAN"},
    {"PartitionBroadcast", "MATMUL_BROADCAST"},
    {"WRITE", "WRITE"},
    {"NOP", "NOP"},
    {"TENSOR_STORE", "TENSOR_STORE"},
    {"COMPARE_BRANCH", "COMPARE_BRANCH"},
};
static_assert(std::size(kOps) == static_cast<size_t>(Op::compare_branch) + 1, "one name per Op");

// "qSyncIO3": the Sync engine's queue on DMA engine 3.
constexpr std::string_view kQueuePrefix[kDmaQueueKinds] = {"qSyncIO", "qScalarIO", "qVectorIO", "qGpSimdIO"};

// The compute rows of one physical core.
constexpr std::string_view kUnitNames[kTrackDma0] = {"TensorMatrix", "Tensor", "Vector", "Scalar",
                                                     "GpSimd",       "Sync",   "nrt-nc-000"};

// Every row's name, the first physical core's as the profiler names them,
// the others' with the prefix the importers give (core_track).
const std::vector<std::string>& track_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        std::string scratch;
        for (int c = 0; c < kMaxLnc; ++c) {
            for (std::string_view unit : kUnitNames) v.emplace_back(core_track(unit, c, scratch));
            for (std::string_view prefix : kQueuePrefix)
                for (int e = 0; e < kMaxDmaEngines; ++e)
                    v.emplace_back(core_track(std::string(prefix) + std::to_string(e), c, scratch));
        }
        return v;
    }();
    return names;
}



// Appends v at out (room for 11 characters is guaranteed by the caller).
char* put_int(char* out, char* end, int64_t v) { return std::to_chars(out, end, v).ptr; }

}  // namespace

std::string_view track_name(int track) { return track_names()[static_cast<size_t>(track)]; }

int queue_kind(int trigger) {
    switch (trigger) {
        case kTrackScalar: return 1;
        case kTrackVector: return 2;
        case kTrackGpSimd: return 3;
        default: return 0;
    }
}

int dma_track(int trigger, int engine) { return kTrackDma0 + queue_kind(trigger) * kMaxDmaEngines + engine; }

Engine track_engine(int track) {
    switch (track % kTracksPerCore) {
        case kTrackTensorMatrix: return Engine::tensor_matrix;
        case kTrackTensor: return Engine::tensor;
        case kTrackVector: return Engine::vector;
        case kTrackScalar: return Engine::scalar;
        case kTrackGpSimd: return Engine::gpsimd;
        case kTrackSync: return Engine::sync;
        case kTrackHost: return Engine::host;
        default: return Engine::dma;
    }
}

std::string_view op_name(Op op) { return kOps[static_cast<size_t>(op)].name; }
std::string_view op_opcode(Op op) { return kOps[static_cast<size_t>(op)].opcode; }

void EventStream::Ring::push(const PendingEvent& e) {
    if (size == slots.size()) {
        // Grow, unrolling the ring so head is 0.
        std::vector<PendingEvent> bigger(slots.empty() ? 64 : slots.size() * 2);
        for (size_t i = 0; i < size; ++i) bigger[i] = slots[(head + i) % slots.size()];
        slots.swap(bigger);
        head = 0;
    }
    slots[(head + size) % slots.size()] = e;
    ++size;
}

void EventStream::Ring::pop() {
    head = (head + 1) % slots.size();
    --size;
}

static_assert(kTrackCount <= (1 << 8), "the tournament tree has 256 leaves");

EventStream::EventStream(ImportHandler* handler, int physical_cores)
    : handler_(handler), say_core_(physical_cores > 1), tree_(2 * kLeaves, kEmpty) {
    names_.emplace_back();  // id 0: none
}

void EventStream::update_head(int track) {
    const Ring& r = tracks_[track];
    size_t i = static_cast<size_t>(kLeaves + track);
    tree_[i] = r.empty() ? kEmpty : (static_cast<uint64_t>(r.front().ts) << kTrackBits) | static_cast<uint64_t>(track);
    for (i /= 2; i >= 1; i /= 2) tree_[i] = std::min(tree_[2 * i], tree_[2 * i + 1]);
}

uint32_t EventStream::layer(std::string_view name) {
    if (!handler_) return kNoLayer;
    if (!layers_.empty() && layers_.back() == name) return layer_base_ + static_cast<uint32_t>(layers_.size() - 1);
    layers_.emplace_back(name);
    return layer_base_ + static_cast<uint32_t>(layers_.size() - 1);
}

uint16_t EventStream::name(std::string_view text) {
    if (!handler_) return 0;
    for (size_t i = 1; i < names_.size(); ++i)
        if (names_[i] == text) return static_cast<uint16_t>(i);
    if (names_.size() >= UINT16_MAX) throw std::logic_error("model: too many tensor/HLO names");
    if (text.size() > sizeof tensor_text_ - 40) throw std::logic_error("model: tensor name too long");
    names_.emplace_back(text);
    return static_cast<uint16_t>(names_.size() - 1);
}

void EventStream::push(int track, const PendingEvent& e) {
    if (!handler_) return;
    if (e.ts < emitted_until_) throw std::logic_error("model: event before the emitted watermark");
    if (e.ts < 0 || e.ts >= (INT64_C(1) << (63 - kTrackBits))) throw std::logic_error("model: timestamp out of range");
    Ring& r = tracks_[track];
    if (!r.empty() && e.ts < r.slots[(r.head + r.size - 1) % r.slots.size()].ts)
        throw std::logic_error("model: events of one track out of order");
    r.push(e);
    if (r.size == 1) update_head(track);
    ++pending_;
    if (pending_ > peak_pending_) peak_pending_ = pending_;
}

void EventStream::advance(int64_t watermark) {
    if (!handler_ || watermark <= emitted_until_) return;
    while (tree_[1] != kEmpty && static_cast<int64_t>(tree_[1] >> kTrackBits) < watermark) {
        int track = static_cast<int>(tree_[1] & (kLeaves - 1));
        Ring& r = tracks_[track];
        emit(track, r.front());
        r.pop();
        --pending_;
        update_head(track);
    }
    emitted_until_ = watermark;
    release_layers();
}

void EventStream::finish() {
    if (!handler_) return;
    advance(INT64_MAX);
}

void EventStream::release_layers() {
    // Per track, layer ids never decrease (program order), so the smallest id
    // still pending is among the track heads.  The newest layer is kept: the
    // lowering may still be using it.
    uint32_t keep = layers_.empty() ? layer_base_ : layer_base_ + static_cast<uint32_t>(layers_.size() - 1);
    for (const Ring& r : tracks_)
        if (!r.empty() && r.front().layer != kNoLayer && r.front().layer < keep) keep = r.front().layer;
    while (layer_base_ < keep && !layers_.empty()) {
        layers_.pop_front();
        ++layer_base_;
    }
}

void EventStream::emit(int track, const PendingEvent& p) {
    Event e;
    e.type = p.type;
    e.engine = track_engine(track);
    e.track = track_name(track);
    if (say_core_) e.pcore = track / kTracksPerCore;
    e.ts_ns = p.ts;
    e.dur_ns = p.dur;
    e.name = op_name(p.op);
    e.opcode = op_opcode(p.op);
    if (p.hlo != 0) e.hlo_name = names_[p.hlo];
    if (p.layer != kNoLayer && p.layer >= layer_base_) e.layer = layers_[p.layer - layer_base_];
    e.bytes = p.bytes;
    e.flops = p.flops;
    e.model_flops = p.model_flops;
    e.dma_kind = p.dma_kind;
    e.transpose = p.transpose;
    if (p.tensor.name != 0) {
        const std::string& base = names_[p.tensor.name];
        char* out = tensor_text_;
        char* end = tensor_text_ + sizeof tensor_text_;
        std::memcpy(out, base.data(), base.size());
        out += base.size();
        *out++ = '[';
        out = put_int(out, end, p.tensor.row);
        *out++ = ',';
        out = put_int(out, end, p.tensor.col);
        *out++ = ']';
        *out++ = 'p';
        out = put_int(out, end, p.tensor.partition);
        e.tensor = std::string_view(tensor_text_, static_cast<size_t>(out - tensor_text_));
    }
    handler_->event(e);
    ++emitted_;
}

}  // namespace nx::model
