// The streaming record reader (common/import/record_reader.h): which field
// goes to which slot and what goes to args, whichever order a record lists
// its keys in, now that the reader keeps the last record's keys by position.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/import/record_reader.h"
#include "common/io/error.h"
#include "common/io/input.h"
#include "test/unit/test_support.h"

namespace {

using nx_test::TempDir;

// What a format saw of one record, as text.
std::string describe(std::string_view section, const std::vector<nx::Slot>& slots, std::string_view args,
                     const std::string& error) {
    std::string d = std::string(section) + " |";
    for (const nx::Slot& s : slots) {
        d += " ";
        switch (s.kind) {
            case nx::Slot::none: d += "-"; break;
            case nx::Slot::integer: d += "i" + std::to_string(s.i); break;
            case nx::Slot::string: d += "s'" + s.s + "'"; break;
            case nx::Slot::json: d += "j" + s.s; break;
            default: d += "k" + std::to_string(static_cast<int>(s.kind)); break;
        }
    }
    return d + " | " + std::string(args) + " | " + error;
}

// Slots by key, and by section: "ts" is slot 0 everywhere; "name" is slot 1
// in section "a" and goes to args in section "b"; "skip" is dropped.
class Format : public nx::RecordFormat {
public:
    explicit Format(bool by_slots) : by_slots_(by_slots) {}
    SectionMode section_mode(std::string_view) override { return SectionMode::records; }
    int field_id(std::string_view section, std::string_view key) override {
        ++asked;
        if (key == "ts") return 0;
        if (key == "name") return section == "b" ? -1 : 1;
        if (key == "nest") return 2;
        if (key == "skip") return nx::kSkipField;
        return -1;
    }
    bool keys_by_slots() const override { return by_slots_; }
    void record(std::string_view section, const std::vector<nx::Slot>& s, std::string_view args, int64_t line,
                const std::string& error) override {
        seen.push_back(std::to_string(line) + ": " + describe(section, s, args, error));
    }
    std::vector<std::string> seen;
    int asked = 0;

private:
    bool by_slots_;
};

std::vector<std::string> read(const std::string& path, bool by_slots, int* asked = nullptr) {
    auto in = nx::InputSource::open(path);
    Format f(by_slots);
    nx::read_records(*in, f, 3);
    if (asked) *asked = f.asked;
    return f.seen;
}

// What the reader gives, keys kept, for JSON text.
std::vector<std::string> read_text(const std::string& text) {
    TempDir dir;
    return read(dir.write("r.json", text), false);
}

}  // namespace

TEST(RecordReader, KeysInAnyOrderGoWhereTheFormatSaysAsWhenAskedEachTime) {
    // Records drawn from a pool of keys (known, unknown, skipped, escaped,
    // non-ASCII), in the same order for runs of records and then shuffled,
    // some missing, across two sections that map "name" differently.  Read
    // once with the keys kept by position and once asking the format for
    // every key: the same slots, args and errors.
    std::mt19937 rng(7);
    const std::vector<std::string> pool = {"\"ts\"", "\"name\"", "\"skip\"", "\"nest\"", "\"op\"", "\"a\\\"q\"",
                                           "\"caf\\u00e9\"", "\"na\"", "\"namex\"", "\"n\\u0000\""};
    std::string text = "{";
    for (int section = 0; section < 4; ++section) {
        text += std::string(section ? "," : "") + (section % 2 ? "\"b\"" : "\"a\"") + ": [\n";
        std::vector<std::string> keys = pool;
        for (int r = 0; r < 200; ++r) {
            if (r % 17 == 0) std::shuffle(keys.begin(), keys.end(), rng);
            text += r ? ",\n{" : "{";
            bool first = true;
            for (const std::string& k : keys) {
                if (r % 13 == 5 && rng() % 3 == 0) continue;  // now and then a record lacks some
                text += first ? "" : ", ";
                first = false;
                text += k + ": ";
                switch (rng() % 4) {
                    case 0: text += std::to_string(rng() % 1000); break;
                    case 1: text += "\"v" + std::to_string(rng() % 10) + "\""; break;
                    case 2: text += "{\"x\": [1, \"\\n\"]}"; break;
                    default: text += "\"\\u00fc\\\\\""; break;
                }
            }
            text += "}";
        }
        text += "]";
    }
    text += "}\n";
    TempDir dir;
    std::string path = dir.write("r.json", text);
    int asked_kept = 0, asked_each = 0;
    std::vector<std::string> kept = read(path, false, &asked_kept);
    std::vector<std::string> each = read(path, true, &asked_each);
    ASSERT_EQ(kept.size(), 800u);
    EXPECT_EQ(kept, each);
    // The point of keeping them: the format is asked far less often.
    EXPECT_LT(asked_kept * 2, asked_each);
}

TEST(RecordReader, AKeyMeansWhatItsSectionSays) {
    std::vector<std::string> seen = read_text("{\"a\": [{\"ts\": 1, \"name\": \"x\"}, {\"ts\": 2, \"name\": \"y\"}],\n"
                                 " \"b\": [{\"ts\": 3, \"name\": \"z\"}]}\n");
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1], "1: a | i2 s'y' - |  | ");
    EXPECT_EQ(seen[2], "2: b | i3 - - | {\"name\":\"z\"} | ");
}

TEST(RecordReader, InvalidUtf8InAKeyItHasSeenAtThatPlaceIsStillAnError) {
    // The second record's second key differs from the first's only by an
    // invalid byte: it is neither "name" nor accepted.
    std::vector<std::string> seen = read_text("[{\"ts\": 1, \"name\": \"x\"},\n"
                                 "{\"ts\": 2, \"nam\xff\": \"y\"},\n"
                                 "{\"ts\": 3, \"name\": \"z\"}]\n");
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1], "2:  | i2 - - | {\"\xEF\xBF\xBD\":\"y\"} | invalid UTF-8 in a key");
    EXPECT_EQ(seen[2], "3:  | i3 s'z' - |  | ");
}

TEST(RecordReader, StringsNeedingEscapesOrValidationAreWrittenAsBefore) {
    // Plain ASCII goes to args as it is; a quote, a control character or a
    // non-ASCII byte take the escaping and validating path.
    std::vector<std::string> seen = read_text("[{\"o\": \"plain text of more than sixteen bytes\", \"p\": \"q\\\"uote\","
                                 " \"c\": \"tab\\there\", \"u\": \"caf\xC3\xA9 and more than sixteen\"}]\n");
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0],
              "1:  | - - - | {\"o\":\"plain text of more than sixteen bytes\",\"p\":\"q\\\"uote\","
              "\"c\":\"tab\\there\",\"u\":\"caf\xC3\xA9 and more than sixteen\"} | ");
}

TEST(RecordReader, AnEmptyKeyWhereAnInvalidOneWasIsStillAKey) {
    // The first record's first key is invalid and its second valid: the
    // place of the first holds no key, and the next record's empty key
    // there must not match it (its args lost the key: {3}).
    std::vector<std::string> seen = read_text("[{\"\xff\": 1, \"a\": 2},\n{\"\": 3}]\n");
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[1], "2:  | - - - | {\"\":3} | ");
}
