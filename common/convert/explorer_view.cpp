#include "common/convert/explorer_view.h"

#include <rapidjson/document.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <vector>

#include "common/import/explorer_tables.h"
#include "common/io/error.h"
#include "common/io/process.h"
#include "common/io/temp_path.h"

namespace nx {

namespace {

// The `view` switches nx uses when the tool has them.
struct ViewerFlags {
    bool ingest_only = false, disable_ui = false, force = false, status_file = false;
};

// What `TOOL view --help` lists; asked once per tool.  A tool that does not
// answer within a few seconds gets none of them.
ViewerFlags viewer_flags(const std::string& tool) {
    static std::mutex lock;
    static std::map<std::string, ViewerFlags> known;
    std::lock_guard<std::mutex> guard(lock);
    if (auto it = known.find(tool); it != known.end()) return it->second;
    ViewerFlags f;
    {
        BackgroundProcess help({tool, "view", "--help"});
        auto started = std::chrono::steady_clock::now();
        while (!help.poll() && std::chrono::steady_clock::now() - started < std::chrono::seconds(10)) usleep(10 * 1000);
        help.stop();
        std::string text = help.output_tail(1000);
        auto has = [&](const char* flag) {
            // output_tail joins lines with " | ": a flag is followed by a
            // space, '=', ',' or the end of its line.
            for (size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
                size_t end = at + std::string_view(flag).size();
                if (end == text.size() || text[end] == ' ' || text[end] == '=' || text[end] == ',') return true;
            }
            return false;
        };
        f.ingest_only = has("--ingest-only");
        f.disable_ui = has("--disable-ui");
        f.force = has("--force");
        f.status_file = has("--processing-status-file");
    }
    known[tool] = f;
    return f;
}

// The status file's verdict: done, failed (with why), or not yet.
struct Status {
    bool done = false;
    std::string failed;
};

// {"status_code": 0, "profiles": [{"name": ..., "status": "success"}, ...]}
// as scripts read it; anything else is "not yet" (it may be half-written).
Status read_status(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError() || !doc.IsObject()) return {};
    Status s;
    auto code = doc.FindMember("status_code");
    if (code != doc.MemberEnd() && code->value.IsInt() && code->value.GetInt() != 0) {
        auto msg = doc.FindMember("message");
        s.failed = "status_code " + std::to_string(code->value.GetInt()) +
                   (msg != doc.MemberEnd() && msg->value.IsString() ? std::string(": ") + msg->value.GetString() : "");
        return s;
    }
    auto profiles = doc.FindMember("profiles");
    if (profiles == doc.MemberEnd() || !profiles->value.IsArray() || profiles->value.Empty()) return {};
    for (const auto& p : profiles->value.GetArray()) {
        auto st = p.IsObject() ? p.FindMember("status") : p.MemberEnd();
        std::string status = p.IsObject() && st != p.MemberEnd() && st->value.IsString() ? st->value.GetString() : "";
        if (status == "success") continue;
        if (status == "failed" || status == "error" || status == "failure") {
            s.failed = "a profile's status is \"" + status + "\"";
            return s;
        }
        return {};  // still processing
    }
    s.done = true;
    return s;
}

// Names, sizes and times of the directory's files: equal twice in a row
// means nothing is being written.
std::string directory_signature(const ExplorerTables& t) {
    std::string sig;
    for (const auto& [table, files] : t.tables)
        for (const std::string& f : files) {
            struct stat st {};
            if (stat(f.c_str(), &st) != 0) return {};
            sig += f + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                   std::to_string(st.st_mtim.tv_nsec) + ";";
        }
    return sig;
}

// Complete and unchanged since the last look.
class CompletionWatch {
public:
    explicit CompletionWatch(std::string dir) : dir_(std::move(dir)) {}
    bool complete() {
        ExplorerTables t = scan_explorer_dir(dir_);
        if (t.tables.empty() || !incomplete_reason(t).empty()) {
            last_.clear();
            return false;
        }
        std::string sig = directory_signature(t);
        bool same = !sig.empty() && sig == last_;
        last_ = std::move(sig);
        return same;
    }

private:
    std::string dir_;
    std::string last_;
};

}  // namespace

void explorer_view_parquet(const std::string& tool, const std::string& neff, const std::string& ntff,
                           const std::string& out_dir, const ViewOptions& options) {
    ViewerFlags flags = viewer_flags(tool);
    TempPath status(".json");
    std::remove(status.path().c_str());  // the tool creates it; an empty file is not a status
    std::vector<std::string> argv = {tool, "view", "-n", neff, "-s", ntff, "--output-format", "parquet",
                                     "--output-file", out_dir};
    if (flags.ingest_only) argv.push_back("--ingest-only");
    if (flags.disable_ui) argv.push_back("--disable-ui");
    if (flags.force) argv.push_back("--force");
    if (flags.status_file) {
        argv.push_back("--processing-status-file");
        argv.push_back(status.path());
    }
    const std::string name = tool.substr(tool.find_last_of('/') == std::string::npos ? 0 : tool.find_last_of('/') + 1);
    BackgroundProcess viewer(argv);
    CompletionWatch watch(out_dir);
    auto started = std::chrono::steady_clock::now();
    for (;;) {
        if (std::optional<int> exit = viewer.poll()) {
            if (*exit != 0)
                throw Error(name + " view failed (exit " + std::to_string(*exit) + "): " + viewer.output_tail(), ntff);
            break;
        }
        if (flags.status_file) {
            Status s = read_status(status.path());
            if (!s.failed.empty())
                throw Error(name + " view says the profile failed (" + s.failed + "): " + viewer.output_tail(), ntff);
            if (s.done) break;
        }
        // Without a status, the directory tells; with one, too (a viewer that
        // writes its status late, or never).
        if (watch.complete()) break;
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (elapsed > options.timeout_s) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%g", options.timeout_s);
            throw Error(name + " view did not finish the profile within " + secs +
                            " s (--view-timeout); it was stopped: " + viewer.output_tail(),
                        ntff);
        }
        usleep(static_cast<useconds_t>(options.poll_ms) * 1000);
    }
    viewer.stop();  // it may go on serving its UI: never left running
    ExplorerTables t = scan_explorer_dir(out_dir);
    if (t.tables.empty()) throw Error(name + " view wrote no Parquet tables: " + viewer.output_tail(), ntff);
    if (std::string why = incomplete_reason(t); !why.empty())
        throw Error(name + " view stopped with the profile incomplete (" + why + "): " + viewer.output_tail(), ntff);
}

}  // namespace nx
