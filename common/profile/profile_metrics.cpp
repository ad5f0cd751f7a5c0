#include "common/profile/profile_metrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>
#include <tuple>

#include "common/io/named_rows.h"
#include "common/profile/availability.h"
#include "common/profile/core_peaks.h"
#include "common/profile/executions.h"
#include "common/profile/metric_defs.h"

namespace nx {

namespace {

// The step of a PyTorch profiler iteration's slice ("ProfilerStep#551").
std::optional<int64_t> profiler_step(std::string_view name) {
    constexpr std::string_view kPrefix = "ProfilerStep#";
    if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix || name.size() > kPrefix.size() + 18)
        return std::nullopt;
    int64_t step = 0;
    for (char c : name.substr(kPrefix.size())) {
        if (c < '0' || c > '9') return std::nullopt;
        step = step * 10 + (c - '0');
    }
    return step;
}

bool icontains(std::string_view hay, std::string_view needle) {
    if (needle.size() > hay.size()) return false;
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}

std::vector<KeyStat> top_keys(const ProfileMetrics::KeyTable& table);

// The vmap/scan/for-loop study's engine-time classes, as its Perfetto SQL
// selects slices: by exact name (neuron-profile's slice name is the opcode),
// on any engine.  "TensorMatrix" is MATMUL, TENSOR_TENSOR and TENSOR_REDUCE
// (the last two are VectorE/GpSimdE instructions); "other" is WRITE and COPY.
enum class StudyClass { none, tensormatrix, other };
StudyClass pattern_study_class(std::string_view opcode) {
    if (opcode == "MATMUL" || opcode == "TENSOR_TENSOR" || opcode == "TENSOR_REDUCE") return StudyClass::tensormatrix;
    if (opcode == "WRITE" || opcode == "COPY") return StudyClass::other;
    return StudyClass::none;
}

// An opcode the source could not name: neuron-profile and Explorer write
// "unknown" (any case) where they have no name for an instruction.  A trace
// decoded with a NEFF other than the one it was captured from is one way to
// get them (nx-sim(7) BLIND SPOTS: the pattern study's traces).
bool is_unnamed_opcode(std::string_view op) {
    constexpr std::string_view kUnknown = "unknown";
    return op.size() == kUnknown.size() && icontains(op, kUnknown);
}

}  // namespace

std::string make_profile_id(std::string_view identity) {
    // FNV-1a, 64 bit: stable across runs and machines (std::hash is not).
    uint64_t h = 14695981039346656037ull;
    for (unsigned char c : identity) {
        h ^= c;
        h *= 1099511628211ull;
    }
    static const char* hex = "0123456789abcdef";
    std::string id = "p_";
    for (int i = 15; i >= 0; --i) id += hex[(h >> (i * 4)) & 0xF];
    return id;
}

const MetricValue* ProfileSummary::find(std::string_view name) const { return find_named(metrics, name); }

const UnavailableMetric* ProfileSummary::find_unavailable(std::string_view name) const {
    return find_named(unavailable, name);
}

double ProfileSummary::value_or(std::string_view name, double fallback) const {
    const MetricValue* m = find(name);
    return m ? m->value : fallback;
}

OpClass classify_opcode(std::string_view op) {
    // The pattern study counted load/store/dma/copy as memory operations and
    // matmul/add/mul/conv as compute; activations, reductions and the vector
    // ALU ops are compute too.  LoadStationary is a load, as in the study.
    static constexpr std::string_view kMemory[] = {"load", "store", "dma", "copy", "move", "gather",
                                                   "scatter", "spill", "reload", "memset"};
    static constexpr std::string_view kCompute[] = {"matmul", "matmult", "gemm", "multiply", "add", "mul", "sub",
                                                    "silu", "mean", "sum", "square", "softmax", "norm",
                                                    "conv", "activ", "exp", "tensor_tensor", "tensor_scalar",
                                                    "reduce", "max", "min", "div", "recip", "sqrt", "gelu",
                                                    "relu", "sigmoid", "tanh", "select", "iota"};
    for (std::string_view m : kMemory)
        if (icontains(op, m)) return OpClass::memory;
    for (std::string_view c : kCompute)
        if (icontains(op, c)) return OpClass::compute;
    return OpClass::other;
}

ProfileMetrics::ProfileMetrics() = default;

ProfileMetrics::KeyAcc& ProfileMetrics::bump(KeyTable& table, std::string_view key, int64_t dur, bool classify) {
    auto it = table.find(key);
    if (it == table.end()) {
        if (table.size() >= kMaxKeys) key = "(other)";
        it = table.try_emplace(std::string(key)).first;
        if (classify) it->second.op_class = static_cast<int>(classify_opcode(key));
    }
    it->second.count += 1;
    add_duration(it->second.time_ns, dur);
    return it->second;
}

