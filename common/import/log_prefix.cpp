#include "common/import/log_prefix.h"

namespace nx {

namespace {

// A logrus line: the text formatter's `time="..." level=...` or, on a
// terminal, `LEVL[0000] message` (INFO, WARN, ERRO, DEBU, TRAC, FATA, PANI).
bool is_log_line(std::string_view line) {
    if (line.starts_with("time=\"") || line.find(" level=") != std::string_view::npos) return true;
    static constexpr std::string_view kLevels[] = {"INFO[", "WARN[", "ERRO[", "DEBU[", "TRAC[", "FATA[", "PANI["};
    for (std::string_view level : kLevels)
        if (line.starts_with(level)) return true;
    return false;
}

}  // namespace

LogPrefix leading_log_lines(std::string_view head) {
    LogPrefix out;
    size_t pos = 0;
    while (pos < head.size()) {
        size_t nl = head.find('\n', pos);
        if (nl == std::string_view::npos) return {};  // no document starts within `head`
        std::string_view line = head.substr(pos, nl - pos);
        if (line.starts_with("{") || line.starts_with("[")) return out;
        if (!is_log_line(line)) return {};
        out.bytes = nl + 1;
        ++out.lines;
        pos = nl + 1;
    }
    return {};
}

}  // namespace nx
