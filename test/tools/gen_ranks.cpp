// A training job's capture tree, generated: one neuron-profile JSON device
// profile per rank (the format `neuron-profile view --output-format json`
// writes), laid out as the Neuron runtime lays out its NTFFs:
//
//   OUT/i-<16 hex>_pid_<pid>/<numeric neff hash>_instid_0_vnc_<core>.json[.gz]
//
// 8 ranks per instance (4 processes of 2 cores), so the plan's rank order
// (instance, process, core) is the generator's.  Each rank runs K iterations
// of a compute segment (its instructions back to back on the engine rows,
// DMA transfers beside them) followed by an all-reduce.  A straggler rank's
// compute segments end LATE ns later (its last MATMUL of each segment is that
// much longer), so it reaches every all-reduce last; an all-reduce ends on
// every rank BASE ns after the last rank arrives, so each other rank waits
// LATE ns in each: its collective wait is K x LATE, the straggler's 0.
// Deterministic: the same arguments give the same bytes.
//
// --neff H names the files after another NEFF hash (default 3418752096): a
// second graph of the same ranks beside the first, as the runtime leaves
// one profile per NEFF a core runs.
//
//   test-gen_ranks OUT --ranks N --events M [--iterations K] [--straggler R]
//                  [--late NS] [--neff H] [--gzip]
#include <zlib.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Args {
    std::string out;
    long ranks = 4, events = 1000, iterations = 4, straggler = -1, late = 0, neff = 3418752096;
    bool gzip = false;
};

constexpr const char* kUsage =
    "usage: test-gen_ranks OUT --ranks N --events M [--iterations K] [--straggler R] [--late NS] [--neff H] "
    "[--gzip]\n";

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr, "test-gen_ranks: %s\n%s", why, kUsage);
    std::exit(2);
}

Args parse(int argc, char** argv) {
    Args a;
    if (argc < 2) usage("no output directory");
    std::string first = argv[1];
    if (first == "--help" || first == "-h") {
        std::fputs(kUsage, stdout);
        std::exit(0);
    }
    // An option where OUT belongs would become a directory named after it.
    if (first.empty() || first[0] == '-') usage("the output directory comes first");
    a.out = first;
    for (int i = 2; i < argc; ++i) {
        std::string k = argv[i];
        if (k == "--gzip") {
            a.gzip = true;
            continue;
        }
        if (i + 1 >= argc) usage("an option without its value");
        char* end = nullptr;
        const char* text = argv[++i];
        long v = std::strtol(text, &end, 10);
        if (end == text || *end != '\0') usage("an option's value is not a whole number");
        if (k == "--ranks") a.ranks = v;
        else if (k == "--events") a.events = v;
        else if (k == "--iterations") a.iterations = v;
        else if (k == "--straggler") a.straggler = v;
        else if (k == "--late") a.late = v;
        else if (k == "--neff") a.neff = v;
        else usage("unknown option");
    }
    if (a.ranks < 1 || a.events < 10 || a.iterations < 1 || a.late < 0 || a.neff < 0) usage("bad sizes");
    return a;
}

// Writes plain or gzip (level 1: the bench's inputs are gigabytes).
class Sink {
public:
    Sink(const std::string& path, bool gzip) {
        if (gzip) gz_ = gzopen(path.c_str(), "wb1");
        else f_ = std::fopen(path.c_str(), "wb");
        if (!gz_ && !f_) {
            std::fprintf(stderr, "test-gen_ranks: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
            std::exit(1);
        }
        buf_.reserve(1 << 20);
    }
    ~Sink() {
        flush();
        if (gz_) gzclose(gz_);
        if (f_) std::fclose(f_);
    }
    void printf(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
        char line[512];
        va_list ap;
        va_start(ap, fmt);
        int n = std::vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        buf_.append(line, static_cast<size_t>(n));
        if (buf_.size() > (1 << 20) - 1024) flush();
    }

private:
    void flush() {
        if (buf_.empty()) return;
        if (gz_) gzwrite(gz_, buf_.data(), static_cast<unsigned>(buf_.size()));
        else std::fwrite(buf_.data(), 1, buf_.size(), f_);
        buf_.clear();
    }
    gzFile gz_ = nullptr;
    std::FILE* f_ = nullptr;
    std::string buf_;
};

// label, subgroup, opcode, as neuron-profile writes them: a matmul's label
// is TensorMatrix and its subgroup (the engine's row) Tensor, as in the
// trn2 profiles real tools wrote.
constexpr const char* kRows[][3] = {{"TensorMatrix", "Tensor", "MATMUL"},
                                    {"Vector", "Vector", "TENSOR_TENSOR"},
                                    {"Scalar", "Scalar", "ACTIVATION"},
                                    {"GpSimd", "GpSimd", "IOTA"}};
constexpr int64_t kStart = 1000;        // every rank's first instruction
constexpr int64_t kInstrNs = 100;       // each instruction's duration
constexpr int64_t kAllReduceNs = 2000;  // an all-reduce after the last rank arrives

void mkdirs(const std::string& path) {
    for (size_t at = 1; at <= path.size(); ++at)
        if (at == path.size() || path[at] == '/') mkdir(path.substr(0, at).c_str(), 0755);
}

}  // namespace

