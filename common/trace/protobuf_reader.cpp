#include "common/trace/protobuf_reader.h"

#include <cstring>

#include "common/io/error.h"

namespace nx::proto {

double Field::as_double() const {
    double d;
    std::memcpy(&d, &value, sizeof d);
    return d;
}

uint64_t ProtoReader::varint() {
    uint64_t v = 0;
    for (int i = 0; i < kMaxVarintBytes; ++i) {
        if (pos_ >= data_.size())
            throw Error("protobuf: truncated varint at byte " + std::to_string(base_ + pos_));
        auto b = static_cast<uint8_t>(data_[pos_++]);
        v |= (b & kVarintPayloadMask) << (kVarintBitsPerByte * i);
        if ((b & kVarintMore) == 0) return v;
    }
    throw Error("protobuf: varint longer than 10 bytes at byte " + std::to_string(base_ + pos_));
}

bool ProtoReader::next(Field& f) {
    if (pos_ >= data_.size()) return false;
    size_t at = base_ + pos_;
    uint64_t tag = varint();
    f.number = static_cast<uint32_t>(tag >> kTagTypeBits);
    if (f.number == 0 || (tag >> kTagTypeBits) > UINT32_MAX)
        throw Error("protobuf: bad field number at byte " + std::to_string(at));
    f.bytes = {};
    f.value = 0;
    switch (tag & kTagTypeMask) {
        case static_cast<uint64_t>(WireType::varint):
            f.type = WireType::varint;
            f.value = varint();
            return true;
        case static_cast<uint64_t>(WireType::fixed64):
        case static_cast<uint64_t>(WireType::fixed32): {
            bool is64 = (tag & kTagTypeMask) == static_cast<uint64_t>(WireType::fixed64);
            size_t n = is64 ? kFixed64Bytes : kFixed32Bytes;
            if (data_.size() - pos_ < n) throw Error("protobuf: truncated fixed field at byte " + std::to_string(at));
            f.type = is64 ? WireType::fixed64 : WireType::fixed32;
            for (size_t i = 0; i < n; ++i) f.value |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
            pos_ += n;
            return true;
        }
        case static_cast<uint64_t>(WireType::length_delimited): {
            uint64_t len = varint();
            if (len > data_.size() - pos_)
                throw Error("protobuf: length " + std::to_string(len) + " past the end of the message at byte " +
                            std::to_string(at));
            f.type = WireType::length_delimited;
            f.bytes = data_.substr(pos_, static_cast<size_t>(len));
            pos_ += static_cast<size_t>(len);
            return true;
        }
        default:
            throw Error("protobuf: unsupported wire type " + std::to_string(tag & kTagTypeMask) + " at byte " +
                        std::to_string(at));
    }
}

}  // namespace nx::proto
