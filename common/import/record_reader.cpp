#include "common/import/record_reader.h"

#include <rapidjson/error/en.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "common/io/error.h"
#include "common/io/json_input_stream.h"
#include "common/io/json_text.h"
#include "common/io/limits.h"
#include "common/io/utf8.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

using Writer = JsonText;
constexpr size_t kMaxCarriedBytes = 1 << 20;  // carried top-level values beyond this are dropped

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
    // Where the tokens of a nested value go while it is being passed through.
    enum class PassTarget { slot, args, carry, skip, bad_element };

public:
    Handler(RecordFormat& fmt, JsonInputStream& in, size_t slot_count)
        : fmt_(fmt), in_(in), slots_(slot_count) {}

    const std::string& stream_error() const { return stream_error_; }

    bool Null() { return scalar([&](Writer& w) { w.null(); }, [&](Slot& s) { s.kind = Slot::null; }); }
    bool Bool(bool b) {
        return scalar([&](Writer& w) { w.boolean(b); }, [&](Slot& s) { s.kind = Slot::boolean; s.b = b; });
    }
    bool Int(int i) { return Int64(i); }
    bool Uint(unsigned u) { return Int64(u); }
    bool Int64(int64_t i) {
        return scalar([&](Writer& w) { w.int64(i); },
                      [&](Slot& s) { s.kind = Slot::integer; s.i = i; s.d = static_cast<double>(i); });
    }
    bool Uint64(uint64_t u) {
        if (u <= static_cast<uint64_t>(INT64_MAX)) return Int64(static_cast<int64_t>(u));
        return scalar([&](Writer& w) { w.uint64(u); },
                      [&](Slot& s) { s.kind = Slot::unsigned_big; s.u = u; s.d = static_cast<double>(u); });
    }
    bool Double(double d) {
        return scalar([&](Writer& w) { w.real(d); },
                      [&](Slot& s) { s.kind = Slot::real; s.d = d; });
    }
    // With kParseNumbersAsStringsFlag (RecordFormat::numbers_as_text):
    // decoded as usual, and a slot keeps the text as written.
    bool RawNumber(const char* str, rapidjson::SizeType len, bool) {
        // A number nothing keeps (skipped section or field) is not converted.
        if ((pass_depth_ > 0 && !pass_writer_) ||
            (pass_depth_ == 0 && record_depth_ > 0 && depth_ == record_depth_ && field_ == kSkipField)) {
            in_.mark();
            return true;
        }
        std::string_view text(str, len);
        bool ok;
        if (text.find_first_of(".eE") == std::string_view::npos) {
            errno = 0;
            char* end = nullptr;
            if (text[0] == '-') {
                long long v = std::strtoll(std::string(text).c_str(), &end, 10);
                ok = errno == 0 ? Int64(v) : Double(std::strtod(std::string(text).c_str(), nullptr));
            } else {
                unsigned long long v = std::strtoull(std::string(text).c_str(), &end, 10);
                ok = errno == 0 ? Uint64(v) : Double(std::strtod(std::string(text).c_str(), nullptr));
            }
        } else {
            ok = Double(std::strtod(std::string(text).c_str(), nullptr));
        }
        if (pass_depth_ == 0 && record_depth_ > 0 && depth_ == record_depth_ && field_ >= 0)
            slots_[static_cast<size_t>(field_)].s.assign(text);
        return ok;
    }
    bool String(const char* str, rapidjson::SizeType len, bool) {
        std::string_view v(str, len);
        // Most strings are plain ASCII: one scan finds that they are valid
        // and need no escaping.
        bool plain = json_plain_ascii_prefix(v.data(), v.data() + v.size()) == v.size();
        if (!plain && !is_valid_utf8(v)) {
            if (!in_record()) return fail_stream("invalid UTF-8 in a string");
            note_record_error("invalid UTF-8 in a string");
            v = {};
        }
        return scalar([&](Writer& w) { plain ? w.plain_string(v) : w.string(v); },
                      [&](Slot& s) {
                          s.kind = Slot::string;
                          // clear + append: assign() takes the slower general replace path.
                          s.s.clear();
                          s.s.append(v.data(), v.size());
                      });
    }
    bool Key(const char* str, rapidjson::SizeType len, bool) {
        in_.mark();
        std::string_view k(str, len);
        if (pass_depth_ == 0 && record_depth_ > 0 && depth_ == record_depth_ && !fmt_.keys_by_slots())
            return record_key(k);
        if (!is_valid_utf8(k)) {
            if (!in_record()) return fail_stream("invalid UTF-8 in a key");
            note_record_error("invalid UTF-8 in a key");
            k = "\xEF\xBF\xBD";
        }
        if (pass_depth_ > 0) {
            if (pass_writer_) {
                pass_writer_->key(k);
                cap_carry();
            }
            return true;
        }
        if (depth_ == 1 && top_is_object_) {
            section_.assign(k);
            known_keys_.clear();  // field ids are the section's
            return true;
        }
        if (record_depth_ > 0 && depth_ == record_depth_) {
            field_ = fmt_.field_id_after(section_, k, slots_);
            if (field_ == -1) args_key(k);
        }
        return true;
    }
    bool StartObject() { return start(true); }
    bool StartArray() { return start(false); }
    bool EndObject(rapidjson::SizeType) { return end(true); }
    bool EndArray(rapidjson::SizeType) { return end(false); }

