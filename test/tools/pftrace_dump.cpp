// test-pftrace_dump FILE: decodes a Perfetto trace with nx's own decoder
// (common/trace/pftrace_reader.h) and prints it as JSON Lines for the Bats
// suite: one record per track (threads with their tid), slice (with the
// flows leaving and arriving: flow_out, flow_in) and counter sample, then one
// per problem the decoder found ("kind":"error").  Exit 1 when there was any.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/io/error.h"
#include "common/records/jsonl.h"
#include "common/trace/pftrace_reader.h"

namespace {

void str(nx::JsonWriter& w, const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: test-pftrace_dump FILE\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "test-pftrace_dump: cannot open %s\n", argv[1]);
        return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    nx::DecodedTrace t;
    try {
        t = nx::decode_pftrace(ss.str());
    } catch (const nx::Error& e) {
        std::fprintf(stderr, "test-pftrace_dump: %s: %s\n", argv[1], e.what());
        return 1;
    }
    auto process_of = [&](uint64_t uuid) {
        const nx::DecodedTrack* tr = t.track(uuid);
        const nx::DecodedTrack* p = tr ? t.track(tr->parent) : nullptr;
        return p ? p->name : std::string();
    };
    rapidjson::StringBuffer buf;
    for (const nx::DecodedTrack& tr : t.tracks) {
        buf.Clear();
        nx::JsonWriter w(buf);
        w.StartObject();
        str(w, "kind", "track");
        w.Key("uuid");
        w.Uint64(tr.uuid);
        str(w, "name", tr.name);
        str(w, "process", tr.is_process ? tr.name : process_of(tr.uuid));
        w.Key("is_process");
        w.Bool(tr.is_process);
        w.Key("pid");
        w.Int64(tr.pid);
        if (tr.is_thread) {
            w.Key("thread");
            w.Bool(true);
            w.Key("tid");
            w.Int64(tr.tid);
        }
        w.Key("counter");
        w.Bool(tr.is_counter);
        str(w, "unit_name", tr.unit_name);
        w.Key("unit");
        w.Uint64(tr.unit);
        w.Key("rank");
        w.Int64(tr.rank);
        w.EndObject();
        std::cout << buf.GetString() << '\n';
    }
    for (const nx::DecodedSlice& s : t.slices) {
        buf.Clear();
        nx::JsonWriter w(buf);
        const nx::DecodedTrack* tr = t.track(s.track);
        w.StartObject();
        str(w, "kind", "slice");
        str(w, "track", tr ? tr->name : "");
        str(w, "process", process_of(s.track));
        w.Key("ts");
        w.Int64(s.ts);
        w.Key("dur");
        w.Int64(s.dur);
        w.Key("depth");
        w.Int(s.depth);
        str(w, "name", s.name);
        str(w, "category", s.category);
        w.Key("args");
        w.StartObject();
        for (const auto& [k, v] : s.args) str(w, k.c_str(), v);
        w.EndObject();
        for (auto [key, ids] : {std::pair{"flow_out", &s.flow_ids}, std::pair{"flow_in", &s.terminating_flow_ids}}) {
            if (ids->empty()) continue;
            w.Key(key);
            w.StartArray();
            for (uint64_t id : *ids) w.Uint64(id);
            w.EndArray();
        }
        w.EndObject();
        std::cout << buf.GetString() << '\n';
    }
    for (const nx::DecodedCounter& c : t.counters) {
        buf.Clear();
        nx::JsonWriter w(buf);
        const nx::DecodedTrack* tr = t.track(c.track);
        w.StartObject();
        str(w, "kind", "counter");
        str(w, "track", tr ? tr->name : "");
        str(w, "process", process_of(c.track));
        w.Key("ts");
        w.Int64(c.ts);
        w.Key("value");
        nx::write_number(w, c.value);
        w.EndObject();
        std::cout << buf.GetString() << '\n';
    }
    for (const std::string& e : t.errors) {
        buf.Clear();
        nx::JsonWriter w(buf);
        w.StartObject();
        str(w, "kind", "error");
        str(w, "message", e);
        w.EndObject();
        std::cout << buf.GetString() << '\n';
    }
    return t.errors.empty() ? 0 : 1;
}
