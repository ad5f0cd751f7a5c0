#include "common/parquet/column_encoders.h"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "common/parquet/bytes.h"
#include "common/parquet/delta_encoding.h"
#include "common/parquet/plain_encoding.h"
#include "common/parquet/rle_encoding.h"
#include "common/parquet/value_types.h"

namespace nx::parquet {

namespace {

// INT64, INT32, DOUBLE, FLOAT.
template <class T>
Encoding encode_numbers(const WriterColumn& col, ChunkState& chunk, const std::vector<T>& v, std::vector<uint8_t>& body) {
    chunk.stats.add_numbers(v.data(), v.size());
    if constexpr (std::is_integral_v<T>) {
        // A page of nulls only has no values to take as deltas: PLAIN.
        if (col.delta && !v.empty()) {
            delta_binary_packed(v.data(), v.size(), body);
            return Encoding::delta_binary_packed;
        }
    }
    plain_values(v.data(), v.size(), body);
    return Encoding::plain;
}

Encoding encode_booleans(ChunkState& chunk, const std::vector<uint8_t>& v, std::vector<uint8_t>& body) {
    chunk.stats.add_numbers(v.data(), v.size());
    plain_booleans(v.data(), v.size(), body);
    return Encoding::plain;
}

Encoding encode_strings(const WriterColumn& col, ChunkState& chunk, const PageValues& page, EncoderScratch& s,
                        std::vector<uint8_t>& body) {
    const size_t n = page.ends.size();
    auto value = [&](size_t k) { return page.str(k); };
    // A page of nulls only has no values to encode: PLAIN, and the
    // dictionary is decided on the first page with values.
    if (n > 0) chunk.dictionary.decide(n, value);
    // Min/max: a dictionary-encoded value is compared when it enters the
    // dictionary (the others are in it already), the rest one by one.
    size_t stats_from = 0;
    if (chunk.dictionary.on()) {
        chunk.dictionary.index(n, value, s.indices, [&](std::string_view x) {
            if (col.statistics) chunk.stats.add_string(x);
        });
        stats_from = s.indices.size();
    }
    if (col.statistics)
        for (size_t k = stats_from; k < n; ++k) chunk.stats.add_string(page.str(k));
    if (chunk.dictionary.on() && n > 0) {
        const int width = index_bit_width(chunk.dictionary.size());
        body.push_back(static_cast<uint8_t>(width));
        if (!s.indices.empty()) rle_hybrid(s.indices.data(), s.indices.size(), width, s.literals, body);
        return Encoding::rle_dictionary;
    }
    for (size_t k = 0; k < n; ++k) plain_byte_array(page.str(k), body);
    return Encoding::plain;
}

}  // namespace

Encoding encode_data_page(const WriterColumn& column, ChunkState& chunk, const PageValues& page, EncoderScratch& scratch,
                          std::vector<uint8_t>& body) {
    body.clear();
    chunk.stats.add_nulls(std::count(page.defined.begin(), page.defined.end(), uint8_t{0}));
    if (column.nullable) {
        scratch.levels.clear();
        rle_hybrid(page.defined.data(), page.defined.size(), 1, scratch.literals, scratch.levels);
        put_le(body, scratch.levels.size(), 4);
        body.insert(body.end(), scratch.levels.begin(), scratch.levels.end());
    }
    return visit_value_type(column.type, [&](auto stored) {
        using T = typename decltype(stored)::type;
        if constexpr (std::is_same_v<T, std::string_view>) return encode_strings(column, chunk, page, scratch, body);
        else if constexpr (value_type_of<T>() == ValueType::boolean) return encode_booleans(chunk, page.values<T>(), body);
        else return encode_numbers(column, chunk, page.values<T>(), body);
    });
}

}  // namespace nx::parquet
