// A distributed training job's PyTorch profiler (Kineto) traces, generated:
// one Chrome trace-event JSON file per rank, as torch.profiler writes them
// under torch.distributed on GPUs, with what the tests and the bench need
// and nothing taken from real traces:
//
// - distributedInfo {backend nccl, rank, world_size};
// - STEPS ProfilerStep#N slices on the CPU (user_annotation), and one more,
//   the profiler's last, cut short: its work was launched but the trace
//   ended before the step did;
// - per step KERNELS compute kernels on stream 7, each launched by a
//   cudaLaunchKernel runtime call of the same correlation id, a
//   "Memcpy HtoD" on stream 7 first (cudaMemcpyAsync), then an all-reduce
//   kernel on stream 20 named as NCCL 2.19 on names them
//   (ncclDevKernel_AllReduce_Sum_f32_RING_LL; --legacy-nccl: NCCL 2.17's
//   ncclKernel_AllReduce_RING_LL_Sum_float) with the args PyTorch gives a
//   collective's kernel: Collective name, In/Out msg nelems, dtype, Group
//   size, Process Group Name/Description/Ranks and Seq (--no-seq leaves
//   Seq out);
// - a straggler rank (--straggler R) whose compute takes LATE us more each
//   step: it starts every all-reduce last, and the all-reduce ends on every
//   rank BASE us after the last rank arrived, so the others' all-reduce
//   kernels are LATE us longer;
// - --c10d adds the CPU's "nccl:all_reduce" annotation of each collective;
// - thread names as "M" events at the end of the file, as Kineto writes them.
// Timestamps are integer microseconds on one clock shared by the ranks
// (Kineto's are the host's wall clock).
//
// File names: --names rank (rank-<r>.json), sampled (sampled_rank-<r>.json),
// pt (<host>_<pid>.<n>.pt.trace.json, the rank only in distributedInfo),
// plain (trace<r>.json, the rank only in distributedInfo); --gzip adds .gz.
// Deterministic: the same arguments give the same bytes.
//
//   test-gen_kineto OUT --ranks N [--steps K] [--kernels M] [--straggler R]
//                   [--late US] [--names rank|sampled|pt|plain] [--legacy-nccl]
//                   [--no-seq] [--c10d] [--gzip]
#include <zlib.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct Args {
    std::string out;
    long ranks = 2, steps = 3, kernels = 20, straggler = -1, late = 0;
    std::string names = "rank";
    bool legacy_nccl = false, seq = true, c10d = false, gzip = false;
};

constexpr const char* kUsage =
    "usage: test-gen_kineto OUT --ranks N [--steps K] [--kernels M] [--straggler R] [--late US]\n"
    "                       [--names rank|sampled|pt|plain] [--legacy-nccl] [--no-seq] [--c10d] [--gzip]\n";

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr, "test-gen_kineto: %s\n%s", why, kUsage);
    std::exit(2);
}

long number(const char* opt, const char* text) {
    char* end = nullptr;
    errno = 0;
    long v = std::strtol(text, &end, 10);
    if (errno || !end || *end || v < -1) usage((std::string("bad number for ") + opt).c_str());
    return v;
}

Args parse(int argc, char** argv) {
    Args a;
    if (argc < 2) usage("no output directory");
    std::string first = argv[1];
    if (first == "--help" || first == "-h") {
        std::fputs(kUsage, stdout);
        std::exit(0);
    }
    a.out = first;
    for (int i = 2; i < argc; ++i) {
        std::string o = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage(("missing value for " + o).c_str());
            return argv[++i];
        };
        if (o == "--ranks") a.ranks = number("--ranks", value());
        else if (o == "--steps") a.steps = number("--steps", value());
        else if (o == "--kernels") a.kernels = number("--kernels", value());
        else if (o == "--straggler") a.straggler = number("--straggler", value());
        else if (o == "--late") a.late = number("--late", value());
        else if (o == "--names") a.names = value();
        else if (o == "--legacy-nccl") a.legacy_nccl = true;
        else if (o == "--no-seq") a.seq = false;
        else if (o == "--c10d") a.c10d = true;
        else if (o == "--gzip") a.gzip = true;
        else usage(("unknown option " + o).c_str());
    }
    if (a.ranks < 1 || a.steps < 1 || a.kernels < 1) usage("--ranks, --steps and --kernels must be at least 1");
    if (a.names != "rank" && a.names != "sampled" && a.names != "pt" && a.names != "plain") usage("bad --names");
    return a;
}

