#include "common/dataset/track_order_window.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/io/error.h"

namespace nx {

TrackOrderWindow::TrackOrderWindow(Target& target, size_t window, size_t budget_bytes)
    : target_(target), window_(std::max<size_t>(window, 1)), budget_(budget_bytes) {}

void TrackOrderWindow::account(Track& t) {
    size_t now = t.held.capacity() * sizeof(Held) + t.arena.capacity();
    held_bytes_ = held_bytes_ - t.accounted + now;
    t.accounted = now;
}

void TrackOrderWindow::add(const Event& e, uint32_t track) {
    if (track >= tracks_.size()) tracks_.resize(track + 1);
    Track& t = tracks_[track];
    Held h;
    h.ts = e.ts_ns;
    h.end = event_end(e.ts_ns, e.type == EventType::counter ? 0 : e.dur_ns);
    h.seq = seq_++;
    h.bytes = e.bytes;
    h.flops = e.flops;
    h.model_flops = e.model_flops;
    h.value = e.value;
    h.depth = e.depth;
    h.type = e.type;
    h.engine = e.engine;
    h.dma_kind = e.dma_kind;
    h.transpose = e.transpose;
    const std::string_view strings[kStrings] = {e.name, e.opcode, e.hlo_name, e.layer, e.tensor, e.args_json};
    size_t total = 0;
    for (std::string_view v : strings) total += v.size();
    if (t.arena.size() + total > std::numeric_limits<uint32_t>::max())
        throw Error("a track's events held for ordering exceed 4 GiB", {}, e.line);
    h.offset = static_cast<uint32_t>(t.arena.size());
    // One resize, then each non-empty string copied in place: most of an
    // event's strings are empty, and six appends cost more than the bytes.
    t.arena.resize(h.offset + total);
    char* at = t.arena.data() + h.offset;
    for (int i = 0; i < kStrings; ++i) {
        h.length[i] = static_cast<uint32_t>(strings[i].size());
        if (!strings[i].empty()) std::memcpy(at, strings[i].data(), strings[i].size());
        at += strings[i].size();
    }
    if (!t.held.empty()) {
        const Held& last = t.held.back();
        if (before(h.ts, h.end, h.depth, last.ts, last.end, last.depth)) t.sorted = false;
    }
    t.held.push_back(h);
    account(t);
    if (t.held.size() >= 2 * window_) let_out(track, t.held.size() - window_);
    if (held_bytes_ > budget_)
        for (uint32_t k = 0; k < tracks_.size(); ++k) let_out(k, (tracks_[k].held.size() + 1) / 2, true);
}

void TrackOrderWindow::let_out(uint32_t track, size_t n, bool release) {
    Track& t = tracks_[track];
    n = std::min(n, t.held.size());
    if (n == 0) {
        if (release) {
            t.held.shrink_to_fit();
            t.arena.shrink_to_fit();
            account(t);
        }
        return;
    }
    if (!t.sorted) {
        // Stable: events at one place keep their arrival order.
        std::stable_sort(t.held.begin(), t.held.end(), [](const Held& a, const Held& b) {
            return before(a.ts, a.end, a.depth, b.ts, b.end, b.depth);
        });
        t.sorted = true;
    }
    out_.resize(n);
    for (size_t k = 0; k < n; ++k) {
        const Held& h = t.held[k];
        SpooledEvent& o = out_[k];
        o.track = track;
        o.ts = h.ts;
        o.end = h.end;
        o.seq = h.seq;
        o.type = h.type;
        o.engine = h.engine;
        o.dma_kind = h.dma_kind;
        o.transpose = h.transpose;
        o.depth = h.depth;
        o.bytes = h.bytes;
        o.flops = h.flops;
        o.model_flops = h.model_flops;
        o.value = h.value;
        std::string_view* views[kStrings] = {&o.name, &o.opcode, &o.hlo_name, &o.layer, &o.tensor, &o.args_json};
        size_t at = h.offset;
        for (int i = 0; i < kStrings; ++i) {
            *views[i] = std::string_view(t.arena).substr(at, h.length[i]);
            at += h.length[i];
        }
    }
    target_.rows(out_.data(), n);
    // The rest move to the front, their strings too.  The arena holds the
    // held events' strings back to back; when the rest's are its tail in
    // their order (the events came in order, or a sort moved none of them
    // across the cut), the let-out ones are its head, and the tail moves
    // down in place.  Otherwise the rest's are gathered into a fresh arena.
    const uint32_t base = n < t.held.size() ? t.held[n].offset : static_cast<uint32_t>(t.arena.size());
    size_t at = base;
    bool tail = true;
    for (size_t k = n; k < t.held.size() && tail; ++k) {
        const Held& h = t.held[k];
        tail = h.offset == at;
        for (uint32_t l : h.length) at += l;
    }
    if (tail && at == t.arena.size()) {
        t.arena.erase(0, base);
        for (size_t k = n; k < t.held.size(); ++k) t.held[k].offset -= base;
    } else {
        std::string arena;
        for (size_t k = n; k < t.held.size(); ++k) {
            Held& h = t.held[k];
            size_t len = 0;
            for (uint32_t l : h.length) len += l;
            auto offset = static_cast<uint32_t>(arena.size());
            arena.append(t.arena, h.offset, len);
            h.offset = offset;
        }
        t.arena.swap(arena);
    }
    t.held.erase(t.held.begin(), t.held.begin() + static_cast<std::ptrdiff_t>(n));
    if (release || t.held.size() < t.held.capacity() / 4) t.held.shrink_to_fit();
    if (release || t.arena.size() < t.arena.capacity() / 4) t.arena.shrink_to_fit();
    account(t);
}

void TrackOrderWindow::drain() {
    for (uint32_t k = 0; k < tracks_.size(); ++k) let_out(k, tracks_[k].held.size());
}

void TrackOrderWindow::clear() {
    tracks_.clear();
    held_bytes_ = 0;
    seq_ = 0;
}

}  // namespace nx
