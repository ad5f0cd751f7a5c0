// libFuzzer target: the Perfetto trace decoder (common/trace/pftrace_reader.h)
// on arbitrary bytes.  Bad traces must end in an Error or a list of
// problems, never in a crash or an out-of-bounds read.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/io/error.h"
#include "common/trace/pftrace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        nx::DecodedTrace t = nx::decode_pftrace(std::string_view(reinterpret_cast<const char*>(data), size));
        (void)t;
    } catch (const nx::Error&) {
        // a malformed trace
    }
    return 0;
}
