// The rank a file's name gives (common/convert/fanout_plan.h
// rank_in_file_name): nx-capture's profile_rank_<i> and the names users give
// PyTorch traces; other names give none; a rank out of range is an error
// naming the file.
#include <gtest/gtest.h>

#include <optional>

#include "common/convert/fanout_plan.h"
#include "common/io/error.h"

namespace {

TEST(RankFileNames, NxCapturesProfileRankNamesGiveTheirRank) {
    EXPECT_EQ(nx::rank_in_file_name("cap/profile_rank_4.ntff"), 4);
    EXPECT_EQ(nx::rank_in_file_name("cap/profile_rank_0.JSON.GZ"), 0);
}

TEST(RankFileNames, HtaStyleNamesGiveTheirRank) {
    EXPECT_EQ(nx::rank_in_file_name("traces/rank-0.json.gz"), 0);
    EXPECT_EQ(nx::rank_in_file_name("traces/sampled_rank-1.json.gz"), 1);
    EXPECT_EQ(nx::rank_in_file_name("inference_rank_1.json.gz"), 1);
    EXPECT_EQ(nx::rank_in_file_name("q/rank0.json.gz"), 0);
    EXPECT_EQ(nx::rank_in_file_name("cpu/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34);
}

TEST(RankFileNames, NamesWithoutARankNumberGiveNone) {
    EXPECT_EQ(nx::rank_in_file_name("rank_not_found.json.gz"), std::nullopt);
    EXPECT_EQ(nx::rank_in_file_name("rank_non_gpu.json.gz"), std::nullopt);
    EXPECT_EQ(nx::rank_in_file_name("node0_1000.1700000000.pt.trace.json"), std::nullopt);
    EXPECT_EQ(nx::rank_in_file_name("rank-0.csv"), std::nullopt);
    EXPECT_EQ(nx::rank_in_file_name("crank-0.json"), std::nullopt);
}

TEST(RankFileNames, ARankOutOfRangeIsAnErrorNamingTheForm) {
    try {
        nx::rank_in_file_name("t/sampled_rank-99999999999.json");
        FAIL() << "no error";
    } catch (const nx::Error& e) {
        EXPECT_NE(std::string(e.what()).find("sampled_rank-<i> name is a number from 0 to 2147483647"), std::string::npos)
            << e.what();
    }
}

}  // namespace
