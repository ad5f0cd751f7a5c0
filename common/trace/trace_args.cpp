#include "common/trace/trace_args.h"

#include <rapidjson/document.h>

#include <string>

#include "common/records/jsonl.h"

namespace nx {

namespace {

// Parse buffers on the stack: most args objects fit, so parsing allocates
// nothing per slice (RapidJSON falls back to the heap for bigger ones).
constexpr size_t kValueBufferBytes = 8192;
constexpr size_t kParseBufferBytes = 1024;
constexpr size_t kInsituBytes = size_t{64} << 10;

// Names nx writes itself; a source field with the same name is not repeated.
// The study database's args view (store_schema.cpp) skips the same names.
bool is_own_field(std::string_view k) {
    return k == "opcode" || k == "hlo_name" || k == "layer" || k == "bytes" || k == "flops" || k == "model_flops" ||
           k == "dma_kind" || k == "tensor" || k == "transpose" || k == "clipped_dur_ns";
}

}  // namespace

void for_each_trace_arg(const SpooledEvent& e, int64_t clipped_from_ns,
                        const std::function<void(std::string_view, const TraceArg&)>& fn) {
    auto text = [&](std::string_view name, std::string_view v, bool interned) {
        TraceArg a;
        a.kind = TraceArg::text;
        a.s = v;
        a.interned = interned;
        fn(name, a);
    };
    auto integer = [&](std::string_view name, int64_t v) {
        TraceArg a;
        a.kind = TraceArg::integer;
        a.i = v;
        fn(name, a);
    };
    auto real = [&](std::string_view name, double v) {
        TraceArg a;
        a.kind = TraceArg::real;
        a.d = v;
        fn(name, a);
    };
    if (!e.opcode.empty()) text("opcode", e.opcode, true);
    if (!e.hlo_name.empty()) text("hlo_name", e.hlo_name, true);
    if (!e.layer.empty()) text("layer", e.layer, true);
    if (e.bytes >= 0) integer("bytes", e.bytes);
    if (e.flops >= 0) real("flops", e.flops);
    if (e.model_flops >= 0 && e.model_flops != e.flops) real("model_flops", e.model_flops);
    if (e.dma_kind != DmaKind::unknown) text("dma_kind", to_string(e.dma_kind), true);
    if (!e.tensor.empty()) text("tensor", e.tensor, true);
    if (e.transpose) {
        TraceArg a;
        a.kind = TraceArg::boolean;
        a.b = true;
        fn("transpose", a);
    }
    if (clipped_from_ns >= 0) integer("clipped_dur_ns", clipped_from_ns);
    // On the overflow track (event_spool.h): where the event came from, and a
    // counter sample's value.
    bool merged = !e.merged_track.empty();
    if (merged) {
        text("track", e.merged_track, false);
        if (e.type == EventType::counter) real("value", e.value);
    }

    if (e.args_json.empty()) return;
    char value_buffer[kValueBufferBytes];
    char parse_buffer[kParseBufferBytes];
    rapidjson::MemoryPoolAllocator<> value_alloc(value_buffer, sizeof value_buffer);
    rapidjson::MemoryPoolAllocator<> parse_alloc(parse_buffer, sizeof parse_buffer);
    using PoolDocument = rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>, rapidjson::MemoryPoolAllocator<>>;
    PoolDocument doc(&value_alloc, sizeof parse_buffer, &parse_alloc);
    // A large args text is parsed in place, in a copy: a normal parse
    // gathers each string on a stack that grows by half again, so one 64 MiB
    // string held over 200 MB.
    std::string insitu;
    if (e.args_json.size() > kInsituBytes) {
        insitu.assign(e.args_json);
        doc.ParseInsitu(insitu.data());
    } else {
        doc.Parse(e.args_json.data(), e.args_json.size());
    }
    if (doc.HasParseError() || !doc.IsObject()) {
        text("args", e.args_json, false);
        return;
    }
    std::string nested;
    for (auto& m : doc.GetObject()) {
        std::string_view k(m.name.GetString(), m.name.GetStringLength());
        if (is_own_field(k) || (merged && (k == "track" || k == "value"))) continue;
        const rapidjson::Value& v = m.value;
        if (v.IsString()) {
            text(k, std::string_view(v.GetString(), v.GetStringLength()), false);
        } else if (v.IsBool()) {
            TraceArg a;
            a.kind = TraceArg::boolean;
            a.b = v.GetBool();
            fn(k, a);
        } else if (v.IsInt64()) {
            integer(k, v.GetInt64());
        } else if (v.IsNumber()) {
            real(k, v.GetDouble());
        } else {
            nested = to_json(v);  // arrays, objects, null
            text(k, nested, false);
        }
    }
}

}  // namespace nx
