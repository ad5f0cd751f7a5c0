// Names read from input as dataset file names (dataset_names.h), the folder
// work that never follows a link (io/dir_handle.h), bounded string
// statistics (parquet/string_bounds.h) and the plan's escaped paths
// (dataset_plan.h).  The commit protocol under real stops is
// test/74-dataset-safety.bats's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/dataset/dataset_names.h"
#include "common/dataset/dataset_plan.h"
#include "common/io/dir_handle.h"
#include "common/io/error.h"
#include "common/parquet/string_bounds.h"
#include "test/unit/test_support.h"

namespace {

using nx::dataset::file_stem;
using nx::dataset::profile_id_of_stem;

TEST(DatasetNames, AnIdOfLettersDigitsDashesDotsAndUnderscoresIsItsOwnStem) {
    EXPECT_EQ(file_stem("p_0123456789abcdef"), "p_0123456789abcdef");
    EXPECT_EQ(file_stem("rank-3.graph_1"), "rank-3.graph_1");
}

TEST(DatasetNames, SlashesDotsFirstUnderscoresFirstAndPercentsAreWrittenAsHex) {
    EXPECT_EQ(file_stem("../../out/victim"), "%2E.%2F..%2Fout%2Fvictim");
    EXPECT_EQ(file_stem("."), "%2E");
    EXPECT_EQ(file_stem(".."), "%2E.");
    EXPECT_EQ(file_stem("_x"), "%5Fx");
    EXPECT_EQ(file_stem("a%b"), "a%25b");
    EXPECT_EQ(file_stem(std::string("a\0b", 3)), "a%00b");
    EXPECT_EQ(file_stem("\xc3\xa9"), "%C3%A9");
}

TEST(DatasetNames, EveryStemReadsBackAsItsIdAndNoOtherSpellingDoes) {
    for (std::string id : {"p_1", "../x", ".", "..", "_", "a b\tc\nd", "%2F", "\xff\xfe"}) {
        std::string stem = file_stem(id);
        EXPECT_EQ(stem.find('/'), std::string::npos) << id;
        EXPECT_NE(stem[0], '.') << id;
        EXPECT_EQ(profile_id_of_stem(stem), id) << id;
    }
    EXPECT_FALSE(profile_id_of_stem("%41"));   // 'A' needs no escape
    EXPECT_FALSE(profile_id_of_stem("%2f"));   // lowercase hex is not nx's
    EXPECT_FALSE(profile_id_of_stem("a%2"));   // cut short
    EXPECT_FALSE(profile_id_of_stem(".x"));    // hidden
    EXPECT_FALSE(profile_id_of_stem("a b"));   // a byte left raw
    EXPECT_FALSE(profile_id_of_stem(""));
}

TEST(DatasetNames, AnEmptyIdOrOneTooLongOnceWrittenIsRefused) {
    EXPECT_THROW(file_stem(""), nx::Error);
    EXPECT_NO_THROW(file_stem(std::string(nx::dataset::kMaxStemBytes, 'x')));
    EXPECT_THROW(file_stem(std::string(nx::dataset::kMaxStemBytes + 1, 'x')), nx::Error);
    EXPECT_THROW(file_stem(std::string(70, '/')), nx::Error);  // 210 bytes once written
}

TEST(DatasetNames, PartitionFoldersAreRanksFromZeroOrTheNullPartition) {
    using nx::dataset::partition_folder;
    using nx::dataset::rank_of_partition_folder;
    EXPECT_EQ(partition_folder(7), "rank=7");
    EXPECT_EQ(partition_folder(-1), "rank=__HIVE_DEFAULT_PARTITION__");
    EXPECT_EQ(rank_of_partition_folder("rank=7"), 7);
    EXPECT_EQ(rank_of_partition_folder("rank=__HIVE_DEFAULT_PARTITION__"), -1);
    EXPECT_FALSE(rank_of_partition_folder("rank=07"));
    EXPECT_FALSE(rank_of_partition_folder("rank=-2"));
    EXPECT_FALSE(rank_of_partition_folder("rank=99999999999"));
    EXPECT_FALSE(rank_of_partition_folder("host=3"));
}

TEST(DirHandle, AFolderThatIsALinkIsRefusedNotFollowed) {
    nx_test::TempDir tmp;
    std::filesystem::create_directories(tmp.path("outside"));
    std::filesystem::create_directories(tmp.path("ds"));
    std::filesystem::create_directory_symlink("../outside", tmp.path("ds/engines"));
    nx::DirHandle ds = nx::DirHandle::open_path(tmp.path("ds"), false);
    try {
        ds.sub("engines", true);
        FAIL() << "a link was followed";
    } catch (const nx::Error& e) {
        EXPECT_NE(std::string(e.what()).find("a symbolic link where nx keeps a folder of its own"), std::string::npos);
        EXPECT_EQ(e.where(), tmp.path("ds/engines"));
    }
    EXPECT_THROW(ds.sub("../outside", false), nx::Error);
    EXPECT_THROW(ds.remove("a/b"), nx::Error);
    EXPECT_FALSE(ds.sub("missing", false).is_open());
}

TEST(DirHandle, RenamesAndRemovalsStayInTheFoldersHeldOpenEvenWhenTheirPathIsSwapped) {
    nx_test::TempDir tmp;
    std::filesystem::create_directories(tmp.path("ds/t"));
    std::filesystem::create_directories(tmp.path("outside"));
    nx::DirHandle t = nx::DirHandle::open_path(tmp.path("ds"), false).sub("t", false);
    tmp.write("ds/t/x", "mine");
    tmp.write("outside/x", "theirs");
    // Someone swaps the folder for a link after nx opened it.
    std::filesystem::rename(tmp.path("ds/t"), tmp.path("ds/t.moved"));
    std::filesystem::create_directory_symlink("../outside", tmp.path("ds/t"));
    EXPECT_TRUE(t.remove("x"));
    EXPECT_TRUE(std::filesystem::exists(tmp.path("outside/x")));
    EXPECT_FALSE(std::filesystem::exists(tmp.path("ds/t.moved/x")));
}

TEST(DirHandle, AFileLockIsHeldByOneOpenerAtATime) {
    nx_test::TempDir tmp;
    nx::DirHandle d = nx::DirHandle::open_path(tmp.path("locks"), true);
    nx::FileLock first(d, "p", false);
    ASSERT_TRUE(first.held());
    nx::FileLock second(d, "p", false);
    EXPECT_FALSE(second.held());
    first = nx::FileLock();
    nx::FileLock third(d, "p", false);
    EXPECT_TRUE(third.held());
}

TEST(StringBounds, AValueWithinTheLimitIsKeptExactly) {
    nx::parquet::StringBounds b;
    b.add("beta");
    b.add("alpha");
    b.add("gamma");
    EXPECT_EQ(b.min, "alpha");
    EXPECT_EQ(b.max, "gamma");
    EXPECT_TRUE(b.min_exact && b.max_exact);
}

TEST(StringBounds, ALongValueIsCutAtACharacterAndItsUpperBoundRaised) {
    using nx::parquet::upper_bound_of;
    using nx::parquet::utf8_prefix;
    std::string s(63, 'a');
    s += "\xc3\xa9xyz";  // 'é' straddles byte 64
    EXPECT_EQ(utf8_prefix(s), std::string(63, 'a'));
    EXPECT_EQ(upper_bound_of(s), std::string(62, 'a') + "b");
    EXPECT_EQ(upper_bound_of(std::string(100, 'z')), std::string(63, 'z') + "{");
    // A character that cannot be raised is dropped and the one before raised.
    std::string tops = "a";
    for (int i = 0; i < 20; ++i) tops += "\xf4\x8f\xbf\xbf";  // U+10FFFF
    EXPECT_EQ(upper_bound_of(tops), "b");
    std::string none;
    for (int i = 0; i < 20; ++i) none += "\xf4\x8f\xbf\xbf";
    EXPECT_FALSE(upper_bound_of(none).has_value());
    // Raised past the surrogates.
    std::string before_surrogates = "\xed\x9f\xbf" + std::string(70, 'q');  // U+D7FF
    EXPECT_EQ(upper_bound_of(before_surrogates, 2), std::nullopt);
    EXPECT_EQ(upper_bound_of(before_surrogates, 3), "\xee\x80\x80");  // U+E000
}

TEST(StringBounds, BoundsOfLongValuesAreMarkedInexactAndStillBoundEveryValue) {
    nx::parquet::StringBounds b;
    std::string longest(1000, 'm'), lowest = "b" + std::string(300, 'c');
    b.add(longest);
    b.add(lowest);
    b.add("k");
    EXPECT_LE(b.min, lowest);
    EXPECT_GE(b.max, longest);
    EXPECT_LE(b.min.size(), nx::parquet::kStatBytes);
    EXPECT_LE(b.max.size(), nx::parquet::kStatBytes);
    EXPECT_FALSE(b.min_exact);
    EXPECT_FALSE(b.max_exact);
    // A shorter value below the cut takes its place, exactly.
    b.add("a");
    EXPECT_EQ(b.min, "a");
    EXPECT_TRUE(b.min_exact);
}

TEST(DatasetPlan, PathsWithTabsNewlinesAndBackslashesKeepToTheirLine) {
    std::vector<nx::PlanEntry> plan{{3, "/cap/a\tb/x.json", ""}, {-1, "/cap/run\ntwo/c\\d.json", "/n\r.neff"}};
    std::string text = nx::plan_text(plan);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
    std::vector<nx::PlanEntry> back = nx::parse_plan(text, "plan.tsv");
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].input, plan[0].input);
    EXPECT_EQ(back[1].input, plan[1].input);
    EXPECT_EQ(back[1].neff, plan[1].neff);
    EXPECT_EQ(back[1].rank, -1);
    EXPECT_THROW(nx::parse_plan("rank\tinput\tneff\n0\t/a\\q\t\n", "plan.tsv"), nx::Error);
}

TEST(DatasetPlan, TasksSplitThePlanAsPipelinesShardSplitsRecords) {
    // pipelines/shard: shard i of N gets lines [i*L/N, (i+1)*L/N).
    for (size_t entries : {0u, 1u, 7u, 10u, 1024u})
        for (int tasks : {1, 3, 4, 64}) {
            size_t next = 0;
            for (int t = 0; t < tasks; ++t) {
                auto [first, last] = nx::task_range(entries, t, tasks);
                EXPECT_EQ(first, t * entries / tasks);
                EXPECT_EQ(last, (t + 1) * entries / tasks);
                EXPECT_EQ(first, next);  // contiguous, every entry once
                EXPECT_LE(last - first, entries / tasks + 1);
                next = last;
            }
            EXPECT_EQ(next, entries);
        }
    EXPECT_EQ(nx::task_range(10, 5, 4), std::make_pair(size_t{10}, size_t{10}));
}

}  // namespace
