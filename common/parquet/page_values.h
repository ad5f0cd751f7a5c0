// What the Parquet writer holds of one column in one lane: the values of the
// page being filled (a definition level a row, the values of the column's
// type back to back, strings in one arena) and the data pages the lane has
// encoded of the row group's chunk.  A page's values are encoded and
// compressed at once when it is full, so a row group costs its compressed
// pages, not its values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace nx::parquet {

struct PageValues {
    std::vector<uint8_t> defined;  // 1: a value, 0: null (one per row)
    // The fixed-width values: of a column's C++ type (value_types.h), the
    // others stay empty.
    std::tuple<std::vector<int64_t>, std::vector<int32_t>, std::vector<double>, std::vector<float>, std::vector<uint8_t>>
        fixed;
    std::string arena;           // strings back to back
    std::vector<uint32_t> ends;  // each string's end in arena
    bool set = false;            // set in the current row

    std::vector<uint8_t> pages;  // this lane's data pages of the chunk (headers included)
    int64_t rows = 0;            // in pages

    template <class T>
    std::vector<T>& values() { return std::get<std::vector<T>>(fixed); }
    template <class T>
    const std::vector<T>& values() const { return std::get<std::vector<T>>(fixed); }
    std::string_view str(size_t k) const {
        uint32_t begin = k == 0 ? 0 : ends[k - 1];
        return std::string_view(arena).substr(begin, ends[k] - begin);
    }
    bool page_empty() const { return defined.empty(); }

    // Appends `from`'s page of values to this one's.
    void append_page(const PageValues& from) {
        defined.insert(defined.end(), from.defined.begin(), from.defined.end());
        std::apply([&](auto&... to) { (append(to, std::get<std::remove_reference_t<decltype(to)>>(from.fixed)), ...); }, fixed);
        auto base = static_cast<uint32_t>(arena.size());
        arena.append(from.arena);
        for (uint32_t e : from.ends) ends.push_back(base + e);
    }
    void clear_page() {
        defined.clear();
        std::apply([](auto&... v) { (v.clear(), ...); }, fixed);
        arena.clear();
        ends.clear();
    }

private:
    template <class V>
    static void append(V& to, const V& from) { to.insert(to.end(), from.begin(), from.end()); }
};

}  // namespace nx::parquet