// Output, plain or gzip.
class Out {
public:
    Out(const std::string& path, bool gz) : gz_(gz) {
        if (gz) z_ = gzopen(path.c_str(), "wb6");
        else f_ = std::fopen(path.c_str(), "wb");
        if (!z_ && !f_) {
            std::fprintf(stderr, "test-gen_kineto: cannot write %s\n", path.c_str());
            std::exit(1);
        }
    }
    ~Out() {
        if (gz_) gzclose(z_);
        else std::fclose(f_);
    }
    void put(const std::string& s) {
        if (gz_) gzwrite(z_, s.data(), static_cast<unsigned>(s.size()));
        else std::fwrite(s.data(), 1, s.size(), f_);
    }

private:
    bool gz_;
    gzFile z_ = nullptr;
    std::FILE* f_ = nullptr;
};

std::string file_name(const Args& a, long rank) {
    std::string ext = std::string(".json") + (a.gzip ? ".gz" : "");
    if (a.names == "rank") return "rank-" + std::to_string(rank) + ext;
    if (a.names == "sampled") return "sampled_rank-" + std::to_string(rank) + ext;
    if (a.names == "pt") return "node" + std::to_string(rank / 8) + "_" + std::to_string(1000 + rank) + "." +
                                std::to_string(1700000000 + rank) + ".pt.trace" + ext;
    return "trace" + std::to_string(rank) + ext;
}

constexpr int64_t kT0 = 1700000000000000;  // us, the shared clock's start
constexpr int64_t kLaunchUs = 5, kKernelUs = 50, kCopyUs = 8, kAllReduceUs = 200;
constexpr int64_t kCpuPid = 4000, kStream = 7, kNcclStream = 20;

std::string x_event(const char* cat, const std::string& name, int64_t pid, int64_t tid, int64_t ts, int64_t dur,
                    const std::string& args) {
    return std::string("{\"ph\":\"X\",\"cat\":\"") + cat + "\",\"name\":\"" + name + "\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) +
           ",\"args\":{" + args + "}}";
}

