// Protocol Buffers wire decoding: walks the fields of one message in a byte
// buffer (field number, wire type, value).  Used by the trace decoder in
// tests and by anything that needs to read back what ProtoWriter wrote.
// Malformed input (a truncated varint, a length past the end, a group wire
// type) throws Error naming the byte offset: bad input never reads out of
// bounds.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/trace/protobuf_writer.h"

namespace nx::proto {

struct Field {
    uint32_t number = 0;
    WireType type = WireType::varint;
    uint64_t value = 0;        // varint, fixed64 and fixed32 payloads
    std::string_view bytes;    // length-delimited payloads (views into the buffer)

    int64_t as_int() const { return static_cast<int64_t>(value); }
    double as_double() const;  // fixed64 as an IEEE double
};

class ProtoReader {
public:
    // `base_offset`: where `data` starts in the whole input (for messages).
    explicit ProtoReader(std::string_view data, size_t base_offset = 0) : data_(data), base_(base_offset) {}

    // Reads the next field; false at the end of the message.
    bool next(Field& f);
    // Offset in the whole input of the byte after the last field read.
    size_t offset() const { return base_ + pos_; }
    // Offset in the whole input where a nested payload starts.
    size_t offset_of(std::string_view nested) const { return base_ + static_cast<size_t>(nested.data() - data_.data()); }

private:
    uint64_t varint();

    std::string_view data_;
    size_t base_;
    size_t pos_ = 0;
};

}  // namespace nx::proto