int main(int argc, char** argv) {
    Args a = parse(argc, argv);
    const long per_iteration = std::max(1L, (a.events * 4 / 5) / a.iterations);  // instructions; a fifth DMA
    const long dma_per_iteration = std::max(1L, per_iteration / 4);
    // Every rank's segment ends at the same time but the straggler's; each
    // all-reduce ends kAllReduceNs after the straggler arrives.
    const int64_t segment = per_iteration * kInstrNs;
    const bool has_straggler = a.straggler >= 0 && a.straggler < a.ranks;
    const int64_t late = has_straggler ? a.late : 0;
    const long slow_instruction = ((per_iteration - 1) / 4) * 4;  // the segment's last MATMUL
    for (long r = 0; r < a.ranks; ++r) {
        long instance = r / 8, process = (r % 8) / 2, core = r % 2;
        char dir[128], name[160];
        std::snprintf(dir, sizeof dir, "%s/i-%016lx_pid_%ld", a.out.c_str(), instance, 4000 + instance * 10 + process);
        mkdirs(dir);
        std::snprintf(name, sizeof name, "%s/%ld_instid_0_vnc_%ld.json%s", dir, a.neff, core, a.gzip ? ".gz" : "");
        Sink out(name, a.gzip);
        const bool straggler = r == a.straggler;
        out.printf("{\n\"instruction\": [\n");
        int64_t t = kStart;
        bool first = true;
        std::vector<int64_t> arrive;
        for (long k = 0; k < a.iterations; ++k) {
            for (long i = 0; i < per_iteration; ++i) {
                const auto& row = kRows[i % 4];
                int64_t dur = kInstrNs + (straggler && i == slow_instruction ? late : 0);
                out.printf("%s{\"timestamp\": %lld, \"duration\": %lld, \"label\": \"%s\", \"subgroup\": \"%s\", "
                           "\"opcode\": \"%s\", \"layer\": \"model/layers.%ld/mlp\"}\n",
                           first ? "" : ",", static_cast<long long>(t), static_cast<long long>(dur), row[0], row[1],
                           row[2], i * 8 / per_iteration);
                first = false;
                t += dur;
            }
            arrive.push_back(t);
            // Every rank leaves the all-reduce when the last one has done it.
            int64_t last = kStart + (k + 1) * segment + k * kAllReduceNs + late * (k + 1);
            t = last + kAllReduceNs;
        }
        out.printf("],\n\"dma\": [\n");
        first = true;
        for (long k = 0; k < a.iterations; ++k) {
            int64_t seg_start = kStart + k * (segment + kAllReduceNs + late);
            for (long i = 0; i < dma_per_iteration; ++i) {
                out.printf("%s{\"timestamp\": %lld, \"duration\": 150, \"subgroup\": \"qSyncIO%ld\", "
                           "\"transfer_size\": 2048}\n",
                           first ? "" : ",", static_cast<long long>(seg_start + i * (segment / dma_per_iteration)),
                           i % 4);
                first = false;
            }
        }
        out.printf("],\n\"collectives\": [\n");
        for (long k = 0; k < a.iterations; ++k) {
            int64_t last = kStart + (k + 1) * segment + k * kAllReduceNs + late * (k + 1);
            out.printf("%s{\"timestamp\": %lld, \"duration\": %lld, \"name\": \"all-reduce\"}\n", k ? "," : "",
                       static_cast<long long>(arrive[static_cast<size_t>(k)]),
                       static_cast<long long>(last + kAllReduceNs - arrive[static_cast<size_t>(k)]));
        }
        out.printf("],\n\"summary\": [{\"total_time\": %.9f, \"event_count\": %ld}]\n}\n",
                   static_cast<double>(t - kStart) * 1e-9, a.iterations * (per_iteration + dma_per_iteration + 1));
    }
    return 0;
}
