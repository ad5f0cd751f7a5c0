// A writer of Thrift's compact protocol, for the Parquet footer and page
// headers nx writes (parquet_writer.h): structs of fields in increasing id
// order, integers (zigzag varints), binary, booleans and lists.  The mirror
// of thrift_compact.h's reader, which reads back everything it writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/parquet/thrift_compact.h"

namespace nx::parquet {

class CompactWriter {
public:
    // Struct framing: fields must come in increasing id order within a struct.
    void begin_struct();
    void end_struct();  // writes STOP

    void field_i32(int16_t id, int32_t v);
    void field_i64(int16_t id, int64_t v);
    void field_bool(int16_t id, bool v);
    void field_binary(int16_t id, std::string_view v);
    // A struct field: its body follows (begin_struct was implied), end with end_struct().
    void field_struct(int16_t id);
    // A list field: `count` elements of `elem` follow, written with the
    // element writers below (structs: begin_element_struct() ... end_struct()).
    void field_list(int16_t id, TType elem, uint32_t count);
    void element_i32(int32_t v) { zigzag(v); }
    void element_binary(std::string_view v);
    void begin_element_struct();

    const std::vector<uint8_t>& bytes() const { return out_; }
    void clear() {
        out_.clear();
        last_.clear();
    }

private:
    void field_header(int16_t id, TType type);
    void varint(uint64_t v);
    void zigzag(int64_t v) { varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

    std::vector<uint8_t> out_;
    std::vector<int16_t> last_;  // the last field id of each open struct
};

}  // namespace nx::parquet
