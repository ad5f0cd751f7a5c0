// The dataset's events as they come: TrackOrderWindow (common/dataset/
// track_order_window.h) puts each track's events in the events table's order
// within its window, and DatasetSink (common/dataset/dataset_sink.h) writes
// them into the Parquet writer's lanes, ending a row group before an event
// that came later than the window, so every row group holds what its footer
// claims: its rows by track, then time.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/dataset/dataset_layout.h"
#include "common/dataset/dataset_sink.h"
#include "common/dataset/track_order_window.h"
#include "common/io/error.h"
#include "common/parquet/parquet_file.h"
#include "common/parquet/table_reader.h"
#include "common/profile/profile.h"

namespace {

using namespace nx;
namespace fs = std::filesystem;

struct Seen {
    uint32_t track;
    int64_t ts, end;
    int32_t depth;
    std::string name, args;
};

struct Collect : TrackOrderWindow::Target {
    std::vector<Seen> rows;
    void row(const SpooledEvent& e) override {
        rows.push_back({e.track, e.ts, e.end, e.depth, std::string(e.name), std::string(e.args_json)});
    }
};

Event slice(int64_t ts, int64_t dur, std::string_view name, int32_t depth = 0) {
    Event e;
    e.type = EventType::instruction;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.name = name;
    e.args_json = name;
    e.depth = depth;
    return e;
}

// How many rows come before one they should follow, track by track.
int out_of_order(const std::vector<Seen>& rows) {
    int n = 0;
    std::vector<const Seen*> last;
    for (const Seen& r : rows) {
        if (r.track >= last.size()) last.resize(r.track + 1, nullptr);
        if (last[r.track] && TrackOrderWindow::before(r.ts, r.end, r.depth, last[r.track]->ts, last[r.track]->end,
                                                      last[r.track]->depth))
            ++n;
        last[r.track] = &r;
    }
    return n;
}

TEST(TrackOrderWindow, EventsLateByLessThanTheWindowComeOutInTheirPlace) {
    // Three tracks of 3,000 events each, every event displaced by up to 100
    // places on its track (the window is 128); names and args survive the
    // held strings' moves.
    Collect out;
    TrackOrderWindow w(out, 128);
    std::mt19937 rng(5);
    std::vector<std::tuple<uint32_t, int64_t>> order;
    for (uint32_t t = 0; t < 3; ++t)
        for (int64_t k = 0; k < 3000; ++k) order.emplace_back(t, k * 10 + static_cast<int64_t>(rng() % 1000));
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return std::get<1>(a) / 1000 < std::get<1>(b) / 1000;  // arrival: roughly by time, not exactly
    });
    std::vector<std::string> names;
    names.reserve(order.size());
    for (const auto& [t, ts] : order) names.push_back("t" + std::to_string(t) + "@" + std::to_string(ts));
    for (size_t k = 0; k < order.size(); ++k) w.add(slice(std::get<1>(order[k]), 5, names[k]), std::get<0>(order[k]));
    w.drain();
    ASSERT_EQ(out.rows.size(), order.size());
    EXPECT_EQ(out_of_order(out.rows), 0);
    for (const Seen& r : out.rows) {
        EXPECT_EQ(r.name, "t" + std::to_string(r.track) + "@" + std::to_string(r.ts));
        EXPECT_EQ(r.args, r.name);
    }
}

TEST(TrackOrderWindow, TiesGoLongerFirstThenLowerDepthThenArrival) {
    Collect out;
    TrackOrderWindow w(out, 16);
    w.add(slice(100, 5, "child", 1), 0);
    w.add(slice(100, 5, "second", 1), 0);
    w.add(slice(100, 50, "parent", 0), 0);
    w.add(slice(100, 5, "shallow", 0), 0);
    w.add(slice(90, 1, "earlier"), 0);
    w.drain();
    std::vector<std::string> names;
    for (const Seen& r : out.rows) names.push_back(r.name);
    EXPECT_EQ(names, (std::vector<std::string>{"earlier", "parent", "shallow", "child", "second"}));
}

TEST(TrackOrderWindow, AnEventLaterThanTheWindowComesOutAfterThoseItPrecedes) {
    // The caller sees it: the row it follows is later.
    Collect out;
    TrackOrderWindow w(out, 8);
    for (int64_t k = 1; k <= 100; ++k) w.add(slice(k * 10, 1, "on time"), 0);
    w.add(slice(15, 1, "late"), 0);
    w.drain();
    ASSERT_EQ(out.rows.size(), 101u);
    EXPECT_EQ(out_of_order(out.rows), 1);
    auto late = std::find_if(out.rows.begin(), out.rows.end(), [](const Seen& r) { return r.name == "late"; });
    ASSERT_NE(late, out.rows.end());
    EXPECT_GT((late - 1)->ts, 15);
}

