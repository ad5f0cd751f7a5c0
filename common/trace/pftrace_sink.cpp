#include "common/trace/pftrace_sink.h"

#include <string>
#include <unordered_map>

#include "common/trace/perfetto_fields.h"
#include "common/trace/protobuf_writer.h"
#include "common/trace/trace_args.h"
#include "common/trace/trace_sink.h"

namespace nx {

namespace {

namespace pf = perfetto;
using proto::ProtoWriter;

// One intern table (event names, categories, annotation names, values).
struct InternTable {
    uint32_t field;                 // in InternedData
    std::unordered_map<std::string, uint64_t> ids;
};

class PftraceWriter : public TraceWriter {
public:
    explicit PftraceWriter(Output& out) : out_(out) {}

    void begin_process(const TraceProcess& p) override {
        if (p.sequence != sequence_) {
            // Each profile is a sequence, and starts with empty intern tables.
            sequence_ = p.sequence;
            reset_interning();
        }
        ProtoWriter& d = start_packet(0, false);
        d.begin(pf::packet::track_descriptor);
        d.add_varint(pf::track_descriptor::uuid, p.uuid);
        d.begin(pf::track_descriptor::process);
        d.add_int(pf::process_descriptor::pid, p.pid);
        if (!p.name.empty()) d.add_string(pf::process_descriptor::process_name, p.name);
        d.end();
        d.add_varint(pf::track_descriptor::child_ordering, pf::kChildOrderingExplicit);
        d.end();
        emit_packet();
    }

    void track(const TraceTrack& t) override {
        ProtoWriter& d = start_packet(0, false);
        d.begin(pf::packet::track_descriptor);
        d.add_varint(pf::track_descriptor::uuid, t.uuid);
        d.add_varint(pf::track_descriptor::parent_uuid, t.parent);
        if (t.thread) {
            // The thread's name is the track's.
            d.begin(pf::track_descriptor::thread);
            d.add_int(pf::thread_descriptor::pid, t.pid);
            d.add_int(pf::thread_descriptor::tid, t.tid);
            d.add_string(pf::thread_descriptor::thread_name, t.name);
            d.end();
        } else {
            d.add_string(pf::track_descriptor::name, t.name);
        }
        d.add_int(pf::track_descriptor::sibling_order_rank, t.rank);
        if (t.kind == TrackKind::counter) {
            d.begin(pf::track_descriptor::counter);
            if (t.unit == ValueUnit::count) d.add_varint(pf::counter_descriptor::unit, static_cast<uint64_t>(pf::CounterUnit::count));
            if (t.unit == ValueUnit::bytes) d.add_varint(pf::counter_descriptor::unit, static_cast<uint64_t>(pf::CounterUnit::size_bytes));
            if (!t.unit_name.empty()) d.add_string(pf::counter_descriptor::unit_name, t.unit_name);
            d.end();
        }
        d.end();
        emit_packet();
    }

    void slice_begin(const TraceTrack& t, const SpooledEvent& e, int64_t, int64_t clipped_from_ns,
                     std::span<const FlowEnd> flows) override {
        // Reset before interning this event's strings, so that the packet
        // carrying the reset defines every iid it uses.
        if (interned_entries_ > kMaxInternedEntries) reset_interning();
        event_.clear();
        event_.add_varint(pf::track_event::type, pf::kTypeSliceBegin);
        event_.add_varint(pf::track_event::track_uuid, t.uuid);
        std::string_view name = !e.name.empty() ? e.name : !e.opcode.empty() ? e.opcode : to_string(e.type);
        event_.add_varint(pf::track_event::name_iid, intern(names_, name));
        event_.add_varint(pf::track_event::category_iids, intern(categories_, to_string(e.type)));
        for_each_trace_arg(e, clipped_from_ns, [&](std::string_view key, const TraceArg& a) {
            event_.begin(pf::track_event::debug_annotations);
            event_.add_varint(pf::debug_annotation::name_iid, intern(annotation_names_, key));
            switch (a.kind) {
                case TraceArg::integer: event_.add_int(pf::debug_annotation::int_value, a.i); break;
                case TraceArg::real: event_.add_double(pf::debug_annotation::double_value, a.d); break;
                case TraceArg::boolean: event_.add_bool(pf::debug_annotation::bool_value, a.b); break;
                case TraceArg::text:
                    if (a.interned) event_.add_varint(pf::debug_annotation::string_value_iid, intern(values_, a.s));
                    else event_.add_string(pf::debug_annotation::string_value, a.s);
                    break;
            }
            event_.end();
        });
        for (const FlowEnd& f : flows)
            event_.add_fixed64(f.out ? pf::track_event::flow_ids : pf::track_event::terminating_flow_ids, f.id);
        write_event(e.ts);
    }