private:
    bool in_record() const { return record_depth_ > 0; }

    // The record's args object, opened at its first key.
    Writer& args() {
        if (!args_started_) {
            args_w_.start_object();
            args_started_ = true;
        }
        return args_w_;
    }
    void args_key(std::string_view k) { args().key(k); }

    // A field's key, when field ids depend on the section and key alone.
    // A section's records list the same keys in the same order (11 per
    // instruction, a million instructions): a key equal to the last
    // record's at its position is the same field, already validated, with
    // its args text already escaped.
    bool record_key(std::string_view k) {
        size_t pos = key_index_++;
        if (pos < known_keys_.size() && known_keys_[pos].valid && known_keys_[pos].key == k) {
            const KnownKey& known = known_keys_[pos];
            field_ = known.field;
            if (field_ == -1) args().key_text(known.args_text);
            return true;
        }
        if (!is_valid_utf8(k)) {
            // Not kept: the next record's key here is looked at afresh.
            if (pos < known_keys_.size()) known_keys_[pos].valid = false;
            note_record_error("invalid UTF-8 in a key");
            field_ = fmt_.field_id_after(section_, "\xEF\xBF\xBD", slots_);
            if (field_ == -1) args_key("\xEF\xBF\xBD");
            return true;
        }
        field_ = fmt_.field_id_after(section_, k, slots_);
        if (field_ == -1) args_key(k);
        if (pos < kMaxKnownKeys) {
            if (pos >= known_keys_.size()) known_keys_.resize(pos + 1);
            KnownKey& known = known_keys_[pos];
            known.valid = true;
            known.key.assign(k);
            known.field = field_;
            key_w_.clear();
            key_w_.key(k);
            known.args_text.assign(key_w_.view());
        }
        return true;
    }

    bool fail_stream(const std::string& msg) {
        stream_error_ = msg;
        return false;
    }
    void note_record_error(const std::string& msg) {
        if (record_error_.empty()) record_error_ = msg;
    }

    template <typename WriteFn, typename SlotFn>
    bool scalar(WriteFn&& write, SlotFn&& set_slot) {
        in_.mark();
        if (pass_depth_ > 0) {
            if (pass_writer_) {
                write(*pass_writer_);
                cap_carry();
            }
            return true;
        }
        if (record_depth_ > 0 && depth_ == record_depth_) {
            if (field_ >= 0) set_slot(slots_[static_cast<size_t>(field_)]);
            else if (field_ == -1) write(args_w_);
            return true;
        }
        if (array_depth_ > 0 && depth_ == array_depth_) {
            // A scalar where a record should be.
            report_bad_element("expected an object, got a scalar");
            return true;
        }
        if (depth_ == 1 && top_is_object_) {
            // A top-level scalar ("total_time": 0.0018) is carried in records
            // mode too: nothing is dropped unseen.
            if (fmt_.section_mode(section_) != RecordFormat::SectionMode::skip) {
                tmp_w_.clear();
                write(tmp_w_);
                fmt_.carried(section_, tmp_w_.view());
            }
            return true;
        }
        if (depth_ == 0) return fail_stream("expected a JSON object or array at the top level");
        return true;
    }

    void report_bad_element(const std::string& msg) {
        for (Slot& s : slots_) s.kind = Slot::none;
        fmt_.record(section_, slots_, {}, in_.line(), msg);
    }

    void begin_record() {
        record_depth_ = depth_ + 1;
        record_line_ = in_.line();
        for (Slot& s : slots_) s.kind = Slot::none;
        args_w_.clear();
        args_started_ = false;
        record_error_.clear();
        field_ = -1;
        key_index_ = 0;
    }

    // A carried value past kMaxCarriedBytes is dropped as it grows, not once
    // whole: the rest of it is skipped unwritten.
    void cap_carry() {
        if (pass_target_ == PassTarget::carry && tmp_w_.view().size() > kMaxCarriedBytes) pass_writer_ = nullptr;
    }

    void begin_pass(Writer* w, PassTarget target) {
        pass_writer_ = w;
        pass_target_ = target;
        pass_depth_ = depth_ + 1;
        if (w == &tmp_w_) tmp_w_.clear();
    }

    bool start(bool object) {
        in_.mark();
        if (depth_ >= kMaxJsonDepth) return fail_stream(json_depth_message());
        if (pass_depth_ > 0) {
            if (pass_writer_) {
                object ? pass_writer_->start_object() : pass_writer_->start_array();
                cap_carry();
            }
            ++depth_;
            return true;
        }
        if (depth_ == 0) {
            top_is_object_ = object;
            fmt_.top_level(object);
            if (!object) {
                section_.clear();
                if (fmt_.section_mode(section_) != RecordFormat::SectionMode::records)
                    return fail_stream("expected a JSON object at the top level, got an array");
                array_depth_ = 1;
            }
            depth_ = 1;
            return true;
        }
        if (record_depth_ > 0 && depth_ == record_depth_) {
            // A field's value is a nested object/array.
            if (field_ >= 0) begin_pass(&tmp_w_, PassTarget::slot);
            else if (field_ == -1) begin_pass(&args_w_, PassTarget::args);
            else begin_pass(nullptr, PassTarget::skip);
            if (pass_writer_) object ? pass_writer_->start_object() : pass_writer_->start_array();
            ++depth_;
            return true;
        }
        if (array_depth_ > 0 && depth_ == array_depth_) {
            if (object) {
                begin_record();
            } else {
                begin_pass(nullptr, PassTarget::bad_element);
                bad_element_line_ = in_.line();
            }
            ++depth_;
            return true;
        }
        if (depth_ == 1 && top_is_object_) {
            RecordFormat::SectionMode mode = fmt_.section_mode(section_);
            if (mode == RecordFormat::SectionMode::records) {
                if (object) begin_record();
                else array_depth_ = 2;
            } else if (mode == RecordFormat::SectionMode::carry) {
                begin_pass(&tmp_w_, PassTarget::carry);
                object ? tmp_w_.start_object() : tmp_w_.start_array();
            } else {
                begin_pass(nullptr, PassTarget::skip);
            }
            ++depth_;
            return true;
        }
        // Deeper structure outside records (e.g. an object inside a records
        // array element that is itself an array) is skipped.
        begin_pass(nullptr, PassTarget::skip);
        ++depth_;
        return true;
    }

    bool end(bool object) {
        in_.mark();
        if (pass_depth_ > 0) {
            if (pass_writer_) object ? pass_writer_->end_object() : pass_writer_->end_array();
            if (depth_ == pass_depth_) {
                pass_depth_ = 0;
                switch (pass_target_) {
                    case PassTarget::slot: {
                        Slot& s = slots_[static_cast<size_t>(field_)];
                        s.kind = Slot::json;
                        tmp_w_.move_into(s.s);
                        break;
                    }
                    case PassTarget::carry:
                        // Dropped past the cap (cap_carry): nothing to give.
                        if (pass_writer_ && tmp_w_.view().size() <= kMaxCarriedBytes) fmt_.carried(section_, tmp_w_.view());
                        break;
                    case PassTarget::bad_element:
                        for (Slot& s : slots_) s.kind = Slot::none;
                        fmt_.record(section_, slots_, {}, bad_element_line_, "expected an object, got an array");
                        break;
                    case PassTarget::args:
                    case PassTarget::skip:
                        break;
                }
                pass_writer_ = nullptr;
            }
            --depth_;
            return true;
        }
        if (record_depth_ > 0 && depth_ == record_depth_) {
            std::string_view args;
            if (args_started_) {
                args_w_.end_object();
                args = args_w_.view();
            }
            record_depth_ = 0;
            fmt_.record(section_, slots_, args, record_line_, record_error_);
        } else if (array_depth_ > 0 && depth_ == array_depth_) {
            array_depth_ = 0;
        }
        --depth_;
        return true;
    }

    RecordFormat& fmt_;
    JsonInputStream& in_;
    std::vector<Slot> slots_;
    Writer args_w_;
    Writer tmp_w_;

    int depth_ = 0;
    bool top_is_object_ = false;
    std::string section_;
    int array_depth_ = 0;
    int record_depth_ = 0;
    int64_t record_line_ = 0;
    int field_ = -1;
    bool args_started_ = false;
    std::string record_error_;

    // record_key: the keys of the section's last record, by position.
    struct KnownKey {
        bool valid = false;     // false: a place no valid key has filled yet
        std::string key;        // as the parser gave it
        int field = -1;         // field_id_after's answer
        std::string args_text;  // "key": as args write it
    };
    static constexpr size_t kMaxKnownKeys = 64;
    std::vector<KnownKey> known_keys_;
    size_t key_index_ = 0;
    Writer key_w_;

    int pass_depth_ = 0;
    Writer* pass_writer_ = nullptr;
    PassTarget pass_target_ = PassTarget::skip;
    int64_t bad_element_line_ = 0;
    std::string stream_error_;
};

}  // namespace

