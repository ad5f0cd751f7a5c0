// Chrome trace-event JSON (chrome://tracing, Kineto, many exporters):
// {"traceEvents": [...]} or a bare array.  Handled phases: X (complete),
// B/E (begin/end, nested per thread), i/I/n (instant), C (counter; one series
// per args key), M (process/thread names).  Times are microseconds (may be
// fractional, around 1.6e15 in Kineto traces) and become integer nanoseconds
// from their decimal text, exactly (a double moves most of them).  Other phases (flows, async,
// samples) are counted in the profile record under "chrome_phases_ignored".
#include <rapidjson/document.h>

#include <cctype>
#include <cmath>
#include <optional>
#include <map>
#include <unordered_map>

#include "common/error.h"
#include "common/import/importer.h"
#include "common/import/record_reader.h"
#include "common/import/slots.h"
#include "common/jsonl.h"

namespace nx {

namespace {

enum Field : int { kPh, kTs, kDur, kName, kCat, kPid, kTid, kArgs, kFieldCount };

struct OpenSlice {
    int64_t ts;
    std::string name;
    std::string args;
    int64_t line;
};

class ChromeJson : public RecordFormat {
public:
    ChromeJson(ImportHandler& out, ImportContext& ctx) : out_(out), ctx_(ctx) {}

    SectionMode section_mode(std::string_view section) override {
        return section.empty() || section == "traceEvents" ? SectionMode::records : SectionMode::skip;
    }
    int field_id(std::string_view, std::string_view key) override {
        switch (key.size()) {
            case 2:
                if (key == "ph") return kPh;
                if (key == "ts") return kTs;
                break;
            case 3:
                if (key == "dur") return kDur;
                if (key == "cat") return kCat;
                if (key == "pid") return kPid;
                if (key == "tid") return kTid;
                break;
            case 4:
                if (key == "name") return kName;
                if (key == "args") return kArgs;
                break;
        }
        return -1;
    }
    // ts and dur are decimal µs: converted from their text, exactly.
    bool numbers_as_text() const override { return true; }
    void top_level(bool) override {
        info_ = ctx_.profile_info("chrome-json");
        out_.begin_profile(info_);
    }

    void record(std::string_view, const std::vector<Slot>& s, std::string_view extra, int64_t line,
                const std::string& error) override {
        if (!error.empty()) {
            ctx_.bad_record(error + " in a trace event", line);
            return;
        }
        std::string ph(slot_text(s[kPh], scratch_[0]));
        if (ph.empty()) {
            ctx_.bad_record("missing \"ph\" in a trace event", line);
            return;
        }
        std::string key = thread_key(s);
        if (ph == "M") {
            metadata(s, key);
            return;
        }
        Event e;
        e.line = line;
        std::string err;
        if (ph != "E" || s[kTs].present()) err = slot_us_to_ns(s[kTs], "ts", e.ts_ns, true);
        if (!err.empty()) {
            ctx_.bad_record(err + " in a trace event", line);
            return;
        }
        max_ts_ = std::max(max_ts_, e.ts_ns);
        std::string name(slot_text(s[kName], scratch_[1]));
        std::string args = merged_args(s, extra);
        const std::string& track = track_name(key);
        e.track = track;
        if (ph == "X") {
            if (s[kDur].present()) err = slot_us_to_ns(s[kDur], "dur", e.dur_ns);
            if (!err.empty()) {
                ctx_.bad_record(err + " in a trace event", line);
                return;
            }
            max_ts_ = std::max(max_ts_, e.ts_ns + e.dur_ns);
            emit(e, name, args, static_cast<int32_t>(stacks_[key].size()));
        } else if (ph == "B") {
            stacks_[key].push_back({e.ts_ns, name, args, line});
        } else if (ph == "E") {
            auto& stack = stacks_[key];
            if (stack.empty()) {
                ctx_.bad_record("\"E\" event without a matching \"B\" on its thread", line);
                return;
            }
            OpenSlice open = std::move(stack.back());
            stack.pop_back();
            if (e.ts_ns < open.ts) {
                ctx_.bad_record("\"E\" event earlier than its \"B\"", line);
                return;
            }
            e.dur_ns = e.ts_ns - open.ts;
            e.ts_ns = open.ts;
            e.line = open.line;
            emit(e, open.name, open.args, static_cast<int32_t>(stack.size()));
        } else if (ph == "i" || ph == "I" || ph == "n") {
            emit(e, name, args, 0);
        } else if (ph == "C") {
            counter(e, s, name);
        } else {
            ++ignored_[ph];
        }
    }