void ProfileMetrics::add(const Event& e) {
    ++events_;
    int64_t end = e.ts_ns + e.dur_ns;
    if (e.type != EventType::counter) {
        start_ns_ = std::min(start_ns_, e.ts_ns);
        end_ns_ = std::max(end_ns_, end);
    }
    busy_.add(e);
    device_.add(e);
    if (collectives_.is_collective(e)) collectives_.add(e);
    if (e.type == EventType::region && iterations_.size() < kMaxIterations) {
        if (std::optional<int64_t> step = profiler_step(e.name)) iterations_.push_back({*step, e.ts_ns, e.dur_ns});
    }
    rule_inputs_.add(e);
    if ((e.type == EventType::instruction || e.type == EventType::active) && is_compute_engine(e.engine))
        any_compute_ = true;
    if (!engine_seen_ && (e.engine != Engine::none && e.engine != Engine::host)) {
        engine_seen_ = true;
        tracks_.clear();
        last_acc_ = nullptr;
    }
    if (!engine_seen_ && e.type != EventType::counter) add_to_track(e);
    if (e.type == EventType::instruction && is_compute_engine(e.engine)) {
        if (e.engine == Engine::tensor || e.engine == Engine::tensor_matrix) {
            if (e.flops >= 0) {
                flops_known_ = true;
                hardware_flops_ += e.flops;
                if (e.transpose) transpose_flops_ += e.flops;
            }
            if (e.model_flops >= 0) {
                model_flops_known_ = true;
                model_flops_ += e.model_flops;
            }
        }
        if (e.engine == Engine::tensor_matrix) ++matmul_count_;
        if (e.pcore >= 0) {
            auto [it, fresh] = core_spans_.try_emplace(e.pcore, e.ts_ns, end);
            if (!fresh) {
                it->second.first = std::min(it->second.first, e.ts_ns);
                it->second.second = std::max(it->second.second, end);
            }
        }
    }
    // Opcode and layer tables and the instruction mix cover every instruction,
    // host ones too (cpu traces), not only the NeuronCore engines'.
    if (e.type == EventType::instruction) {
        std::string_view op = !e.opcode.empty() ? e.opcode : e.name;
        switch (pattern_study_class(op)) {
            case StudyClass::tensormatrix: add_duration(study_tensormatrix_ns_, std::max<int64_t>(e.dur_ns, 0)); break;
            case StudyClass::other: add_duration(study_other_ns_, std::max<int64_t>(e.dur_ns, 0)); break;
            case StudyClass::none: break;
        }
        OpClass cls = op.empty() ? OpClass::other : static_cast<OpClass>(bump(opcodes_, op, e.dur_ns, true).op_class);
        std::string_view layer = !e.layer.empty() ? e.layer : e.hlo_name;
        if (!layer.empty()) bump(layers_, layer, e.dur_ns, false);
        ++classified_total_;
        if (e.engine != Engine::none && e.engine != Engine::host && e.engine != Engine::dma) {
            ++core_instructions_;
            if (op.empty() || is_unnamed_opcode(op)) ++unnamed_instructions_;
        }
        switch (cls) {
            case OpClass::memory: ++memory_ops_; break;
            case OpClass::compute: ++compute_ops_; break;
            case OpClass::other: break;
        }
    }
    if (e.type == EventType::dma) {
        ++dma_count_;
        ++classified_total_;
        ++memory_ops_;
        if (e.bytes >= 0) {
            dma_bytes_known_ = true;
            dma_bytes_ += e.bytes;
            ++dma_sized_count_;
        }
        int64_t b = std::max<int64_t>(e.bytes, 0);
        if (e.dma_kind != DmaKind::unknown) {
            dma_kind_known_ = true;
        } else if (b > 0) {
            ++dma_unclassified_;
            dma_unclassified_bytes_ += b;
        }
        switch (e.dma_kind) {
            case DmaKind::hbm_read: hbm_read_ += b; break;
            case DmaKind::weight_load: hbm_read_ += b; weight_queue_ += b; break;
            case DmaKind::spill_reload: hbm_read_ += b; spill_reload_ += b; break;
            case DmaKind::hbm_write: hbm_write_ += b; break;
            case DmaKind::spill_save: hbm_write_ += b; spill_save_ += b; break;
            case DmaKind::on_chip:
            case DmaKind::unknown: break;
        }
        bool is_load = e.dma_kind == DmaKind::hbm_read || e.dma_kind == DmaKind::weight_load;
        if (is_load && !e.tensor.empty()) {
            tensors_known_ = true;
            // A tensor's first load is useful; each later one is a reload.
            // Past kMaxKeys distinct tensors new ones are not tracked (lumping
            // them together would count distinct tensors as reloads).
            auto it = tensor_loads_.find(e.tensor);
            if (it != tensor_loads_.end()) {
                if (++it->second.count > 1) hbm_reload_ += b;
            } else if (tensor_loads_.size() < kMaxKeys) {
                tensor_loads_.try_emplace(std::string(e.tensor)).first->second.count = 1;
            } else {
                tensors_untracked_ = true;
            }
        }
    }
}

