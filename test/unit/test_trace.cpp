// Unit tests for the trace writers: protobuf encoding and decoding, the
// event spool's order across spilled runs, the nesting layout (overflow
// lanes, clipping), interning resets, DMA counters, Chrome JSON times.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/io/error.h"
#include "common/io/output.h"
#include "common/trace/chrome_json_sink.h"
#include "common/trace/event_spool.h"
#include "common/trace/pftrace_reader.h"
#include "common/trace/pftrace_sink.h"
#include "common/trace/protobuf_reader.h"
#include "common/trace/protobuf_writer.h"
#include "common/trace/trace_sink.h"
#include "test/unit/test_support.h"

namespace {

using nx::Engine;
using nx::Event;
using nx::EventType;

using nx_test::MemoryOutput;

Event instr(std::string_view track, Engine engine, int64_t ts, int64_t dur, std::string_view name = "MATMUL") {
    return nx_test::make_event(EventType::instruction, engine, track, ts, dur, name);
}

Event dma(std::string_view queue, int64_t ts, int64_t dur, int64_t bytes) {
    Event e = nx_test::make_event(EventType::dma, Engine::dma, queue, ts, dur, {}, "dma");
    e.bytes = bytes;
    return e;
}

using nx_test::trace_of;

std::vector<const nx::DecodedSlice*> slices_on(const nx::DecodedTrace& t, std::string_view track) {
    std::vector<const nx::DecodedSlice*> out;
    const nx::DecodedTrack* tr = t.track_named(track);
    for (const auto& s : t.slices)
        if (tr && s.track == tr->uuid) out.push_back(&s);
    return out;
}

TEST(ProtobufWriter, VarintsAreBase128LittleEndian) {
    std::string s;
    nx::proto::append_varint(s, 300);
    EXPECT_EQ(s, std::string("\xAC\x02", 2));
    nx::proto::ProtoWriter w;
    w.add_int(1, -1);  // int64 -1: ten bytes after the tag
    EXPECT_EQ(w.data().size(), 11u);
}

TEST(ProtobufWriter, NestedMessagesGetTheirLengthAndReadBack) {
    nx::proto::ProtoWriter w;
    w.begin(3);
    w.add_string(2, "abc");
    w.add_double(5, 2.5);
    w.end();
    w.add_varint(4, 7);
    nx::proto::ProtoReader r(w.data());
    nx::proto::Field f;
    ASSERT_TRUE(r.next(f));
    EXPECT_EQ(f.number, 3u);
    ASSERT_EQ(f.type, nx::proto::WireType::length_delimited);
    nx::proto::ProtoReader inner(f.bytes);
    nx::proto::Field g;
    ASSERT_TRUE(inner.next(g));
    EXPECT_EQ(g.bytes, "abc");
    ASSERT_TRUE(inner.next(g));
    EXPECT_EQ(g.as_double(), 2.5);
    EXPECT_FALSE(inner.next(g));
    ASSERT_TRUE(r.next(f));
    EXPECT_EQ(f.number, 4u);
    EXPECT_EQ(f.value, 7u);
    EXPECT_FALSE(r.next(f));
}

TEST(ProtobufReader, TruncatedInputThrowsInsteadOfReadingPastTheEnd) {
    nx::proto::ProtoWriter w;
    w.add_string(2, "abcdef");
    std::string cut = w.data().substr(0, 4);
    nx::proto::ProtoReader r(cut);
    nx::proto::Field f;
    EXPECT_THROW(r.next(f), nx::Error);
    std::string bad_varint("\x08\xFF\xFF", 3);
    nx::proto::ProtoReader r2(bad_varint);
    EXPECT_THROW(r2.next(f), nx::Error);
}

TEST(EventSpool, ReadsBackInStartOrderAcrossSpilledRuns) {
    nx::EventSpool spool(4096);  // a few dozen records per run
    std::vector<std::string> names;
    for (int i = 0; i < 2000; ++i) names.push_back("op" + std::to_string(i));
    // Reverse order, so every run is reversed and runs interleave.
    for (int i = 1999; i >= 0; --i) spool.add(instr("Vector", Engine::vector, i * 10, 5, names[static_cast<size_t>(i)]));
    EXPECT_GT(spool.runs(), 10u);
    nx::EventSpool::Reader r(spool);
    nx::SpooledEvent e;
    int n = 0;
    while (r.next(e)) {
        ASSERT_EQ(e.ts, n * 10);
        ASSERT_EQ(e.name, names[static_cast<size_t>(n)]);
        ++n;
    }
    EXPECT_EQ(n, 2000);
    EXPECT_EQ(spool.start_ns(), 0);
    EXPECT_EQ(spool.end_ns(), 19995);
}

TEST(EventSpool, TrackOrderGroupsEachTrackInTheOrderTracksFirstCameAcrossSpilledRuns) {
    nx::EventSpool spool(4096, nx::EventSpool::Order::track_then_time);
    // Three tracks interleaved, each in reverse time order.
    const char* tracks[] = {"Vector", "Scalar", "qSyncIO0"};
    for (int i = 599; i >= 0; --i) spool.add(instr(tracks[i % 3], Engine::vector, i * 10, 5, "op"));
    EXPECT_GT(spool.runs(), 3u);
    nx::EventSpool::Reader r(spool);
    nx::SpooledEvent e;
    std::vector<std::pair<uint32_t, int64_t>> got;
    while (r.next(e)) got.emplace_back(e.track, e.ts);
    ASSERT_EQ(got.size(), 600u);
    // The first event added was on track 599 % 3 == 2 ("qSyncIO0"): index 0.
    EXPECT_EQ(spool.tracks()[got.front().first].name, "qSyncIO0");
    for (size_t k = 1; k < got.size(); ++k) {
        ASSERT_LE(got[k - 1].first, got[k].first) << k;
        if (got[k - 1].first == got[k].first) {
            ASSERT_LT(got[k - 1].second, got[k].second) << k;
        }
    }
    EXPECT_EQ(got[199].first, got[0].first);
    EXPECT_NE(got[200].first, got[0].first);
}

TEST(EventSpool, TrackOrderGivesTheComparisonSortsOrderWhateverTheArrival) {
    // sort_chunk sorts a by-track chunk by counting tracks, then sorts only
    // the tracks whose events came out of order: random profiles (ties in
    // start and end, nesting depths, tracks in order, shuffled and reversed,
    // one chunk or many spilled runs) must read back in the order of the
    // full comparison (track, start, longer first, depth, arrival).
    std::mt19937 rng(7);
    for (int round = 0; round < 30; ++round) {
        int tracks = 1 + static_cast<int>(rng() % 12), n = 1 + static_cast<int>(rng() % 3000);
        struct Want { std::string track; int64_t ts, end; int depth; int seq; };
        std::vector<Want> added;
        std::vector<int64_t> clock(static_cast<size_t>(tracks), 0);
        for (int i = 0; i < n; ++i) {
            int t = static_cast<int>(rng() % static_cast<unsigned>(tracks));
            int64_t ts;
            switch (t % 3) {
                case 0: ts = clock[static_cast<size_t>(t)] += static_cast<int64_t>(rng() % 3); break;  // in order, ties
                case 1: ts = static_cast<int64_t>(rng() % 500); break;                              // shuffled
                default: ts = 100000 - (clock[static_cast<size_t>(t)] += 1 + static_cast<int64_t>(rng() % 4));
            }
            int64_t dur = static_cast<int64_t>(rng() % 4);
            added.push_back({"t" + std::to_string(t), ts, ts + dur, static_cast<int>(rng() % 3), i});
        }
        // Events hold views: their names must outlive the adds.
        std::vector<std::string> names;
        for (const Want& w : added) names.push_back("e" + std::to_string(w.seq));
        for (size_t chunk : {size_t{2048}, size_t{1} << 20}) {
            nx::EventSpool spool(chunk, nx::EventSpool::Order::track_then_time);
            for (const Want& w : added) {
                Event e = instr(w.track, Engine::vector, w.ts, w.end - w.ts, names[static_cast<size_t>(w.seq)]);
                e.depth = w.depth;
                spool.add(e);
            }
            // Track indexes in the order tracks first came.
            std::map<std::string, int> index;
            for (const Want& w : added) index.emplace(w.track, static_cast<int>(index.size()));
            std::vector<Want> want = added;
            std::sort(want.begin(), want.end(), [&](const Want& a, const Want& b) {
                int ta = index[a.track], tb = index[b.track];
                if (ta != tb) return ta < tb;
                if (a.ts != b.ts) return a.ts < b.ts;
                if (a.end != b.end) return a.end > b.end;
                if (a.depth != b.depth) return a.depth < b.depth;
                return a.seq < b.seq;
            });
            nx::EventSpool::Reader r(spool);
            nx::SpooledEvent e;
            size_t k = 0;
            while (r.next(e)) {
                ASSERT_LT(k, want.size());
                ASSERT_EQ(e.name, "e" + std::to_string(want[k].seq)) << "round " << round << ", chunk " << chunk << ", at " << k;
                ++k;
            }
            ASSERT_EQ(k, want.size());
        }
    }
}

TEST(EventSpool, TimeOrderGivesTheComparisonSortsOrderWhetherChunksAreMergedOrSorted) {
    // sort_chunk merges a time-ordered chunk that holds few sorted runs (a
    // source's instructions, then its DMA transfers) and sorts one of many:
    // 1 to 40 runs of random lengths, with ties in start and end, nesting
    // depths and a run out of order now and then, in one chunk or many
    // spilled runs, must read back in the full comparison's order (start,
    // longer first, depth, arrival).
    std::mt19937 rng(11);
    for (int round = 0; round < 40; ++round) {
        int runs = 1 + round % 40, per_run = 1 + static_cast<int>(rng() % 400);
        struct Want { int64_t ts, end; int depth; int seq; };
        std::vector<Want> added;
        for (int r = 0; r < runs; ++r) {
            int64_t clock = static_cast<int64_t>(rng() % 1000);
            bool shuffled = rng() % 8 == 0;
            for (int i = 0; i < per_run; ++i) {
                int64_t ts = shuffled ? static_cast<int64_t>(rng() % 2000) : (clock += static_cast<int64_t>(rng() % 3));
                int64_t dur = static_cast<int64_t>(rng() % 4);
                added.push_back({ts, ts + dur, static_cast<int>(rng() % 2), static_cast<int>(added.size())});
            }
        }
        std::vector<std::string> names;
        for (const Want& w : added) names.push_back("e" + std::to_string(w.seq));
        std::vector<Want> want = added;
        std::sort(want.begin(), want.end(), [](const Want& a, const Want& b) {
            if (a.ts != b.ts) return a.ts < b.ts;
            if (a.end != b.end) return a.end > b.end;
            if (a.depth != b.depth) return a.depth < b.depth;
            return a.seq < b.seq;
        });
        for (size_t chunk : {size_t{2048}, size_t{1} << 22}) {
            nx::EventSpool spool(chunk);
            for (const Want& w : added) {
                Event e = instr("Vector", Engine::vector, w.ts, w.end - w.ts, names[static_cast<size_t>(w.seq)]);
                e.depth = w.depth;
                spool.add(e);
            }
            nx::EventSpool::Reader r(spool);
            nx::SpooledEvent e;
            size_t k = 0;
            while (r.next(e)) {
                ASSERT_LT(k, want.size());
                ASSERT_EQ(e.name, "e" + std::to_string(want[k].seq))
                    << "round " << round << " (" << runs << " runs), chunk " << chunk << ", at " << k;
                ++k;
            }
            ASSERT_EQ(k, want.size());
        }
    }
}

TEST(EventSpool, EveryFieldReadsBackWhetherAtItsDefaultOrNot) {
    // Records carry only the numbers and strings that differ from their
    // defaults: both cases must read back exactly, -0.0 included.
    nx::EventSpool spool;
    Event full = dma("qSyncIO0", 10, 20, 4096);
    full.flops = 2.5;
    full.model_flops = 0;
    full.value = -0.0;
    full.transpose = true;
    full.dma_kind = nx::DmaKind::spill_save;
    full.opcode = "COPY";
    full.hlo_name = "%h";
    full.layer = "l";
    full.tensor = "t";
    full.args_json = R"({"a":1})";
    spool.add(full, 77);
    Event bare = nx_test::make_event(EventType::region, Engine::none, "", 30, 0);
    spool.add(bare);
    nx::EventSpool::Reader r(spool);
    nx::SpooledEvent e;
    ASSERT_TRUE(r.next(e));
    EXPECT_EQ(e.ref, 77);
    EXPECT_EQ(e.bytes, 4096);
    EXPECT_EQ(e.flops, 2.5);
    EXPECT_EQ(e.model_flops, 0);
    EXPECT_TRUE(std::signbit(e.value));
    EXPECT_TRUE(e.transpose);
    EXPECT_EQ(e.dma_kind, nx::DmaKind::spill_save);
    EXPECT_EQ(e.engine, Engine::dma);
    EXPECT_EQ(e.type, EventType::dma);
    EXPECT_EQ(e.name, "dma");
    EXPECT_EQ(e.opcode, "COPY");
    EXPECT_EQ(e.hlo_name, "%h");
    EXPECT_EQ(e.layer, "l");
    EXPECT_EQ(e.tensor, "t");
    EXPECT_EQ(e.args_json, R"({"a":1})");
    EXPECT_EQ(e.end, 30);
    ASSERT_TRUE(r.next(e));
    EXPECT_EQ(e.ref, 0);
    EXPECT_EQ(e.bytes, -1);
    EXPECT_EQ(e.flops, -1);
    EXPECT_EQ(e.model_flops, -1);
    EXPECT_EQ(e.value, 0);
    EXPECT_FALSE(std::signbit(e.value));
    EXPECT_FALSE(e.transpose);
    EXPECT_TRUE(e.name.empty() && e.opcode.empty() && e.args_json.empty());
    // A row the source does not name is named after the event's type.
    EXPECT_EQ(spool.tracks()[e.track].name, "region");
    EXPECT_FALSE(r.next(e));
}

TEST(EventSpool, ChunksThatArriveInOrderAreSpilledWholeAndReadBackTheSame) {
    nx::EventSpool spool(4096);
    for (int i = 0; i < 2000; ++i) {
        std::string queue = "qSyncIO" + std::to_string(i % 3);  // the event only views its track
        Event e = dma(queue, i * 10, 5 + i % 7, i);
        spool.add(e, i + 1);
    }
    EXPECT_GT(spool.runs(), 10u);
    nx::EventSpool::Reader r(spool);
    nx::SpooledEvent e;
    int n = 0;
    while (r.next(e)) {
        ASSERT_EQ(e.ts, n * 10);
        ASSERT_EQ(e.end, n * 10 + 5 + n % 7);
        ASSERT_EQ(e.bytes, n);
        ASSERT_EQ(e.ref, n + 1);
        ASSERT_EQ(spool.tracks()[e.track].name, "qSyncIO" + std::to_string(n % 3));
        ++n;
    }
    EXPECT_EQ(n, 2000);
}

TEST(EventSpool, TiesPutTheLongerEventFirstThenArrivalOrder) {
    nx::EventSpool spool;
    spool.add(instr("Vector", Engine::vector, 100, 5, "short"));
    spool.add(instr("Vector", Engine::vector, 100, 50, "long"));
    spool.add(instr("Vector", Engine::vector, 100, 5, "short2"));
    spool.add(instr("Vector", Engine::vector, 50, -3, "negative"));
    nx::EventSpool::Reader r(spool);
    nx::SpooledEvent e;
    std::vector<std::string> order;
    while (r.next(e)) order.emplace_back(e.name);
    EXPECT_EQ(order, (std::vector<std::string>{"negative", "long", "short", "short2"}));
}

TEST(TraceLayout, NestedSlicesStayOnOneTrackAndPartialOverlapsOpenAnOverflowTrack) {
    nx::DecodedTrace t = trace_of({
        instr("TensorMatrix", Engine::tensor_matrix, 0, 100, "outer"),
        instr("TensorMatrix", Engine::tensor_matrix, 10, 20, "inner"),
        instr("TensorMatrix", Engine::tensor_matrix, 50, 100, "crosses"),  // 50..150 crosses outer's end
        instr("TensorMatrix", Engine::tensor_matrix, 200, 10, "after"),
    });
    EXPECT_TRUE(t.errors.empty()) << t.errors.front();
    auto main = slices_on(t, "TensorMatrix");
    auto overflow = slices_on(t, "TensorMatrix (2)");
    ASSERT_EQ(main.size(), 3u);
    ASSERT_EQ(overflow.size(), 1u);
    EXPECT_EQ(main[0]->name, "outer");
    EXPECT_EQ(main[0]->dur, 100);
    EXPECT_EQ(main[1]->name, "inner");
    EXPECT_EQ(main[1]->depth, 1);
    EXPECT_EQ(main[2]->name, "after");
    EXPECT_EQ(main[2]->depth, 0);
    EXPECT_EQ(overflow[0]->name, "crosses");
    EXPECT_EQ(overflow[0]->ts, 50);
    EXPECT_EQ(overflow[0]->dur, 100);
    // The overflow lane sits right after its row.
    EXPECT_EQ(t.track_named("TensorMatrix (2)")->rank, t.track_named("TensorMatrix")->rank + 1);
}

TEST(TraceLayout, ZeroDurationsAndIdenticalSlicesNestWithoutErrors) {
    nx::DecodedTrace t = trace_of({
        instr("Vector", Engine::vector, 10, 0, "a"),
        instr("Vector", Engine::vector, 10, 0, "b"),
        instr("Vector", Engine::vector, 10, 30, "c"),
        instr("Vector", Engine::vector, 10, 30, "d"),
        instr("Vector", Engine::vector, 40, 0, "e"),
    });
    EXPECT_TRUE(t.errors.empty()) << t.errors.front();
    auto v = slices_on(t, "Vector");
    ASSERT_EQ(v.size(), 5u);
    EXPECT_EQ(t.track_named("Vector (2)"), nullptr);
    for (const auto* s : v) EXPECT_GE(s->dur, 0);
}

TEST(TraceLayout, ZeroDurationSlicesAtOneTimeAreSiblingsInTheSourcesOrder) {
    // b2 arrives first (a Chrome B/E child closes before its parent) but the
    // source nests it inside b1 (depth 1): b1 comes first; neither of two
    // zero-duration slices contains the other.
    Event b2 = instr("host", Engine::none, 10, 0, "b2");
    b2.depth = 1;
    nx::DecodedTrace t = trace_of({instr("host", Engine::none, 0, 0, "x1"), instr("host", Engine::none, 0, 0, "x2"), b2,
                                   instr("host", Engine::none, 10, 0, "b1")});
    EXPECT_TRUE(t.errors.empty());
    auto h = slices_on(t, "host");
    ASSERT_EQ(h.size(), 4u);
    std::vector<std::string> order;
    for (const auto* s : h) {
        order.push_back(s->name);
        EXPECT_EQ(s->depth, 0) << s->name;
    }
    EXPECT_EQ(order, (std::vector<std::string>{"x1", "x2", "b1", "b2"}));
}

// Events of a source with processes and threads (a Chrome trace's).
Event on_thread(std::string_view track, int64_t pid, int64_t tid, std::string_view process, int64_t ts, int64_t dur,
                std::string_view name) {
    Event e = nx_test::make_event(EventType::region, Engine::none, track, ts, dur, {}, name);
    e.pid = pid;
    e.tid = tid;
    e.process = process;
    return e;
}

// Runs profiles (each a list of events and flows) through one pftrace sink.
nx::DecodedTrace trace_of_profiles(const std::vector<std::pair<std::vector<Event>, std::vector<nx::Flow>>>& profiles,
                                   int64_t* left_out = nullptr) {
    MemoryOutput mem;
    nx::TraceSink sink(nx::make_pftrace_writer(mem.out()));
    for (size_t i = 0; i < profiles.size(); ++i) {
        nx::ProfileInfo info;
        info.name = "p" + std::to_string(i + 1);
        sink.begin_profile(info);
        for (const Event& e : profiles[i].first) sink.event(e);
        for (const nx::Flow& f : profiles[i].second) sink.flow(f);
        sink.end_profile(info, {});
    }
    sink.finish();
    if (left_out) *left_out = sink.totals().flows_left_out;
    return nx::decode_pftrace(mem.text());
}

nx::Flow flow(int64_t from, int64_t to) {
    nx::Flow f;
    f.from = from;
    f.to = to;
    return f;
}

TEST(TraceLayout, SourceProcessesAndThreadsKeepTheirIds) {
    std::vector<Event> kineto = {on_thread("thread 5 (python)", 5, 5, "python", 0, 10, "op"),
                                 on_thread("stream 7", 0, 7, "GPU 0", 2, 3, "kernel"),
                                 on_thread("stream 7 (2)", 0, 7, "GPU 0", 9, 3, "other"),  // one (pid, tid) twice
                                 on_thread("Spans/x", nx::kNoId, nx::kNoId, {}, 0, 1, "span")};
    nx::DecodedTrace t = trace_of_profiles({{kineto, {}}, {kineto, {}}});
    EXPECT_TRUE(t.errors.empty()) << t.errors.front();
    std::vector<std::string> processes, threads;
    for (const auto& tr : t.tracks) {
        if (tr.is_process) processes.push_back(tr.name + " " + std::to_string(tr.pid));
        if (tr.is_thread) threads.push_back(tr.name + " " + std::to_string(tr.pid) + "/" + std::to_string(tr.tid));
    }
    // The second profile's pids and tids are taken: fresh ones from 2^30.
    EXPECT_EQ(processes, (std::vector<std::string>{"p1 1", "GPU 0 0", "python 5", "p2 2", "GPU 0 1073741824",
                                                   "python 1073741825"}));
    EXPECT_EQ(threads[0], "stream 7 0/7");
    EXPECT_EQ(threads[1], "stream 7 (2) 0/1073741824");
    EXPECT_EQ(threads[2], "thread 5 (python) 5/5");
    EXPECT_EQ(threads.size(), 6u);
    EXPECT_EQ(t.track(t.track_named("Spans/x")->parent)->name, "p1");
}

TEST(TraceLayout, FlowsJoinTheirSlicesAndSourcesComeFirstAtOneTime) {
    // "sync" (the destination) sorts before "call" at one time; the flow's
    // start must still be written first.
    std::vector<Event> ev = {on_thread("stream", 0, 7, "GPU", 10, 5, "sync"),
                             on_thread("thread", 1, 1, "cpu", 10, 5, "call"),
                             on_thread("thread", 1, 1, "cpu", 0, 5, "launch"),
                             on_thread("stream", 0, 7, "GPU", 6, 1, "kernel"),
                             on_thread("thread", 1, 1, "cpu", 30, 1, "late"),
                             on_thread("stream", 0, 7, "GPU", 20, 1, "early")};
    int64_t left_out = 0;
    nx::DecodedTrace t = trace_of_profiles({{ev, {flow(2, 3), flow(1, 0), flow(4, 5)}}}, &left_out);
    EXPECT_TRUE(t.errors.empty()) << t.errors.front();
    std::map<uint64_t, std::string> out, in;
    std::vector<std::string> order;
    for (const auto& s : t.slices) {
        order.push_back(s.name);
        for (uint64_t id : s.flow_ids) out[id] = s.name;
        for (uint64_t id : s.terminating_flow_ids) in[id] = s.name;
    }
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(in.size(), 2u);
    std::vector<std::string> arrows;
    for (auto& [id, name] : out) arrows.push_back(name + " -> " + in[id]);
    EXPECT_EQ(arrows, (std::vector<std::string>{"launch -> kernel", "call -> sync"}));
    EXPECT_LT(std::find(order.begin(), order.end(), "call") - order.begin(),
              std::find(order.begin(), order.end(), "sync") - order.begin());
    // late -> early goes back in time: left out, and counted.
    EXPECT_EQ(left_out, 1);
}

TEST(TraceIds, KeepsFreeIdsAndGivesFreshOnesForTakenOrOutOfRangeOnes) {
    nx::TraceIds ids;
    EXPECT_EQ(ids.process(0), 0);
    EXPECT_EQ(ids.process(7), 7);
    EXPECT_EQ(ids.process(7), nx::TraceIds::kFirstFreshId);
    EXPECT_EQ(ids.process(int64_t{1} << 40), nx::TraceIds::kFirstFreshId + 1);
    EXPECT_EQ(ids.process(-1), nx::TraceIds::kFirstFreshId + 2);
    EXPECT_EQ(ids.process(nx::kNoId), nx::TraceIds::kFirstFreshId + 3);
    EXPECT_EQ(ids.thread(7), 7);  // threads are numbered apart
}

TEST(ChromeJsonWriter, FlowsAreFlowEventsRightAfterTheirSlices) {
    MemoryOutput mem;
    nx::TraceSink sink(nx::make_chrome_json_writer(mem.out()));
    nx::ProfileInfo info;
    info.name = "p";
    sink.begin_profile(info);
    sink.event(on_thread("thread", 1, 1, "cpu", 0, 5, "launch"));
    sink.event(on_thread("stream", 0, 7, "GPU", 6, 1, "kernel"));
    nx::Flow f = flow(0, 1);
    f.category = "ac2g";
    f.name = "ac2g";
    sink.flow(f);
    sink.end_profile(info, {});
    sink.finish();
    std::string text = mem.text();
    size_t launch = text.find("\"launch\""), s = text.find("\"ph\":\"s\""), kernel = text.find("\"kernel\""),
           fin = text.find("\"ph\":\"f\"");
    ASSERT_NE(fin, std::string::npos) << text;
    EXPECT_LT(launch, s);
    EXPECT_LT(s, kernel);
    EXPECT_LT(kernel, fin);
    EXPECT_NE(text.find("{\"ph\":\"f\",\"pid\":0,\"tid\":7,\"bp\":\"e\",\"id\":4294967297,\"cat\":\"ac2g\",\"name\":\"ac2g\","
                        "\"ts\":0.006}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"GPU\"}}"),
              std::string::npos);
}

TEST(TraceLayout, PastTheLaneLimitSlicesAreClippedAndSaySo) {
    std::vector<Event> events;
    // Staircase: each starts 1 ns after and ends 1 ns after the previous one,
    // so no two nest.
    for (int i = 0; i < nx::kMaxLanes + 3; ++i) events.push_back(instr("Scalar", Engine::scalar, i, 1000, "s"));
    nx::DecodedTrace t = trace_of(events);
    EXPECT_TRUE(t.errors.empty());
    EXPECT_NE(t.track_named(nx::lane_name("Scalar", nx::kMaxLanes - 1)), nullptr);
    EXPECT_EQ(t.track_named(nx::lane_name("Scalar", nx::kMaxLanes)), nullptr);
    int clipped = 0;
    for (const auto& s : t.slices)
        if (!s.arg("clipped_dur_ns").empty()) {
            ++clipped;
            EXPECT_EQ(s.arg("clipped_dur_ns"), "1000");
            EXPECT_LT(s.dur, 1000);
        }
    EXPECT_EQ(clipped, 3);
}

TEST(TraceLayout, DmaCountersStepAtEveryStartAndEnd) {
    nx::DecodedTrace t = trace_of({dma("q0", 0, 100, 1000), dma("q1", 50, 100, 2000)});
    EXPECT_TRUE(t.errors.empty());
    std::map<int64_t, double> pending, tput;
    for (const auto& c : t.counters) {
        std::string name = t.track(c.track)->name;
        if (name == "DMA pending transfers") pending[c.ts] = c.value;
        if (name == "DMA throughput (B/s)") tput[c.ts] = c.value;
    }
    EXPECT_EQ(pending, (std::map<int64_t, double>{{0, 1}, {50, 2}, {100, 1}, {150, 0}}));
    // 1000 B over 100 ns = 1e10 B/s; plus 2000 B over 100 ns.
    EXPECT_DOUBLE_EQ(tput[0], 1e10);
    EXPECT_DOUBLE_EQ(tput[50], 3e10);
    EXPECT_DOUBLE_EQ(tput[100], 2e10);
    EXPECT_EQ(tput[150], 0);
    EXPECT_EQ(t.track_named("DMA pending transfers")->unit, 2u);
}

TEST(TraceLayout, UtilisationIsTheBusyShareOfEachBin) {
    // Busy [0,100) of [0,200): the first half 100%, the second 0%.
    nx::DecodedTrace t = trace_of({instr("Vector", Engine::vector, 0, 100), instr("Vector", Engine::vector, 50, 50),
                                   instr("Vector", Engine::vector, 199, 1)});
    const nx::DecodedTrack* u = t.track_named("Vector utilisation (%)");
    ASSERT_NE(u, nullptr);
    std::vector<std::pair<int64_t, double>> samples;
    for (const auto& c : t.counters)
        if (c.track == u->uuid) samples.emplace_back(c.ts, c.value);
    ASSERT_GE(samples.size(), 3u);
    EXPECT_EQ(samples.front(), (std::pair<int64_t, double>{0, 100}));
    EXPECT_EQ(samples[1], (std::pair<int64_t, double>{100, 0}));
    EXPECT_EQ(samples.back(), (std::pair<int64_t, double>{200, 0}));
}

TEST(PftraceWriter, InternTablesResetPastTheLimitAndEveryNameStillResolves) {
    std::vector<std::string> names;
    const size_t n = nx::kMaxInternedEntries + 100;
    for (size_t i = 0; i < n; ++i) names.push_back("op" + std::to_string(i));
    std::vector<Event> events;
    for (size_t i = 0; i < n; ++i) events.push_back(instr("Vector", Engine::vector, static_cast<int64_t>(i) * 2, 1, names[i]));
    nx::DecodedTrace t = trace_of(events);
    EXPECT_TRUE(t.errors.empty()) << t.errors.front();
    ASSERT_EQ(t.slices.size(), n);
    EXPECT_EQ(t.slices.back().name, names.back());
    EXPECT_EQ(t.slices[12345].name, names[12345]);
}

TEST(PftraceWriter, AnEmptyProfileIsAProcessWithoutTracks) {
    nx::DecodedTrace t = trace_of({});
    EXPECT_TRUE(t.errors.empty());
    ASSERT_EQ(t.tracks.size(), 1u);
    EXPECT_TRUE(t.tracks[0].is_process);
    EXPECT_EQ(t.tracks[0].name, "p");
}

TEST(PftraceReader, CatchesAnEndWithoutABeginAndEventsOnUnknownTracks) {
    nx::proto::ProtoWriter w;
    w.begin(1);  // a packet with an end on track 5, never declared
    w.add_varint(8, 10);
    w.begin(11);
    w.add_varint(9, 2);
    w.add_varint(11, 5);
    w.end();
    w.end();
    nx::DecodedTrace t = nx::decode_pftrace(w.data());
    ASSERT_EQ(t.errors.size(), 1u);
    EXPECT_NE(t.errors[0].find("undeclared track 5"), std::string::npos);
}

TEST(ChromeJson, TimesAreExactMicrosecondsWithNanosecondDecimals) {
    EXPECT_EQ(nx::ns_as_us(1234567), "1234.567");
    EXPECT_EQ(nx::ns_as_us(5), "0.005");
    EXPECT_EQ(nx::ns_as_us(-1500), "-1.500");
    EXPECT_EQ(nx::ns_as_us(0), "0.000");
}

}  // namespace
