// The model's split of a matmul or element-wise op over an LNC=2 logical
// core's physical cores (sharding.h).
#include "common/model/sharding.h"

#include <algorithm>
#include <string>

namespace nx::model {

namespace {

// `n` units over `lanes`: the first parts take the remainder.
std::vector<int64_t> split_counts(int64_t n, int lanes) {
    std::vector<int64_t> out;
    int64_t left = n;
    for (int i = 0; i < lanes; ++i) {
        const int64_t part = ceil_div(left, lanes - i);
        out.push_back(part);
        left -= part;
    }
    return out;
}

}  // namespace

std::vector<MatmulProblem> shard_matmul(const MatmulProblem& p, int lanes) {
    const int64_t mt = ceil_div(p.M, kStationaryMax), nt = ceil_div(p.N, kMovingMax);
    bool along_n = p.M <= p.N;
    if (along_n && nt < 2) along_n = false;
    if (!along_n && mt < 2) along_n = nt >= 2;
    if (lanes < 2 || (mt < 2 && nt < 2)) return {p};
    std::vector<MatmulProblem> parts;
    const std::vector<int64_t> tiles = split_counts(along_n ? nt : mt, lanes);
    int64_t tile0 = 0;
    for (int i = 0; i < lanes; ++i) {
        if (tiles[static_cast<size_t>(i)] == 0) break;
        MatmulProblem q = p;
        q.whole_M = p.whole_M > 0 ? p.whole_M : p.M;
        q.whole_N = p.whole_N > 0 ? p.whole_N : p.N;
        if (along_n) {
            q.n_tile0 = p.n_tile0 + tile0;
            q.N = std::min(p.N - tile0 * kMovingMax, tiles[static_cast<size_t>(i)] * kMovingMax);
        } else {
            q.m_tile0 = p.m_tile0 + tile0;
            q.M = std::min(p.M - tile0 * kStationaryMax, tiles[static_cast<size_t>(i)] * kStationaryMax);
        }
        q.layer_prefix = p.layer_prefix + "/pcore" + std::to_string(i);
        tile0 += tiles[static_cast<size_t>(i)];
        parts.push_back(q);
    }
    return parts;
}

std::vector<ElementwiseSpec> shard_elementwise(const ElementwiseSpec& e, int lanes) {
    if (lanes < 2) return {e};
    const int64_t row_tiles = ceil_div(e.rows, kPartitions);
    const bool layernorm = e.kind == ElementwiseKind::layernorm;
    auto part = [&](int i) {
        ElementwiseSpec q = e;
        q.whole_cols = e.whole_cols > 0 ? e.whole_cols : e.cols;
        q.lane = i;
        return q;
    };
    // Consecutive rows, so many to each core.
    auto by_rows = [&](const std::vector<int64_t>& rows) {
        std::vector<ElementwiseSpec> parts;
        int64_t row = 0;
        for (int i = 0; i < lanes; ++i) {
            ElementwiseSpec q = part(i);
            q.row0 = e.row0 + row;
            q.rows = rows[static_cast<size_t>(i)];
            row += q.rows;
            parts.push_back(q);
        }
        return parts;
    };
    if (row_tiles >= 2) {
        std::vector<int64_t> rows = split_counts(row_tiles, lanes);
        int64_t left = e.rows;
        for (int64_t& r : rows) {
            r = std::min(left, r * kPartitions);
            left -= r;
        }
        return by_rows(rows);
    }
    if (layernorm) return e.rows >= lanes ? by_rows(split_counts(e.rows, lanes)) : std::vector<ElementwiseSpec>{e};
    if (e.cols < lanes) return {e};
    std::vector<ElementwiseSpec> parts;
    const std::vector<int64_t> cols = split_counts(e.cols, lanes);
    int64_t col = 0;
    for (int i = 0; i < lanes; ++i) {
        ElementwiseSpec q = part(i);
        q.col0 = e.col0 + col;
        q.cols = cols[static_cast<size_t>(i)];
        q.combine = e.kind == ElementwiseKind::reduce;
        col += q.cols;
        parts.push_back(q);
    }
    return parts;
}

}  // namespace nx::model
