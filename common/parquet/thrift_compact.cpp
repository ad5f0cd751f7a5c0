#include "common/parquet/thrift_compact.h"

#include <cstring>

#include "common/parquet/bytes.h"

namespace nx::parquet {

void CompactReader::fail(const std::string& what) const {
    throw ThriftError("corrupt metadata at byte " + std::to_string(offset()) + ": " + what);
}

uint8_t CompactReader::byte() {
    if (p_ >= end_) fail("unexpected end");
    return *p_++;
}

uint64_t CompactReader::varint() {
    uint64_t v = 0;
    switch (get_uleb128(p_, end_, v)) {
        case VarintRead::ok: return v;
        case VarintRead::truncated: fail("unexpected end");
        case VarintRead::too_long: break;
    }
    fail("varint longer than 10 bytes");
}

void CompactReader::begin_struct() {
    if (last_id_.size() >= static_cast<size_t>(kMaxDepth)) fail("structures nested too deep");
    last_id_.push_back(0);
}

void CompactReader::end_struct() {
    if (!last_id_.empty()) last_id_.pop_back();
}

bool CompactReader::next_field(int16_t& id, TType& type) {
    uint8_t h = byte();
    if (h == 0) return false;
    uint8_t t = h & 0x0F;
    if (t > static_cast<uint8_t>(TType::structure)) fail("unknown field type " + std::to_string(t));
    type = static_cast<TType>(t);
    int delta = h >> 4;
    if (delta != 0) {
        id = static_cast<int16_t>(last_id_.back() + delta);
    } else {
        int64_t v = unzigzag(varint());
        if (v < INT16_MIN || v > INT16_MAX) fail("field id out of range");
        id = static_cast<int16_t>(v);
    }
    last_id_.back() = id;
    return true;
}

int32_t CompactReader::read_i32() {
    int64_t v = unzigzag(varint());
    if (v < INT32_MIN || v > INT32_MAX) fail("i32 out of range");
    return static_cast<int32_t>(v);
}

int64_t CompactReader::read_i64() { return unzigzag(varint()); }

double CompactReader::read_double() {
    if (end_ - p_ < 8) fail("unexpected end in a double");
    double d;
    std::memcpy(&d, p_, 8);  // little-endian on every platform nx builds for
    p_ += 8;
    return d;
}

std::string_view CompactReader::read_binary() {
    uint64_t n = varint();
    if (n > static_cast<uint64_t>(end_ - p_)) fail("string length " + std::to_string(n) + " past the end");
    std::string_view s(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return s;
}

void CompactReader::read_list_header(TType& elem, uint32_t& count) {
    uint8_t h = byte();
    uint8_t t = h & 0x0F;
    if (t > static_cast<uint8_t>(TType::structure) || t == 0) fail("unknown list element type " + std::to_string(t));
    elem = static_cast<TType>(t);
    uint64_t n = h >> 4;
    if (n == 15) n = varint();
    if (n > static_cast<uint64_t>(end_ - p_)) fail("list of " + std::to_string(n) + " elements past the end");
    count = static_cast<uint32_t>(n);
}

bool CompactReader::read_list_bool() { return byte() == 1; }

void CompactReader::skip(TType type) { skip_depth(type, static_cast<int>(last_id_.size())); }

void CompactReader::skip_depth(TType type, int depth) {
    if (depth > kMaxDepth) fail("structures nested too deep");
    switch (type) {
        case TType::bool_true:
        case TType::bool_false: return;
        case TType::i8: byte(); return;
        case TType::i16:
        case TType::i32:
        case TType::i64: varint(); return;
        case TType::dbl: read_double(); return;
        case TType::binary: read_binary(); return;
        case TType::list:
        case TType::set: {
            TType elem;
            uint32_t n;
            read_list_header(elem, n);
            for (uint32_t i = 0; i < n; ++i) {
                if (elem == TType::bool_true || elem == TType::bool_false) byte();
                else skip_depth(elem, depth + 1);
            }
            return;
        }
        case TType::map: {
            uint64_t n = varint();
            if (n == 0) return;
            if (n > static_cast<uint64_t>(end_ - p_)) fail("map past the end");
            uint8_t kv = byte();
            TType k = static_cast<TType>(kv >> 4), v = static_cast<TType>(kv & 0x0F);
            if ((kv >> 4) > 12 || (kv & 0x0F) > 12) fail("unknown map element type");
            for (uint64_t i = 0; i < n; ++i) {
                if (k == TType::bool_true || k == TType::bool_false) byte(); else skip_depth(k, depth + 1);
                if (v == TType::bool_true || v == TType::bool_false) byte(); else skip_depth(v, depth + 1);
            }
            return;
        }
        case TType::structure: {
            begin_struct();
            int16_t id;
            TType t;
            while (next_field(id, t)) skip_depth(t, depth + 1);
            end_struct();
            return;
        }
        case TType::stop: fail("unexpected STOP");
    }
    fail("unknown type");
}


void CompactWriter::begin_struct() { last_.push_back(0); }

void CompactWriter::end_struct() {
    out_.push_back(static_cast<uint8_t>(TType::stop));
    last_.pop_back();
}

void CompactWriter::field_header(int16_t id, TType type) {
    int16_t& last = last_.back();
    int delta = id - last;
    if (delta > 0 && delta <= 15) {
        out_.push_back(static_cast<uint8_t>((delta << 4) | static_cast<uint8_t>(type)));
    } else {
        out_.push_back(static_cast<uint8_t>(type));
        put_uleb128(out_, zigzag(id));
    }
    last = id;
}

void CompactWriter::field(ThriftField<TType::i32> f, int32_t v) {
    field_header(f.id, TType::i32);
    put_uleb128(out_, zigzag(v));
}

void CompactWriter::field(ThriftField<TType::i64> f, int64_t v) {
    field_header(f.id, TType::i64);
    put_uleb128(out_, zigzag(v));
}

void CompactWriter::field(ThriftField<TType::bool_true> f, bool v) {
    field_header(f.id, v ? TType::bool_true : TType::bool_false);
}

void CompactWriter::field(ThriftField<TType::binary> f, std::string_view v) {
    field_header(f.id, TType::binary);
    element_binary(v);
}

void CompactWriter::begin(ThriftField<TType::structure> f) {
    field_header(f.id, TType::structure);
    begin_struct();
}

void CompactWriter::begin_list(ThriftField<TType::list> f, TType elem, uint32_t count) {
    field_header(f.id, TType::list);
    if (count < 15) {
        out_.push_back(static_cast<uint8_t>((count << 4) | static_cast<uint8_t>(elem)));
    } else {
        out_.push_back(static_cast<uint8_t>(0xF0 | static_cast<uint8_t>(elem)));
        put_uleb128(out_, count);
    }
}

void CompactWriter::element_i32(int32_t v) { put_uleb128(out_, zigzag(v)); }

void CompactWriter::element_binary(std::string_view v) {
    put_uleb128(out_, v.size());
    append_bytes(out_, v);
}

}  // namespace nx::parquet
