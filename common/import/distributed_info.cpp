#include "common/import/distributed_info.h"

#include <rapidjson/document.h>

#include <climits>

#include "common/import/record_reader.h"
#include "common/io/input.h"
#include "common/records/jsonl.h"

namespace nx {

std::string DistributedInfo::json() const {
    return "{\"backend\":" + (backend.empty() ? std::string("null") : json_quote(backend)) +
           ",\"rank\":" + (rank >= 0 ? std::to_string(rank) : "null") +
           ",\"world_size\":" + (world_size > 0 ? std::to_string(world_size) : "null") + "}";
}

DistributedInfo parse_distributed_info(std::string_view json) {
    DistributedInfo d;
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject()) return d;
    d.present = true;
    auto number = [&](const char* key, int64_t& to, int64_t least) {
        auto m = doc.FindMember(key);
        if (m != doc.MemberEnd() && m->value.IsInt64() && m->value.GetInt64() >= least && m->value.GetInt64() <= INT_MAX)
            to = m->value.GetInt64();
    };
    number("rank", d.rank, 0);
    number("world_size", d.world_size, 1);
    if (auto m = doc.FindMember("backend"); m != doc.MemberEnd() && m->value.IsString()) d.backend = m->value.GetString();
    return d;
}

namespace {

// Reads the top-level keys before "traceEvents", keeping distributedInfo.
class HeadScan : public RecordFormat {
public:
    struct Done {};  // thrown at "traceEvents": the rest is not read

    explicit HeadScan(const InputSource& in) : in_(in) {}

    SectionMode section_mode(std::string_view section) override {
        // A bare array ("") has no distributedInfo; past the head, PyTorch
        // would have written it.
        if (section == "traceEvents" || section.empty() || in_.position() > kHeadBytes) throw Done{};
        return section == "distributedInfo" ? SectionMode::carry : SectionMode::skip;
    }
    int field_id(std::string_view, std::string_view) override { return kSkipField; }
    void record(std::string_view, const std::vector<Slot>&, std::string_view, int64_t, const std::string&) override {}
    void carried(std::string_view section, std::string_view json) override {
        if (section == "distributedInfo") info = parse_distributed_info(json);
    }

    DistributedInfo info;

private:
    const InputSource& in_;
};

}  // namespace

DistributedInfo read_distributed_info(const std::string& path) {
    std::unique_ptr<InputSource> in = InputSource::open(path);
    HeadScan scan(*in);
    try {
        read_records(*in, scan, 1);
    } catch (const HeadScan::Done&) {
    }
    return scan.info;
}

}  // namespace nx
