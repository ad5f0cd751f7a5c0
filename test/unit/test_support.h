// Shared helpers for the library's unit tests.
#pragma once

#include <stdlib.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/io/output.h"
#include "common/profile/event.h"
#include "common/profile/profile.h"
#include "common/trace/event_spool.h"
#include "common/trace/pftrace_reader.h"
#include "common/trace/pftrace_sink.h"
#include "common/trace/trace_sink.h"

namespace nx_test {

// A fresh directory under $TMPDIR, removed with everything in it.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "nx-unit-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string path(const std::string& name) const { return path_ + "/" + name; }
    std::string write(const std::string& name, const std::string& content) const {
        std::string p = path(name);
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }
    // Writes content gzip-compressed with zlib's own writer.
    std::string write_gzip(const std::string& name, const std::string& content) const {
        std::string p = path(name);
        gzFile f = gzopen(p.c_str(), "wb");
        if (!f) throw std::runtime_error("gzopen failed");
        if (!content.empty() && gzwrite(f, content.data(), static_cast<unsigned>(content.size())) == 0)
            throw std::runtime_error("gzwrite failed");
        gzclose(f);
        return p;
    }

private:
    std::string path_;
};

// Collects what an Output writes (open_memstream).
class MemoryOutput {
public:
    MemoryOutput() : file_(open_memstream(&data_, &size_)), out_(std::make_unique<nx::Output>(file_, "memory")) {}
    ~MemoryOutput() {
        out_.reset();
        std::fclose(file_);
        std::free(data_);
    }
    MemoryOutput(const MemoryOutput&) = delete;
    MemoryOutput& operator=(const MemoryOutput&) = delete;
    nx::Output& out() { return *out_; }
    std::string text() {
        out_->flush();
        return std::string(data_, size_);
    }

private:
    char* data_ = nullptr;
    size_t size_ = 0;
    std::FILE* file_;
    std::unique_ptr<nx::Output> out_;
};

// An event as the tests build them: type, engine, row, time span, opcode and
// name (the name is the opcode when empty).
inline nx::Event make_event(nx::EventType type, nx::Engine engine, std::string_view track, int64_t ts, int64_t dur,
                            std::string_view opcode = {}, std::string_view name = {}) {
    nx::Event e;
    e.type = type;
    e.engine = engine;
    e.track = track;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.opcode = opcode;
    e.name = name.empty() ? opcode : name;
    return e;
}

// Runs events through a pftrace sink as one profile and decodes the bytes.
inline nx::DecodedTrace trace_of(const std::vector<nx::Event>& events,
                                 size_t chunk_bytes = nx::EventSpool::kDefaultChunkBytes) {
    MemoryOutput mem;
    nx::TraceSink sink(nx::make_pftrace_writer(mem.out()), chunk_bytes);
    nx::ProfileInfo info;
    info.name = "p";
    sink.begin_profile(info);
    for (const nx::Event& e : events) sink.event(e);
    sink.end_profile(info, {});
    sink.finish();
    return nx::decode_pftrace(mem.text());
}

}  // namespace nx_test