    void finish() {
        // Slices still open when the trace ended (a crashed or cut-off run)
        // are kept, ending at the last timestamp, and marked.
        for (auto& [key, stack] : stacks_) {
            while (!stack.empty()) {
                OpenSlice open = std::move(stack.back());
                stack.pop_back();
                Event e;
                e.track = track_name(key);
                e.ts_ns = open.ts;
                e.dur_ns = std::max<int64_t>(0, max_ts_ - open.ts);
                e.line = open.line;
                std::string args = open.args.empty() ? "{\"unterminated\":true}"
                                                     : open.args.substr(0, open.args.size() - 1) + ",\"unterminated\":true}";
                emit(e, open.name, args, static_cast<int32_t>(stack.size()));
                ++unterminated_;
            }
        }
        if (!ignored_.empty() || unterminated_ > 0) {
            rapidjson::Document doc;
            if (!info_.carried_json.empty()) doc.Parse(info_.carried_json.c_str());
            if (!doc.IsObject()) doc.SetObject();
            auto& a = doc.GetAllocator();
            if (!ignored_.empty()) {
                rapidjson::Value counts(rapidjson::kObjectType);
                for (auto& [ph, n] : ignored_) counts.AddMember(rapidjson::Value(ph.c_str(), a), rapidjson::Value(static_cast<int64_t>(n)), a);
                doc.AddMember("chrome_phases_ignored", counts, a);
            }
            if (unterminated_ > 0) doc.AddMember("chrome_unterminated_slices", rapidjson::Value(static_cast<int64_t>(unterminated_)), a);
            info_.carried_json = to_json(doc);
            out_.update_info(info_);
        }
        out_.end_profile();
    }

private:
    std::string thread_key(const std::vector<Slot>& s) {
        std::string key(slot_text(s[kPid], scratch_[2]));
        key += '/';
        key += slot_text(s[kTid], scratch_[3]);
        return key;
    }

    const std::string& track_name(const std::string& key) {
        auto it = names_.find(key);
        if (it != names_.end()) return it->second;
        return names_.emplace(key, key).first->second;
    }

    void metadata(const std::vector<Slot>& s, const std::string& key) {
        std::string_view name = slot_text(s[kName], scratch_[1]);
        if (s[kArgs].kind != Slot::json) return;
        rapidjson::Document doc;
        doc.Parse(s[kArgs].s.c_str());
        if (!doc.IsObject()) return;
        std::optional<std::string> value;
        try {
            value = get_string(doc, "name");
        } catch (const Error&) {
            return;
        }
        if (!value) return;
        // Names apply to tracks not yet used; tracks already written keep
        // their "pid/tid" name (M events normally come first).
        if (name == "thread_name" && !names_.count(key)) names_[key] = *value;
    }

    std::string merged_args(const std::vector<Slot>& s, std::string_view extra) {
        // The event's "args" object, plus "cat" and any other fields.
        bool has_args = s[kArgs].kind == Slot::json && s[kArgs].s.size() > 2 && s[kArgs].s.front() == '{';
        std::string_view cat = slot_text(s[kCat], scratch_[4]);
        if (!has_args && cat.empty() && extra.empty()) return {};
        std::string out = "{";
        auto append = [&](std::string_view body) {
            if (body.empty()) return;
            if (out.size() > 1) out += ',';
            out += body;
        };
        if (!cat.empty()) append("\"cat\":" + json_quote(cat));
        if (has_args) append(std::string_view(s[kArgs].s).substr(1, s[kArgs].s.size() - 2));
        if (extra.size() > 2) append(extra.substr(1, extra.size() - 2));
        out += '}';
        return out;
    }

    void emit(Event& e, std::string_view name, std::string_view args, int32_t depth) {
        e.name = name;
        e.args_json = args;
        e.depth = depth;
        e.engine = engine_from_label(e.track);
        if (e.engine != Engine::none) {
            e.type = EventType::instruction;
            e.opcode = name;
        } else if (e.track.size() > 1 && e.track[0] == 'q' && std::isupper(static_cast<unsigned char>(e.track[1]))) {
            // Neuron DMA queues are named qSyncIO0, qScalarSpillReload0 ...
            e.type = EventType::dma;
            e.engine = Engine::dma;
            e.dma_kind = dma_kind_from_queue(e.track);
        } else {
            e.type = EventType::region;
        }
        out_.event(e);
    }

    void counter(Event& e, const std::vector<Slot>& s, const std::string& name) {
        if (s[kArgs].kind != Slot::json) return;
        rapidjson::Document doc;
        doc.Parse(s[kArgs].s.c_str());
        if (!doc.IsObject()) return;
        e.type = EventType::counter;
        for (auto& m : doc.GetObject()) {
            if (!m.value.IsNumber() || !std::isfinite(m.value.GetDouble())) continue;
            std::string series = doc.MemberCount() == 1 ? name : name + "." + m.name.GetString();
            e.track = series;
            e.name = series;
            e.value = m.value.GetDouble();
            out_.event(e);
        }
    }

    ImportHandler& out_;
    ImportContext& ctx_;
    ProfileInfo info_;
    std::string scratch_[5];
    std::unordered_map<std::string, std::string> names_;
    std::unordered_map<std::string, std::vector<OpenSlice>> stacks_;
    std::map<std::string, int64_t> ignored_;
    int64_t unterminated_ = 0;
    int64_t max_ts_ = 0;
};

}  // namespace

void import_chrome_json(InputSource& in, ImportHandler& out, ImportContext& ctx) {
    ChromeJson format(out, ctx);
    read_records(in, format, kFieldCount);
    format.finish();
}

}  // namespace nx
