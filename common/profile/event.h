// The normalised event every importer produces and every sink consumes
// (nx(7) RECORDS, kind "event").  Strings are views valid only for the
// duration of the sink call that receives the event; sinks copy what they keep.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nx {

// `active`: one of the profiler's own busy intervals for an engine (the JSON
// `active_time` array, the Parquet ActiveTime table).  They exclude semaphore
// waits; when a profile has them, engine active time is their union.
// `kernel`, `memcpy`, `memset`: a GPU's device work as PyTorch's profiler
// (Kineto) records it (categories kernel, gpu_memcpy, gpu_memset), one track
// per stream; they are not NeuronCore instructions or DMA transfers, so no
// engine metric counts them.  `device_sync`: the profiler's record of a
// synchronisation on the device's side (Kineto's cuda_sync: a stream
// waiting for an event, the context or a stream synchronised), drawn on the
// stream it concerns.
enum class EventType : uint8_t {
    instruction, dma, semaphore, counter, runtime, region, active, kernel, memcpy, memset, device_sync
};

// The engine an event ran on.  tensor = TensorE's LoadStationary row ("Tensor"),
// tensor_matrix = its MultiplyMoving row ("TensorMatrix"); both are the same
// physical engine and count together as tensor_engine_* metrics.
enum class Engine : uint8_t { none, tensor, tensor_matrix, vector, scalar, gpsimd, sync, dma, host };
constexpr int kEngineCount = 9;

// What a DMA transfer moved, where the source says (or the model knows).
enum class DmaKind : uint8_t { unknown, hbm_read, hbm_write, spill_save, spill_reload, weight_load, on_chip };

// A process or thread id the source did not give (or gave as a string).
constexpr int64_t kNoId = INT64_MIN;

struct Event {
    EventType type = EventType::instruction;
    Engine engine = Engine::none;
    std::string_view track;     // the source's row: "TensorMatrix", "qSyncIO0", "nrt-nc-000"
    int64_t ts_ns = 0;
    int64_t dur_ns = 0;
    std::string_view name;
    std::string_view opcode;    // empty: unknown
    std::string_view hlo_name;
    std::string_view layer;
    int64_t bytes = -1;         // -1: unknown
    double flops = -1;          // hardware FLOPs of this instruction; -1: unknown
    double model_flops = -1;    // the useful (model) part of flops; -1: unknown
    DmaKind dma_kind = DmaKind::unknown;
    bool transpose = false;     // a TensorE transpose (counts as transpose_flops)
    std::string_view tensor;    // DMA: the tensor moved, when known (reload detection)
    std::string_view queue_type; // DMA: the source's queue type (hardware_dynamic ...), when a column gave it
    double value = 0;           // counter events: the sample value
    int32_t depth = 0;          // nesting depth on its track (Chrome B/E slices)
    // The physical core within the logical one (LNC=2: 0 or 1; Explorer's
    // pcore_idx, neuron-profile's subgraph sg00/sg01); -1: not said.
    int32_t pcore = -1;
    std::string_view args_json; // the source's other fields as a JSON object, or empty
    // Where the event's source row can be read again (KeptSource,
    // profile_sink.h): its table's id in the profile and its row; -1: nowhere.
    int32_t src_table = -1;
    int64_t src_row = -1;
    int64_t line = 0;           // source line, for diagnostics
    // Where a trace-event source (Chrome JSON) put the event: its process and
    // thread ids and the process's name.  Trace writers keep them, so the
    // trace shows the source's process/thread tree.  Same for every event of
    // a track.
    int64_t pid = kNoId;
    int64_t tid = kNoId;
    std::string_view process;
};

// Every string view an Event holds: what a sink that keeps an event past the
// call (AsyncSink's batches, EventRows' queue) copies and points again.
constexpr int kEventStrings = 9;
inline constexpr std::string_view Event::* kEventStringFields[kEventStrings] = {
    &Event::track,  &Event::name,       &Event::opcode,    &Event::hlo_name, &Event::layer,
    &Event::tensor, &Event::queue_type, &Event::args_json, &Event::process};

// Where an event starting at `ts` and lasting `dur` ends: a negative
// duration counts as none, and an end past the end of time is that end
// (never a wrapped, negative one).  The layout, busy time and metrics all
// take an event's end from here, so they agree on such events.
inline int64_t event_end(int64_t ts, int64_t dur) {
    int64_t end = 0;
    if (__builtin_add_overflow(ts, dur > 0 ? dur : 0, &end)) end = INT64_MAX;
    return end;
}

// Adds a duration to a sum of them, saturating: the importers cap each at
// 4.6e18 ns, so two hostile ones pass INT64_MAX.
inline void add_duration(int64_t& sum, int64_t dur) {
    if (__builtin_add_overflow(sum, dur, &sum)) sum = dur > 0 ? INT64_MAX : INT64_MIN;
}

std::string_view to_string(EventType t);
std::string_view to_string(Engine e);
std::string_view to_string(DmaKind k);
std::optional<EventType> parse_event_type(std::string_view s);
std::optional<Engine> parse_engine(std::string_view s);
std::optional<DmaKind> parse_dma_kind(std::string_view s);

// Maps an engine row's name as any source writes it ("TensorMatrix", "VectorE",
// Explorer's "tensor" or "pool", the short PE/DVE/ACT/POOL/SP) to an engine;
// Engine::none when it is not an engine row ("qSyncIO0").  One alias table.
Engine engine_from_label(std::string_view label);
// Guesses a DMA transfer's kind from its queue name (qScalarSpillReload0...).
DmaKind dma_kind_from_queue(std::string_view queue);
// A DMA packet's kind from the memories it says it reads and writes, as
// neuron-profile JSON writes them (source [["WEIGHT"]], dest ["SB"]; JSON
// text or plain names).  unknown when either side says nothing nx can place.
// It beats the queue name: neuron-profile 2.27 moves weights (WEIGHT -> SB)
// on a queue named qSyncSpillReload0.
DmaKind dma_kind_from_memories(std::string_view source, std::string_view dest);

// The track an event is drawn on: its source row (Event::track), or when the
// source names none, a row named after its engine (or its type).  Counter
// samples and slices of one name are different tracks: track_key (a 'C' or
// 'S' before the name) tells them apart.  The trace layout (event_spool.h) and
// the study database (store.h) both name and key tracks this way, so a track
// of one is a track of the other.
std::string_view event_track(const Event& e);
void track_key(const Event& e, std::string& key);

// The row of physical core `pcore`'s events: physical core 0 (or an unknown
// one) keeps the profiler's row name, others get a "pcoreN/" prefix so the
// two cores of an LNC=2 profile stay apart (both importers name them so).
// Returns `base` or `scratch` filled.
std::string_view core_track(std::string_view base, int64_t pcore, std::string& scratch);
// The physical core an LNC=2 subgraph name stands for ("sg01", "/sg01": 1); -1
// when it names none.
int32_t subgraph_core(std::string_view subgraph);

// True for engines whose instructions compute (everything but dma/host/none).
inline bool is_compute_engine(Engine e) {
    return e == Engine::tensor || e == Engine::tensor_matrix || e == Engine::vector || e == Engine::scalar ||
           e == Engine::gpsimd || e == Engine::sync;
}

}  // namespace nx