TEST(TrackOrderWindow, PastItsBudgetEveryTrackLetsOutItsOlderHalf) {
    // 500 tracks of in-order events and a budget of a few dozen events: all
    // come out, in order, long before the end.
    Collect out;
    TrackOrderWindow w(out, 1024, 8192);
    for (int64_t k = 0; k < 20000; ++k) w.add(slice(k, 1, "e"), static_cast<uint32_t>(k % 500));
    EXPECT_GT(out.rows.size(), 19000u);
    w.drain();
    EXPECT_EQ(out.rows.size(), 20000u);
    EXPECT_EQ(out_of_order(out.rows), 0);
    w.clear();
    w.drain();
    EXPECT_EQ(out.rows.size(), 20000u);
}

TEST(TrackOrderWindow, ASweepPastTheBudgetFreesWhatItLetsOut) {
    // 100 tracks of in-order events with 200 bytes of args each, a budget of
    // 1 MiB (a sweep when each track holds about 20): a sweep lets out every
    // track's older half and gives its memory back, so the next event does
    // not sweep again (capacity kept would leave the window over budget: the
    // next event sweeps too, halving every track's window).  Every event's
    // strings survive the moves.
    Collect out;
    TrackOrderWindow w(out, 1024, 1 << 20);
    std::vector<std::string> names;
    for (int64_t k = 0; k < 20000; ++k) names.push_back(std::to_string(k) + std::string(200, 'a'));
    int sweeps = 0, back_to_back = 0;
    bool last_swept = false;
    for (int64_t k = 0; k < 20000; ++k) {
        size_t before = out.rows.size();
        w.add(slice(k, 1, names[static_cast<size_t>(k)]), static_cast<uint32_t>(k % 100));
        std::vector<bool> tracks(100);
        for (size_t r = before; r < out.rows.size(); ++r) tracks[out.rows[r].track] = true;
        const bool swept = std::count(tracks.begin(), tracks.end(), true) >= 50;
        sweeps += swept;
        back_to_back += swept && last_swept;
        last_swept = swept;
    }
    w.drain();
    EXPECT_GT(sweeps, 5);
    EXPECT_EQ(back_to_back, 0) << "sweeps " << sweeps;
    ASSERT_EQ(out.rows.size(), 20000u);
    EXPECT_EQ(out_of_order(out.rows), 0);
    for (const Seen& r : out.rows) {
        ASSERT_EQ(r.name, names[static_cast<size_t>(r.ts)]) << "event " << r.ts;
        ASSERT_EQ(r.args, r.name);
    }
}

TEST(TrackOrderWindow, InOrderEventsKeepTheirStringsThroughEveryLetOut) {
    // The kept half's strings move down in their arena in place: each
    // event's name and args still its own after many let-outs, empty ones
    // among them.
    Collect out;
    TrackOrderWindow w(out, 8);
    std::vector<std::string> names;
    for (int64_t k = 0; k < 3000; ++k) names.push_back(k % 5 == 0 ? "" : "event " + std::to_string(k));
    for (int64_t k = 0; k < 3000; ++k) w.add(slice(k, 1, names[static_cast<size_t>(k)]), static_cast<uint32_t>(k % 3));
    w.drain();
    ASSERT_EQ(out.rows.size(), 3000u);
    for (const Seen& r : out.rows) {
        ASSERT_EQ(r.name, names[static_cast<size_t>(r.ts)]) << "event " << r.ts;
        ASSERT_EQ(r.args, r.name);
    }
}

// A profile written by DatasetSink: its events file's row groups and rows.
struct Written {
    std::vector<parquet::RowGroup> groups;
    std::vector<std::pair<int64_t, int64_t>> rows;  // track_id, ts in file order
};

Written write_profile(const std::vector<std::pair<std::string, int64_t>>& events, const std::string& root) {
    fs::remove_all(root);
    DatasetSink sink(root);
    ProfileInfo info;
    info.id = "p_0123456789abcdef";
    info.name = "lanes";
    info.rank = 3;
    sink.begin_profile(info);
    for (const auto& [track, ts] : events) {
        Event e = slice(ts, 2, "op");
        e.track = track;
        sink.event(e);
    }
    ProfileSummary summary;
    summary.events = static_cast<int64_t>(events.size());
    sink.end_profile(info, summary);
    std::string path = dataset::profile_file(root, "events", 3, info.id);
    Written w;
    w.groups = parquet::ParquetFile::open(path)->metadata().row_groups;
    parquet::TableReader r({path}, {"track_id", "ts"});
    while (r.next()) w.rows.emplace_back(r.column(0)->i64(), r.column(1)->i64());
    fs::remove_all(root);
    return w;
}

