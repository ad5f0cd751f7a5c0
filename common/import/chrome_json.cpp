// Chrome trace-event JSON (chrome://tracing, PyTorch's Kineto, many
// exporters): {"traceEvents": [...]} or a bare array.  Handled phases: X
// (complete), B/E (begin/end, nested per thread), i/I/n (instant), C (counter;
// one series per args key), M (thread and process names), and the flow
// events s/t/f and slices' bind_id (chrome_flows.h).  Times are microseconds
// (may be fractional, around 1.6e15 in Kineto traces) and become integer
// nanoseconds from their decimal text, exactly (a double moves most of
// them).  Other phases (async, samples, objects) are counted in the profile
// record under "chrome_phases_ignored".
//
// Two passes (two_pass_input.h).  PyTorch writes the "M" events that name
// threads and processes at the end of the file, after every event that uses
// them, and a flow event may come before the slice it binds to.  Names must
// be right on the first event a sink sees (event records and traces are
// written as they stream), so a quick first pass reads only the M and flow
// events (other fields are skipped unread), and the import pass names each
// track from its first event and shows every slice to the flow binder.  The
// alternative, renaming tracks at the end, would need every sink to rewrite
// what it already wrote, and holding the events back would make memory grow
// with the trace; a second read costs time only (about 40% more CPU time on
// a Kineto trace: the JSON is tokenized twice), and memory stays flat.
//
// Tracks are threads: one per (pid, tid), named by its thread_name (a name
// two threads share gets their "pid/tid" added: "stream 7 (1/7)"), else
// "pid/tid".  Events keep their pid, tid and process name, so traces show the
// source's process/thread tree.  Kineto's categories classify GPU work:
// kernel -> kernel events, gpu_memcpy -> memcpy, gpu_memset -> memset,
// *_runtime and *_driver (cuda_runtime, cuda_driver) -> runtime; others are
// regions, and the category stays in args as "cat".  A memcpy's or memset's
// args.bytes is its size (Event::bytes).  Older Kineto wrote Kernel and
// Runtime; MTIA's device transfers are mtia_ccp_events (memcpy), its
// runtime mtia_runtime; cuda_sync records (a stream waiting for an event,
// a context or stream synchronised) are device_sync on the stream they
// concern (device_streams.h counts them as HTA does).  Rows named like a
// NeuronCore engine (TensorMatrix...) or DMA queue (qSyncIO0...) are
// instructions and DMA transfers, as in Neuron-shaped Chrome traces.
//
// A distributed job's trace (PyTorch's profiler under torch.distributed)
// says which worker wrote it: "distributedInfo": {"backend", "rank",
// "world_size", ...}.  Its rank is the profile's, unless the user gave one
// (--rank), and the three are kept in the profile record ("distributed").
// The slices c10d's process groups record around each collective, named
// "<backend>:<operation>" ("gloo:all_reduce", "nccl:all_gather"), go to the
// "collectives" track as Neuron's collective operations do, so the time
// breakdown and nx-report --ranks see them: the CPU's (user_annotation),
// not their copies on the GPU stream (gpu_user_annotation).  NCCL's GPU
// kernels stay kernels on their stream.
#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>

#include "common/import/chrome_flows.h"
#include "common/import/chrome_records.h"
#include "common/import/distributed_info.h"
#include "common/import/importer.h"
#include "common/import/record_reader.h"
#include "common/import/slots.h"
#include "common/import/two_pass_input.h"
#include "common/io/error.h"
#include "common/profile/profile_record.h"
#include "common/profile/time_breakdown.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

using chrome::kArgs;
using chrome::kCat;
using chrome::kDur;
using chrome::kFieldCount;
using chrome::kName;
using chrome::kPh;
using chrome::kPid;
using chrome::kTid;
using chrome::kTs;

bool traces_section(std::string_view section) { return section.empty() || section == "traceEvents"; }

