#include "common/trace/event_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <queue>

#include "common/error.h"

namespace nx {

namespace {

// Read buffers of the merge share this budget, but each gets at least the
// minimum (so a huge number of runs costs more memory rather than failing).
constexpr size_t kMergeBudgetBytes = size_t{16} << 20;
constexpr size_t kMinRunBufferBytes = size_t{16} << 10;

enum StringSlot { kName, kOpcode, kHlo, kLayer, kTensor, kArgs, kMergedTrack, kStringSlots };

// The fixed part of a spooled record; the strings follow it.
struct RecordHeader {
    int64_t ts;
    int64_t end;
    uint64_t seq;
    int64_t bytes;
    double flops;
    double model_flops;
    double value;
    uint32_t track;
    int32_t depth;
    uint8_t type, engine, dma_kind, transpose;
    uint32_t len[kStringSlots];
};

size_t record_size(const char* p) {
    RecordHeader h;
    std::memcpy(&h, p, sizeof h);
    size_t n = sizeof h;
    for (uint32_t l : h.len) n += l;
    return n;
}

void decode(const char* p, SpooledEvent& e) {
    RecordHeader h;
    std::memcpy(&h, p, sizeof h);
    e.ts = h.ts;
    e.end = h.end;
    e.seq = h.seq;
    e.bytes = h.bytes;
    e.flops = h.flops;
    e.model_flops = h.model_flops;
    e.value = h.value;
    e.track = h.track;
    e.depth = h.depth;
    e.type = static_cast<EventType>(h.type);
    e.engine = static_cast<Engine>(h.engine);
    e.dma_kind = static_cast<DmaKind>(h.dma_kind);
    e.transpose = h.transpose != 0;
    const char* s = p + sizeof h;
    std::string_view* views[kStringSlots] = {&e.name,   &e.opcode,    &e.hlo_name,    &e.layer,
                                             &e.tensor, &e.args_json, &e.merged_track};
    for (int i = 0; i < kStringSlots; ++i) {
        *views[i] = std::string_view(s, h.len[i]);
        s += h.len[i];
    }
}

// Strictly "a comes first": earlier start, then longer, then the one the
// source nests outside (a Chrome B/E parent arrives after its children, as
// its E comes later, but has the lower depth), then earlier arrival.
bool before(int64_t ts_a, int64_t end_a, int32_t depth_a, uint64_t seq_a, int64_t ts_b, int64_t end_b, int32_t depth_b,
            uint64_t seq_b) {
    if (ts_a != ts_b) return ts_a < ts_b;
    if (end_a != end_b) return end_a > end_b;
    if (depth_a != depth_b) return depth_a < depth_b;
    return seq_a < seq_b;
}

// An unlinked temporary file in $TMPDIR (default /tmp): nothing to clean up
// whatever happens to the process.
std::FILE* open_spill_file() {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/nx-trace-spool.XXXXXX";
    int fd = mkstemp(templ.data());
    if (fd < 0) throw Error("cannot create a temporary file for the trace (" + templ + "): " + std::strerror(errno));
    unlink(templ.c_str());
    std::FILE* f = fdopen(fd, "w+b");
    if (!f) {
        close(fd);
        throw Error(std::string("cannot open the temporary trace file: ") + std::strerror(errno));
    }
    return f;
}

}  // namespace

EventSpool::EventSpool(size_t chunk_bytes) : chunk_limit_(std::max<size_t>(chunk_bytes, sizeof(RecordHeader))) {}

EventSpool::~EventSpool() {
    if (spill_) std::fclose(spill_);
}

void EventSpool::clear() {
    chunk_.clear();
    keys_.clear();
    keys_sorted_ = true;
    if (spill_) {
        std::fclose(spill_);
        spill_ = nullptr;
    }
    runs_.clear();
    tracks_.clear();
    track_ids_.clear();
    overflow_track_ = kNoTrack;
    merged_events_ = 0;
    count_ = 0;
    min_ts_ = max_end_ = 0;
}

uint32_t EventSpool::track_index(const Event& e, std::string& merged) {
    merged.clear();
    bool counter = e.type == EventType::counter;
    std::string key;
    key.reserve(e.track.size() + 1);
    key.push_back(counter ? 'C' : 'S');
    if (!e.track.empty()) key.append(e.track);
    else key.append(e.engine != Engine::none ? to_string(e.engine) : to_string(e.type));
    auto it = track_ids_.find(key);
    if (it != track_ids_.end()) return it->second;
    if (track_ids_.size() >= kMaxTraceTracks) {
        // Past the cap: nothing more is remembered per track.
        if (overflow_track_ == kNoTrack) {
            overflow_track_ = static_cast<uint32_t>(tracks_.size());
            tracks_.push_back({kOverflowTrackName, Engine::none, false, 0, false, kNoId, kNoId, {}});
        }
        ++merged_events_;
        merged.assign(key, 1);
        return overflow_track_;
    }
    auto id = static_cast<uint32_t>(tracks_.size());
    tracks_.push_back({key.substr(1), e.engine, counter, 0, e.type == EventType::active, e.pid, e.tid,
                       std::string(e.process)});
    track_ids_.emplace(std::move(key), id);
    return id;
}

void EventSpool::add(const Event& e) {
    RecordHeader h{};
    h.ts = e.ts_ns;
    int64_t dur = e.type == EventType::counter ? 0 : std::max<int64_t>(e.dur_ns, 0);
    if (__builtin_add_overflow(e.ts_ns, dur, &h.end)) h.end = std::numeric_limits<int64_t>::max();
    h.seq = static_cast<uint64_t>(count_);
    h.bytes = e.bytes;
    h.flops = e.flops;
    h.model_flops = e.model_flops;
    h.value = e.value;
    h.track = track_index(e, merged_);
    h.depth = e.depth;
    h.type = static_cast<uint8_t>(e.type);
    h.engine = static_cast<uint8_t>(e.engine);
    h.dma_kind = static_cast<uint8_t>(e.dma_kind);
    h.transpose = e.transpose ? 1 : 0;
    const std::string_view strings[kStringSlots] = {e.name, e.opcode, e.hlo_name, e.layer, e.tensor, e.args_json, merged_};
    for (int i = 0; i < kStringSlots; ++i) {
        if (strings[i].size() > std::numeric_limits<uint32_t>::max())
            throw Error("event field longer than 4 GiB", {}, e.line);
        h.len[i] = static_cast<uint32_t>(strings[i].size());
    }

    ++tracks_[h.track].events;
    if (count_ == 0) {
        min_ts_ = h.ts;
        max_end_ = h.end;
    } else {
        min_ts_ = std::min(min_ts_, h.ts);
        max_end_ = std::max(max_end_, h.end);
    }
    ++count_;

    if (!keys_.empty()) {
        const Key& last = keys_.back();
        if (keys_sorted_ && before(h.ts, h.end, h.depth, h.seq, last.ts, last.end, last.depth, last.seq))
            keys_sorted_ = false;
    }
    keys_.push_back({h.ts, h.end, h.seq, chunk_.size(), h.depth});
    chunk_.append(reinterpret_cast<const char*>(&h), sizeof h);
    for (std::string_view s : strings) chunk_.append(s);
    if (chunk_.size() >= chunk_limit_) spill_chunk();
}

void EventSpool::sort_chunk() {
    if (keys_sorted_) return;
    std::sort(keys_.begin(), keys_.end(),
              [](const Key& a, const Key& b) { return before(a.ts, a.end, a.depth, a.seq, b.ts, b.end, b.depth, b.seq); });
    keys_sorted_ = true;
}

void EventSpool::spill_chunk() {
    if (keys_.empty()) return;
    sort_chunk();
    if (!spill_) spill_ = open_spill_file();
    if (std::fseek(spill_, 0, SEEK_END) != 0) throw Error("cannot seek the temporary trace file");
    long offset = std::ftell(spill_);
    long bytes = 0;
    for (const Key& k : keys_) {
        const char* p = chunk_.data() + k.offset;
        size_t n = record_size(p);
        if (std::fwrite(p, 1, n, spill_) != n)
            throw Error(std::string("cannot write the temporary trace file: ") + std::strerror(errno));
        bytes += static_cast<long>(n);
    }
    runs_.push_back({offset, bytes});
    chunk_.clear();
    keys_.clear();
    keys_sorted_ = true;
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
        if (!ensure(sizeof(RecordHeader))) return;
        if (!ensure(record_size(buf_.data() + off_))) throw Error("the temporary trace file is truncated");
        have_ = true;
    }
    bool ensure(size_t n) {
        if (filled_ - off_ >= n) return true;
        if (left_ == 0) {
            if (filled_ == off_) return false;
            throw Error("the temporary trace file is truncated");
        }
        buf_.erase(0, off_);
        filled_ -= off_;
        off_ = 0;
        size_t want = std::max(n - filled_, chunk_);
        want = std::min<size_t>(want, static_cast<size_t>(left_));
        buf_.resize(filled_ + want);
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
    };
    struct Later {
        bool operator()(const Item& a, const Item& b) const {
            return before(b.ts, b.end, b.depth, b.seq, a.ts, a.end, a.depth, a.seq);
        }
    };
    std::priority_queue<Item, std::vector<Item>, Later> heap;
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t to_advance = kNone;  // the source whose record the caller holds

    void push(size_t i) {
        const char* p = sources[i]->current();
        if (!p) return;
        RecordHeader h;
        std::memcpy(&h, p, sizeof h);
        heap.push({h.ts, h.end, h.seq, i, h.depth});
    }
};

EventSpool::Reader::Reader(EventSpool& spool) : state_(std::make_unique<State>()) {
    State& s = *state_;
    spool.sort_chunk();
    if (spool.spill_ && std::fflush(spool.spill_) != 0)
        throw Error(std::string("cannot write the temporary trace file: ") + std::strerror(errno));
    size_t per_run = std::max(kMinRunBufferBytes, kMergeBudgetBytes / std::max<size_t>(spool.runs_.size(), 1));
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
