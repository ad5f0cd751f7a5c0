#include "common/trace/chrome_json_sink.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdlib>

#include "common/records/jsonl.h"
#include "common/trace/trace_args.h"
#include "common/trace/trace_sink.h"

namespace nx {

namespace {

constexpr int64_t kNsPerUs = 1000;
// Strings longer than this go to the output in slices of this size instead
// of through the event's buffer: RapidJSON reserves six bytes per character
// to escape a string, so one 64 MiB argument held 400 MB.
constexpr size_t kStreamedStringBytes = size_t{1} << 20;

class ChromeJsonWriter : public TraceWriter {
public:
    explicit ChromeJsonWriter(Output& out) : out_(out), w_(buf_) {}

    void begin_process(const TraceProcess& p) override {
        if (p.name.empty()) return;  // a source process the source did not name
        start("M", p.pid, 0);
        w_.Key("name");
        w_.String("process_name");
        w_.Key("args");
        w_.StartObject();
        w_.Key("name");
        w_.String(p.name.data(), static_cast<rapidjson::SizeType>(p.name.size()));
        w_.EndObject();
        finish_event();
    }

    void track(const TraceTrack& t) override {
        // Counters are named by their "C" events; threads need metadata.
        if (t.kind == TrackKind::counter) return;
        start("M", t.pid, t.tid);
        w_.Key("name");
        w_.String("thread_name");
        w_.Key("args");
        w_.StartObject();
        w_.Key("name");
        w_.String(t.name.data(), static_cast<rapidjson::SizeType>(t.name.size()));
        w_.EndObject();
        finish_event();
        start("M", t.pid, t.tid);
        w_.Key("name");
        w_.String("thread_sort_index");
        w_.Key("args");
        w_.StartObject();
        w_.Key("sort_index");
        w_.Int(t.rank);
        w_.EndObject();
        finish_event();
    }

    void slice_begin(const TraceTrack& t, const SpooledEvent& e, int64_t end, int64_t clipped_from_ns,
                     std::span<const FlowEnd> flows) override {
        start("X", t.pid, t.tid);
        std::string_view name = !e.name.empty() ? e.name : !e.opcode.empty() ? e.opcode : to_string(e.type);
        w_.Key("name");
        string_value(name);
        std::string_view cat = to_string(e.type);
        w_.Key("cat");
        w_.String(cat.data(), static_cast<rapidjson::SizeType>(cat.size()));
        time_key("ts", e.ts);
        time_key("dur", end - e.ts);
        w_.Key("args");
        w_.StartObject();
        for_each_trace_arg(e, clipped_from_ns, [&](std::string_view key, const TraceArg& a) {
            w_.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
            switch (a.kind) {
                case TraceArg::integer: w_.Int64(a.i); break;
                case TraceArg::real: write_number(w_, a.d); break;
                case TraceArg::boolean: w_.Bool(a.b); break;
                case TraceArg::text: string_value(a.s); break;
            }
        });
        w_.EndObject();
        finish_event();
        // Flow events right after their slice, at its start: a viewer binds
        // "s" (and "f" with bp "e") to the slice enclosing it, and reading
        // the file in order that is this one.
        for (const FlowEnd& f : flows) {
            start(f.out ? "s" : "f", t.pid, t.tid);
            if (!f.out) {
                w_.Key("bp");
                w_.String("e");
            }
            w_.Key("id");
            w_.Uint64(f.id);
            w_.Key("cat");
            w_.String(f.category.data(), static_cast<rapidjson::SizeType>(f.category.size()));
            w_.Key("name");
            w_.String(f.name.data(), static_cast<rapidjson::SizeType>(f.name.size()));
            time_key("ts", e.ts);
            finish_event();
        }
    }

    // "X" events carry their duration.
    void slice_end(const TraceTrack&, int64_t) override {}

    void counter(const TraceTrack& t, int64_t ts, double value) override {
        start("C", t.pid, 0);
        w_.Key("name");
        w_.String(t.name.data(), static_cast<rapidjson::SizeType>(t.name.size()));
        time_key("ts", ts);
        w_.Key("args");
        w_.StartObject();
        w_.Key("value");
        write_number(w_, value);
        w_.EndObject();
        finish_event();
    }

    void end_process() override {}

    void finish() override {
        if (!started_) out_.write(kHeader);
        out_.write("\n]}\n");
    }

private:
    static constexpr const char* kHeader = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";

    void start(const char* ph, int32_t pid, int32_t tid) {
        buf_.Clear();
        w_.Reset(buf_);
        w_.StartObject();
        w_.Key("ph");
        w_.String(ph);
        w_.Key("pid");
        w_.Int(pid);
        w_.Key("tid");
        w_.Int(tid);
    }

    // Microseconds with exactly the nanoseconds as decimals: written as a raw
    // number so no binary rounding happens on the way.
    void time_key(const char* key, int64_t ns) {
        w_.Key(key);
        std::string s = ns_as_us(ns);
        w_.RawValue(s.data(), s.size(), rapidjson::kNumberType);
    }

    void finish_event() {
        w_.EndObject();
        flush_event();
        event_begun_ = false;
    }

    // What the event's buffer holds goes out, after the separator the event
    // needs (the header before the first).
    void flush_event() {
        if (!event_begun_) {
            out_.write(started_ ? ",\n" : kHeader);
            started_ = event_begun_ = true;
        }
        out_.write(std::string_view(buf_.GetString(), buf_.GetSize()));
        buf_.Clear();
    }

    // A string value; a long one is escaped straight to the output a slice
    // at a time (bytes as RapidJSON writes them, so the output is the same).
    void string_value(std::string_view v) {
        if (v.size() <= kStreamedStringBytes) {
            w_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
            return;
        }
        w_.RawValue("", 0, rapidjson::kStringType);  // the writer's separator, and its state
        flush_event();
        out_.write("\"");
        for (size_t at = 0; at < v.size(); at += kStreamedStringBytes) {
            std::string piece = json_quote(v.substr(at, kStreamedStringBytes));
            out_.write(std::string_view(piece).substr(1, piece.size() - 2));
        }
        out_.write("\"");
    }

    Output& out_;
    rapidjson::StringBuffer buf_;
    JsonWriter w_;
    bool started_ = false;      // the header is written
    bool event_begun_ = false;  // the current event's separator is written
};

}  // namespace

std::string ns_as_us(int64_t ns) {
    // Negative times keep their sign in front of the whole number.
    bool neg = ns < 0;
    uint64_t mag = neg ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
    std::string frac = std::to_string(mag % kNsPerUs);
    frac.insert(0, 3 - frac.size(), '0');
    return (neg ? "-" : "") + std::to_string(mag / kNsPerUs) + "." + frac;
}

std::unique_ptr<TraceWriter> make_chrome_json_writer(Output& out) { return std::make_unique<ChromeJsonWriter>(out); }

std::unique_ptr<ProfileSink> make_chrome_json_sink(Output& out) {
    return std::make_unique<TraceSink>(make_chrome_json_writer(out));
}

}  // namespace nx
