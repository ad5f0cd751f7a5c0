#include "common/workload/for_loop_size.h"

namespace nx {

namespace {

// Trips at the study's 3 iterations (small 3, medium 10, large 30).
constexpr int64_t kStudyIterations = 3;
struct LoopSize {
    std::string_view size;
    int64_t study_trips;
};
constexpr LoopSize kSizes[] = {{"small", 3}, {"medium", 10}, {"large", 30}};

}  // namespace

int64_t for_loop_trips(std::string_view size, int64_t iterations) {
    for (const LoopSize& s : kSizes)
        if (s.size == size) return (iterations * s.study_trips + kStudyIterations / 2) / kStudyIterations;
    return 0;
}

}  // namespace nx
