#include "common/trace/event_spool.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <queue>

#include "common/io/error.h"
#include "common/io/spill_file.h"

namespace nx {

namespace {

// Read buffers of the merge share a budget of one chunk's size, but each gets
// at least the minimum (so a huge number of runs costs more memory rather
// than failing).
constexpr size_t kMinRunBufferBytes = size_t{16} << 10;
// A time-ordered chunk of at most this many sorted runs is merged, not sorted.
constexpr size_t kMaxMergedRuns = 16;

enum StringSlot { kName, kOpcode, kHlo, kLayer, kTensor, kArgs, kMergedTrack, kStringSlots };

// A spooled record: the fixed part, then the optional numbers that differ
// from their defaults (flags bits 0-4, in this order), a 32-bit length per
// non-empty string (strings mask), then those strings.  Most events leave
// most fields at their defaults (the study database spools times and tracks
// only), so records are about half the size of a fixed layout: half the
// copying and half the temporary file.
struct FixedPart {
    int64_t ts;
    int64_t end;
    uint64_t seq;
    uint32_t track;
    int32_t depth;
    uint8_t type, engine, dma_kind;
    uint8_t flags;    // bits 0-4: ref, bytes, flops, model_flops, value present; bit 5: transpose
    uint8_t strings;  // bit per StringSlot: non-empty
};
constexpr size_t kFixedBytes = 8 + 8 + 8 + 4 + 4 + 3 + 1 + 1;
constexpr int kOptionalNumbers = 5;
constexpr uint8_t kTransposeFlag = 1u << 5;

FixedPart fixed_part(const char* p) {
    FixedPart f;
    std::memcpy(&f.ts, p, 8);
    std::memcpy(&f.end, p + 8, 8);
    std::memcpy(&f.seq, p + 16, 8);
    std::memcpy(&f.track, p + 24, 4);
    std::memcpy(&f.depth, p + 28, 4);
    f.type = static_cast<uint8_t>(p[32]);
    f.engine = static_cast<uint8_t>(p[33]);
    f.dma_kind = static_cast<uint8_t>(p[34]);
    f.flags = static_cast<uint8_t>(p[35]);
    f.strings = static_cast<uint8_t>(p[36]);
    return f;
}

// Set bits of a byte (without a popcnt instruction the builtin is a call).
constexpr auto kBitCounts = [] {
    std::array<uint8_t, 256> n{};
    for (size_t i = 0; i < n.size(); ++i) n[i] = static_cast<uint8_t>((i & 1) + (i ? n[i / 2] : 0));
    return n;
}();

// Bytes up to the strings: computable from the fixed part alone.
size_t head_size(const FixedPart& f) {
    return kFixedBytes + 8 * size_t{kBitCounts[f.flags & ((1u << kOptionalNumbers) - 1)]} +
           4 * size_t{kBitCounts[f.strings]};
}
size_t head_size(const char* p) { return head_size(fixed_part(p)); }

// The whole record (its head must be readable).
size_t record_size(const char* p) {
    FixedPart f = fixed_part(p);
    size_t n = head_size(f);
    const char* len = p + n - 4 * size_t{kBitCounts[f.strings]};
    for (int i = 0; i < kBitCounts[f.strings]; ++i) {
        uint32_t l;
        std::memcpy(&l, len + 4 * i, 4);
        n += l;
    }
    return n;
}

void decode(const char* p, SpooledEvent& e) {
    FixedPart f = fixed_part(p);
    e.ts = f.ts;
    e.end = f.end;
    e.seq = f.seq;
    e.track = f.track;
    e.depth = f.depth;
    e.type = static_cast<EventType>(f.type);
    e.engine = static_cast<Engine>(f.engine);
    e.dma_kind = static_cast<DmaKind>(f.dma_kind);
    e.transpose = (f.flags & kTransposeFlag) != 0;
    const char* q = p + kFixedBytes;
    auto number = [&](int bit, auto& out, auto fallback) {
        if (f.flags & (1u << bit)) {
            std::memcpy(&out, q, 8);
            q += 8;
        } else {
            out = fallback;
        }
    };
    number(0, e.ref, int64_t{0});
    number(1, e.bytes, int64_t{-1});
    number(2, e.flops, -1.0);
    number(3, e.model_flops, -1.0);
    number(4, e.value, 0.0);
    uint32_t len[kStringSlots] = {};
    for (int i = 0; i < kStringSlots; ++i)
        if (f.strings & (1u << i)) {
            std::memcpy(&len[i], q, 4);
            q += 4;
        }
    std::string_view* views[kStringSlots] = {&e.name,   &e.opcode,    &e.hlo_name,    &e.layer,
                                             &e.tensor, &e.args_json, &e.merged_track};
    for (int i = 0; i < kStringSlots; ++i) {
        *views[i] = std::string_view(q, len[i]);
        q += len[i];
    }
}

// Strictly "a comes first": the lower major key (the track in track order,
// else 0 for all), then earlier start, then longer, then the one the source
// nests outside (a Chrome B/E parent arrives after its children, as its E
// comes later, but has the lower depth), then earlier arrival.
bool before(uint32_t major_a, int64_t ts_a, int64_t end_a, int32_t depth_a, uint64_t seq_a, uint32_t major_b,
            int64_t ts_b, int64_t end_b, int32_t depth_b, uint64_t seq_b) {
    if (major_a != major_b) return major_a < major_b;
    if (int order = track_order(ts_a, end_a, depth_a, ts_b, end_b, depth_b)) return order < 0;
    return seq_a < seq_b;
}

}  // namespace

EventSpool::EventSpool(size_t chunk_bytes, Order order)
    : chunk_limit_(std::max<size_t>(chunk_bytes, kFixedBytes)), by_track_(order == Order::track_then_time) {}

EventSpool::~EventSpool() {
    if (spill_) std::fclose(spill_);
}

void EventSpool::clear() {
    chunk_.clear();
    keys_.clear();
    keys_sorted_ = arrival_order_ = true;
    if (spill_) {
        std::fclose(spill_);
        spill_ = nullptr;
    }
    runs_.clear();
    tracks_.clear();
    merged_events_ = 0;
    count_ = 0;
    min_ts_ = max_end_ = 0;
}

uint32_t EventSpool::track_of(const Event& e) { return tracks_.track_of(e); }

void EventSpool::add(const Event& e, int64_t ref, uint32_t track) {
    int64_t ts = e.ts_ns;
    int64_t end = event_end(ts, e.type == EventType::counter ? 0 : e.dur_ns);
    auto seq = static_cast<uint64_t>(count_);
    if (track == kNoTrack) track = track_of(e);
    const uint32_t major = by_track_ ? track : 0;
    merged_.clear();
    if (tracks_.overflow(track)) {
        // The event carries its own track's name.
        track_key(e, key_);
        merged_.assign(key_, 1);
        ++merged_events_;
    }
    const std::string_view strings[kStringSlots] = {e.name, e.opcode, e.hlo_name, e.layer, e.tensor, e.args_json, merged_};

    size_t start = chunk_.size();
    char fixed[kFixedBytes];
    std::memcpy(fixed, &ts, 8);
    std::memcpy(fixed + 8, &end, 8);
    std::memcpy(fixed + 16, &seq, 8);
    std::memcpy(fixed + 24, &track, 4);
    std::memcpy(fixed + 28, &e.depth, 4);
    fixed[32] = static_cast<char>(e.type);
    fixed[33] = static_cast<char>(e.engine);
    fixed[34] = static_cast<char>(e.dma_kind);
    uint8_t flags = e.transpose ? kTransposeFlag : 0, string_mask = 0;
    chunk_.append(fixed, kFixedBytes);
    auto number = [&](int bit, const auto& v, bool present) {
        if (!present) return;
        flags |= static_cast<uint8_t>(1u << bit);
        chunk_.append(reinterpret_cast<const char*>(&v), 8);
    };
    number(0, ref, ref != 0);
    number(1, e.bytes, e.bytes != -1);
    number(2, e.flops, e.flops != -1.0);
    number(3, e.model_flops, e.model_flops != -1.0);
    // Bit for bit: -0.0 is kept.
    number(4, e.value, std::bit_cast<uint64_t>(e.value) != 0);
    for (int i = 0; i < kStringSlots; ++i) {
        if (strings[i].empty()) continue;
        if (strings[i].size() > std::numeric_limits<uint32_t>::max()) {
            chunk_.resize(start);
            throw Error("event field longer than 4 GiB", {}, e.line);
        }
        auto l = static_cast<uint32_t>(strings[i].size());
        string_mask |= static_cast<uint8_t>(1u << i);
        chunk_.append(reinterpret_cast<const char*>(&l), 4);
    }
    chunk_[start + 35] = static_cast<char>(flags);
    chunk_[start + 36] = static_cast<char>(string_mask);
    for (std::string_view v : strings) chunk_.append(v);

    tracks_.count(track);
    if (count_ == 0) {
        min_ts_ = ts;
        max_end_ = end;
    } else {
        min_ts_ = std::min(min_ts_, ts);
        max_end_ = std::max(max_end_, end);
    }
    ++count_;

    if (!keys_.empty()) {
        const Key& last = keys_.back();
        if (keys_sorted_ && before(major, ts, end, e.depth, seq, last.major, last.ts, last.end, last.depth, last.seq))
            keys_sorted_ = false;
    }
    keys_.push_back({ts, end, seq, start, e.depth, major});
    if (chunk_.size() >= chunk_limit_) spill_chunk();
}

void EventSpool::sort_chunk() {
    if (keys_sorted_) return;
    auto key_before = [](const Key& a, const Key& b) {
        return before(a.major, a.ts, a.end, a.depth, a.seq, b.major, b.ts, b.end, b.depth, b.seq);
    };
    // By track (a dataset's events): the events of a profile come in time
    // order, interleaved across its tracks, so each track's keys are in order
    // already and only the interleaving is to undo.  A stable counting pass
    // by track does that in linear time, and a track whose keys are not in
    // order is sorted on its own; the comparison sort over the whole chunk
    // was about 6% of writing a profile's dataset.  `before` is a total order
    // (seq is unique), so the result is the one std::sort gives.
    if (by_track_ && tracks_.tracks().size() <= keys_.size()) {
        std::vector<size_t> start(tracks_.tracks().size() + 1, 0);
        for (const Key& k : keys_) ++start[k.major + 1];
        for (size_t t = 1; t < start.size(); ++t) start[t] += start[t - 1];
        std::vector<Key> by_track(keys_.size());
        std::vector<size_t> at(start.begin(), start.end() - 1);
        for (const Key& k : keys_) by_track[at[k.major]++] = k;
        for (size_t t = 0; t + 1 < start.size(); ++t) {
            auto first = by_track.begin() + static_cast<std::ptrdiff_t>(start[t]);
            auto last = by_track.begin() + static_cast<std::ptrdiff_t>(start[t + 1]);
            if (!std::is_sorted(first, last, key_before)) std::sort(first, last, key_before);
        }
        keys_.swap(by_track);
    } else {
        // In time order (a trace's, the slice layout's): sources list their
        // events in a few time-ordered runs (neuron-profile JSON: its
        // instructions, then its DMA transfers; Explorer: its tables), so a
        // chunk is a few sorted runs, and merging them is linear in its size
        // where a comparison sort is not (1% of the database thread of a
        // 100K-event rank profile's load went to it).
        std::vector<size_t> bounds{0};
        for (size_t i = 1; i < keys_.size() && bounds.size() <= kMaxMergedRuns; ++i)
            if (key_before(keys_[i], keys_[i - 1])) bounds.push_back(i);
        if (bounds.size() > kMaxMergedRuns) {
            std::sort(keys_.begin(), keys_.end(), key_before);
        } else {
            bounds.push_back(keys_.size());
            // Adjacent runs merged pairwise until one is left.
            while (bounds.size() > 2) {
                std::vector<size_t> merged{0};
                for (size_t r = 0; r + 2 < bounds.size(); r += 2) {
                    auto at = [&](size_t b) { return keys_.begin() + static_cast<std::ptrdiff_t>(bounds[b]); };
                    std::inplace_merge(at(r), at(r + 1), at(r + 2), key_before);
                    merged.push_back(bounds[r + 2]);
                }
                if (bounds.size() % 2 == 0) merged.push_back(bounds.back());  // an odd run out waits
                bounds.swap(merged);
            }
        }
    }
    keys_sorted_ = true;
    arrival_order_ = false;
}

void EventSpool::spill_chunk() {
    if (keys_.empty()) return;
    sort_chunk();
    if (!spill_) spill_ = open_spill_file("trace");
    if (std::fseek(spill_, 0, SEEK_END) != 0) throw Error("cannot seek the temporary trace file");
    long offset = std::ftell(spill_);
    long bytes = 0;
    auto write = [&](const char* p, size_t n) {
        if (std::fwrite(p, 1, n, spill_) != n)
            throw Error(std::string("cannot write the temporary trace file: ") + std::strerror(errno));
        bytes += static_cast<long>(n);
    };
    if (arrival_order_) {
        write(chunk_.data(), chunk_.size());  // sorted as it came: the chunk is the run
    } else {
        for (const Key& k : keys_) write(chunk_.data() + k.offset, record_size(chunk_.data() + k.offset));
    }
    runs_.push_back({offset, bytes});
    chunk_.clear();
    keys_.clear();
    keys_sorted_ = arrival_order_ = true;
}

// ---- reading back ------------------------------------------------------------

namespace {

// One sorted sequence of records.
class Source {
public:
    virtual ~Source() = default;
    // The current record, or nullptr when exhausted.
    virtual const char* current() const = 0;
    virtual void advance() = 0;
};

class MemorySource : public Source {
public:
    template <class Keys>
    MemorySource(const std::string& chunk, const Keys& keys) : chunk_(chunk) {
        offsets_.reserve(keys.size());
        for (const auto& k : keys) offsets_.push_back(k.offset);
    }
    const char* current() const override { return pos_ < offsets_.size() ? chunk_.data() + offsets_[pos_] : nullptr; }
    void advance() override { ++pos_; }

private:
    const std::string& chunk_;
    std::vector<size_t> offsets_;
    size_t pos_ = 0;
};

class FileSource : public Source {
public:
    FileSource(std::FILE* f, long offset, long bytes, size_t buffer)
        : file_(f), next_(offset), left_(bytes), chunk_(buffer) {
        load();
    }
    const char* current() const override { return have_ ? buf_.data() + off_ : nullptr; }
    void advance() override {
        off_ += record_size(buf_.data() + off_);
        load();
    }

private:
    // Makes the next record contiguous in the buffer (have_ = false at the end).
    void load() {
        have_ = false;
        if (!ensure(kFixedBytes)) return;
        if (!ensure(head_size(buf_.data() + off_)) || !ensure(record_size(buf_.data() + off_)))
            throw Error("the temporary trace file is truncated");
        have_ = true;
    }
    bool ensure(size_t n) {
        if (filled_ - off_ >= n) return true;
        if (left_ == 0) {
            if (filled_ == off_) return false;
            throw Error("the temporary trace file is truncated");
        }
        // The unread bytes move to the front; the buffer only grows, so a
        // refill reads into it without zero-filling it first.
        std::memmove(buf_.data(), buf_.data() + off_, filled_ - off_);
        filled_ -= off_;
        off_ = 0;
        size_t want = std::max(n - filled_, chunk_);
        want = std::min<size_t>(want, static_cast<size_t>(left_));
        if (buf_.size() < filled_ + want) buf_.resize(filled_ + want);
        if (std::fseek(file_, next_, SEEK_SET) != 0 || std::fread(buf_.data() + filled_, 1, want, file_) != want)
            throw Error(std::string("cannot read the temporary trace file: ") + std::strerror(errno));
        next_ += static_cast<long>(want);
        left_ -= static_cast<long>(want);
        filled_ += want;
        return filled_ - off_ >= n;
    }

