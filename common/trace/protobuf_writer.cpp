#include "common/trace/protobuf_writer.h"

#include <cstring>

#include "common/io/error.h"

namespace nx::proto {

void append_varint(std::string& out, uint64_t value) {
    while (value > kVarintPayloadMask) {
        out.push_back(static_cast<char>((value & kVarintPayloadMask) | kVarintMore));
        value >>= kVarintBitsPerByte;
    }
    out.push_back(static_cast<char>(value));
}

void ProtoWriter::tag(uint32_t field, WireType type) {
    append_varint(data_, (static_cast<uint64_t>(field) << kTagTypeBits) | static_cast<uint64_t>(type));
}

void ProtoWriter::add_varint(uint32_t field, uint64_t value) {
    tag(field, WireType::varint);
    append_varint(data_, value);
}

void ProtoWriter::add_fixed64(uint32_t field, uint64_t value) {
    tag(field, WireType::fixed64);
    // Little-endian on the wire, whatever the host order.
    for (int i = 0; i < 8; ++i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void ProtoWriter::add_double(uint32_t field, double value) {
    uint64_t bits;
    static_assert(sizeof bits == sizeof value);
    std::memcpy(&bits, &value, sizeof bits);
    add_fixed64(field, bits);
}

void ProtoWriter::add_bytes(uint32_t field, std::string_view bytes) {
    tag(field, WireType::length_delimited);
    append_varint(data_, bytes.size());
    data_.append(bytes);
}

void ProtoWriter::begin(uint32_t field) {
    tag(field, WireType::length_delimited);
    starts_.push_back(data_.size());
}

void ProtoWriter::end() {
    if (starts_.empty()) throw Error("protobuf writer: end() without begin()");
    size_t start = starts_.back();
    starts_.pop_back();
    std::string len;
    append_varint(len, data_.size() - start);
    data_.insert(start, len);
}

std::string ProtoWriter::take() {
    if (open()) throw Error("protobuf writer: message taken while a nested message is open");
    std::string out;
    out.swap(data_);
    return out;
}

void ProtoWriter::clear() {
    data_.clear();
    starts_.clear();
}

}  // namespace nx::proto
