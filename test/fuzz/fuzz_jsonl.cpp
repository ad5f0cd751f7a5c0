// libFuzzer target: the JSONL reader and the profile-record reader (what
// nx-report and nx-convert read from pipes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/io/error.h"
#include "common/profile/profile_record.h"
#include "common/records/jsonl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto in = nx::InputSource::from_memory(std::string(reinterpret_cast<const char*>(data), size), "fuzz.jsonl");
    nx::JsonlReader reader(*in);
    rapidjson::Document doc;
    for (;;) {
        try {
            if (!reader.next(doc)) break;
            nx::ProfileInfo info;
            nx::ProfileSummary summary;
            nx::read_profile_record(doc, info, summary);
            (void)nx::profile_record_json(info, summary);
        } catch (const nx::Error&) {
            // next line
        }
    }
    return 0;
}