void ProfileMetrics::add_to_track(const Event& e) {
    // Consecutive events usually share a track: skip the lookup then.
    if (!last_acc_ || e.track != last_track_) {
        std::string_view name = e.track;
        auto it = tracks_.find(name);
        if (it == tracks_.end()) {
            if (tracks_.size() >= kMaxTracks) name = "(other tracks)";
            it = tracks_.find(name);
            if (it == tracks_.end()) {
                it = tracks_.try_emplace(std::string(name)).first;
                it->second.process.assign(e.process);
                // Small chunks: up to kMaxTracks of these are alive at once.
                it->second.busy = std::make_unique<IntervalUnion>(size_t{1} << 10);
            }
        }
        last_track_.assign(e.track);
        last_acc_ = &it->second;
    }
    ++last_acc_->events;
    last_acc_->busy->add(e.ts_ns, event_end(e.ts_ns, e.dur_ns));
}

void ProfileMetrics::add_source_metric(std::string_view name, double value) {
    auto it = source_.find(name);
    if (it == source_.end()) source_.emplace(std::string(name), value);
    else it->second = value;
}

namespace {

// Every key, busiest first (more time, then more events, then by name).
std::vector<KeyStat> sorted_keys(const ProfileMetrics::KeyTable& table) {
    std::vector<KeyStat> v;
    v.reserve(table.size());
    for (const auto& [k, acc] : table) v.push_back({k, acc.count, acc.time_ns});
    std::sort(v.begin(), v.end(), [](const KeyStat& a, const KeyStat& b) {
        if (a.time_ns != b.time_ns) return a.time_ns > b.time_ns;
        if (a.instructions != b.instructions) return a.instructions > b.instructions;
        return a.key < b.key;
    });
    return v;
}

std::vector<KeyStat> top_keys(const ProfileMetrics::KeyTable& table) {
    std::vector<KeyStat> v = sorted_keys(table);
    if (v.size() > kTopKeys) v.resize(kTopKeys);
    return v;
}

// Builds the final metric list: source values win, derived fill the gaps.
class MetricList {
public:
    explicit MetricList(std::map<std::string, double, std::less<>>& source) : source_(source) {}
    // Adds a derived value unless the source reported the metric.  A source
    // 0 the profile's own rows contradict is not a measurement
    // (availability.h): nx's figure replaces it, and unrecorded() names it.
    void derive(std::string_view name, double value) {
        if (!std::isfinite(value)) return;
        if (auto s = source_.find(name); s != source_.end()) {
            if (!(s->second == 0 && value > 0 && zero_means_unrecorded(name))) {
                overridden_.emplace(std::string(name), value);
                return;
            }
            source_.erase(s);
            unrecorded_.emplace_back(name);
        }
        derived_.emplace(std::string(name), value);
    }
    // Source zeros that derive() replaced with nx's figure from the rows.
    const std::vector<std::string>& unrecorded() const { return unrecorded_; }
    // Source figures nx would have derived differently, by more than
    // kDisagreement of the source's value.
    template <class Fn>
    void for_each_disagreement(Fn fn) const {
        for (const auto& [name, derived] : overridden_) {
            double src = source_.find(name)->second;
            if (std::fabs(derived - src) > kDisagreement * std::fabs(src)) fn(name, src, derived);
        }
    }
    bool has(std::string_view name) const { return source_.count(name) || derived_.count(name); }
    double get(std::string_view name, double fallback = NAN) const {
        auto s = source_.find(name);
        if (s != source_.end()) return s->second;
        auto d = derived_.find(name);
        return d != derived_.end() ? d->second : fallback;
    }
    std::vector<MetricValue> build() const {
        std::vector<MetricValue> out;
        // Known metrics in table order, then the source's others by name.
        for (const MetricDef& def : metric_defs()) {
            auto s = source_.find(def.name);
            if (s != source_.end()) out.push_back({s->first, s->second, true});
            else if (auto d = derived_.find(def.name); d != derived_.end()) out.push_back({d->first, d->second, false});
        }
        for (const auto& [k, v] : source_)
            if (!find_metric_def(k)) out.push_back({k, v, true});
        return out;
    }

private:
    static constexpr double kDisagreement = 0.10;
    std::map<std::string, double, std::less<>>& source_;
    std::vector<std::string> unrecorded_;
    std::map<std::string, double, std::less<>> derived_;
    std::map<std::string, double, std::less<>> overridden_;
};

}  // namespace

// The summary is made one section at a time, each from the accumulated
// events and what the sections before it derived: the source's own scale
// and gaps, the engines, the pattern study's figures, DMA and memories,
// FLOPs and peaks, the rules' inputs, the metric list settled against the
// source's figures, the tables, then where the time went.
struct ProfileMetrics::Derivation {
    ProfileMetrics& pm;
    const ProfileInfo& info;
    ProfileSummary out;
    MetricList m;
    double total = 0;      // seconds: the profile's total_time, the source's where it gives one
    double compute_s = 0;  // the compute engines' busy union (s)
    std::map<std::string, BusyOrigin, std::less<>> busy_origin;  // metric -> how nx derived it