void write_rank(const Args& a, long rank) {
    Out out(a.out + "/" + file_name(a, rank), a.gzip);
    out.put("{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" + std::to_string(rank) +
            ",\"world_size\":" + std::to_string(a.ranks) + "},\"traceEvents\":[\n");
    const int64_t device = rank % 8, tid = kCpuPid + 1;
    const int64_t late = rank == a.straggler ? a.late : 0;
    // Every rank's step s starts at the same CPU time; compute is
    // KERNELS x (launch + kernel), the all-reduce waits for the last rank.
    const int64_t compute_us = a.kernels * kKernelUs + kCopyUs + 10;
    const int64_t period = compute_us + a.late + kAllReduceUs + 200;
    std::string ranks_list = "[";
    for (long r = 0; r < a.ranks; ++r) ranks_list += (r ? ", " : "") + std::to_string(r);
    ranks_list += "]";
    const std::string nccl = a.legacy_nccl ? "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
                                           : "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    int64_t corr = 100;
    bool first = true;
    auto emit = [&](const std::string& e) {
        out.put((first ? "" : ",\n") + e);
        first = false;
    };
    for (long s = 0; s <= a.steps; ++s) {
        const bool cut = s == a.steps;  // the profiler's last step: the trace ends inside it
        const int64_t step_start = kT0 + s * period;
        const int64_t step_dur = cut ? compute_us / 2 : period - 20;
        emit(x_event("user_annotation", "ProfilerStep#" + std::to_string(100 + s), kCpuPid, tid, step_start, step_dur,
                     "\"External id\":" + std::to_string(corr)));
        // The input copy (it starts once its call has returned), then the
        // compute kernels.
        int64_t cpu = step_start + 2, gpu = cpu + kLaunchUs + 1;
        emit(x_event("cuda_runtime", "cudaMemcpyAsync", kCpuPid, tid, cpu, kLaunchUs,
                     "\"cbid\":41,\"correlation\":" + std::to_string(corr)));
        emit(x_event("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", device, kStream, gpu, kCopyUs,
                     "\"device\":" + std::to_string(device) + ",\"stream\":7,\"correlation\":" + std::to_string(corr) +
                         ",\"bytes\":1048576,\"memory bandwidth (GB/s)\":131.072"));
        ++corr;
        cpu += kLaunchUs + 1;
        gpu += kCopyUs;
        const long kernels = cut ? a.kernels / 2 : a.kernels;
        for (long k = 0; k < kernels; ++k) {
            int64_t dur = kKernelUs + (k + 1 == kernels ? late : 0);
            emit(x_event("cuda_runtime", "cudaLaunchKernel", kCpuPid, tid, cpu, kLaunchUs,
                         "\"cbid\":211,\"correlation\":" + std::to_string(corr)));
            emit(x_event("kernel", k % 2 ? "void at::native::vectorized_elementwise_kernel<4>(int)" : "sm80_xmma_gemm_bf16bf16_f32",
                         device, kStream, std::max(gpu, cpu + kLaunchUs + 1), dur,
                         "\"queued\":0,\"device\":" + std::to_string(device) + ",\"stream\":7,\"correlation\":" +
                             std::to_string(corr) + ",\"grid\":[128,1,1],\"block\":[256,1,1]"));
            gpu = std::max(gpu, cpu + kLaunchUs + 1) + dur;
            cpu += kLaunchUs + 1;
            ++corr;
        }
        if (cut) continue;
        // The all-reduce: this rank arrives when its compute ends; it ends
        // kAllReduceUs after the last rank arrives (the straggler).
        const int64_t arrive = gpu;
        // Launches take 6 us and kernels 50: the first kernel starts after
        // the copy and two launches, the rest back to back.
        const int64_t copy_end = step_start + 2 + (kLaunchUs + 1) + kCopyUs;
        const int64_t first_kernel = std::max(copy_end, step_start + 2 + 2 * (kLaunchUs + 1));
        const int64_t last_arrival = first_kernel + a.kernels * kKernelUs + a.late;
        const int64_t end = std::max(last_arrival, arrive) + kAllReduceUs;
        if (a.c10d)
            emit(x_event("user_annotation", "nccl:all_reduce", kCpuPid, tid, cpu, kLaunchUs + 2,
                         "\"External id\":" + std::to_string(corr)));
        emit(x_event("cuda_runtime", "cudaLaunchKernel", kCpuPid, tid, cpu, kLaunchUs,
                     "\"cbid\":211,\"correlation\":" + std::to_string(corr)));
        std::string args = "\"device\":" + std::to_string(device) + ",\"stream\":20,\"correlation\":" + std::to_string(corr) +
                           ",\"Collective name\":\"allreduce\",\"In msg nelems\":1048576,\"Out msg nelems\":1048576,"
                           "\"dtype\":\"Float\",\"Group size\":" + std::to_string(a.ranks) +
                           ",\"Process Group Name\":\"0\",\"Process Group Description\":\"default_pg\","
                           "\"Process Group Ranks\":\"" + ranks_list + "\"";
        if (a.seq) args += ",\"Seq\":" + std::to_string(s);
        emit(x_event("kernel", nccl, device, kNcclStream, arrive, end - arrive, args));
        ++corr;
    }
    emit("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(device) + ",\"tid\":7,\"args\":{\"name\":\"stream 7\"}}");
    emit("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(device) + ",\"tid\":20,\"args\":{\"name\":\"stream 20\"}}");
    emit("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(kCpuPid) + ",\"args\":{\"name\":\"python\"}}");
    out.put("\n]}\n");
}

}  // namespace

int main(int argc, char** argv) {
    Args a = parse(argc, argv);
    if (mkdir(a.out.c_str(), 0755) != 0 && errno != EEXIST) {
        std::fprintf(stderr, "test-gen_kineto: cannot make %s: %s\n", a.out.c_str(), std::strerror(errno));
        return 1;
    }
    for (long r = 0; r < a.ranks; ++r) write_rank(a, r);
    return 0;
}