TEST(DatasetSink, AnEventLaterThanTheWindowEndsTheRowGroupSoEachStaysSorted) {
    // Two tracks; one event of track "b" comes 5,000 events late (the window
    // is 512): the row group ends before it.
    std::vector<std::pair<std::string, int64_t>> events;
    for (int64_t k = 0; k < 10000; ++k) {
        events.emplace_back("a", k * 10);
        if (k != 1000) events.emplace_back("b", k * 10 + 5);
        if (k == 6000) events.emplace_back("b", 1000 * 10 + 5);
    }
    Written w = write_profile(events, testing::TempDir() + "nx_dataset_late");
    ASSERT_EQ(w.rows.size(), events.size());
    ASSERT_EQ(w.groups.size(), 2u);
    size_t at = 0;
    for (const parquet::RowGroup& g : w.groups) {
        EXPECT_EQ(g.sorted_by.size(), 2u);  // track_id, ts
        for (int64_t k = 1; k < g.num_rows; ++k)
            EXPECT_LE(w.rows[at + k - 1], w.rows[at + k]) << "row " << at + k;
        at += static_cast<size_t>(g.num_rows);
    }
    std::vector<std::pair<int64_t, int64_t>> sorted = w.rows;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

TEST(DatasetSink, TracksPastTheLanesShareOneWhoseRowGroupsMakeNoClaim) {
    // 2,100 tracks of 30 events each, a track's run at a time as a window
    // lets them out: the 52 past 2,048 share the last lane, so the row
    // groups they are in claim no order; every event is there once.
    std::vector<std::pair<std::string, int64_t>> events;
    for (int64_t k = 0; k < 30; ++k)
        for (int t = 0; t < 2100; ++t) events.emplace_back("t" + std::to_string(t), k * 100 + t % 7);
    Written w = write_profile(events, testing::TempDir() + "nx_dataset_many_tracks");
    ASSERT_EQ(w.rows.size(), events.size());
    std::vector<std::pair<int64_t, int64_t>> sorted = w.rows, want;
    std::sort(sorted.begin(), sorted.end());
    for (int t = 0; t < 2100; ++t)
        for (int64_t k = 0; k < 30; ++k) want.emplace_back(t, k * 100 + t % 7);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(sorted, want);
    size_t at = 0;
    for (const parquet::RowGroup& g : w.groups) {
        bool overflow = false;
        for (int64_t k = 0; k < g.num_rows; ++k) overflow = overflow || w.rows[at + static_cast<size_t>(k)].first >= 2048;
        if (overflow) {
            EXPECT_TRUE(g.sorted_by.empty());
        }
        // Below the shared lane, each track's rows in order within the group.
        for (int64_t k = 1; k < g.num_rows; ++k) {
            const auto& a = w.rows[at + static_cast<size_t>(k) - 1];
            const auto& b = w.rows[at + static_cast<size_t>(k)];
            if (a.first < 2048 && b.first < 2048) {
                EXPECT_LE(a, b) << "row " << at + static_cast<size_t>(k);
            }
        }
        at += static_cast<size_t>(g.num_rows);
    }
    EXPECT_TRUE(std::any_of(w.groups.begin(), w.groups.end(), [](const parquet::RowGroup& g) { return g.sorted_by.empty(); }));
}

TEST(DatasetSink, PastSixteenLateEventsTheirRowGroupsMakeNoClaim) {
    // A track that goes backwards every 2,000 events: 16 breaks end row
    // groups (each sorted); the group the 17th lands in says nothing.
    std::vector<std::pair<std::string, int64_t>> events;
    for (int64_t block = 0; block < 20; ++block)
        for (int64_t k = 0; k < 2000; ++k) events.emplace_back("a", (100 - block) * 100000 + k);
    Written w = write_profile(events, testing::TempDir() + "nx_dataset_backwards");
    ASSERT_EQ(w.rows.size(), events.size());
    ASSERT_GE(w.groups.size(), 17u);
    int claims = 0;
    for (const parquet::RowGroup& g : w.groups) claims += g.sorted_by.empty() ? 0 : 1;
    EXPECT_EQ(claims, 16);
    EXPECT_TRUE(w.groups.back().sorted_by.empty());
}

}  // namespace

namespace {

TEST(DatasetSink, AProfileWhoseStartFailedRefusesItsEventsAndEndWithAnError) {
    // A file where the events' folder goes: begin_profile fails; with
    // --keep-going an importer may still send events and end the profile,
    // which are errors, not a crash, and leave no file.
    std::string root = testing::TempDir() + "nx_dataset_failed_begin";
    fs::remove_all(root);
    DatasetSink sink(root);
    { std::FILE* f = std::fopen((root + "/events").c_str(), "w"); ASSERT_TRUE(f); std::fclose(f); }
    ProfileInfo info;
    info.id = "p_0123456789abcdef";
    info.rank = 0;
    EXPECT_THROW(sink.begin_profile(info), Error);
    EXPECT_THROW(sink.event(slice(1, 1, "op")), Error);
    EXPECT_THROW(sink.end_profile(info, ProfileSummary{}), Error);
    EXPECT_FALSE(fs::exists(dataset::profile_file(root, "profiles", 0, info.id)));
    fs::remove_all(root);
}

}  // namespace
