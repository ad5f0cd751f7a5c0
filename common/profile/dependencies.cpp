#include "common/profile/dependencies.h"

#include <algorithm>

namespace nx {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return (x | 0x20) == (y | 0x20);
           });
}

}  // namespace

uint32_t DepStrings::intern(std::string_view s) {
    if (auto it = numbers_.find(s); it != numbers_.end()) return it->second;
    std::string_view kept = text_.emplace_back(s);
    auto n = static_cast<uint32_t>(by_number_.size());
    by_number_.push_back(kept);
    numbers_.emplace(kept, n);
    return n;
}

std::string_view dependency_table(std::string_view t) {
    if (iequals(t, "instruction")) return "instruction";
    if (iequals(t, "dma_block") || iequals(t, "DmaPacketAggregated")) return "dma_block";
    return {};
}

}  // namespace nx