    std::FILE* file_;
    long next_;
    long left_;
    size_t chunk_;
    std::string buf_;
    size_t off_ = 0, filled_ = 0;
    bool have_ = false;
};

}  // namespace

struct EventSpool::Reader::State {
    std::vector<std::unique_ptr<Source>> sources;
    struct Item {
        int64_t ts, end;
        uint64_t seq;
        size_t source;
        int32_t depth;
        uint32_t major;
    };
    struct Later {
        bool operator()(const Item& a, const Item& b) const {
            return before(b.major, b.ts, b.end, b.depth, b.seq, a.major, a.ts, a.end, a.depth, a.seq);
        }
    };
    std::priority_queue<Item, std::vector<Item>, Later> heap;
    bool by_track = false;
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t to_advance = kNone;  // the source whose record the caller holds

    void push(size_t i) {
        const char* p = sources[i]->current();
        if (!p) return;
        FixedPart f = fixed_part(p);
        heap.push({f.ts, f.end, f.seq, i, f.depth, by_track ? f.track : 0});
    }
};

EventSpool::Reader::Reader(EventSpool& spool) : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.by_track = spool.by_track_;
    spool.sort_chunk();
    if (spool.spill_ && std::fflush(spool.spill_) != 0)
        throw Error(std::string("cannot write the temporary trace file: ") + std::strerror(errno));
    size_t per_run = std::max(kMinRunBufferBytes, spool.chunk_limit_ / std::max<size_t>(spool.runs_.size(), 1));
    for (const Run& r : spool.runs_) s.sources.push_back(std::make_unique<FileSource>(spool.spill_, r.offset, r.bytes, per_run));
    if (!spool.keys_.empty()) s.sources.push_back(std::make_unique<MemorySource>(spool.chunk_, spool.keys_));
    for (size_t i = 0; i < s.sources.size(); ++i) s.push(i);
}

EventSpool::Reader::~Reader() = default;

bool EventSpool::Reader::next(SpooledEvent& out) {
    State& s = *state_;
    if (s.to_advance != State::kNone) {
        s.sources[s.to_advance]->advance();
        s.push(s.to_advance);
        s.to_advance = State::kNone;
    }
    if (s.heap.empty()) return false;
    State::Item top = s.heap.top();
    s.heap.pop();
    decode(s.sources[top.source]->current(), out);
    s.to_advance = top.source;
    return true;
}

}  // namespace nx
