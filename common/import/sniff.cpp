#include "common/import/sniff.h"

#include <rapidjson/document.h>
#include <rapidjson/reader.h>

#include <algorithm>

#include "common/io/error.h"
#include "common/io/json_input_stream.h"
#include "common/records/jsonl.h"

namespace nx {

namespace {

bool metric_like(std::string_view k) {
    return k == "total_time" || k == "event_count" || k.find("_percent") != std::string_view::npos;
}

// Keeps the top-level keys and the kinds of their values; skips everything
// else.  Stops (returns false) past the budget or when `decided` says so.
class ShapeHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ShapeHandler> {
public:
    ShapeHandler(JsonShape& shape, JsonInputStream& stream, size_t budget,
                 const std::function<bool(const JsonShape&)>& decided)
        : shape_(shape), stream_(stream), budget_(budget), decided_(decided) {}

    bool Default() { return value('-'); }
    bool String(const char*, rapidjson::SizeType, bool) { return value('s'); }
    bool Double(double) { return value('n'); }
    bool Int(int) { return value('n'); }
    bool Uint(unsigned) { return value('n'); }
    bool Int64(int64_t) { return value('n'); }
    bool Uint64(uint64_t) { return value('n'); }
    bool Key(const char* s, rapidjson::SizeType n, bool) {
        std::string_view k(s, n);
        if (depth_ == 1 && shape_.top_is_object) {
            if (shape_.keys.size() < JsonShape::kMaxKeys) shape_.keys.push_back({std::string(k), 0});
            if (decided_ && decided_(shape_)) return false;
        }
        if (depth_ == 2 && first_value_ && metric_like(k)) shape_.first_value_has_metric_key = true;
        return within_budget();
    }
    bool StartObject() { return start('{'); }
    bool EndObject(rapidjson::SizeType) { return end(); }
    bool StartArray() { return start('['); }
    bool EndArray(rapidjson::SizeType) { return end(); }

private:
    bool start(char kind) {
        if (depth_ == 0) {
            shape_.top_is_object = kind == '{';
            shape_.top_is_array = kind == '[';
            if (decided_ && decided_(shape_)) return false;
        } else {
            note_kind(kind);
        }
        if (depth_ == 1) first_value_ = shape_.top_is_object && shape_.keys.size() == 1 && kind == '{';
        if (++depth_ > kMaxJsonDepth) return false;
        return within_budget();
    }
    bool end() {
        if (--depth_ == 1) first_value_ = false;
        if (depth_ == 0) shape_.complete = true;
        return within_budget();
    }
    bool value(char kind) {
        note_kind(kind);
        return within_budget();
    }
    void note_kind(char kind) {
        if (depth_ == 1 && shape_.top_is_object && !shape_.keys.empty() && shape_.keys.back().kind == 0)
            shape_.keys.back().kind = kind;
    }
    bool within_budget() { return stream_.Tell() <= budget_; }

    JsonShape& shape_;
    JsonInputStream& stream_;
    size_t budget_;
    const std::function<bool(const JsonShape&)>& decided_;
    int depth_ = 0;
    bool first_value_ = false;
};

// The first line's "kind" when it is a complete JSON object (nx records).
// A line of nx records is short; a neuron-profile JSON on one line is not
// parsed here (json_too_deep bounds the nesting, the prefix the length).
void read_first_line(std::string_view prefix, JsonShape& shape) {
    size_t start = prefix.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return;
    if (prefix.substr(start, 3) == "\xEF\xBB\xBF") start += 3;
    size_t nl = prefix.find('\n', start);
    std::string_view line = prefix.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (line.empty() || line.front() != '{' || json_too_deep(line)) return;
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    if (doc.HasParseError() || !doc.IsObject()) return;
    shape.first_line_is_object = true;
    auto it = doc.FindMember("kind");
    if (it != doc.MemberEnd() && it->value.IsString()) shape.first_line_kind = it->value.GetString();
}

}  // namespace

bool JsonShape::has(std::string_view key) const {
    return std::any_of(keys.begin(), keys.end(), [&](const Key& k) { return k.name == key; });
}

SniffInput::SniffInput(std::string path, std::string_view prefix, InputSource* source)
    : path_(std::move(path)), prefix_(prefix), source_(source) {}

const JsonShape& SniffInput::json(const std::function<bool(const JsonShape&)>& decided) const {
    if (shape_) return *shape_;
    shape_.emplace();
    JsonShape& shape = *shape_;
    shape.log = leading_log_lines(prefix_);
    std::string_view body = std::string_view(prefix_).substr(shape.log.bytes);
    size_t start = body.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && body.substr(start, 3) == "\xEF\xBB\xBF") start += 3;
    if (start == std::string_view::npos || (body[start] != '{' && body[start] != '[')) return shape;
    shape.json = true;
    if (shape.log.lines == 0) read_first_line(body, shape);

    // A regular file is read again from its start; anything else only as far
    // as the bytes already in hand.
    std::unique_ptr<InputSource> reader;
    size_t budget = kSniffJsonBudget;
    try {
        if (source_) reader = source_->reopen();
    } catch (const Error&) {
        reader.reset();  // the importer reports an unreadable file
    }
    if (!reader) {
        // Peeked bytes stay the source's: the importer reads them next.
        std::string_view head = source_ ? source_->peek(kSniffStreamBudget) : std::string_view(prefix_);
        reader = InputSource::from_memory(std::string(head), path_);
        budget = head.size();
    }
    try {
        if (shape.log.bytes > 0) reader->skip(shape.log.bytes);
        JsonInputStream stream(*reader);
        ShapeHandler handler(shape, stream, budget, decided);
        rapidjson::Reader r;
        r.Parse<rapidjson::kParseNanAndInfFlag | rapidjson::kParseStopWhenDoneFlag>(stream, handler);
    } catch (const Error&) {
        // A read error past the prefix: the structure is what was seen.
    }
    return shape;
}

}  // namespace nx
