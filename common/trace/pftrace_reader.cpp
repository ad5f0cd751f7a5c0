#include "common/trace/pftrace_reader.h"

#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "common/io/named_rows.h"
#include "common/trace/perfetto_fields.h"
#include "common/trace/protobuf_reader.h"

namespace nx {

namespace {

namespace pf = perfetto;
using proto::Field;
using proto::ProtoReader;

struct Sequence {
    bool valid = false;  // saw SEQ_INCREMENTAL_STATE_CLEARED
    std::unordered_map<uint64_t, std::string> names, categories, annotation_names, values;
};

std::string number_text(double d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
}

class Decoder {
public:
    DecodedTrace run(std::string_view bytes) {
        ProtoReader trace(bytes);
        Field f;
        while (trace.next(f)) {
            if (f.number != pf::trace::packet || f.type != proto::WireType::length_delimited) {
                error("trace: unexpected field " + std::to_string(f.number));
                continue;
            }
            packet(f.bytes, trace.offset_of(f.bytes));
        }
        for (auto& [uuid, stack] : open_)
            if (!stack.empty()) error("track " + std::to_string(uuid) + ": " + std::to_string(stack.size()) + " slices never ended");
        for (uint64_t id : open_flows_) error("flow " + std::to_string(id) + " never ends");
        return std::move(out_);
    }

private:
    void error(std::string msg) { out_.errors.push_back(std::move(msg)); }

    void packet(std::string_view bytes, size_t offset) {
        ++out_.packets;
        ProtoReader r(bytes, offset);
        Field f;
        int64_t ts = 0;
        bool has_ts = false;
        uint64_t seq_id = 0, flags = 0;
        std::string_view event, interned, descriptor;
        while (r.next(f)) {
            switch (f.number) {
                case pf::packet::timestamp: ts = f.as_int(); has_ts = true; break;
                case pf::packet::trusted_packet_sequence_id: seq_id = f.value; break;
                case pf::packet::sequence_flags: flags = f.value; break;
                case pf::packet::track_event: event = f.bytes; break;
                case pf::packet::interned_data: interned = f.bytes; break;
                case pf::packet::track_descriptor: descriptor = f.bytes; break;
                default: break;
            }
        }
        Sequence& seq = sequences_[seq_id];
        if (flags & pf::kSeqIncrementalStateCleared) {
            seq = Sequence{};
            seq.valid = true;
        }
        if (!interned.empty()) intern(seq, interned, offset);
        if (!descriptor.empty()) track_descriptor(descriptor, offset);
        if (!event.empty()) {
            if ((flags & pf::kSeqNeedsIncrementalState) && !seq.valid)
                error("packet at byte " + std::to_string(offset) + " needs incremental state its sequence never set");
            if (!has_ts) error("track event without a timestamp at byte " + std::to_string(offset));
            track_event(seq, event, ts, offset);
        }
    }

    void intern(Sequence& seq, std::string_view bytes, size_t offset) {
        ProtoReader r(bytes, offset);
        Field f;
        while (r.next(f)) {
            std::unordered_map<uint64_t, std::string>* table = nullptr;
            if (f.number == pf::interned_data::event_names) table = &seq.names;
            else if (f.number == pf::interned_data::event_categories) table = &seq.categories;
            else if (f.number == pf::interned_data::debug_annotation_names) table = &seq.annotation_names;
            else if (f.number == pf::interned_data::debug_annotation_string_values) table = &seq.values;
            if (!table) continue;
            ProtoReader e(f.bytes, r.offset_of(f.bytes));
            Field g;
            uint64_t iid = 0;
            std::string name;
            while (e.next(g)) {
                if (g.number == pf::interned_entry::iid) iid = g.value;
                else if (g.number == pf::interned_entry::name) name.assign(g.bytes);
            }
            if (iid == 0) error("interned entry without an iid at byte " + std::to_string(offset));
            auto it = iids_seen_.find({f.number, iid});
            if (it != iids_seen_.end() && it->second != name)
                error("iid " + std::to_string(iid) + " reused for a different string at byte " + std::to_string(offset));
            iids_seen_[{f.number, iid}] = name;
            (*table)[iid] = std::move(name);
        }
    }

