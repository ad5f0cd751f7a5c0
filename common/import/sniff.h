// What an input looks like, for the formats to recognise themselves
// (formats.cpp): its name, its first bytes, and the top-level structure of a
// JSON document read by streaming over it.  A prefix is not enough: a real
// neuron-profile JSON of trn2 opens with an `instruction_usage` array of
// megabytes, and the key that names the format comes after it, in an order
// that differs from file to file.  So the structure is read with a SAX parse
// that keeps only the top-level keys and skips every value, within a bounded
// budget of bytes, and stops as soon as a format has decided.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/import/log_prefix.h"
#include "common/io/input.h"

namespace nx {

// The top-level structure of a JSON document.
struct JsonShape {
    bool json = false;           // opens with '{' or '[' (after blanks, a BOM, a log prefix)
    bool top_is_object = false;
    bool top_is_array = false;
    LogPrefix log;               // log lines before the document (log_prefix.h)
    // The top-level keys in order (up to kMaxKeys) and whether each value is
    // an object, an array or a number.
    struct Key {
        std::string name;
        char kind = 0;           // '{', '[', 'n' (number), 's' (string), '-' (other)
    };
    std::vector<Key> keys;
    // The first key's value is an object with a metric-like key (summary-json).
    bool first_value_has_metric_key = false;
    // The first line, when it is a complete JSON object: its "kind" (nx records).
    std::string first_line_kind;
    bool first_line_is_object = false;
    // The whole top-level value was read (not cut by the budget or the prefix).
    bool complete = false;

    bool has(std::string_view key) const;
    static constexpr size_t kMaxKeys = 256;
};

// Bytes of JSON the structure is read within: a regular file is streamed
// (from a second reader), other inputs only as far as their look-ahead.
constexpr size_t kSniffJsonBudget = size_t{256} << 20;
constexpr size_t kSniffStreamBudget = size_t{16} << 20;
// The first bytes every sniffer sees.
constexpr size_t kSniffPrefixBytes = 64 * 1024;

class SniffInput {
public:
    // `source` may be null (bytes in memory: `prefix` is all there is); it
    // is not consumed: a regular file is read again from a second reader,
    // another stream only peeked at (kSniffStreamBudget bytes at most).
    SniffInput(std::string path, std::string_view prefix, InputSource* source);

    // The name as given ("-" for stdin): binary formats go by it (.ntff).
    const std::string& path() const { return path_; }
    std::string_view prefix() const { return prefix_; }

    // The JSON structure, read once; `decided` is asked after each top-level
    // key with the shape so far and stops the read when it returns true.
    const JsonShape& json(const std::function<bool(const JsonShape&)>& decided = {}) const;

private:
    std::string path_;
    std::string prefix_;  // a copy: peeking further may move the source's buffer
    InputSource* source_;
    mutable std::optional<JsonShape> shape_;
};

}  // namespace nx