void read_records(InputSource& in, RecordFormat& format, size_t slot_count) {
    if (slot_count > kMaxSlots) throw Error("internal: too many record slots");
    JsonInputStream stream(in);
    stream.set_token_limit(max_record_bytes());  // one string of a 1 MB gzip may be 1 GiB
    Handler handler(format, stream, slot_count);
    rapidjson::Reader reader;
    constexpr unsigned kFlags = rapidjson::kParseNanAndInfFlag;
    rapidjson::ParseResult ok;
    try {
        ok = format.numbers_as_text() ? reader.Parse<kFlags | rapidjson::kParseNumbersAsStringsFlag>(stream, handler)
                                      : reader.Parse<kFlags>(stream, handler);
    } catch (Error& e) {
        // The input failed under the parser (a gzip cut short): say where.
        if (e.line() == 0 && e.where() == in.name()) e.set_line(stream.line());
        throw;
    }
    if (ok) return;
    int64_t line = stream.line();
    if (!handler.stream_error().empty()) throw Error(handler.stream_error(), in.name(), line);
    switch (ok.Code()) {
        case rapidjson::kParseErrorDocumentEmpty:
            if (!stream.at_end()) throw Error("not JSON: a NUL byte (binary data?)", in.name(), line);
            throw Error("empty input: expected JSON", in.name(), line);
        case rapidjson::kParseErrorTermination:
            // A handler stopped the parse; stream_error() was set above.
            throw Error("stopped parsing", in.name(), line);
        default:
            break;
    }
    std::string msg = std::string("invalid JSON: ") + rapidjson::GetParseError_En(ok.Code());
    if (ok.Code() == rapidjson::kParseErrorObjectMissCommaOrCurlyBracket ||
        ok.Code() == rapidjson::kParseErrorArrayMissCommaOrSquareBracket ||
        ok.Code() == rapidjson::kParseErrorObjectMissName ||
        ok.Code() == rapidjson::kParseErrorValueInvalid) {
        if (stream.Peek() == '\0')
            msg = stream.at_end() ? "invalid JSON: input ends early (truncated?)" : "invalid JSON: a NUL byte (binary data?)";
    }
    throw Error(msg, in.name(), line);
}

}  // namespace nx
