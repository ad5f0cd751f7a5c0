#include "common/parquet/string_dictionary.h"

#include "common/parquet/plain_encoding.h"

namespace nx::parquet {

std::vector<uint8_t> StringDictionary::page_body() const {
    std::vector<uint8_t> body;
    for (std::string_view x : entries_) plain_byte_array(x, body);
    return body;
}

void StringDictionary::clear() {
    state_ = State::undecided;
    ids_.clear();
    entries_.clear();
    bytes_ = 0;
}

}  // namespace nx::parquet
