// A string column chunk's dictionary as the writer builds it: the chunk is
// dictionary-encoded while its values repeat (decided on its first page of
// values, at most half of them distinct) and gives the dictionary up (its
// later pages PLAIN, as parquet-mr does) when it outgrows its limits.  Every
// lane's pages of the chunk share the one dictionary: the chunk is its
// dictionary page and the lanes' data pages of indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/io/string_hash.h"

namespace nx::parquet {

class StringDictionary {
public:
    // At most this many entries, of at most this many bytes (4 a length each).
    static constexpr size_t kMaxEntries = 1 << 16;
    static constexpr size_t kMaxBytes = 4 << 20;

    // Decides, on the chunk's first page of values (`n` values, value(k)
    // the k-th), whether it is dictionary-encoded.
    template <class Value>
    void decide(size_t n, Value&& value);
    bool on() const { return state_ == State::on; }

    // The indices of the page's values (value(k), k < n) into `indices`, each
    // entering the dictionary the first time (new_entry(x) is called then),
    // until the dictionary is full: then the dictionary is off and `indices`
    // holds the indices of the values before the first that did not fit.
    template <class Value, class NewEntry>
    void index(size_t n, Value&& value, std::vector<uint32_t>& indices, NewEntry&& new_entry);

    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    // The dictionary page's body: the entries PLAIN, in index order.
    std::vector<uint8_t> page_body() const;
    // For the next chunk.
    void clear();

private:
    enum class State { undecided, on, off };
    // x's index, added when new (new_entry(x)); -1 when it does not fit.
    template <class NewEntry>
    int64_t find_or_add(std::string_view x, NewEntry&& new_entry);

    State state_ = State::undecided;
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> ids_;
    std::vector<std::string_view> entries_;  // keys of ids_, in index order
    size_t bytes_ = 0;
};

template <class Value>
void StringDictionary::decide(size_t n, Value&& value) {
    if (state_ != State::undecided) return;
    std::unordered_set<std::string_view> distinct;
    for (size_t k = 0; k < n && distinct.size() * 2 <= n + 16; ++k) distinct.insert(value(k));
    state_ = distinct.size() * 2 <= n + 16 ? State::on : State::off;
}

template <class NewEntry>
int64_t StringDictionary::find_or_add(std::string_view x, NewEntry&& new_entry) {
    auto it = ids_.find(x);
    if (it != ids_.end()) return it->second;
    if (entries_.size() >= kMaxEntries || bytes_ + x.size() > kMaxBytes) return -1;
    it = ids_.emplace(std::string(x), static_cast<uint32_t>(entries_.size())).first;
    entries_.push_back(it->first);
    bytes_ += x.size() + 4;
    new_entry(x);
    return it->second;
}

template <class Value, class NewEntry>
void StringDictionary::index(size_t n, Value&& value, std::vector<uint32_t>& indices, NewEntry&& new_entry) {
    indices.clear();
    indices.reserve(n);
    std::string_view last;
    uint32_t last_id = 0;
    for (size_t k = 0; k < n; ++k) {
        std::string_view x = value(k);
        // Runs of one value (a track's opcode, the profile) skip the lookup.
        if (k > 0 && x == last) {
            indices.push_back(last_id);
            continue;
        }
        const int64_t id = find_or_add(x, new_entry);
        if (id < 0) {
            state_ = State::off;  // full: this page and the next are PLAIN
            return;
        }
        indices.push_back(static_cast<uint32_t>(id));
        last = x;
        last_id = static_cast<uint32_t>(id);
    }
}

}  // namespace nx::parquet