    Derivation(ProfileMetrics& metrics, const ProfileInfo& profile) : pm(metrics), info(profile), m(metrics.source_) {}
    double percent_of_total(double seconds) const { return total > 0 ? 100.0 * seconds / total : NAN; }

    void source_scale();
    void sort_iterations();
    void totals();
    void engines();
    void pattern_study();
    void dma();
    void flops_and_peaks();
    void rule_inputs();
    void settle_metrics();
    void tables();
    void time();
};

// Percents in the source's own scale (profile.h PercentScale): a property
// of its format, never of the values; and the figures the source has a
// field for but not the figure (availability.h).
void ProfileMetrics::Derivation::source_scale() {
    bool any_percent = false;
    if (info.source_percents == PercentScale::fraction) {
        for (auto& [k, v] : pm.source_)
            if (k.ends_with("_percent") && v >= 0) {  // a negative is a sentinel, not a fraction
                v *= 100.0;
                any_percent = true;
            }
    }
    out.notes = import_notes(info.carried_json);
    if (any_percent)
        out.notes.push_back("the source writes percents as fractions of 1 (its format's unit): scaled to 0..100");
    // Figures the source has a field for but not the figure (availability.h).
    out.unavailable = take_unavailable(pm.source_, profiler_warnings(info.carried_json));
}

// One iteration a step: Kineto repeats ProfilerStep#N on the GPU stream
// (gpu_user_annotation), starting once the CPU has launched its work; the
// earliest, the CPU's, is the step.  The device streams count by them.
void ProfileMetrics::Derivation::sort_iterations() {
    std::vector<Iteration>& its = pm.iterations_;
    std::stable_sort(its.begin(), its.end(), [](const Iteration& a, const Iteration& b) {
        return std::tie(a.step, a.start_ns) < std::tie(b.step, b.start_ns);
    });
    its.erase(std::unique(its.begin(), its.end(), [](const Iteration& a, const Iteration& b) { return a.step == b.step; }),
              its.end());
    std::stable_sort(its.begin(), its.end(), [](const Iteration& a, const Iteration& b) { return a.start_ns < b.start_ns; });
}

void ProfileMetrics::Derivation::totals() {
    out.events = pm.events_;
    out.start_ns = pm.events_ > 0 && pm.start_ns_ != INT64_MAX ? pm.start_ns_ : 0;
    out.end_ns = pm.events_ > 0 && pm.end_ns_ != INT64_MIN ? pm.end_ns_ : 0;
    // A trace of device streams: its total time is the device window, the
    // steps' work as HTA takes it, not the profiler's span.
    if (pm.device_.any()) {
        out.device = pm.device_.finish(pm.iterations_, pm.keep_last_step_, kTimelineBuckets);
        for (auto& [name, v] : device_metrics(*out.device)) m.derive(name, v);
        for (std::string& n : device_notes(*out.device)) out.notes.push_back(std::move(n));
    }
    double span_s = (out.end_ns - out.start_ns) / 1e9;
    if (out.device && out.device->counted > 0) span_s = out.device->times.span_ns / 1e9;
    if (pm.events_ > 0) m.derive("total_time", span_s);
    m.derive("event_count", static_cast<double>(pm.events_));
    total = m.get("total_time", 0);
}

// Busy time per engine (engine_busy.h).  Where the source reported an
// engine's figures they win (MetricList); the busiest engine and the tensor
// share follow whichever figures the profile ends up with.
void ProfileMetrics::Derivation::engines() {
    struct EngineMetric { std::string_view prefix; Engine engine; };
    static constexpr EngineMetric kEngines[] = {{"tensor", Engine::tensor}, {"vector", Engine::vector},
                                                {"scalar", Engine::scalar}, {"gpsimd", Engine::gpsimd},
                                                {"sync", Engine::sync}};
    double engine_time_sum = 0, busiest_percent = -1;
    for (const EngineMetric& em : kEngines) {
        bool tensor = em.engine == Engine::tensor;
        bool present = pm.busy_.present(em.engine) || (tensor && pm.busy_.present(Engine::tensor_matrix));
        if (!present) continue;
        double active_s = (tensor ? pm.busy_.union_length({Engine::tensor, Engine::tensor_matrix})
                                  : pm.busy_.busy(em.engine).total()) / 1e9;
        std::string p(em.prefix);
        int64_t instr = pm.busy_.instructions(em.engine) +
                        (tensor && pm.busy_.present(Engine::tensor_matrix) ? pm.busy_.instructions(Engine::tensor_matrix) : 0);
        m.derive(p + "_engine_active_time", active_s);
        m.derive(p + "_engine_active_time_percent", percent_of_total(active_s));
        if (instr > 0) m.derive(p + "_engine_instruction_count", static_cast<double>(instr));
        if (tensor && instr > 0) m.derive("matmul_instruction_count", static_cast<double>(pm.matmul_count_));
        for (const char* suffix : {"_engine_active_time", "_engine_active_time_percent"})
            busy_origin[p + suffix] = pm.busy_.origin(em.engine);
        engine_time_sum += m.get(p + "_engine_active_time", 0);
        busiest_percent = std::max(busiest_percent, m.get(p + "_engine_active_time_percent", 0));
    }
    compute_s = pm.busy_.union_length({Engine::tensor_matrix, Engine::tensor, Engine::vector, Engine::scalar,
                                           Engine::gpsimd, Engine::sync}) / 1e9;
    if (pm.any_compute_) {
        m.derive("compute_active_time", compute_s);
        if (busiest_percent >= 0) m.derive("busiest_engine_active_time_percent", busiest_percent);
        if (engine_time_sum > 0)
            m.derive("tensor_engine_time_share_percent",
                     100.0 * m.get("tensor_engine_active_time", 0) / engine_time_sum);
    }
}

