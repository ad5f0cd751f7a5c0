#include "common/dataset/dataset_names.h"

#include <climits>

#include "common/dataset/dataset_layout.h"
#include "common/io/error.h"
#include "common/io/number_text.h"

namespace nx::dataset {

namespace {

bool plain_byte(unsigned char c, bool first) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') return true;
    return (c == '.' || c == '_') && !first;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;  // lowercase is not what file_stem writes
}

}  // namespace

std::string file_stem(std::string_view profile_id) {
    if (profile_id.empty()) throw Error("a profile without an id cannot go into a dataset");
    static const char kHex[] = "0123456789ABCDEF";
    std::string stem;
    for (size_t i = 0; i < profile_id.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(profile_id[i]);
        if (plain_byte(c, i == 0)) {
            stem += static_cast<char>(c);
        } else {
            stem += '%';
            stem += kHex[c >> 4];
            stem += kHex[c & 15];
        }
    }
    if (stem.size() > kMaxStemBytes)
        throw Error("the profile id is too long to name its dataset files (" + std::to_string(stem.size()) +
                    " bytes once written as a file name, at most " + std::to_string(kMaxStemBytes) +
                    "): it begins '" + std::string(profile_id.substr(0, 40)) + "'");
    return stem;
}

std::optional<std::string> profile_id_of_stem(std::string_view stem) {
    if (stem.empty() || stem.size() > kMaxStemBytes) return std::nullopt;
    std::string id;
    for (size_t i = 0; i < stem.size(); ++i) {
        char c = stem[i];
        if (c == '%') {
            if (i + 2 >= stem.size()) return std::nullopt;
            int hi = hex_value(stem[i + 1]), lo = hex_value(stem[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            id += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (plain_byte(static_cast<unsigned char>(c), i == 0)) {
            id += c;
        } else {
            return std::nullopt;
        }
    }
    // One spelling per id: a byte written as %XX that needed no escape is
    // not a name nx wrote.
    if (file_stem(id) != stem) return std::nullopt;
    return id;
}

std::string partition_folder(int rank) {
    return std::string(kPartitionKey) + "=" + (rank < 0 ? std::string(kNullPartition) : std::to_string(rank));
}

std::optional<int> rank_of_partition_folder(std::string_view name) {
    const std::string prefix = std::string(kPartitionKey) + "=";
    if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
    std::string_view value = name.substr(prefix.size());
    if (value == kNullPartition) return -1;
    std::optional<int64_t> r = parse_int64(value);
    if (!r || *r < 0 || *r > INT_MAX || std::to_string(*r) != value) return std::nullopt;
    return static_cast<int>(*r);
}

}  // namespace nx::dataset
