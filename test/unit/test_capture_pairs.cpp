// A capture directory's NTFFs paired with their NEFFs by the hash in their
// names (common/convert/capture_pairs.h): names that are not the runtime's
// are no match, the NEFF beside an NTFF wins, a missing one is reported empty,
// and two names with different hashes are a mismatch.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/convert/capture_pairs.h"
#include "common/import/runtime_path.h"
#include "common/io/error.h"
#include "test_support.h"

namespace {

using nx_test::TempDir;

TEST(CapturePairs, HashesComeOnlyFromTheRuntimesNames) {
    EXPECT_EQ(nx::ntff_capture_hash("out/i-0ade_pid_2/395760075800974_instid_0_vnc_0.ntff"), "395760075800974");
    EXPECT_EQ(nx::neff_capture_hash("/x/neff_395760075800974.neff"), "395760075800974");
    // A UUID is the other form a NEFF hash takes.
    EXPECT_EQ(nx::ntff_capture_hash("p/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b_instid_0_vnc_2.ntff"),
              "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b");
    EXPECT_EQ(nx::neff_capture_hash("p/neff_0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b.neff"),
              "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b");
    for (const char* other : {"profile.ntff", "profile_rank_0.ntff", "12_instid_0_vnc_0.ntff.gz", "ab_instid_0_vnc_0.ntff",
                              "12_instid_0.ntff", "x12_instid_0_vnc_0.ntff", "neff_12.neff"})
        EXPECT_FALSE(nx::ntff_capture_hash(other)) << other;
    for (const char* other : {"file.neff", "graph.neff", "neff_.neff", "neff_12a.neff", "neff_12.neff.bak"})
        EXPECT_FALSE(nx::neff_capture_hash(other)) << other;
}

TEST(CapturePairs, EachNtffGetsTheNeffOfItsHashThePreferredOneBesideIt) {
    TempDir d;
    std::filesystem::create_directories(d.path("out/p1"));
    std::filesystem::create_directories(d.path("out/p2"));
    std::filesystem::create_directories(d.path("out/neffs"));
    d.write("out/p1/7_instid_0_vnc_0.ntff", "");
    d.write("out/p1/neff_7.neff", "");
    d.write("out/p2/7_instid_1_vnc_0.ntff", "");  // its NEFF is only in p1 and neffs
    d.write("out/neffs/neff_7.neff", "");
    d.write("out/p2/8_instid_0_vnc_3.ntff", "");  // no neff_8 anywhere
    d.write("out/p2/neff_9.neff", "");            // a NEFF no NTFF ran
    d.write("out/p2/notes.txt", "");
    auto pairs = nx::find_capture_pairs(d.path("out"));
    ASSERT_EQ(pairs.size(), 3u);
    EXPECT_EQ(pairs[0].ntff, d.path("out/p1/7_instid_0_vnc_0.ntff"));
    EXPECT_EQ(pairs[0].neff, d.path("out/p1/neff_7.neff"));  // beside it
    EXPECT_EQ(pairs[1].ntff, d.path("out/p2/7_instid_1_vnc_0.ntff"));
    EXPECT_EQ(pairs[1].neff, d.path("out/neffs/neff_7.neff"));  // first in path order elsewhere
    EXPECT_EQ(pairs[2].hash, "8");
    EXPECT_TRUE(pairs[2].neff.empty());
    // A tree without the runtime's NTFF names: no pairs (the caller tries
    // the other directory layouts).
    TempDir other;
    other.write("profile_rank_0.ntff", "");
    EXPECT_TRUE(nx::find_capture_pairs(other.path("")).empty());
    EXPECT_THROW(nx::find_capture_pairs(d.path("missing")), nx::Error);
}

TEST(CapturePairs, DifferentHashesAreAMismatchOtherNamesAreTheUsersWord) {
    EXPECT_THROW(nx::check_capture_pair("a/1_instid_0_vnc_0.ntff", "b/neff_2.neff"), nx::Error);
    EXPECT_NO_THROW(nx::check_capture_pair("a/1_instid_0_vnc_0.ntff", "b/neff_1.neff"));
    EXPECT_NO_THROW(nx::check_capture_pair("a/1_instid_0_vnc_0.ntff", "file.neff"));  // no hash to compare
    EXPECT_NO_THROW(nx::check_capture_pair("profile.ntff", "neff_2.neff"));
    try {
        nx::check_capture_pair("a/1_instid_0_vnc_0.ntff", "b/neff_2.neff");
    } catch (const nx::Error& e) {
        EXPECT_EQ(e.where(), "a/1_instid_0_vnc_0.ntff");
        EXPECT_NE(std::string(e.what()).find("captured from neff_1.neff"), std::string::npos) << e.what();
    }
}

TEST(RuntimePath, TheSameHashGrammarAsCapturePairing) {
    nx::RuntimePath p = nx::parse_runtime_path("out/i-0abc_pid_42/395760075800974_instid_0_vnc_3.json.gz");
    EXPECT_EQ(p.instance_id, "i-0abc");
    EXPECT_EQ(p.process_id, 42);
    EXPECT_EQ(p.neff_hash, "395760075800974");
    EXPECT_EQ(p.logical_core, 3);
    EXPECT_EQ(nx::parse_runtime_path("o/i-1_pid_1/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b_instid_0_vnc_0.ntff").neff_hash,
              "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b");
    // What capture pairing does not take as a hash, the runtime's names do not either.
    for (const char* other : {"o/i-1_pid_1/ab_instid_0_vnc_0.ntff", "o/i-1_pid_1/x12_instid_0_vnc_0.json"}) {
        EXPECT_FALSE(nx::ntff_capture_hash(other)) << other;
        EXPECT_EQ(nx::parse_runtime_path(other).logical_core, -1) << other;
        EXPECT_EQ(nx::parse_runtime_path(other).process_id, 1) << other;  // the folder still says its process
    }
}

TEST(RuntimePath, ARunFolderBelowTheProcessFolderAsExplorersDocumentationShowsIt) {
    // profile_output/<instance-id>_pid_<pid>/<timestamp>/<hash>_instid_<n>_vnc_<k>.ntff
    nx::RuntimePath p = nx::parse_runtime_path("po/i-0abc_pid_42/20261127T120000/395760075800974_instid_0_vnc_3.ntff");
    EXPECT_EQ(p.instance_id, "i-0abc");
    EXPECT_EQ(p.process_id, 42);
    EXPECT_EQ(p.run_folder, "20261127T120000");
    EXPECT_EQ(p.neff_hash, "395760075800974");
    EXPECT_EQ(p.logical_core, 3);
    EXPECT_EQ(nx::runtime_profile_name("po/i-0abc_pid_42/20261127T120000/395760075800974_instid_0_vnc_3.ntff", "x"),
              "i-0abc_pid_42/20261127T120000/x");
    // In the process folder itself: no run folder.
    EXPECT_EQ(nx::parse_runtime_path("po/i-0abc_pid_42/1_instid_0_vnc_0.ntff").run_folder, "");
    // The file's own parent wins over a process folder above it.
    nx::RuntimePath inner = nx::parse_runtime_path("a_pid_1/b_pid_2/1_instid_0_vnc_0.ntff");
    EXPECT_EQ(inner.instance_id, "b");
    EXPECT_EQ(inner.process_id, 2);
    EXPECT_EQ(inner.run_folder, "");
    // Two folders down is not the layout, nor a file of another name one
    // folder down (its name stays its own).
    EXPECT_EQ(nx::parse_runtime_path("i-1_pid_1/t/u/1_instid_0_vnc_0.ntff").process_id, -1);
    EXPECT_EQ(nx::parse_runtime_path("runs_pid_1/t/profile.json").process_id, -1);
    EXPECT_EQ(nx::runtime_profile_name("runs_pid_1/t/profile.json", "profile"), "profile");
    EXPECT_EQ(nx::parse_runtime_path("runs_pid_1/profile.json").process_id, 1);
    // An Explorer directory named as its NTFF, "@latest" after it or not, a
    // trailing slash or not, says what the NTFF would, run folder and all.
    for (const char* dir : {"po/i-0abc_pid_42/t/395760075800974_instid_0_vnc_3",
                            "po/i-0abc_pid_42/t/395760075800974_instid_0_vnc_3@latest",
                            "po/i-0abc_pid_42/t/395760075800974_instid_0_vnc_3@latest/"}) {
        nx::RuntimePath d = nx::runtime_path_of_source(dir);
        EXPECT_EQ(d.neff_hash, "395760075800974") << dir;
        EXPECT_EQ(d.process_id, 42) << dir;
        EXPECT_EQ(d.run_folder, "t") << dir;
        EXPECT_EQ(d.logical_core, 3) << dir;
    }
    EXPECT_EQ(nx::runtime_path_of_source("po/i-0abc_pid_42/matmul@latest").neff_hash, "");
    EXPECT_EQ(nx::runtime_path_of_source("po/i-0abc_pid_42/matmul@latest").process_id, 42);
    EXPECT_EQ(nx::runtime_path_of_source("po/profile_rank_3.json").neff_hash, "");
}

TEST(RuntimePath, TheCaptureIsTheTreeAboveTheProcessFoldersElseTheSourcesDirectory) {
    // Every process of one run (and every run folder below one) is one capture.
    EXPECT_EQ(nx::capture_directory("po/i-0abc_pid_42/395760075800974_instid_0_vnc_3.ntff"), "po");
    EXPECT_EQ(nx::capture_directory("po/i-0abc_pid_43/20261127T120000/395760075800974_instid_0_vnc_0.json.gz"), "po");
    EXPECT_EQ(nx::capture_directory("/fsx/po/i-0abc_pid_42/t/395760075800974_instid_0_vnc_3@latest/"), "/fsx/po");
    // Not the runtime's layout: the file's own directory, "." for none.
    EXPECT_EQ(nx::capture_directory("job/host_1003.1700000000.pt.trace.json"), "job");
    EXPECT_EQ(nx::capture_directory("profile_rank_3.json"), ".");
    EXPECT_EQ(nx::capture_directory("po/explorer_dir/"), "po");
}

}  // namespace
