// Sequence buckets for serving (vLLM / NxD bucketing decisions): given how
// long requests are (a distribution) and what a forward pass costs at each
// bucket length (from an llm sweep), the buckets that minimise the expected
// cost of padded compute.  Every request runs padded up to the smallest
// bucket that holds it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nx {

struct SeqCount {
    int64_t seq;
    double count;
};

// Reads a distribution: lines "SEQ COUNT" or "SEQ" (one request), or JSONL
// {"seq": N, "count": C}; '#' starts a comment.  Throws Error(file:line).
std::vector<SeqCount> read_seq_distribution(const std::string& path);

struct BucketPlan {
    std::vector<int64_t> buckets;
    double expected_cost = 0;      // mean cost per request (the cost's unit: us)
    double padding_percent = 0;    // padded tokens that are padding
    double unserved = 0;           // requests longer than every bucket
};

// Cost of a set of buckets.  `cost` maps candidate lengths to the cost of a
// pass at that length (ascending lengths).
BucketPlan evaluate_buckets(const std::vector<SeqCount>& dist, const std::vector<std::pair<int64_t, double>>& cost,
                            const std::vector<int64_t>& buckets);

// The best at most `k` buckets among the candidate lengths (exact dynamic
// programming over the candidates), the longest bucket always the smallest
// candidate that holds the longest request (or the longest candidate).
BucketPlan best_buckets(const std::vector<SeqCount>& dist, const std::vector<std::pair<int64_t, double>>& cost, int k);

}  // namespace nx
