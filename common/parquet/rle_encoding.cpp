#include "common/parquet/rle_encoding.h"

#include <algorithm>
#include <bit>
#include <string>

#include "common/parquet/bytes.h"
#include "common/parquet/decoding.h"

namespace nx::parquet {

int level_bit_width(int max_level) { return max_level == 0 ? 0 : std::bit_width(static_cast<unsigned>(max_level)); }

int index_bit_width(size_t entries) {
    const auto max_index = static_cast<uint32_t>(std::max<size_t>(entries, 1) - 1);
    return std::max(static_cast<int>(std::bit_width(max_index)), 1);
}

template <class T>
void rle_hybrid(const T* v, size_t n, int width, std::vector<uint32_t>& literals, std::vector<uint8_t>& out) {
    literals.clear();
    auto flush_literals = [&]() {
        if (literals.empty()) return;
        size_t groups = (literals.size() + 7) / 8;
        literals.resize(groups * 8, 0);
        put_uleb128(out, (groups << 1) | 1);
        bit_pack(literals.data(), literals.size(), width, out);
        literals.clear();
    };
    const int value_bytes = (width + 7) / 8;
    size_t i = 0;
    while (i < n) {
        size_t run = 1;
        while (i + run < n && v[i + run] == v[i]) ++run;
        if (run >= 8 && literals.size() % 8 == 0) {
            flush_literals();
            put_uleb128(out, static_cast<uint64_t>(run) << 1);
            put_le(out, v[i], value_bytes);
            i += run;
        } else if (run >= 8) {
            // Fill the literal group to a multiple of 8 first.
            size_t take = 8 - literals.size() % 8;
            literals.insert(literals.end(), v + i, v + i + take);
            i += take;
        } else {
            literals.insert(literals.end(), v + i, v + i + run);
            i += run;
        }
    }
    flush_literals();
}

template void rle_hybrid<uint8_t>(const uint8_t*, size_t, int, std::vector<uint32_t>&, std::vector<uint8_t>&);
template void rle_hybrid<uint32_t>(const uint32_t*, size_t, int, std::vector<uint32_t>&, std::vector<uint8_t>&);

RleDecoder::RleDecoder(const uint8_t* data, size_t size, int bit_width)
    : p_(data), end_(data + size), width_(bit_width) {
    if (bit_width < 0 || bit_width > 32) throw EncodingError("RLE bit width " + std::to_string(bit_width) + " above 32");
}

bool RleDecoder::next_run() {
    if (p_ >= end_) return false;
    uint64_t header = read_uleb128(p_, end_);
    if (header & 1) {
        uint64_t groups = header >> 1;
        if (groups == 0 || groups > (static_cast<uint64_t>(end_ - p_) + 1)) throw EncodingError("a bit-packed run past the end of its data");
        size_t bytes = static_cast<size_t>(groups) * static_cast<size_t>(width_);  // 8 values * width bits / 8
        // The last run may be cut short by writers that end the page there.
        size_t avail = std::min(bytes, static_cast<size_t>(end_ - p_));
        bits_ = BitUnpacker(p_, avail, static_cast<size_t>(end_ - p_));
        p_ += avail;
        run_left_ = static_cast<size_t>(groups) * 8;
        packed_ = true;
    } else {
        run_left_ = static_cast<size_t>(header >> 1);
        size_t nbytes = static_cast<size_t>((width_ + 7) / 8);
        if (static_cast<size_t>(end_ - p_) < nbytes) throw EncodingError("an RLE run past the end of its data");
        uint32_t v = 0;
        for (size_t i = 0; i < nbytes; ++i) v |= static_cast<uint32_t>(p_[i]) << (8 * i);
        p_ += nbytes;
        if (width_ < 32 && (v >> width_) != 0) throw EncodingError("an RLE value wider than its bit width");
        value_ = v;
        packed_ = false;
        if (run_left_ == 0) return next_run();
    }
    return true;
}

template <typename T>
void RleDecoder::decode_into(T* out, size_t count) {
    size_t i = 0;
    while (i < count) {
        if (run_left_ == 0 && !next_run()) throw EncodingError("RLE data ends after " + std::to_string(i) + " of " +
                                                               std::to_string(count) + " values");
        size_t n = std::min(run_left_, count - i);
        if (packed_) {
            bits_.get_many(width_, out + i, n);
        } else {
            std::fill(out + i, out + i + n, static_cast<T>(value_));
        }
        i += n;
        run_left_ -= n;
    }
}

void RleDecoder::decode(uint32_t* out, size_t count) { decode_into(out, count); }

void RleDecoder::decode(uint8_t* out, size_t count) {
    if (width_ > 8) throw EncodingError("levels of " + std::to_string(width_) + " bits decoded as bytes");
    decode_into(out, count);
}

}  // namespace nx::parquet
