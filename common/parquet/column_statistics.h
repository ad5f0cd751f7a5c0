// A column chunk's statistics as the writer gathers them, page by page: its
// null count and its min and max, which readers prune row groups on.
// Numbers compare as their C++ type orders (NaN left out: it orders nothing)
// and are kept as their PLAIN bytes; strings compare by byte and are kept
// within kStatBytes, a cut one marked inexact (string_bounds.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "common/parquet/file_metadata.h"
#include "common/parquet/string_bounds.h"

namespace nx::parquet {

class ColumnStatistics {
public:
    void add_nulls(int64_t n) { nulls_ += n; }
    // A page's values: T int64_t, int32_t, double, float or uint8_t (booleans).
    template <class T>
    void add_numbers(const T* v, size_t n);
    void add_string(std::string_view x) { strings_.add(x); }

    // Statistics.null_count, min_value, max_value and their exactness.
    void fill(ColumnMetaData& m) const;

private:
    template <class T>
    static std::string plain_bytes(T v) {
        std::string s(sizeof(T), '\0');
        std::memcpy(s.data(), &v, sizeof(T));
        return s;
    }

    int64_t nulls_ = 0;
    bool any_number_ = false;
    std::string min_, max_;  // PLAIN bytes of the numbers' bounds
    StringBounds strings_;
};

template <class T>
void ColumnStatistics::add_numbers(const T* v, size_t n) {
    if (n == 0) return;
    T lo = v[0], hi = v[0];
    bool seen = false;
    for (size_t k = 0; k < n; ++k) {
        const T x = v[k];
        if constexpr (std::is_floating_point_v<T>)
            if (std::isnan(x)) continue;
        if (!seen || x < lo) lo = x;
        if (!seen || x > hi) hi = x;
        seen = true;
    }
    if (!seen) return;
    if (any_number_) {
        T a, b;
        std::memcpy(&a, min_.data(), sizeof(T));
        std::memcpy(&b, max_.data(), sizeof(T));
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
    min_ = plain_bytes(lo);
    max_ = plain_bytes(hi);
    any_number_ = true;
}

}  // namespace nx::parquet