    void slice_end(const TraceTrack& t, int64_t ts) override {
        event_.clear();
        event_.add_varint(pf::track_event::type, pf::kTypeSliceEnd);
        event_.add_varint(pf::track_event::track_uuid, t.uuid);
        write_event(ts);
    }

    void counter(const TraceTrack& t, int64_t ts, double value) override {
        event_.clear();
        event_.add_varint(pf::track_event::type, pf::kTypeCounter);
        event_.add_varint(pf::track_event::track_uuid, t.uuid);
        event_.add_double(pf::track_event::double_counter_value, value);
        write_event(ts);
    }

    void end_process() override {}
    void finish() override {}

private:
    ProtoWriter& start_packet(int64_t ts, bool has_ts) {
        packet_.clear();
        if (has_ts) packet_.add_varint(pf::packet::timestamp, static_cast<uint64_t>(ts));
        packet_.add_varint(pf::packet::trusted_packet_sequence_id, sequence_);
        if (cleared_pending_) {
            packet_.add_varint(pf::packet::sequence_flags,
                               pf::kSeqIncrementalStateCleared | (has_ts ? pf::kSeqNeedsIncrementalState : 0));
            cleared_pending_ = false;
        } else if (has_ts) {
            packet_.add_varint(pf::packet::sequence_flags, pf::kSeqNeedsIncrementalState);
        }
        return packet_;
    }

    // Trace.packet: the tag, the length, the packet.
    void emit_packet() {
        frame_.clear();
        frame_.push_back(static_cast<char>((pf::trace::packet << 3) | static_cast<int>(proto::WireType::length_delimited)));
        proto::append_varint(frame_, packet_.data().size());
        out_.write(frame_);
        out_.write(packet_.data());
    }

    void write_event(int64_t ts) {
        ProtoWriter& p = start_packet(ts, true);
        if (!interned_.data().empty()) {
            p.add_bytes(pf::packet::interned_data, interned_.data());
            interned_.clear();
        }
        p.add_bytes(pf::packet::track_event, event_.data());
        emit_packet();
    }

    // The iid of `s`, adding it to this packet's interned_data when new.
    uint64_t intern(InternTable& table, std::string_view s) {
        key_.assign(s);
        auto it = table.ids.find(key_);
        if (it != table.ids.end()) return it->second;
        // iids never repeat within a trace, even across resets.
        uint64_t iid = ++next_iid_;
        table.ids.emplace(key_, iid);
        ++interned_entries_;
        interned_.begin(table.field);
        interned_.add_varint(pf::interned_entry::iid, iid);
        interned_.add_bytes(pf::interned_entry::name, s);
        interned_.end();
        return iid;
    }

    void reset_interning() {
        for (InternTable* t : {&names_, &categories_, &annotation_names_, &values_}) t->ids.clear();
        interned_entries_ = 0;
        cleared_pending_ = true;
    }

    Output& out_;
    uint32_t sequence_ = 0;
    bool cleared_pending_ = true;
    ProtoWriter packet_, event_, interned_;
    std::string frame_, key_;
    InternTable names_{pf::interned_data::event_names, {}};
    InternTable categories_{pf::interned_data::event_categories, {}};
    InternTable annotation_names_{pf::interned_data::debug_annotation_names, {}};
    InternTable values_{pf::interned_data::debug_annotation_string_values, {}};
    size_t interned_entries_ = 0;
    uint64_t next_iid_ = 0;
};

}  // namespace

std::unique_ptr<TraceWriter> make_pftrace_writer(Output& out) { return std::make_unique<PftraceWriter>(out); }

std::unique_ptr<ProfileSink> make_pftrace_sink(Output& out) {
    return std::make_unique<TraceSink>(make_pftrace_writer(out));
}

}  // namespace nx
