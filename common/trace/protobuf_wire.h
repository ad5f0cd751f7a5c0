// The Protocol Buffers wire format's constants (the protobuf encoding spec),
// shared by the writer that encodes Perfetto traces and the reader that
// decodes them: wire types, how a tag packs a field number with its wire
// type, and how a base-128 varint splits a value into bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nx::proto {

enum class WireType : uint8_t { varint = 0, fixed64 = 1, length_delimited = 2, fixed32 = 5 };

// A tag is (field number << kTagTypeBits) | wire type.
constexpr int kTagTypeBits = 3;
constexpr uint64_t kTagTypeMask = 0x7;

// A varint holds 7 bits of the value per byte, low bits first; the high bit
// says more bytes follow.  A 64-bit value takes at most 10 bytes.
constexpr int kVarintBitsPerByte = 7;
constexpr uint64_t kVarintPayloadMask = 0x7F;
constexpr uint8_t kVarintMore = 0x80;
constexpr int kMaxVarintBytes = 10;

constexpr size_t kFixed64Bytes = 8;
constexpr size_t kFixed32Bytes = 4;

}  // namespace nx::proto