// c10d's name for a collective's slice: "<backend>:<operation>", the
// backend one of torch.distributed's, the operation lowercase
// ("gloo:all_reduce", "nccl:_all_gather_base").
bool c10d_collective(std::string_view name) {
    size_t colon = name.find(':');
    if (colon == std::string_view::npos || colon + 1 == name.size()) return false;
    std::string_view backend = name.substr(0, colon), op = name.substr(colon + 1);
    static constexpr std::string_view kBackends[] = {"nccl", "gloo", "mpi", "ucc", "xccl", "hccl"};
    if (std::find(std::begin(kBackends), std::end(kBackends), backend) == std::end(kBackends)) return false;
    return std::all_of(op.begin(), op.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// Names and flow events, from the first pass.
struct Prepared {
    std::unordered_map<std::string, std::string> thread_names;   // "pid/tid" -> thread_name
    std::unordered_map<std::string, std::string> process_names;  // pid -> process_name
    chrome::FlowBinder flows;
    DistributedInfo distributed;  // which worker of a distributed job wrote the trace

    // The track of thread `key`: its name, "pid/tid" when it has none or
    // shares it with another thread.
    std::unordered_map<std::string, std::string> track_names;
    void name_tracks() {
        std::unordered_map<std::string_view, int> uses;
        for (const auto& [key, name] : thread_names) ++uses[name];
        for (const auto& [key, name] : thread_names)
            track_names[key] = uses[name] > 1 ? name + " (" + key + ")" : name;
    }
};

// The first pass: M and flow events only.
class Prescan : public RecordFormat {
public:
    explicit Prescan(Prepared& out) : out_(out) {}

    SectionMode section_mode(std::string_view section) override {
        if (section == "distributedInfo") return SectionMode::carry;
        return traces_section(section) ? SectionMode::records : SectionMode::skip;
    }
    void carried(std::string_view section, std::string_view json) override {
        if (section == "distributedInfo") out_.distributed = parse_distributed_info(json);
    }
    int field_id(std::string_view, std::string_view key) override {
        int f = chrome::field_id(key);
        if (f == kDur) return kSkipField;
        if (f >= 0) return f;
        // A flow's id, id2 and bp stay in the record's other fields.
        return key == "id" || key == "id2" || key == "bp" ? -1 : kSkipField;
    }
    // Once "ph" is known (Chrome writers put it first) the fields of other
    // events are skipped unread, and so are the args of all but M events
    // (kernels have big ones).
    int field_id_after(std::string_view section, std::string_view key, const std::vector<Slot>& filled) override {
        if (filled[kPh].kind == Slot::string) {
            const std::string& ph = filled[kPh].s;
            if (ph == "M") return field_id(section, key);
            if (ph != "s" && ph != "t" && ph != "f") return kSkipField;
            return key == "args" ? kSkipField : field_id(section, key);
        }
        return field_id(section, key);
    }
    bool keys_by_slots() const override { return true; }
    bool numbers_as_text() const override { return true; }

    void record(std::string_view, const std::vector<Slot>& s, std::string_view extra, int64_t,
                const std::string& error) override {
        int64_t record = records_++;
        // Bad records are the import pass's to report.
        if (!error.empty() || s[kPh].kind != Slot::string || s[kPh].s.size() != 1) return;
        char ph = s[kPh].s[0];
        if (ph == 'M') {
            chrome::Metadata m;
            if (!chrome::decode_metadata(s, m).empty() || m.kind == chrome::Metadata::none) return;
            // The last name given wins, as in the trace viewers.
            if (m.kind == chrome::Metadata::thread_name)
                out_.thread_names[chrome::thread_key(s, scratch_[0], scratch_[1])] = m.name;
            else
                out_.process_names[std::string(chrome::pid_text(s, scratch_[0]))] = m.name;
        } else if (ph == 's' || ph == 't' || ph == 'f') {
            int64_t ts = 0;
            chrome::FlowPoint p;
            if (!slot_us_to_ns(s[kTs], "ts", ts, true).empty() || !chrome::decode_flow_event(ph, s, extra, p).empty())
                return;
            out_.flows.add_point(chrome::thread_key(s, scratch_[0], scratch_[1]), ts, record, p);
        }
    }

private:
    Prepared& out_;
    int64_t records_ = 0;
    std::string scratch_[2];
};

struct OpenSlice {
    int64_t ts;
    std::string name;
    std::string cat;
    std::string args;
    int64_t line;
    int64_t record;
    std::vector<chrome::FlowPoint> flows;  // its bind_id flows
};

// A thread of the source: one track.
struct Thread {
    std::string track;
    std::string process;
    int64_t pid = kNoId, tid = kNoId;
    chrome::FlowBinder::Thread flows = chrome::FlowBinder::kNoThread;
    std::vector<OpenSlice> stack;  // open B events
};

class ChromeJson : public RecordFormat {
public:
    ChromeJson(ImportHandler& out, ImportContext& ctx, Prepared& prepared)
        : out_(out), ctx_(ctx), prepared_(prepared) {}

    SectionMode section_mode(std::string_view section) override {
        return traces_section(section) ? SectionMode::records : SectionMode::skip;
    }
    int field_id(std::string_view, std::string_view key) override { return chrome::field_id(key); }
    // ts and dur are decimal µs: converted from their text, exactly.
    bool numbers_as_text() const override { return true; }
    void top_level(bool) override {
        info_ = ctx_.profile_info("chrome-json");
        const DistributedInfo& d = prepared_.distributed;
        if (d.present) {
            if (info_.rank < 0 && d.rank >= 0) info_.rank = static_cast<int>(d.rank);
            merge_carried(info_, {{"distributed", d.json()}});
        }
        out_.begin_profile(info_);
    }

    void record(std::string_view, const std::vector<Slot>& s, std::string_view extra, int64_t line,
                const std::string& error) override {
        int64_t record = records_++;
        if (!error.empty()) {
            ctx_.bad_record(error + " in a trace event", line);
            return;
        }
        std::string ph(slot_text(s[kPh], scratch_[0]));
        if (ph.empty()) {
            ctx_.bad_record("missing \"ph\" in a trace event", line);
            return;
        }
        if (ph == "M") {
            chrome::Metadata m;
            std::string err = chrome::decode_metadata(s, m);
            if (!err.empty()) ctx_.bad_record(err, line);
            return;  // applied from the first pass
        }
        Event e;
        e.line = line;
        std::string err;
        if (ph != "E" || s[kTs].present()) err = slot_us_to_ns(s[kTs], "ts", e.ts_ns, true);
        if (!err.empty()) {
            ctx_.bad_record(err + " in a trace event", line);
            return;
        }
        if (ph == "s" || ph == "t" || ph == "f") {
            chrome::FlowPoint p;
            err = chrome::decode_flow_event(ph[0], s, extra, p);
            if (!err.empty()) ctx_.bad_record(err, line);
            return;  // collected by the first pass
        }
        max_ts_ = std::max(max_ts_, e.ts_ns);
        std::string name(slot_text(s[kName], scratch_[1]));
        std::string args = merged_args(s, extra);
        Thread& t = thread(s);
        e.track = t.track;
        if (ph == "X" || ph == "B") {
            err = chrome::decode_bound_flows(extra, bound_);
            if (!err.empty()) {
                ctx_.bad_record(err, line);
                return;
            }
        }
        if (ph == "X") {
            if (s[kDur].present()) err = slot_us_to_ns(s[kDur], "dur", e.dur_ns);
            if (!err.empty()) {
                ctx_.bad_record(err + " in a trace event", line);
                return;
            }
            max_ts_ = std::max(max_ts_, e.ts_ns + e.dur_ns);
            emit(e, t, name, cat(s), args, static_cast<int32_t>(t.stack.size()), record, bound_);
        } else if (ph == "B") {
            t.stack.push_back({e.ts_ns, name, std::string(cat(s)), args, line, record, bound_});
        } else if (ph == "E") {
            if (t.stack.empty()) {
                ctx_.bad_record("\"E\" event without a matching \"B\" on its thread", line);
                return;
            }
            OpenSlice open = std::move(t.stack.back());
            t.stack.pop_back();
            if (e.ts_ns < open.ts) {
                ctx_.bad_record("\"E\" event earlier than its \"B\"", line);
                return;
            }
            e.dur_ns = e.ts_ns - open.ts;
            e.ts_ns = open.ts;
            e.line = open.line;
            emit(e, t, open.name, open.cat, open.args, static_cast<int32_t>(t.stack.size()), open.record, open.flows);
        } else if (ph == "i" || ph == "I" || ph == "n") {
            emit(e, t, name, cat(s), args, 0, record, {});
        } else if (ph == "C") {
            counter(e, t, s, name);
        } else {
            ++ignored_[ph];
        }
    }

    void finish() {
        // Slices still open when the trace ended (a crashed or cut-off run)
        // are kept, ending at the last timestamp, and marked.
        for (auto& [key, t] : threads_) {
            while (!t.stack.empty()) {
                OpenSlice open = std::move(t.stack.back());
                t.stack.pop_back();
                Event e;
                e.track = t.track;
                e.ts_ns = open.ts;
                e.dur_ns = std::max<int64_t>(0, max_ts_ - open.ts);
                e.line = open.line;
                std::string args = open.args.empty() ? "{\"unterminated\":true}"
                                                     : open.args.substr(0, open.args.size() - 1) + ",\"unterminated\":true}";
                emit(e, t, open.name, open.cat, args, static_cast<int32_t>(t.stack.size()), open.record,
                     open.flows);
                ++unterminated_;
            }
        }
        chrome::FlowBinder::Counts flows = prepared_.flows.finish(out_);
        if (!ignored_.empty() || unterminated_ > 0 || flows.points > 0) {
            std::vector<std::pair<std::string, std::string>> fields;
            if (!ignored_.empty()) {
                std::string counts = "{";
                for (auto& [ph, n] : ignored_)
                    counts += (counts.size() > 1 ? "," : "") + json_quote(ph) + ":" + std::to_string(n);
                fields.emplace_back("chrome_phases_ignored", counts + "}");
            }
            if (unterminated_ > 0) fields.emplace_back("chrome_unterminated_slices", std::to_string(unterminated_));
            if (flows.points > 0)
                fields.emplace_back("chrome_flows", "{\"flows\":" + std::to_string(flows.flows) +
                                                        ",\"points\":" + std::to_string(flows.points) +
                                                        ",\"unbound\":" + std::to_string(flows.unbound) +
                                                        ",\"without_start\":" + std::to_string(flows.without_start) +
                                                        ",\"without_end\":" + std::to_string(flows.without_end) + "}");
            merge_carried(info_, fields);
            out_.update_info(info_);
        }
        out_.end_profile();
    }

private:
    Thread& thread(const std::vector<Slot>& s) {
        std::string key = chrome::thread_key(s, scratch_[2], scratch_[3]);
        auto it = threads_.find(key);
        if (it != threads_.end()) return it->second;
        Thread t;
        auto named = prepared_.track_names.find(key);
        t.track = named != prepared_.track_names.end() ? named->second : key;
        auto process = prepared_.process_names.find(std::string(chrome::pid_text(s, scratch_[2])));
        if (process != prepared_.process_names.end()) t.process = process->second;
        t.pid = chrome::slot_id(s[kPid]);
        t.tid = chrome::slot_id(s[kTid]);
        t.flows = prepared_.flows.thread(key);
        return threads_.emplace(std::move(key), std::move(t)).first->second;
    }

    std::string_view cat(const std::vector<Slot>& s) { return slot_text(s[kCat], scratch_[4]); }

    std::string merged_args(const std::vector<Slot>& s, std::string_view extra) {
        // The event's "args" object, plus "cat" and any other fields.
        bool has_args = s[kArgs].kind == Slot::json && s[kArgs].s.size() > 2 && s[kArgs].s.front() == '{';
        std::string_view c = cat(s);
        if (!has_args && c.empty() && extra.empty()) return {};
        std::string out;
        out.reserve(c.size() + s[kArgs].s.size() + extra.size() + 16);  // no doubling for a large args object
        out += '{';
        auto append = [&](std::string_view body) {
            if (body.empty()) return;
            if (out.size() > 1) out += ',';
            out += body;
        };
        if (!c.empty()) append("\"cat\":" + json_quote(c));
        if (has_args) append(std::string_view(s[kArgs].s).substr(1, s[kArgs].s.size() - 2));
        if (extra.size() > 2) append(extra.substr(1, extra.size() - 2));
        out += '}';
        return out;
    }

    // Kineto's size of a memcpy or memset: args.bytes (-1: none).
    static int64_t args_bytes(std::string_view args) {
        if (args.find("\"bytes\"") == std::string_view::npos) return -1;
        rapidjson::Document doc;
        doc.Parse(args.data(), args.size());
        if (doc.HasParseError() || !doc.IsObject()) return -1;
        auto it = doc.FindMember("bytes");
        return it != doc.MemberEnd() && it->value.IsInt64() && it->value.GetInt64() >= 0 ? it->value.GetInt64() : -1;
    }

    // What kind of event a slice on track e.track in `category` is.
    static void classify(Event& e, std::string_view category) {
        auto ends_with = [&](std::string_view suffix) {
            return category.size() > suffix.size() && category.substr(category.size() - suffix.size()) == suffix;
        };
        e.engine = engine_from_label(e.track);
        if (e.engine != Engine::none) {
            e.type = EventType::instruction;
            e.opcode = e.name;
        } else if (category == "user_annotation" && c10d_collective(e.name)) {
            // The CPU's slice only: Kineto repeats the name on the GPU stream
            // (gpu_user_annotation), which would count each twice.
            e.type = EventType::region;
            e.track = kCollectivesTrack;
            e.depth = 0;  // moved off its thread: nothing encloses it there
        } else if (e.track.size() > 1 && e.track[0] == 'q' && std::isupper(static_cast<unsigned char>(e.track[1]))) {
            // Neuron DMA queues are named qSyncIO0, qScalarSpillReload0 ...
            e.type = EventType::dma;
            e.engine = Engine::dma;
            e.dma_kind = dma_kind_from_queue(e.track);
        } else if (category == "kernel" || category == "Kernel") {
            e.type = EventType::kernel;
        } else if (category == "gpu_memcpy" || category == "mtia_ccp_events") {
            e.type = EventType::memcpy;
            e.bytes = args_bytes(e.args_json);
        } else if (category == "gpu_memset") {
            e.type = EventType::memset;
            e.bytes = args_bytes(e.args_json);
        } else if (category == "cuda_sync") {
            e.type = EventType::device_sync;
        } else if (ends_with("_runtime") || ends_with("_driver") || category == "Runtime") {
            e.type = EventType::runtime;
        } else {
            e.type = EventType::region;
        }
    }

    void emit(Event& e, const Thread& t, std::string_view name, std::string_view category, std::string_view args,
              int32_t depth, int64_t record, const std::vector<chrome::FlowPoint>& flows) {
        e.name = name;
        e.args_json = args;
        e.depth = depth;
        e.pid = t.pid;
        e.tid = t.tid;
        e.process = t.process;
        classify(e, category);
        out_.event(e);
        int64_t ordinal = ordinal_++;
        prepared_.flows.slice(t.flows, e.ts_ns, e.ts_ns + e.dur_ns, record, ordinal);
        for (const chrome::FlowPoint& p : flows) prepared_.flows.bound(p, e.ts_ns, record, ordinal);
    }

    void counter(Event& e, const Thread& t, const std::vector<Slot>& s, const std::string& name) {
        if (s[kArgs].kind != Slot::json) return;
        rapidjson::Document doc;
        doc.Parse(s[kArgs].s.c_str());
        if (!doc.IsObject()) return;
        e.type = EventType::counter;
        // A counter belongs to its process (Chrome draws it there).
        e.pid = t.pid;
        e.process = t.process;
        for (auto& m : doc.GetObject()) {
            if (!m.value.IsNumber() || !std::isfinite(m.value.GetDouble())) continue;
            std::string series = doc.MemberCount() == 1 ? name : name + "." + m.name.GetString();
            e.track = series;
            e.name = series;
            e.value = m.value.GetDouble();
            out_.event(e);
            ++ordinal_;
        }
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    Prepared& prepared_;
    ProfileInfo info_;
    std::string scratch_[5];
    std::unordered_map<std::string, Thread> threads_;
    std::vector<chrome::FlowPoint> bound_;
    std::map<std::string, int64_t> ignored_;
    int64_t records_ = 0;
    int64_t ordinal_ = 0;  // events sent (flows name their ends by it)
    int64_t unterminated_ = 0;
    int64_t max_ts_ = 0;
};

}  // namespace

void import_chrome_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    TwoPassInput input(in);
    Prepared prepared;
    {
        Prescan scan(prepared);
        read_records(input.first(), scan, kFieldCount);
    }
    prepared.name_tracks();
    prepared.flows.prepare();
    ChromeJson format(out, ctx, prepared);
    read_records(input.second(), format, kFieldCount);
    format.finish();
}

}  // namespace nx