// The pattern study's figures, under its own definitions (not TensorE's
// share: see metric_defs.cpp).
void ProfileMetrics::Derivation::pattern_study() {
    if (pm.study_tensormatrix_ns_ + pm.study_other_ns_ > 0) {
        const double tm = pm.study_tensormatrix_ns_ / 1e9, other = pm.study_other_ns_ / 1e9;
        m.derive("pattern_study_tensormatrix_time", tm);
        m.derive("pattern_study_other_time", other);
        m.derive("pattern_study_engine_time", tm + other);
        m.derive("pattern_study_tensormatrix_share_percent", 100.0 * tm / (tm + other));
    }
}

// DMA: transfers, active time and the part compute does not hide; the
// memories packets read and wrote; tensor reloads.
void ProfileMetrics::Derivation::dma() {
    if (pm.dma_count_ > 0) {
        double dma_s = pm.busy_.busy(Engine::dma).total() / 1e9;
        m.derive("dma_transfer_count", static_cast<double>(pm.dma_count_));
        m.derive("dma_active_time", dma_s);
        m.derive("dma_active_time_percent", percent_of_total(dma_s));
        if (pm.dma_bytes_known_) {
            m.derive("dma_transfer_total_bytes", static_cast<double>(pm.dma_bytes_));
            // Over the transfers whose size the source gave.
            m.derive("dma_transfer_average_bytes", static_cast<double>(pm.dma_bytes_) / pm.dma_sized_count_);
        }
        // DMA not hidden behind compute: |DMA \ compute| = |DMA u compute| - |compute|.
        double all_s = pm.busy_.union_length({Engine::tensor_matrix, Engine::tensor, Engine::vector, Engine::scalar,
                                           Engine::gpsimd, Engine::sync, Engine::dma}) / 1e9;
        double wait_s = std::max(0.0, all_s - compute_s);
        m.derive("dma_wait_time", wait_s);
        m.derive("dma_wait_percent", percent_of_total(wait_s));
    }
    // Partial sums are not figures: with some packets of unknown memories
    // (real neuron-profile files: queues Q0, Q14 ...), hbm_read_bytes from
    // the rest would look like a measurement and be off by any amount.
    if (pm.dma_kind_known_ && pm.dma_unclassified_ > 0) {
        out.notes.push_back(std::to_string(pm.dma_unclassified_) + " DMA packets (" + std::to_string(pm.dma_unclassified_bytes_) +
                            " bytes) do not say which memory they read or wrote: HBM and spill bytes come from the "
                            "source summary only");
    } else if (pm.dma_kind_known_) {
        m.derive("hbm_read_bytes", static_cast<double>(pm.hbm_read_));
        m.derive("hbm_write_bytes", static_cast<double>(pm.hbm_write_));
        m.derive("spill_save_bytes", static_cast<double>(pm.spill_save_));
        m.derive("spill_reload_bytes", static_cast<double>(pm.spill_reload_));
        m.derive("weight_queue_bytes", static_cast<double>(pm.weight_queue_));
    }
    if (pm.tensors_known_) {
        int64_t max_loads = 0;
        for (const auto& [k, acc] : pm.tensor_loads_) max_loads = std::max(max_loads, acc.count);
        m.derive("max_tensor_load_count", static_cast<double>(max_loads));
        m.derive("hbm_reload_bytes", static_cast<double>(pm.hbm_reload_));
        if (pm.tensors_untracked_)
            out.notes.push_back("more than " + std::to_string(kMaxKeys) +
                                " distinct tensors: reloads of the later ones are not counted");
    }
    if (m.has("hbm_read_bytes") && m.has("hbm_reload_bytes") && m.get("hbm_read_bytes") > 0)
        m.derive("useful_read_percent",
                 100.0 * (m.get("hbm_read_bytes") - m.get("hbm_reload_bytes")) / m.get("hbm_read_bytes"));
}

