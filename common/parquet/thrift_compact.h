// A reader of Thrift's compact protocol, the encoding of Parquet's footer
// (FileMetaData) and page headers.  Only what a reader of those structures
// needs: structs walked field by field, integers, binary, lists, and skipping
// of anything unknown.  Every read is bounds-checked and nesting is capped, so
// corrupt or hostile bytes end in a ThriftError, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nx::parquet {

// The bytes are not valid compact-protocol Thrift (what, and at which offset).
class ThriftError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Compact protocol type codes (field headers and list element types).
enum class TType : uint8_t {
    stop = 0, bool_true = 1, bool_false = 2, i8 = 3, i16 = 4, i32 = 5, i64 = 6,
    dbl = 7, binary = 8, list = 9, set = 10, map = 11, structure = 12,
};

class CompactReader {
public:
    CompactReader(const uint8_t* data, size_t size) : p_(data), begin_(data), end_(data + size) {}

    // Struct walking: call begin_struct(), then next_field() until it returns
    // false (the STOP byte), reading or skipping each field, then end_struct().
    void begin_struct();
    bool next_field(int16_t& id, TType& type);
    void end_struct();

    // A boolean field's value is in its header: pass the type next_field gave.
    static bool bool_value(TType type) { return type == TType::bool_true; }
    int32_t read_i32();
    int64_t read_i64();
    double read_double();
    std::string_view read_binary();
    // A list (or set) header: element type and count.  Counts are checked
    // against the bytes left (every element takes at least one byte).
    void read_list_header(TType& elem, uint32_t& count);
    // A boolean element inside a list (one byte each).
    bool read_list_bool();

    void skip(TType type);
    size_t offset() const { return static_cast<size_t>(p_ - begin_); }

    // Structures nested deeper than this are refused (Parquet's own are <= 6).
    static constexpr int kMaxDepth = 64;

private:
    uint8_t byte();
    uint64_t varint();
    [[noreturn]] void fail(const std::string& what) const;
    void skip_depth(TType type, int depth);

    const uint8_t* p_;
    const uint8_t* begin_;
    const uint8_t* end_;
    std::vector<int16_t> last_id_;  // per open struct: field ids are deltas
};

}  // namespace nx::parquet
