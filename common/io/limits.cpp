#include "common/io/limits.h"

#include <cstdlib>

#include "common/io/error.h"
#include "common/io/input.h"

namespace nx {

size_t max_record_bytes() {
    static const size_t bytes = [] {
        size_t mib = kDefaultMaxRecordMiB;
        if (const char* s = std::getenv("NX_MAX_RECORD_MIB"); s && *s) {
            char* end = nullptr;
            unsigned long long v = std::strtoull(s, &end, 10);
            if (*end == '\0' && v >= 1 && v <= (1ull << 20)) mib = static_cast<size_t>(v);
        }
        return mib << 20;
    }();
    return bytes;
}

std::string max_record_text() { return std::to_string(max_record_bytes() >> 20) + " MiB (NX_MAX_RECORD_MIB)"; }

std::string read_whole_file(const std::string& path) {
    auto in = InputSource::open(path);
    std::string text;
    const size_t cap = max_record_bytes();
    constexpr size_t kChunk = 1 << 16;
    for (;;) {
        size_t old = text.size();
        text.resize(old + kChunk);
        size_t got = in->read(text.data() + old, kChunk);
        text.resize(old + got);
        if (got == 0) break;
        if (text.size() > cap) throw Error("file larger than the limit of " + max_record_text(), in->name());
    }
    return text;
}

}  // namespace nx
