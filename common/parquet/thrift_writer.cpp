#include "common/parquet/thrift_writer.h"

namespace nx::parquet {

void CompactWriter::begin_struct() { last_.push_back(0); }

void CompactWriter::end_struct() {
    out_.push_back(static_cast<uint8_t>(TType::stop));
    last_.pop_back();
}

void CompactWriter::varint(uint64_t v) {
    while (v >= 0x80) {
        out_.push_back(static_cast<uint8_t>(v | 0x80));
        v >>= 7;
    }
    out_.push_back(static_cast<uint8_t>(v));
}

void CompactWriter::field_header(int16_t id, TType type) {
    int16_t& last = last_.back();
    int delta = id - last;
    if (delta > 0 && delta <= 15) {
        out_.push_back(static_cast<uint8_t>((delta << 4) | static_cast<uint8_t>(type)));
    } else {
        out_.push_back(static_cast<uint8_t>(type));
        zigzag(id);
    }
    last = id;
}

void CompactWriter::field_i32(int16_t id, int32_t v) {
    field_header(id, TType::i32);
    zigzag(v);
}

void CompactWriter::field_i64(int16_t id, int64_t v) {
    field_header(id, TType::i64);
    zigzag(v);
}

void CompactWriter::field_bool(int16_t id, bool v) { field_header(id, v ? TType::bool_true : TType::bool_false); }

void CompactWriter::field_binary(int16_t id, std::string_view v) {
    field_header(id, TType::binary);
    varint(v.size());
    out_.insert(out_.end(), v.begin(), v.end());
}

void CompactWriter::field_struct(int16_t id) {
    field_header(id, TType::structure);
    begin_struct();
}

void CompactWriter::field_list(int16_t id, TType elem, uint32_t count) {
    field_header(id, TType::list);
    if (count < 15) {
        out_.push_back(static_cast<uint8_t>((count << 4) | static_cast<uint8_t>(elem)));
    } else {
        out_.push_back(static_cast<uint8_t>(0xF0 | static_cast<uint8_t>(elem)));
        varint(count);
    }
}

void CompactWriter::element_binary(std::string_view v) {
    varint(v.size());
    out_.insert(out_.end(), v.begin(), v.end());
}

void CompactWriter::begin_element_struct() { begin_struct(); }

}  // namespace nx::parquet
