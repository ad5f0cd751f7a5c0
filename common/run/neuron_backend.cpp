#include "common/run/neuron_backend.h"

#include <cstdio>
#include <cstdlib>

#include "common/io/data_dir.h"
#include "common/io/process.h"
#include "common/records/jsonl.h"
#include "common/workload/workload_record.h"

namespace nx {

namespace {

std::string driver_path() {
    if (const char* env = std::getenv("NX_NEURON_DRIVER"); env && *env) return env;
    for (const char* rel : {"neuron_driver.py", "cmd/nx-run/neuron_driver.py"}) {
        std::string p = find_data_path(rel);
        if (!p.empty()) return p;
    }
    throw Error("cannot find neuron_driver.py (set NX_NEURON_DRIVER or NX_DATA_DIR)");
}

std::string python() {
    const char* env = std::getenv("NX_PYTHON");
    std::string p = env && *env ? env : "python3";
    if (find_on_path(p).empty()) throw Error("the neuron backend needs " + p + " (set NX_PYTHON to the Python with torch-neuronx)");
    return p;
}

}  // namespace

NeuronBackend::NeuronBackend(BackendOptions o) : o_(std::move(o)) {
    if (o_.cache_dir.empty()) o_.cache_dir = default_cache_dir() + "/neuron";
    if (o_.work_dir.empty()) o_.work_dir = o_.cache_dir + "/work";
}

std::string NeuronBackend::default_cache_dir() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/nx";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/nx";
}

void NeuronBackend::run_all(const std::vector<Workload>& workloads, const Done& done) {
    std::vector<int64_t> lncs;
    for (const Workload& w : workloads)
        if (std::find(lncs.begin(), lncs.end(), w.lnc) == lncs.end()) lncs.push_back(w.lnc);
    if (lncs.size() <= 1) return run_driver(workloads, done);
    bool go = true;
    for (int64_t lnc : lncs) {
        std::vector<Workload> group;
        std::vector<size_t> index;
        for (size_t i = 0; i < workloads.size(); ++i)
            if (workloads[i].lnc == lnc) {
                group.push_back(workloads[i]);
                index.push_back(i);
            }
        run_driver(group, [&](size_t i, const Execution* e, const Error* err) { return go = done(index[i], e, err); });
        if (!go) return;
    }
}

void NeuronBackend::run_driver(const std::vector<Workload>& workloads, const Done& done) {
    if (workloads.empty()) return;
    rapidjson::StringBuffer sb;
    JsonWriter j(sb);
    j.StartObject();
    j.Key("warmup");
    j.Int(o_.warmup);
    j.Key("timed");
    j.Int(o_.timed);
    j.Key("target");
    j.String(o_.target.c_str());
    j.Key("cache_dir");
    j.String(o_.cache_dir.c_str());
    j.Key("work_dir");
    j.String(o_.work_dir.c_str());
    j.Key("use_cache");
    j.Bool(o_.use_cache);
    // The fields a compiled graph depends on (the workload field table): the
    // driver's cache key, so the driver keeps no list of its own.
    j.Key("shape_fields");
    j.StartArray();
    for (const WorkloadField& f : workload_fields())
        if (f.shape) j.String(f.name);
    j.EndArray();
    j.Key("workloads");
    j.StartArray();
    for (const Workload& w : workloads) {
        j.StartObject();
        write_workload_fields(j, w);
        j.EndObject();
    }
    j.EndArray();
    j.EndObject();

    ChildProcess child({python(), driver_path()});
    child.write_stdin(std::string(sb.GetString(), sb.GetSize()));
    child.close_stdin();
    std::vector<bool> answered(workloads.size(), false);
    std::string line, fatal;
    bool stopped = false;
    rapidjson::Document doc;
    while (!stopped && child.read_line(line)) {
        if (line.empty()) continue;
        bool parsed = !json_too_deep(line) && !doc.Parse(line.c_str()).HasParseError() && doc.IsObject();
        if (!parsed) {
            // Not a result: something the driver's libraries printed.  Pass
            // it on to the user rather than lose it or fail on it.
            std::fprintf(stderr, "%s\n", line.c_str());
            continue;
        }
        if (auto f = find_member(doc, "fatal"); f && f->IsString()) {
            fatal = f->GetString();
            break;
        }
        const rapidjson::Value* idx = find_member(doc, "index");
        if (!idx || !idx->IsInt64() || idx->GetInt64() < 0 || static_cast<size_t>(idx->GetInt64()) >= workloads.size())
            continue;
        size_t i = static_cast<size_t>(idx->GetInt64());
        if (answered[i]) continue;  // one answer per workload
        answered[i] = true;
        std::optional<Error> error;
        Execution e;
        try {
            if (auto err = get_string(doc, "error")) throw Error(*err);
            const rapidjson::Value* lat = find_member(doc, "latencies_us");
            if (!lat || !lat->IsArray()) throw Error("the driver gave no latencies");
            for (auto& v : lat->GetArray()) {
                if (!v.IsNumber() || !(v.GetDouble() >= 0)) throw Error("the driver gave a latency that is not a time");
                e.latencies_us.push_back(v.GetDouble());
            }
            if (e.latencies_us.empty()) throw Error("the driver timed no execution");
            e.compile_ms = get_number(doc, "compile_ms");
            if (const rapidjson::Value* c = find_member(doc, "cached")) e.cached = c->IsBool() && c->GetBool();
            e.neff = get_string(doc, "neff").value_or("");
            e.toolchain = get_string(doc, "toolchain").value_or("");
        } catch (const Error& err) {
            error = Error(workloads[i].name + ": " + err.what());
        }
        stopped = error ? !done(i, nullptr, &*error) : !done(i, &e, nullptr);
    }
    if (stopped || !fatal.empty()) child.kill();  // stop the device work, unblock the pipe
    int status = child.wait();
    if (stopped) return;
    if (fatal.empty() && status != 0) fatal = "the neuron driver exited with status " + std::to_string(status);
    for (size_t i = 0; i < workloads.size(); ++i) {
        if (answered[i]) continue;
        Error e(workloads[i].name + ": " + (fatal.empty() ? "the neuron driver gave no result" : fatal));
        if (!done(i, nullptr, &e)) return;
    }
}

Execution NeuronBackend::run(const Workload& w) {
    Execution result;
    std::optional<Error> error;
    run_all({w}, [&](size_t, const Execution* e, const Error* err) {
        if (e) result = *e;
        if (err) error = *err;
        return true;
    });
    if (error) throw *error;
    return result;
}

}  // namespace nx
