#include "common/import/importer.h"

#include "common/import/runtime_path.h"
#include "common/io/diag.h"
#include "common/io/error.h"
#include "common/records/error_counts.h"

namespace nx {

namespace {

std::string file_stem(const std::string& path) {
    std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    for (const char* ext : {".gz", ".json", ".jsonl", ".ntff"}) {
        std::string e(ext);
        if (base.size() > e.size() && base.compare(base.size() - e.size(), e.size(), e) == 0)
            base.erase(base.size() - e.size());
    }
    return base;
}
}  // namespace

bool is_identifier_field(std::string_view k) {
    auto ends = [&](std::string_view suffix) {
        return k.size() > suffix.size() && k.substr(k.size() - suffix.size()) == suffix;
    };
    // And an UltraServer's description (its size, the instance's place in
    // it): where the profile ran, not what it measured.
    return ends("_idx") || ends("_id") || k.starts_with("ultraserver_");
}

void ImportContext::bad_record(const std::string& message, int64_t line) {
    if (!keep_going) throw Error(message, where, line);
    ++bad_records;
    error_counts().add(ErrorKind::bad_record, message, where, line);
}

ProfileInfo ImportContext::profile_info(std::string_view format, std::string_view part) const {
    ProfileInfo info = base;
    std::string ident = identity.empty() ? where : identity;
    if (!part.empty()) {
        ident += "#";
        ident += part;
    }
    if (info.id.empty() || !part.empty()) info.id = make_profile_id(ident);
    if (info.name.empty()) info.name = where == "<stdin>" ? std::string("stdin") : runtime_profile_name(where, file_stem(where));
    if (!part.empty() && info.name.find(std::string(part)) == std::string::npos) info.name += "/" + std::string(part);
    if (info.source.empty()) info.source = where;
    info.format = std::string(format);
    return info;
}

void emit_counter(ImportHandler& out, int64_t ts, double value, std::string_view track) {
    Event e;
    e.type = EventType::counter;
    e.ts_ns = ts;
    e.track = track;
    e.name = track;
    e.value = value;
    out.event(e);
}

}  // namespace nx
