#include "common/profile/kernel_collectives.h"

#include <rapidjson/document.h>

#include <string>

#include "common/profile/device_streams.h"

namespace nx {

namespace {

// Bytes per element of the dtype names PyTorch writes (c10's ScalarType
// names); 0 when unknown.
int64_t dtype_bytes(std::string_view t) {
    if (t == "Float" || t == "Int" || t == "UInt32") return 4;
    if (t == "Double" || t == "Long" || t == "UInt64" || t == "ComplexFloat") return 8;
    if (t == "Half" || t == "BFloat16" || t == "Short" || t == "UInt16") return 2;
    if (t == "Byte" || t == "Char" || t == "Bool" || t.substr(0, 6) == "Float8") return 1;
    if (t == "ComplexDouble") return 16;
    return 0;
}

// "AllReduce", "all_reduce", "allreduce" alike: lower case, letters and
// digits only.
std::string canonical(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c >= 'A' && c <= 'Z') out += static_cast<char>(c + ('a' - 'A'));
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += c;
    }
    return out;
}

}  // namespace

std::string_view collective_of_kernel_name(std::string_view name) {
    size_t u = name.find('_');
    if (u == std::string_view::npos) return name;
    std::string_view rest = name.substr(u + 1);
    size_t end = rest.find_first_of("_(<");
    std::string_view word = rest.substr(0, end);
    return word.empty() ? name : word;
}

std::optional<CollectiveOp> collective_of_kernel(const Event& e) {
    if (!is_device_event(e.type) || classify_device_work(e.name) != DeviceWork::communication) return std::nullopt;
    CollectiveOp op;
    std::string collective(collective_of_kernel_name(e.name));
    op.start_ns = e.ts_ns;
    op.dur_ns = std::max<int64_t>(e.dur_ns, 0);
    rapidjson::Document args;
    args.Parse(e.args_json.data(), e.args_json.size());
    if (!args.HasParseError() && args.IsObject()) {
        auto text = [&](const char* k) -> std::optional<std::string_view> {
            auto m = args.FindMember(k);
            if (m == args.MemberEnd() || !m->value.IsString()) return std::nullopt;
            return std::string_view(m->value.GetString(), m->value.GetStringLength());
        };
        auto integer = [&](const char* k) -> std::optional<int64_t> {
            auto m = args.FindMember(k);
            if (m == args.MemberEnd() || !m->value.IsInt64()) return std::nullopt;
            return m->value.GetInt64();
        };
        if (auto c = text("Collective name"); c && !c->empty()) collective = *c;
        std::optional<int64_t> n = integer("In msg nelems");
        std::optional<std::string_view> dtype = text("dtype");
        if (n && *n >= 0 && dtype && dtype_bytes(*dtype) > 0) op.bytes = *n * dtype_bytes(*dtype);
        if (auto g = text("Process Group Name")) op.group = *g;
        if (auto s = integer("Seq"); s && *s >= 0) op.seq = *s;
    }
    bool nccl = e.name.substr(0, 4) == "nccl";
    op.name = (nccl ? "nccl:" : "ccl:") + canonical(collective);
    return op;
}

}  // namespace nx
