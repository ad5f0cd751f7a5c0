// Tables of named rows (input formats, metrics, targets, models, backends,
// workload ops and fields): the row with a given name, and every name joined
// for a message that lists what is known.  A row is anything with a `name`
// comparable to a string_view.
#pragma once

#include <ranges>
#include <string>
#include <string_view>

namespace nx {

// The first row of rows named `name`, or null.
template <std::ranges::range Rows>
const std::ranges::range_value_t<Rows>* find_named(const Rows& rows, std::string_view name) {
    for (const auto& row : rows)
        if (name == row.name) return &row;
    return nullptr;
}

// The rows' names in order, separated by ", ".
template <std::ranges::range Rows>
std::string joined_names(const Rows& rows) {
    std::string s;
    for (const auto& row : rows) {
        if (!s.empty()) s += ", ";
        s += std::string_view(row.name);
    }
    return s;
}

}  // namespace nx
