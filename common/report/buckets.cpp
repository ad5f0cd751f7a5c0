#include "common/report/buckets.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/io/error.h"
#include "common/records/jsonl.h"

namespace nx {

std::vector<SeqCount> read_seq_distribution(const std::string& path) {
    // Line by line with the record reader's line cap: /dev/zero is an error,
    // not a 4 GB line.
    auto source = InputSource::open(path);
    JsonlReader in(*source);
    std::vector<SeqCount> out;
    std::string line;
    int64_t n = 0;
    while (in.next_line(line)) {
        n = in.line();
        size_t hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        SeqCount sc{0, 1};
        if (line.find('{') != std::string::npos) {
            rapidjson::Document d;
            parse_json_object(d, line, path, n);
            auto seq = d.FindMember("seq");
            if (seq == d.MemberEnd() || !seq->value.IsInt64())
                throw Error("expected a whole \"seq\" in each record", path, n);
            sc.seq = seq->value.GetInt64();
            auto count = d.FindMember("count");
            if (count != d.MemberEnd()) {
                if (!count->value.IsNumber()) throw Error("\"count\" must be a number", path, n);
                sc.count = count->value.GetDouble();
            }
        } else {
            std::istringstream ss(line);
            std::string seq, count, rest;
            ss >> seq >> count >> rest;
            if (!rest.empty()) throw Error("expected 'SEQ [COUNT]', got more", path, n);
            char* end = nullptr;
            errno = 0;
            sc.seq = std::strtoll(seq.c_str(), &end, 10);
            if (*end != '\0' || errno == ERANGE)
                throw Error("expected a whole sequence length, got '" + seq + "'", path, n);
            if (!count.empty()) {
                sc.count = std::strtod(count.c_str(), &end);
                if (*end != '\0') throw Error("expected a request count, got '" + count + "'", path, n);
            }
        }
        if (sc.seq <= 0 || !(sc.count >= 0) || !std::isfinite(sc.count))
            throw Error("sequence lengths must be positive and counts non-negative", path, n);
        out.push_back(sc);
    }
    if (out.empty()) throw Error("no sequence lengths", path);
    return out;
}

BucketPlan evaluate_buckets(const std::vector<SeqCount>& dist, const std::vector<std::pair<int64_t, double>>& cost,
                            const std::vector<int64_t>& buckets_in) {
    std::vector<int64_t> buckets = buckets_in;
    std::sort(buckets.begin(), buckets.end());
    auto cost_of = [&](int64_t len) {
        for (const auto& [l, c] : cost)
            if (l == len) return c;
        return std::numeric_limits<double>::quiet_NaN();
    };
    BucketPlan p;
    p.buckets = buckets;
    double total = 0, served = 0, tokens = 0, padded = 0;
    for (const SeqCount& r : dist) {
        auto it = std::lower_bound(buckets.begin(), buckets.end(), r.seq);
        if (it == buckets.end()) {
            p.unserved += r.count;
            continue;
        }
        total += r.count * cost_of(*it);
        served += r.count;
        tokens += r.count * static_cast<double>(r.seq);
        padded += r.count * static_cast<double>(*it);
    }
    p.expected_cost = served > 0 ? total / served : 0;
    p.padding_percent = padded > 0 ? 100.0 * (padded - tokens) / padded : 0;
    return p;
}

BucketPlan best_buckets(const std::vector<SeqCount>& dist, const std::vector<std::pair<int64_t, double>>& cost, int k) {
    size_t m = cost.size();
    if (m == 0 || k < 1) return {};
    // Requests per candidate interval (c[i-1], c[i]]; beyond the last: unserved.
    std::vector<double> weight(m, 0);
    int64_t longest = 0;
    for (const SeqCount& r : dist) {
        longest = std::max(longest, r.seq);
        auto it = std::lower_bound(cost.begin(), cost.end(), r.seq,
                                   [](const std::pair<int64_t, double>& c, int64_t s) { return c.first < s; });
        if (it != cost.end()) weight[static_cast<size_t>(it - cost.begin())] += r.count;
    }
    std::vector<double> prefix(m + 1, 0);
    for (size_t i = 0; i < m; ++i) prefix[i + 1] = prefix[i] + weight[i];
    size_t last = m - 1;
    for (size_t i = 0; i < m; ++i)
        if (cost[i].first >= longest) {
            last = i;
            break;
        }
    const double inf = std::numeric_limits<double>::infinity();
    // dp[j][i]: least total cost of serving every request up to c[i] with j
    // buckets, the largest of them c[i]; from[j][i]: the previous bucket.
    std::vector<std::vector<double>> dp(static_cast<size_t>(k) + 1, std::vector<double>(m, inf));
    std::vector<std::vector<int>> from(static_cast<size_t>(k) + 1, std::vector<int>(m, -1));
    for (size_t i = 0; i < m; ++i) dp[1][i] = cost[i].second * prefix[i + 1];
    for (size_t j = 2; j <= static_cast<size_t>(k); ++j)
        for (size_t i = 0; i < m; ++i)
            for (size_t p = 0; p < i; ++p) {
                double v = dp[j - 1][p] + cost[i].second * (prefix[i + 1] - prefix[p + 1]);
                if (v < dp[j][i]) {
                    dp[j][i] = v;
                    from[j][i] = static_cast<int>(p);
                }
            }
    size_t best_j = 1;
    for (size_t j = 1; j <= static_cast<size_t>(k); ++j)
        if (dp[j][last] < dp[best_j][last]) best_j = j;
    std::vector<int64_t> buckets;
    for (int i = static_cast<int>(last), j = static_cast<int>(best_j); i >= 0 && j >= 1; i = from[j][i], --j)
        buckets.push_back(cost[static_cast<size_t>(i)].first);
    std::reverse(buckets.begin(), buckets.end());
    return evaluate_buckets(dist, cost, buckets);
}

}  // namespace nx
