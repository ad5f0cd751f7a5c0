// Per physical core engine busy time, semaphore waits and span (core_balance.h).
#include "common/model/core_balance.h"

#include <algorithm>

namespace nx::model {

namespace {

constexpr const char* kNames[kBalanceEngines] = {"tensor", "vector", "scalar", "gpsimd", "sync"};

// The compared engine of an event, or -1.
int engine_index(Engine e) {
    switch (e) {
        case Engine::tensor:
        case Engine::tensor_matrix: return 0;
        case Engine::vector: return 1;
        case Engine::scalar: return 2;
        case Engine::gpsimd: return 3;
        case Engine::sync: return 4;
        default: return -1;
    }
}

bool is_wait(const Event& e) {
    return e.type == EventType::semaphore || e.opcode == "EVENT_SEMAPHORE" || e.opcode == "WAIT";
}

}  // namespace

const char* balance_engine_name(int engine) { return kNames[engine]; }

double CoreBalance::union_ns(Intervals& v) {
    std::sort(v.begin(), v.end());
    double total = 0;
    int64_t begin = 0, end = -1;
    for (const auto& [s, e] : v) {
        if (e <= s) continue;
        if (end >= begin && s <= end) {
            end = std::max(end, e);
            continue;
        }
        if (end > begin) total += static_cast<double>(end - begin);
        begin = s;
        end = e;
    }
    if (end > begin) total += static_cast<double>(end - begin);
    return total;
}

void CoreBalance::event(const Event& e) {
    const int engine = engine_index(e.engine);
    if (engine < 0) return;
    const int c = std::clamp(e.pcore, 0, kMaxLnc - 1);
    cores_ = std::max(cores_, c + 1);
    const int64_t end = event_end(e.ts_ns, e.dur_ns);
    if (e.type == EventType::active) {
        from_profiler_ = true;
        active_[static_cast<size_t>(c)][static_cast<size_t>(engine)].emplace_back(e.ts_ns, end);
        return;
    }
    if (e.type != EventType::instruction && e.type != EventType::semaphore) return;
    CoreShare& s = shares_[static_cast<size_t>(c)];
    ++s.instructions;
    if (e.opcode == "MATMUL" && e.engine == Engine::tensor_matrix) ++s.matmuls;
    if (s.first_ns < 0 || e.ts_ns < s.first_ns) s.first_ns = e.ts_ns;
    s.last_ns = std::max(s.last_ns, end);
    if (is_wait(e)) {
        s.wait_ns += static_cast<double>(end - e.ts_ns);
        return;
    }
    instr_[static_cast<size_t>(c)][static_cast<size_t>(engine)].emplace_back(e.ts_ns, end);
}

void CoreBalance::end_profile() {
    for (size_t c = 0; c < shares_.size(); ++c)
        for (size_t i = 0; i < kBalanceEngines; ++i)
            shares_[c].busy_ns[i] = union_ns((from_profiler_ ? active_ : instr_)[c][i]);
}

}  // namespace nx::model
