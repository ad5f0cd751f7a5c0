// Protocol Buffers wire encoding, just enough to write Perfetto traces
// without linking libprotobuf: varints, zigzag-free signed ints (int64 as
// two's complement, like protobuf's int64), fixed64 doubles, strings and
// length-delimited nested messages.
//
// A ProtoWriter appends to a byte string.  Nested messages are opened with
// begin(field) and closed with end(): the length is only known at end(), so
// the writer remembers where the message started and inserts the length
// varint there (messages nx writes are small: one trace packet at most).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/trace/protobuf_wire.h"

namespace nx::proto {

// Appends `value` as a base-128 varint.
void append_varint(std::string& out, uint64_t value);

class ProtoWriter {
public:
    void add_varint(uint32_t field, uint64_t value);
    // int32/int64 fields: negative values are 10-byte two's complement varints.
    void add_int(uint32_t field, int64_t value) { add_varint(field, static_cast<uint64_t>(value)); }
    void add_bool(uint32_t field, bool value) { add_varint(field, value ? 1 : 0); }
    void add_double(uint32_t field, double value);
    void add_fixed64(uint32_t field, uint64_t value);
    void add_bytes(uint32_t field, std::string_view bytes);
    void add_string(uint32_t field, std::string_view text) { add_bytes(field, text); }

    // Opens a nested message in `field`; every begin() needs its end().
    void begin(uint32_t field);
    void end();

    bool open() const { return !starts_.empty(); }
    const std::string& data() const { return data_; }
    // Hands the bytes over and resets the writer for the next message.
    std::string take();
    void clear();

private:
    void tag(uint32_t field, WireType type);

    std::string data_;
    std::vector<size_t> starts_;  // offsets where open messages' payloads begin
};

}  // namespace nx::proto