// FLOPs, the roofline, and the peaks MFU, HFU and MBU divide by.
void ProfileMetrics::Derivation::flops_and_peaks() {
    if (pm.flops_known_) {
        m.derive("hardware_flops", pm.hardware_flops_);
        m.derive("transpose_flops", pm.transpose_flops_);
    }
    if (pm.model_flops_known_) m.derive("model_flops", pm.model_flops_);
    if (m.has("hardware_flops") && total > 0) m.derive("achieved_tflops", m.get("hardware_flops") / total / 1e12);

    double hbm_bytes = m.get("hbm_read_bytes", 0) + m.get("hbm_write_bytes", 0);
    if (m.has("hardware_flops") && hbm_bytes > 0)
        m.derive("mm_arithmetic_intensity", (m.get("hardware_flops") - m.get("transpose_flops", 0)) / hbm_bytes);

    // Peaks of the profile's logical core (core_peaks.h): its own facts, then
    // what the profiler's figures imply, then the target's defaults.  FLOPs
    // count BF16-equivalent, so the BF16 peak serves every dtype.
    const Target* target = find_target(info.target);
    CoreFacts facts = info.core;
    infer_core_facts(pm.source_, target, facts);
    std::optional<CorePeaks> peaks = core_peaks(target, facts);
    std::optional<DType> dtype = parse_dtype(info.dtype);
    double weight = target && dtype ? target->flop_weight(*dtype) : 1;
    if (m.has("hardware_flops") && weight != 1) {
        // BF16-equivalent FLOPs of a known dtype (the raw figures for BF16);
        // the source's own win.
        m.derive("adjusted_hardware_flops", m.get("hardware_flops") * weight);
        m.derive("adjusted_transpose_flops", m.get("transpose_flops", 0) * weight);
    }
    if (peaks && peaks->flops_per_s > 0) {
        if (!dtype && m.has("hardware_flops") && !pm.source_.count("adjusted_hardware_flops"))
            out.notes.push_back("no dtype known: FLOPs count as BF16 (x1)");
        double peak = peaks->flops_per_s;
        out.peak_basis = peaks->basis;
        m.derive("peak_flops", peak);
        if (peaks->hbm_bytes_per_s > 0) {
            m.derive("peak_hbm_bytes_per_s", peaks->hbm_bytes_per_s);
            // The profiler's ridge point: one physical core's peak over one
            // stack, for the dtype (x1 where none is known, as the profiler).
            m.derive("peak_flops_bandwidth_ratio", peaks->ridge_point() / weight);
        }
        if (total > 0) {
            double adjusted_hw = m.get("adjusted_hardware_flops", m.get("hardware_flops", NAN));
            double adjusted_tr = m.get("adjusted_transpose_flops", m.get("transpose_flops", 0));
            if (m.has("model_flops")) m.derive("mfu_estimated_percent", 100.0 * m.get("model_flops") * weight / (peak * total));
            if (std::isfinite(adjusted_hw)) {
                m.derive("hfu_estimated_percent", 100.0 * adjusted_hw / (peak * total));
                double inst = 100.0 * (adjusted_hw - adjusted_tr) / (peak * total);
                m.derive("mfu_inst_estimated_percent", inst);
                if (!m.has("model_flops")) {
                    // As the profiler does without HLO stats: MFU from the
                    // instructions' FLOPs less the transposes.
                    m.derive("mfu_estimated_percent", inst);
                    out.notes.push_back("MFU is instruction-based: (hardware - transpose) FLOPs, the profile has no model FLOPs");
                }
            }
        }
    } else if (info.target.empty()) {
        out.notes.push_back("no target known: MFU, HFU, MBU and the ridge point need one (--target)");
    } else if (!target) {
        out.notes.push_back("unknown target '" + info.target + "': no peak figures (known: " + target_names() + ")");
    }
    if (peaks && peaks->hbm_bytes_per_s > 0 && total > 0 && m.has("hbm_read_bytes"))
        m.derive("mbu_estimated_percent", 100.0 * hbm_bytes / total / peaks->hbm_bytes_per_s);
    // The profiler reports the ridge point of one physical core, but bounds
    // MFU by the logical core's: at LNC=2 its max achievable is half what
    // the physical ridge point gives (real trn2 LNC=2 exports: 19.03% where
    // one core's ridge gives 38.05%).
    const int cores = peaks ? std::max(1, peaks->physical_cores) : std::max(1, facts.physical_cores);
    if (m.has("mm_arithmetic_intensity") && m.has("peak_flops_bandwidth_ratio") && m.get("peak_flops_bandwidth_ratio") > 0)
        m.derive("mfu_max_achievable_estimated_percent",
                 std::min(100.0, 100.0 * m.get("mm_arithmetic_intensity") / (m.get("peak_flops_bandwidth_ratio") * cores)));
}