    void track_descriptor(std::string_view bytes, size_t offset) {
        DecodedTrack t;
        ProtoReader r(bytes, offset);
        Field f;
        while (r.next(f)) {
            switch (f.number) {
                case pf::track_descriptor::uuid: t.uuid = f.value; break;
                case pf::track_descriptor::parent_uuid: t.parent = f.value; break;
                case pf::track_descriptor::name: t.name.assign(f.bytes); break;
                case pf::track_descriptor::sibling_order_rank: t.rank = static_cast<int32_t>(f.value); break;
                case pf::track_descriptor::child_ordering: t.child_ordering = f.value; break;
                case pf::track_descriptor::process: {
                    t.is_process = true;
                    ProtoReader p(f.bytes, r.offset_of(f.bytes));
                    Field g;
                    while (p.next(g)) {
                        if (g.number == pf::process_descriptor::pid) t.pid = static_cast<int32_t>(g.value);
                        else if (g.number == pf::process_descriptor::process_name) t.name.assign(g.bytes);
                    }
                    break;
                }
                case pf::track_descriptor::thread: {
                    t.is_thread = true;
                    ProtoReader p(f.bytes, r.offset_of(f.bytes));
                    Field g;
                    while (p.next(g)) {
                        if (g.number == pf::thread_descriptor::pid) t.pid = static_cast<int32_t>(g.value);
                        else if (g.number == pf::thread_descriptor::tid) t.tid = static_cast<int32_t>(g.value);
                        else if (g.number == pf::thread_descriptor::thread_name) t.name.assign(g.bytes);
                    }
                    break;
                }
                case pf::track_descriptor::counter: {
                    t.is_counter = true;
                    ProtoReader c(f.bytes, r.offset_of(f.bytes));
                    Field g;
                    while (c.next(g)) {
                        if (g.number == pf::counter_descriptor::unit) t.unit = g.value;
                        else if (g.number == pf::counter_descriptor::unit_name) t.unit_name.assign(g.bytes);
                    }
                    break;
                }
                default: break;
            }
        }
        if (index_.count(t.uuid)) {
            error("track " + std::to_string(t.uuid) + " declared twice");
            return;
        }
        if (t.parent != 0 && !index_.count(t.parent))
            error("track '" + t.name + "' names parent " + std::to_string(t.parent) + " before it is declared");
        if (t.is_thread) {
            auto [it, added] = thread_pids_.emplace(t.tid, t.pid);
            if (!added) error("tid " + std::to_string(t.tid) + " declared twice (pids " + std::to_string(it->second) + " and " +
                              std::to_string(t.pid) + ")");
        }
        index_[t.uuid] = out_.tracks.size();
        out_.tracks.push_back(std::move(t));
    }

    std::string lookup(const std::unordered_map<uint64_t, std::string>& table, uint64_t iid, const char* what,
                       size_t offset) {
        auto it = table.find(iid);
        if (it != table.end()) return it->second;
        error(std::string("unknown ") + what + " iid " + std::to_string(iid) + " at byte " + std::to_string(offset));
        return {};
    }

