#include "common/profile/engine_busy.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace nx {

namespace {

constexpr std::array<std::string_view, 4> kOriginNames = {
    "derived from instructions, semaphore waits excluded", "profiler active_time", "derived from DMA transfers",
    "profiler dma_active_time"};

}  // namespace

std::string_view to_string(BusyOrigin o) { return kOriginNames[static_cast<size_t>(o)]; }

std::optional<BusyOrigin> parse_busy_origin(std::string_view s) {
    for (size_t i = 0; i < kOriginNames.size(); ++i)
        if (kOriginNames[i] == s) return static_cast<BusyOrigin>(i);
    return std::nullopt;
}

bool is_wait_opcode(std::string_view opcode) { return opcode == "EVENT_SEMAPHORE"; }

Interval work_interval(EventType type, std::string_view opcode, int64_t ts, int64_t dur) {
    if (type == EventType::instruction && is_wait_opcode(opcode)) return {ts, ts};
    return {ts, event_end(ts, dur)};
}

void EngineBusy::add(EventType type, Engine engine, int64_t ts, int64_t dur, std::string_view opcode) {
    if (engine == Engine::none) return;
    size_t i = static_cast<size_t>(engine);
    if (type == EventType::active) {
        profiler_[i] = true;
        intervals_[i].add(ts, event_end(ts, dur));
        return;
    }
    if (type != EventType::instruction && type != EventType::dma) return;
    ++count_[i];
    add_duration(dur_sum_[i], dur);
    if (type == EventType::instruction && is_wait_opcode(opcode)) {
        ++wait_count_[i];
        add_duration(wait_sum_[i], dur);
    }
    Interval w = work_interval(type, opcode, ts, dur);
    work_[i].add(w.begin, w.end);
}

Engine EngineBusy::row(Engine e) const { return e == Engine::tensor_matrix && folded() ? Engine::tensor : e; }

bool EngineBusy::present(Engine r) const {
    size_t i = static_cast<size_t>(r);
    if (row(r) != r) return false;
    if (r == Engine::tensor && folded()) return true;
    return profiler_[i] || count_[i] > 0;
}

BusyOrigin EngineBusy::origin(Engine r) const {
    if (profiler_[static_cast<size_t>(r)]) return BusyOrigin::profiler;
    return r == Engine::dma ? BusyOrigin::transfers : BusyOrigin::instructions;
}

IntervalUnion& EngineBusy::busy(Engine r) {
    size_t i = static_cast<size_t>(r);
    return profiler_[i] ? intervals_[i] : work_[i];
}

int64_t EngineBusy::folded_sum(const std::array<int64_t, kEngineCount>& a, Engine r) const {
    int64_t n = a[static_cast<size_t>(r)];
    if (r == Engine::tensor && folded()) n += a[static_cast<size_t>(Engine::tensor_matrix)];
    return n;
}

int64_t EngineBusy::instructions(Engine r) const { return folded_sum(count_, r); }
int64_t EngineBusy::duration_sum(Engine r) const { return folded_sum(dur_sum_, r); }
int64_t EngineBusy::work_instructions(Engine r) const { return folded_sum(count_, r) - folded_sum(wait_count_, r); }
int64_t EngineBusy::work_duration_sum(Engine r) const { return folded_sum(dur_sum_, r) - folded_sum(wait_sum_, r); }

EngineStat EngineBusy::stat(Engine r) {
    EngineStat st;
    st.engine = r;
    st.origin = origin(r);
    st.instructions = instructions(r);
    st.busy_ns = busy(r).total();
    st.busy_sum_ns = duration_sum(r);
    st.work_instructions = work_instructions(r);
    st.work_sum_ns = work_duration_sum(r);
    return st;
}

int64_t EngineBusy::union_length(std::initializer_list<Engine> rows) {
    // A merge of the rows' sorted, disjoint intervals.  A handful of rows:
    // the earliest head is found by a scan, not a heap.
    struct Head {
        std::unique_ptr<IntervalUnion::Reader> reader;
        Interval iv;
    };
    std::vector<Head> heads;
    for (Engine r : rows) {
        if (!present(r)) continue;
        Head h{std::make_unique<IntervalUnion::Reader>(busy(r)), {}};
        if (h.reader->next(h.iv)) heads.push_back(std::move(h));
    }
    int64_t total = 0;
    bool have = false;
    Interval cur{0, 0};
    while (!heads.empty()) {
        size_t first = 0;
        for (size_t i = 1; i < heads.size(); ++i)
            if (heads[i].iv.begin < heads[first].iv.begin) first = i;
        Interval iv = heads[first].iv;
        if (!heads[first].reader->next(heads[first].iv)) heads.erase(heads.begin() + static_cast<std::ptrdiff_t>(first));
        if (have && iv.begin <= cur.end) {
            cur.end = std::max(cur.end, iv.end);
            continue;
        }
        if (have) total += cur.end - cur.begin;
        cur = iv;
        have = true;
    }
    if (have) total += cur.end - cur.begin;
    return total;
}

}  // namespace nx
