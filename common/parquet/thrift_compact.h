// Thrift's compact protocol, both ways: the encoding of Parquet's footer
// (FileMetaData) and page headers.  Only what those structures need: structs
// field by field, integers (zigzag varints), binary, booleans and lists, and
// on reading, skipping of anything unknown.  Every read is bounds-checked and
// nesting is capped, so corrupt or hostile bytes end in a ThriftError, never
// a crash.  A structure's fields are named once, as ThriftField constants
// (parquet_thrift.h), and read and written through them.
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

// A field of a Thrift structure: its id, its type (bool_true for a
// boolean) and its name as the IDL spells it, "Struct.field", for messages.
template <TType T>
struct ThriftField {
    static constexpr TType type = T;
    int16_t id;
    const char* name;
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

class CompactWriter {
public:
    // Struct framing: fields must come in increasing id order within a struct.
    void begin_struct();
    void end_struct();  // writes STOP

    void field(ThriftField<TType::i32> f, int32_t v);
    void field(ThriftField<TType::i64> f, int64_t v);
    void field(ThriftField<TType::bool_true> f, bool v);
    void field(ThriftField<TType::binary> f, std::string_view v);
    // A struct field: its body follows (begin_struct was implied), end with end_struct().
    void begin(ThriftField<TType::structure> f);
    // A list field: `count` elements of `elem` follow, written with the
    // element writers below (structs: begin_element_struct() ... end_struct()).
    void begin_list(ThriftField<TType::list> f, TType elem, uint32_t count);
    void element_i32(int32_t v);
    void element_binary(std::string_view v);
    void begin_element_struct() { begin_struct(); }

    const std::vector<uint8_t>& bytes() const { return out_; }
    void clear() {
        out_.clear();
        last_.clear();
    }

private:
    void field_header(int16_t id, TType type);

    std::vector<uint8_t> out_;
    std::vector<int16_t> last_;  // the last field id of each open struct
};

}  // namespace nx::parquet
