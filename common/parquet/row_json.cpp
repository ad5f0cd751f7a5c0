#include "common/parquet/row_json.h"

#include <rapidjson/internal/dtoa.h>
#include <rapidjson/internal/itoa.h>

#include <cmath>
#include <cstring>

#include "common/io/utf8.h"

namespace nx::parquet {

namespace {

// rapidjson::Writer's escapes: 'u' for \u00XX, another letter for \X, 0 for
// none (its table, for UTF-8 in and out).
constexpr char kEscape[256] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',  // 00
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',  // 10
    0,   0,   '"', 0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,    // 20
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,    // 30
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,    // 40
    0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   '\\', 0,  0,   0,    // 50
};

// rapidjson::Writer's default: at most 324 decimal places, i.e. no limit.
constexpr int kMaxDecimalPlaces = 324;

void append_int(std::string& out, int64_t v) {
    char buf[24];
    char* end = rapidjson::internal::i64toa(v, buf);
    out.append(buf, static_cast<size_t>(end - buf));
}

void append_uint(std::string& out, uint64_t v) {
    char buf[24];
    char* end = rapidjson::internal::u64toa(v, buf);
    out.append(buf, static_cast<size_t>(end - buf));
}

void append_real(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out.append("null", 4);
        return;
    }
    char buf[32];
    char* end = rapidjson::internal::dtoa(v, buf, kMaxDecimalPlaces);
    out.append(buf, static_cast<size_t>(end - buf));
}

bool is_text(const ColumnInfo& info) { return info.is_string || info.type == PhysicalType::byte_array; }

// Bytes as text when they are UTF-8 (a string column's values were checked
// when read), else as hex.
void append_bytes(std::string& out, std::string_view s, const ColumnInfo& info) {
    if (is_text(info) && (info.is_string || is_valid_utf8(s))) {
        RowJson::append_string(out, s);
        return;
    }
    out += '"';
    out += hex_bytes(s);
    out += '"';
}

}  // namespace

RowJson::RowJson(const std::vector<std::string>& names) : columns_(names.size()) {
    for (size_t i = 0; i < names.size(); ++i) {
        std::string& k = columns_[i].key;
        k.assign(1, ',');
        append_string(k, names[i]);
        k += ':';
    }
}

void RowJson::append_string(std::string& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += '"';
    const char* p = s.data();
    const char* end = p + s.size();
    while (p < end) {
        // The run of bytes that need no escape, copied in one piece.
        const char* run = p;
        while (p < end && !kEscape[static_cast<unsigned char>(*p)]) ++p;
        out.append(run, static_cast<size_t>(p - run));
        if (p == end) break;
        unsigned char c = static_cast<unsigned char>(*p++);
        char e = kEscape[c];
        if (e == 'u') {
            char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
            out.append(u, 6);
        } else {
            out += '\\';
            out += e;
        }
    }
    out += '"';
}

void RowJson::append_value(std::string& out, const ColumnCursor& c) {
    const ColumnInfo& info = c.info();
    if (info.is_list) {
        out += '[';
        for (size_t k = 0; k < c.list_size(); ++k) {
            if (k) out += ',';
            if (c.element_null(k)) out.append("null", 4);
            else if (c.holds_integers() && c.is_unsigned()) append_uint(out, c.element_u64(k));
            else if (c.holds_integers()) append_int(out, c.element_i64(k));
            else if (c.holds_reals()) append_real(out, c.element_f64(k));
            else append_bytes(out, c.element_str(k), info);
        }
        out += ']';
    } else if (c.holds_integers()) {
        if (info.type == PhysicalType::boolean) {
            if (c.i64() != 0) out.append("true", 4);
            else out.append("false", 5);
        } else if (c.is_unsigned()) {
            append_uint(out, c.u64());
        } else {
            append_int(out, c.i64());
        }
    } else if (c.holds_reals()) {
        append_real(out, c.f64());
    } else {
        append_bytes(out, c.str(), info);
    }
}

namespace {

// Whether s holds nothing rapidjson::Writer escapes (a byte below 0x20, '"'
// or '\\'), eight bytes at a time.
bool needs_no_escape(std::string_view s) {
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const char* p = s.data();
    size_t n = s.size(), i = 0;
    uint64_t found = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
        found |= ((w - ones * 0x20) | (q - ones) | (b - ones)) & ~w & highs;
    }
    if (found) return false;
    for (; i < n; ++i)
        if (kEscape[static_cast<unsigned char>(p[i])]) return false;
    return true;
}

}  // namespace

void RowJson::put_value(const ColumnCursor& c) {
    const ColumnInfo& info = c.info();
    if (!c.is_list()) {
        if (c.holds_integers() && info.type != PhysicalType::boolean) {
            char* p = room(24);
            char* end = c.is_unsigned() ? rapidjson::internal::u64toa(c.u64(), p) : rapidjson::internal::i64toa(c.i64(), p);
            n_ += static_cast<size_t>(end - p);
            return;
        }
        if (c.holds_reals() && std::isfinite(c.f64())) {
            char* p = room(32);
            n_ += static_cast<size_t>(rapidjson::internal::dtoa(c.f64(), p, kMaxDecimalPlaces) - p);
            return;
        }
        if (c.holds_bytes()) {
            std::string_view s = c.str();
            if (is_text(info) && (info.is_string || is_valid_utf8(s)) && needs_no_escape(s)) {
                char* p = room(s.size() + 2);
                p[0] = '"';
                std::memcpy(p + 1, s.data(), s.size());
                p[s.size() + 1] = '"';
                n_ += s.size() + 2;
                return;
            }
        }
    }
    scratch_.clear();
    append_value(scratch_, c);
    put(scratch_.data(), scratch_.size());
}

// Inlined into write(): called for most values of a wide table.  The
// column's cache holds entries of the value's dictionary already (`fresh`:
// start it for this dictionary).
[[gnu::always_inline]] inline void RowJson::put_dictionary_entry(Column& col, const ColumnCursor& c, bool fresh) {
    if (fresh) {
        col.dictionary = c.dictionary_id();
        col.spans.assign(c.dictionary_size(), kUnset);
        col.text.clear();
    }
    uint64_t& span = col.spans[c.dictionary_index()];
    if (span == kUnset) {
        size_t at = col.text.size();
        col.text += col.key;
        append_value(col.text, c);
        size_t len = col.text.size() - at;
        if (len >= (size_t{1} << 24)) {  // too long to keep a span of: written each time
            col.text.resize(at);
            put(col.key.data(), col.key.size());
            put_value(c);
            return;
        }
        span = static_cast<uint64_t>(at) << 24 | len;
    }
    put(col.text.data() + (span >> 24), static_cast<size_t>(span & 0xFFFFFF));
}

std::string_view RowJson::write(const TableReader& reader, size_t first) {
    n_ = 0;
    for (size_t h = first; h < columns_.size(); ++h) {
        const ColumnCursor* c = reader.column(h);
        if (!c || c->is_null()) continue;
        Column& col = columns_[h];
        uint64_t dictionary = c->dictionary_id();
        if (dictionary != 0 && dictionary == col.dictionary) {
            put_dictionary_entry(col, *c, false);
        } else if (dictionary != 0 && c->dictionary_size() <= kCachedEntries) {
            put_dictionary_entry(col, *c, true);
        } else {
            put(col.key.data(), col.key.size());
            put_value(*c);
        }
    }
    if (n_ == 0) return {};
    // The first key goes without its comma, over the object's brace.
    out_[0] = '{';
    *room(1) = '}';
    ++n_;
    return std::string_view(out_.data(), n_);
}

}  // namespace nx::parquet