    void track_event(Sequence& seq, std::string_view bytes, int64_t ts, size_t offset) {
        ProtoReader r(bytes, offset);
        Field f;
        uint64_t type = 0, track = 0;
        DecodedSlice s;
        double value = 0;
        while (r.next(f)) {
            switch (f.number) {
                case pf::track_event::type: type = f.value; break;
                case pf::track_event::track_uuid: track = f.value; break;
                case pf::track_event::name_iid: s.name = lookup(seq.names, f.value, "event name", offset); break;
                case pf::track_event::name: s.name.assign(f.bytes); break;
                case pf::track_event::category_iids: s.category = lookup(seq.categories, f.value, "category", offset); break;
                case pf::track_event::categories: s.category.assign(f.bytes); break;
                case pf::track_event::double_counter_value: value = f.as_double(); break;
                case pf::track_event::counter_value: value = static_cast<double>(f.as_int()); break;
                case pf::track_event::debug_annotations: s.args.push_back(annotation(seq, f.bytes, r.offset_of(f.bytes))); break;
                case pf::track_event::flow_ids: s.flow_ids.push_back(f.value); break;
                case pf::track_event::terminating_flow_ids: s.terminating_flow_ids.push_back(f.value); break;
                default: break;
            }
        }
        auto it = index_.find(track);
        if (it == index_.end()) {
            error("event on undeclared track " + std::to_string(track) + " at byte " + std::to_string(offset));
            return;
        }
        int64_t& last = last_ts_[track];
        if (ts < last) error("track '" + out_.tracks[it->second].name + "' goes back in time at " + std::to_string(ts));
        last = ts;
        std::vector<size_t>& stack = open_[track];
        if (type == pf::kTypeSliceBegin) {
            // Perfetto pairs flow ids in time order: a flow must start before it ends.
            for (uint64_t id : s.flow_ids)
                if (!open_flows_.insert(id).second) error("flow " + std::to_string(id) + " starts twice");
            for (uint64_t id : s.terminating_flow_ids)
                if (open_flows_.erase(id) == 0) error("flow " + std::to_string(id) + " ends without a start");
            s.track = track;
            s.ts = ts;
            s.depth = static_cast<int>(stack.size());
            stack.push_back(out_.slices.size());
            out_.slices.push_back(std::move(s));
        } else if (type == pf::kTypeSliceEnd) {
            if (stack.empty()) {
                error("end without a begin on track '" + out_.tracks[it->second].name + "' at " + std::to_string(ts));
                return;
            }
            out_.slices[stack.back()].dur = ts - out_.slices[stack.back()].ts;
            stack.pop_back();
        } else if (type == pf::kTypeCounter) {
            if (!out_.tracks[it->second].is_counter) error("counter value on slice track '" + out_.tracks[it->second].name + "'");
            out_.counters.push_back({track, ts, value});
        } else {
            error("unexpected track event type " + std::to_string(type));
        }
    }

    std::pair<std::string, std::string> annotation(Sequence& seq, std::string_view bytes, size_t offset) {
        ProtoReader r(bytes, offset);
        Field f;
        std::string name, value;
        while (r.next(f)) {
            switch (f.number) {
                case pf::debug_annotation::name_iid: name = lookup(seq.annotation_names, f.value, "annotation name", offset); break;
                case pf::debug_annotation::name: name.assign(f.bytes); break;
                case pf::debug_annotation::bool_value: value = f.value ? "true" : "false"; break;
                case pf::debug_annotation::uint_value: value = std::to_string(f.value); break;
                case pf::debug_annotation::int_value: value = std::to_string(f.as_int()); break;
                case pf::debug_annotation::double_value: value = number_text(f.as_double()); break;
                case pf::debug_annotation::string_value: value.assign(f.bytes); break;
                case pf::debug_annotation::string_value_iid: value = lookup(seq.values, f.value, "string value", offset); break;
                default: break;
            }
        }
        return {name, value};
    }

    DecodedTrace out_;
    std::unordered_map<uint64_t, Sequence> sequences_;
    std::unordered_map<uint64_t, size_t> index_;
    std::unordered_map<uint64_t, int64_t> last_ts_;
    std::map<uint64_t, std::vector<size_t>> open_;
    std::map<std::pair<uint32_t, uint64_t>, std::string> iids_seen_;
    std::set<uint64_t> open_flows_;
    std::map<int64_t, int64_t> thread_pids_;  // tid -> pid of its thread track
};

}  // namespace

std::string DecodedSlice::arg(std::string_view key) const {
    for (const auto& [k, v] : args)
        if (k == key) return v;
    return {};
}

const DecodedTrack* DecodedTrace::track(uint64_t uuid) const {
    for (const DecodedTrack& t : tracks)
        if (t.uuid == uuid) return &t;
    return nullptr;
}

const DecodedTrack* DecodedTrace::track_named(std::string_view name) const { return find_named(tracks, name); }

DecodedTrace decode_pftrace(std::string_view bytes) {
    Decoder d;
    return d.run(bytes);
}

}  // namespace nx
