// The encodings nx's Parquet writer puts in its pages, as the format
// specification (Encodings.md) defines them: PLAIN's little-endian values
// and length-prefixed strings, the RLE / bit-packed hybrid (definition
// levels, dictionary indices) and DELTA_BINARY_PACKED (integer columns).
// Each appends to a byte vector; the reader's decoders (encodings.h) read
// them back, and DuckDB and arrow-rs read the files (test/crosscheck).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace nx::parquet {

// Appends bytes in one copy: inserting a range of char into a vector of
// uint8_t converts element by element.
void append_bytes(std::vector<uint8_t>& out, std::string_view bytes);
// `bytes` low bytes of v, least significant first.
void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes);
// ULEB128.
void varint(std::vector<uint8_t>& out, uint64_t v);
// The bits an RLE run or bit-packed group needs for values up to max_value
// (at least 1).
int bit_width(uint32_t max_value);

// The RLE / bit-packed hybrid: runs of 8 or more equal values as RLE runs,
// the rest bit-packed in groups of 8 (the last group padded with zeros;
// readers stop at the page's value count).  T: uint8_t (definition levels)
// or uint32_t (dictionary indices), read where they are; `literals` is the
// caller's scratch, so a page allocates nothing.
template <class T>
void rle_hybrid(const T* v, size_t n, int width, std::vector<uint32_t>& literals, std::vector<uint8_t>& out);

// DELTA_BINARY_PACKED: the first value, then blocks of 128 deltas, each
// block its smallest delta and four miniblocks of 32 deltas above it,
// bit-packed at the narrowest width that holds them (0 bits when they are
// equal: evenly spaced timestamps, a run of one track's id).  Deltas wrap
// in T's width, as the specification asks and int32 readers expect (their
// widths never exceed 32).  T: int64_t or int32_t.
template <class T>
void delta_binary_packed(const T* v, size_t n, std::vector<uint8_t>& out);

}  // namespace nx::parquet
