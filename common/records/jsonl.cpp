#include "common/records/jsonl.h"

#include <rapidjson/error/en.h>

#include <cmath>
#include <cstring>

#include "common/io/error.h"
#include "common/io/limits.h"
#include "common/io/utf8.h"

namespace nx {

namespace {
constexpr size_t kReadChunk = 1 << 16;
}

JsonlReader::JsonlReader(InputSource& source) : source_(source) {}

bool JsonlReader::next_line(std::string& line) {
    for (;;) {
        size_t nl = buffer_.find('\n', pos_);
        while (nl == std::string::npos && !eof_) {
            if (pos_ > 0) {
                buffer_.erase(0, pos_);
                pos_ = 0;
            }
            // A record larger than this is not a record (limits.h).
            if (buffer_.size() - pos_ > max_record_bytes())
                throw Error("line longer than the limit of " + max_record_text(), source_.name(), line_ + 1);
            size_t old = buffer_.size();
            buffer_.resize(old + kReadChunk);
            size_t got;
            try {
                got = source_.read(buffer_.data() + old, kReadChunk);
            } catch (Error& e) {
                if (e.line() == 0) e.set_line(line_ + 1);
                throw;
            }
            buffer_.resize(old + got);
            if (got == 0) eof_ = true;
            nl = buffer_.find('\n', old);
        }
        if (pos_ >= buffer_.size() && eof_) return false;
        size_t end = nl == std::string::npos ? buffer_.size() : nl;
        ++line_;
        std::string_view text(buffer_.data() + pos_, end - pos_);
        if (line_ == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // byte-order mark
        pos_ = nl == std::string::npos ? buffer_.size() : nl + 1;
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        bool blank = text.find_first_not_of(" \t") == std::string_view::npos;
        if (blank) continue;
        line.assign(text);
        return true;
    }
}

bool JsonlReader::next(rapidjson::Document& doc) {
    if (!next_line(text_)) return false;
    parse_json_object(doc, text_, source_.name(), line_);
    return true;
}

std::string json_depth_message() {
    return "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (the limit)";
}

bool json_too_deep(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

void parse_json_object(rapidjson::Document& doc, std::string_view text, const std::string& where, int64_t line) {
    if (!is_valid_utf8(text)) throw Error("invalid UTF-8", where, line);
    if (json_too_deep(text)) throw Error(json_depth_message(), where, line);
    doc.Parse<rapidjson::kParseNanAndInfFlag>(text.data(), text.size());
    if (doc.HasParseError()) {
        throw Error(std::string("not a JSON record: ") + rapidjson::GetParseError_En(doc.GetParseError()) +
                        " at column " + std::to_string(doc.GetErrorOffset() + 1),
                    where, line);
    }
    if (!doc.IsObject()) throw Error("not a JSON object", where, line);
}

const rapidjson::Value* find_member(const rapidjson::Value& obj, const char* key) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return nullptr;
    return &it->value;
}

std::optional<std::string> get_string(const rapidjson::Value& obj, const char* key) {
    const rapidjson::Value* v = find_member(obj, key);
    if (!v) return std::nullopt;
    if (v->IsString()) return std::string(v->GetString(), v->GetStringLength());
    if (v->IsNumber()) {
        // Numbers where text is expected (e.g. "rank": 0) are accepted as text.
        return to_json(*v);
    }
    throw Error(std::string("expected a string for \"") + key + "\"");
}

std::optional<double> get_number(const rapidjson::Value& obj, const char* key) {
    const rapidjson::Value* v = find_member(obj, key);
    if (!v) return std::nullopt;
    if (v->IsNumber()) return v->GetDouble();
    if (v->IsString()) {
        // Some tools write numbers as strings ("size": "4").
        const char* s = v->GetString();
        char* end = nullptr;
        double d = std::strtod(s, &end);
        if (end != s && *end == '\0') return d;
    }
    throw Error(std::string("expected a number for \"") + key + "\"");
}

std::optional<int64_t> get_int(const rapidjson::Value& obj, const char* key) {
    const rapidjson::Value* v = find_member(obj, key);
    if (!v) return std::nullopt;
    if (v->IsInt64()) return v->GetInt64();
    std::optional<double> d = get_number(obj, key);
    if (!d || !std::isfinite(*d) || *d != std::floor(*d) || std::fabs(*d) > 9.2e18)
        throw Error(std::string("expected an integer for \"") + key + "\"");
    return static_cast<int64_t>(*d);
}

std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    v.Accept(w);
    return std::string(sb.GetString(), sb.GetSize());
}

std::string json_quote(std::string_view text) {
    rapidjson::StringBuffer sb;
    JsonWriter w(sb);
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    return std::string(sb.GetString(), sb.GetSize());
}

std::string json_string_array(const std::vector<std::string>& strings) {
    std::string out = "[";
    for (size_t i = 0; i < strings.size(); ++i) out += (i ? "," : "") + json_quote(strings[i]);
    return out + "]";
}

std::vector<std::string> parse_json_string_array(std::string_view text) {
    std::vector<std::string> out;
    rapidjson::Document d;
    d.Parse(text.data(), text.size());
    if (d.HasParseError() || !d.IsArray()) return out;
    for (const auto& v : d.GetArray())
        if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
    return out;
}

void write_number(JsonWriter& w, double v) {
    if (!std::isfinite(v)) {
        w.Null();
    } else if (v == std::floor(v) && std::fabs(v) < 9e15) {
        w.Int64(static_cast<int64_t>(v));
    } else {
        w.Double(v);
    }
}

}  // namespace nx