void ProfileMetrics::Derivation::rule_inputs() {
    // Explorer's active FLOPs: what the tensor engine could have done while
    // it was busy (peak x active time); model, transpose, idle and
    // throttled FLOPs are shares of it.
    double peak_flops = m.get("peak_flops", 0);
    if (peak_flops > 0 && m.has("tensor_engine_active_time"))
        m.derive("active_flops", peak_flops * m.get("tensor_engine_active_time"));
    {
        IntervalUnion merged;
        IntervalUnion* tensor_busy = nullptr;
        bool matrix = pm.busy_.present(Engine::tensor_matrix) && pm.busy_.row(Engine::tensor_matrix) == Engine::tensor_matrix;
        if (matrix) {
            // Both TensorE rows have busy time of their own: merge them.
            for (Engine e : {Engine::tensor, Engine::tensor_matrix})
                if (pm.busy_.present(e)) pm.busy_.busy(e).for_each([&](const Interval& i) { merged.add(i.begin, i.end); });
            tensor_busy = &merged;
        } else if (pm.busy_.present(Engine::tensor)) {
            tensor_busy = &pm.busy_.busy(Engine::tensor);
        }
        pm.rule_inputs_.add_carried(info.carried_json);
        RuleInputs::Output extra = pm.rule_inputs_.finish(tensor_busy, peak_flops, total * 1e9);
        for (auto& [name, v] : extra.metrics) m.derive(name, v);
        for (std::string& n : extra.notes) out.notes.push_back(std::move(n));
        out.dma_queue_types = std::move(extra.queue_types);
    }
    if (pm.core_instructions_ > 0)
        m.derive("unnamed_instruction_percent", 100.0 * pm.unnamed_instructions_ / pm.core_instructions_);
    // A capture can lose one physical core's tail without a warning from the
    // profiler: each core's instructions should span the execution.
    if (pm.core_spans_.size() >= 2 && total > 0) {
        double lowest = 100;
        std::string each;
        for (const auto& [core, span] : pm.core_spans_) {
            double covered = 100.0 * static_cast<double>(span.second - span.first) / (total * 1e9);
            lowest = std::min(lowest, covered);
            char text[96];
            std::snprintf(text, sizeof text, "%score %d %.1f%%", each.empty() ? "" : ", ", core, covered);
            each += text;
        }
        m.derive("min_core_coverage_percent", lowest);
        out.notes.push_back("each physical core's instructions, first start to last end, over the execution: " + each);
    }
    if (pm.classified_total_ > 0) {
        m.derive("memory_instruction_percent", 100.0 * pm.memory_ops_ / pm.classified_total_);
        m.derive("compute_instruction_percent", 100.0 * pm.compute_ops_ / pm.classified_total_);
    }
    if (!m.has("hbm_read_bytes") && pm.dma_count_ > 0 && !(pm.dma_kind_known_ && pm.dma_unclassified_ > 0))
        out.notes.push_back("DMA transfers do not say which memory they read or wrote: HBM metrics need the source summary");
}

// The metric list made final, and what the source and nx said differently.
void ProfileMetrics::Derivation::settle_metrics() {
    out.metrics = m.build();
    // A figure the source lacks that nx made from the profile's rows is not
    // "not available": it is shown, derived, with what the profiler said.
    std::erase_if(out.unavailable, [&](const UnavailableMetric& u) {
        const MetricValue* v = out.find(u.name);
        if (!v) return false;
        out.notes.push_back(u.name + ": nx's figure from the profile's rows (" + u.reason + ")");
        return true;
    });
    for (const std::string& name : m.unrecorded())
        out.notes.push_back(name + ": the profiler wrote 0, the profile's own rows do not: nx's figure from them is used (derived)");
    m.for_each_disagreement([&](const std::string& name, double src, double derived) {
        // Not the same figure: the source counts DMA transfers, its records
        // are packets; its event_count is not nx's count of every event
        // (profiler intervals and counter samples included).
        if (name.rfind("dma_transfer_", 0) == 0 || name == "event_count") return;
        std::string how = "derived by nx from the events";
        if (auto o = busy_origin.find(name); o != busy_origin.end()) how = to_string(o->second);
        else if (pm.dma_kind_known_ && (name.rfind("hbm_", 0) == 0 || name.rfind("spill_", 0) == 0 ||
                                     name == "weight_queue_bytes"))
            how = "derived from DMA packets' memories and queue names";
        out.disagreements.push_back({name, src, derived, how});
    });
}

