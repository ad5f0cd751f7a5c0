// Synthetic neuron-profile `view --output-format json` with N events, for
// benchmarks: instructions on all engine rows and DMA transfers on 16 queues,
// with the fields real files carry (operands, pc, ids, dependencies, layer),
// about 280 bytes per event.  Deterministic: the same N gives the same bytes.
//
//   bench-gen_profile N [--unsorted] > profile.json
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// A small LCG: deterministic across platforms, unlike std:: distributions.
struct Lcg {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<uint32_t>(s >> 33);
    }
    uint32_t below(uint32_t n) { return next() % n; }
};

struct Row {
    const char* label;
    const char* opcode;
    const char* subgroup;
};
constexpr Row kRows[] = {
    {"TensorMatrix", "MATMUL", "Tensor"},       {"Tensor", "LoadStationary", "Tensor"},
    {"Vector", "TENSOR_TENSOR", "Vector"},      {"Scalar", "ACTIVATION", "Scalar"},
    {"GpSimd", "IOTA", "GpSimd"},               {"Sync", "SEM_WAIT", "Sync"},
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench-gen_profile N [--unsorted]\n");
        return 2;
    }
    long n = std::atol(argv[1]);
    bool unsorted = argc > 2 && std::strcmp(argv[2], "--unsorted") == 0;
    Lcg rng;
    static char buf[1 << 20];
    std::setvbuf(stdout, buf, _IOFBF, sizeof buf);
    long dma = n / 5;           // one event in five is a DMA transfer
    long instr = n - dma;
    std::printf("{\n\"instruction\": [\n");
    const uint64_t start = 10261883214ull;
    uint64_t ts = start, end = start;
    for (long i = 0; i < instr; ++i) {
        const Row& r = kRows[i % 6 == 0 || i % 6 == 1 ? i % 6 : 2 + rng.below(4)];
        ts += 20 + rng.below(60);
        uint64_t t = unsorted && i % 1000 == 999 ? ts - 5000 : ts;
        int layer = static_cast<int>((i / 2000) % 32);
        unsigned dur = 40 + rng.below(200);
        end = std::max<uint64_t>(end, t + dur);
        std::printf("{\"timestamp\": %llu, \"duration\": %u, \"label\": \"%s\", \"hlo_name\": \"%%dot.%d = dot(%%p%d, %%w%d)\", "
                    "\"opcode\": \"%s\", \"operands\": \"S[%u] (%s)++@complete src=fp16@0x%x[1,0,0][3,1,1] 3*128\", "
                    "\"pc\": %ld, \"id\": %ld, \"subgroup\": \"%s\", \"layer\": \"model/layers.%d/mlp\", "
                    "\"inst_dep_ids\": [%ld]}%s\n",
                    static_cast<unsigned long long>(t), dur, r.label, layer * 7 + 1, layer, layer,
                    r.opcode, rng.below(8), r.subgroup, 0x5600 + rng.below(4096) * 16, i * 4, i, r.subgroup, layer,
                    i > 0 ? i - 1 : 0, i + 1 < instr ? "," : "");
    }
    std::printf("],\n\"dma\": [\n");
    ts = start;
    for (long i = 0; i < dma; ++i) {
        ts += 100 + rng.below(300);
        unsigned q = rng.below(16);
        unsigned dur = 300 + rng.below(2000);
        end = std::max<uint64_t>(end, ts + dur);
        std::printf("{\"timestamp\": %llu, \"duration\": %u, \"subgroup\": \"qSyncIO%u\", \"transfer_size\": %u, "
                    "\"id\": %ld, \"src\": \"0x%x\", \"dst\": \"0x%x\", \"queue_idx\": %u}%s\n",
                    static_cast<unsigned long long>(ts), dur, q, 512u << rng.below(8), i,
                    rng.below(1 << 24), rng.below(1 << 24), q, i + 1 < dma ? "," : "");
    }
    // The summary comes last here (key order does not matter to readers):
    // its total_time needs the end of the timeline.
    std::printf("],\n\"summary\": [{\"total_time\": %.9f, \"event_count\": %ld, \"nc_idx\": 0, \"nd_idx\": 0}]\n}\n",
                static_cast<double>(end - start) * 1e-9, n);
    return std::fflush(stdout) == 0 ? 0 : 1;
}
