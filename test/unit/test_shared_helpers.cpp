// The small helpers several parts of the library share: escaping text from a
// table (io/char_escape.h), lookups in named tables (io/named_rows.h), the
// members a record carries (records/json_members.h) and the sweep over rows
// of merged intervals (profile/interval_sweep.h).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/io/char_escape.h"
#include "common/io/named_rows.h"
#include "common/profile/interval_sweep.h"
#include "common/records/json_members.h"

namespace {

TEST(CharEscape, EachCharacterInTheTableIsReplacedAndEveryOtherKept) {
    EXPECT_EQ(nx::escape_chars("a<b>&c", {{'<', "&lt;"}, {'>', "&gt;"}, {'&', "&amp;"}}), "a&lt;b&gt;&amp;c");
    EXPECT_EQ(nx::escape_chars("tab\there", {{'\t', "\\t"}}), "tab\\there");
    EXPECT_EQ(nx::escape_chars("", {{'x', "y"}}), "");
    EXPECT_EQ(nx::escape_chars("plain", {}), "plain");
}

struct Row {
    const char* name;
    int value;
};
const Row kRows[] = {{"first", 1}, {"second", 2}};

TEST(NamedRows, FindsTheRowByItsNameAndListsTheNamesInOrder) {
    ASSERT_NE(nx::find_named(kRows, "second"), nullptr);
    EXPECT_EQ(nx::find_named(kRows, "second")->value, 2);
    EXPECT_EQ(nx::find_named(kRows, "third"), nullptr);
    EXPECT_EQ(nx::joined_names(kRows), "first, second");
    EXPECT_EQ(nx::joined_names(std::vector<Row>{}), "");
}

TEST(JsonMembers, OtherMembersAreCopiedAndNoneGiveAnEmptyText) {
    rapidjson::Document doc;
    doc.Parse(R"({"kind":"run","tag":"a","n":[1,2]})");
    auto own = [](std::string_view k) { return k == "kind"; };
    EXPECT_EQ(nx::other_members_json(doc, own), R"({"tag":"a","n":[1,2]})");
    EXPECT_EQ(nx::other_members_json(doc, [](std::string_view) { return true; }), "");
}

TEST(JsonMembers, ACarriedArrayIsFoundOnlyWhenItIsAnArray) {
    rapidjson::Document doc;
    const rapidjson::Value* notes = nx::carried_array(R"({"notes":["x","y"],"other":1})", "notes", doc);
    ASSERT_NE(notes, nullptr);
    EXPECT_EQ(notes->Size(), 2u);
    EXPECT_EQ(nx::carried_array(R"({"notes":"x"})", "notes", doc), nullptr);
    EXPECT_EQ(nx::carried_array(R"({"other":1})", "notes", doc), nullptr);
    EXPECT_EQ(nx::carried_array("not json \"notes\"", "notes", doc), nullptr);
}

TEST(IntervalSweep, EachStretchBetweenBoundariesSeesTheRowsInProgress) {
    nx::IntervalUnion a, b;
    a.add(0, 10);
    b.add(5, 15);
    std::vector<nx::SweepRow<int>> rows;
    rows.emplace_back(a, 1);
    rows.emplace_back(b, 2);
    int set = 0;
    std::vector<std::pair<int64_t, int>> stretches;  // (length, set) of each stretch
    nx::sweep_rows(
        rows, [&](int bit) { set |= bit; }, [&](int bit) { set &= ~bit; },
        [&](int64_t pos, int64_t next) { stretches.push_back({next - pos, set}); });
    EXPECT_EQ(stretches, (std::vector<std::pair<int64_t, int>>{{5, 1}, {5, 3}, {5, 2}}));
}

}  // namespace
