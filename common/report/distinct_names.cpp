#include "common/report/distinct_names.h"

#include <algorithm>

namespace nx {

namespace {

constexpr const char* kEllipsis = "…";

bool is_separator(char c) { return c == '/' || c == '_' || c == '-' || c == '.' || c == ':' || c == ' ' || c == '@'; }

// Alternating words and separator runs, in order: "a_b/c" is a, _, b, /, c.
std::vector<std::string> split_words(const std::string& name) {
    std::vector<std::string> out;
    for (size_t i = 0; i < name.size();) {
        size_t j = i;
        bool sep = is_separator(name[i]);
        while (j < name.size() && is_separator(name[j]) == sep) ++j;
        out.push_back(name.substr(i, j - i));
        i = j;
    }
    return out;
}

// Same number of pieces: shared runs shortened, differing pieces kept but
// for the start they all share where it is long ("i-0000000000000057" and
// "i-0000000000000000" differ in their last two digits): `lead` is its
// length at each piece.
std::string shortened(const std::vector<std::string>& pieces, const std::vector<bool>& shared,
                      const std::vector<size_t>& lead) {
    std::string out;
    for (size_t i = 0; i < pieces.size();) {
        if (!shared[i]) {
            out += lead[i] > kKeptRun / 2 ? kEllipsis + pieces[i].substr(lead[i]) : pieces[i];
            ++i;
            continue;
        }
        size_t j = i;
        std::string run;
        while (j < pieces.size() && shared[j]) run += pieces[j++];
        bool at_end = j == pieces.size();
        if (run.size() <= kKeptRun) {
            out += run;
        } else if (at_end) {
            out += kEllipsis;
        } else {
            // The label of the differing word that follows: the last word of
            // the run and the separator after it ("vnc_").
            std::string label;
            size_t k = j;
            while (k > i && label.size() < kKeptRun) {
                --k;
                if (!is_separator(pieces[k][0]) && !label.empty()) {
                    label = pieces[k] + label;
                    break;
                }
                label = pieces[k] + label;
            }
            out += kEllipsis + label;
        }
        i = j;
    }
    return out;
}

// The characters every name starts with, and (after the prefix) ends with.
size_t common_prefix(const std::vector<std::string>& names) {
    size_t n = names[0].size();
    for (const std::string& s : names) {
        size_t k = 0;
        while (k < n && k < s.size() && s[k] == names[0][k]) ++k;
        n = k;
    }
    return n;
}
size_t common_suffix(const std::vector<std::string>& names, size_t prefix) {
    size_t n = names[0].size() - prefix;
    for (const std::string& s : names) {
        size_t k = 0;
        while (k < n && k + prefix < s.size() && s[s.size() - 1 - k] == names[0][names[0].size() - 1 - k]) ++k;
        n = k;
    }
    return n;
}

}  // namespace

std::vector<std::string> distinct_names(const std::vector<std::string>& names) {
    if (names.size() < 2 || std::all_of(names.begin(), names.end(), [&](const std::string& s) { return s == names[0]; }))
        return names;
    std::vector<std::vector<std::string>> pieces;
    for (const std::string& n : names) pieces.push_back(split_words(n));
    bool aligned = std::all_of(pieces.begin(), pieces.end(), [&](const std::vector<std::string>& p) {
        if (p.size() != pieces[0].size()) return false;
        for (size_t i = 0; i < p.size(); ++i)
            if (is_separator(p[i][0]) != is_separator(pieces[0][i][0])) return false;
        return true;
    });
    std::vector<std::string> out;
    if (aligned) {
        std::vector<bool> shared(pieces[0].size(), true);
        std::vector<size_t> lead(pieces[0].size());
        for (size_t i = 0; i < lead.size(); ++i) lead[i] = pieces[0][i].size();
        for (const auto& p : pieces)
            for (size_t i = 0; i < p.size(); ++i) {
                shared[i] = shared[i] && p[i] == pieces[0][i];
                size_t k = 0;
                while (k < lead[i] && k < p[i].size() && p[i][k] == pieces[0][i][k]) ++k;
                lead[i] = k;
            }
        for (size_t i = 0; i < lead.size(); ++i)
            for (const auto& p : pieces) lead[i] = std::min(lead[i], p[i].size() - 1);  // keep a character at least
        for (const auto& p : pieces) out.push_back(shortened(p, shared, lead));
        return out;
    }
    // Different shapes: the common prefix and suffix go, cut at a separator
    // so no word is cut in two.
    size_t prefix = common_prefix(names);
    size_t minimum = names[0].size();
    for (const std::string& s : names) minimum = std::min(minimum, s.size());
    prefix = std::min(prefix, minimum);
    while (prefix > 0 && !is_separator(names[0][prefix - 1])) --prefix;
    size_t suffix = common_suffix(names, prefix);
    suffix = std::min(suffix, minimum - prefix);
    while (suffix > 0 && !is_separator(names[0][names[0].size() - suffix])) --suffix;
    for (const std::string& s : names) {
        std::string middle = s.substr(prefix, s.size() - prefix - suffix);
        out.push_back((prefix > kKeptRun ? kEllipsis : s.substr(0, prefix)) + middle +
                      (suffix > kKeptRun ? kEllipsis : s.substr(s.size() - suffix)));
    }
    return out;
}

}  // namespace nx