// The per-engine table (rows as the profiler shows them), opcodes, layers
// and, without engines, the busiest tracks.
void ProfileMetrics::Derivation::tables() {
    for (Engine e : EngineBusy::kRows) {
        if (!pm.busy_.present(e)) continue;
        EngineStat st = pm.busy_.stat(e);
        // The profiler's DMA figure where it gives one: its packets are
        // whole nanoseconds, its sum is exact (nx's union differs by a few ns).
        if (e == Engine::dma && pm.source_.count("dma_active_time") && m.get("dma_active_time") >= 0) {
            st.busy_ns = std::llround(m.get("dma_active_time") * 1e9);
            st.origin = BusyOrigin::summary;
        }
        st.active_percent = total > 0 ? 100.0 * (st.busy_ns / 1e9) / total : 0;
        out.engines.push_back(st);
    }
    out.opcodes = sorted_keys(pm.opcodes_);
    // "(other)" joins the table only once it is full.
    if (pm.opcodes_.size() > kMaxKeys)
        out.notes.push_back("more than " + std::to_string(kMaxKeys) +
                            " distinct opcodes: the instructions of the later ones are counted under (other)");
    const auto top = static_cast<std::ptrdiff_t>(std::min(out.opcodes.size(), kTopKeys));
    out.top_opcodes.assign(out.opcodes.begin(), out.opcodes.begin() + top);
    out.top_layers = top_keys(pm.layers_);
    if (pm.layers_.size() > kMaxKeys)
        out.notes.push_back("more than " + std::to_string(kMaxKeys) +
                            " distinct layers: the instructions of the later ones are counted under (other)");
    if (out.engines.empty()) {
        for (auto& [name, acc] : pm.tracks_) out.tracks.push_back({name, acc.process, acc.events, acc.busy->total()});
        std::sort(out.tracks.begin(), out.tracks.end(), [](const TrackStat& a, const TrackStat& b) {
            if (a.busy_ns != b.busy_ns) return a.busy_ns > b.busy_ns;
            if (a.events != b.events) return a.events > b.events;
            return a.track < b.track;
        });
        if (out.tracks.size() > kTopKeys) out.tracks.resize(kTopKeys);
    }
}

// The timeline, where the time went, the iterations and the executions.
void ProfileMetrics::Derivation::time() {
    // Timeline: each engine row's merged busy intervals cut into equal buckets.
    int64_t span = out.end_ns - out.start_ns;
    if (span > 0) {
        TimeBuckets buckets(out.start_ns, out.end_ns, kTimelineBuckets);
        for (Engine e : EngineBusy::kRows) {
            if (!pm.busy_.present(e)) continue;
            out.timeline.push_back(EngineTimeline{e, buckets.percent(pm.busy_.busy(e))});
        }
    }
    // Where the time went, for device profiles (engine rows or collectives).
    if (out.device && out.device->counted > 0) {
        out.breakdown = device_breakdown(*out.device);
        // The communication kernels are the collectives where there are
        // any (the CPU's nccl: annotations only launch them).
        out.collectives = pm.device_.take_collectives();
        if (out.collectives.empty()) out.collectives = pm.collectives_.take_ops();
    } else if (!out.engines.empty() || pm.collectives_.any()) {
        std::vector<ExecutionStat>* each = pm.executions_.empty() ? nullptr : &pm.executions_;
        out.breakdown = break_down_time(pm.busy_, pm.collectives_.intervals(), out.start_ns, out.end_ns, kTimelineBuckets, each);
        out.collectives = pm.collectives_.take_ops();
        if (pm.collectives_.dropped() > 0)
            out.notes.push_back("collective operations: the first " + std::to_string(out.collectives.size()) +
                                " are listed, " + std::to_string(pm.collectives_.dropped()) +
                                " more count in the time breakdown only");
    }
    out.iterations = std::move(pm.iterations_);
    pm.iterations_.clear();
    if (pm.executions_dropped_ > 0)
        out.notes.push_back("executions: the first " + std::to_string(pm.executions_.size()) + " are listed, " +
                            std::to_string(pm.executions_dropped_) + " more are not");
    if (!pm.executions_.empty()) {
        out.execution_digest = digest_executions(pm.executions_);
        out.executions = std::move(pm.executions_);
        pm.executions_.clear();
    }
}

ProfileSummary ProfileMetrics::finish(const ProfileInfo& info) {
    Derivation d(*this, info);
    d.source_scale();
    d.sort_iterations();
    d.totals();
    d.engines();
    d.pattern_study();
    d.dma();
    d.flops_and_peaks();
    d.rule_inputs();
    d.settle_metrics();
    d.tables();
    d.time();
    return std::move(d.out);
}

void ProfileMetrics::add_execution(const ExecutionWindow& w) {
    if (executions_.size() >= kMaxExecutions) {
        ++executions_dropped_;
        return;
    }
    ExecutionStat x;
    x.window = w;
    executions_.push_back(std::move(x));
    // Each execution is an iteration: nx-report --ranks counts a session's
    // straggler execution by execution, as a PyTorch trace's step by step.
    if (iterations_.size() < kMaxIterations) iterations_.push_back({w.index, w.start_ns, w.end_ns - w.start_ns});
}

}  // namespace nx
