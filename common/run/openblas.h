// OpenBLAS, loaded when the cpu backend first runs a matmul rather than when a
// tool starts.  The library starts its thread pool as it is loaded, and those
// threads spin on sched_yield for about a tenth of a second of a core in every
// process that links it: nx-convert, nx-capture and nx-run on the sim
// backend paid that for a library they never call (nx-convert of a 100K-event
// profile: 0.15 s of system time, 0.04 s without it).
#pragma once

#include <string>

namespace nx {

// C (m x n) = A (m x k) x B (k x n), row major, fp32; B is given as n x k
// when b_transposed.  Throws Error when OpenBLAS cannot be loaded.
void openblas_sgemm(int m, int n, int k, const float* a, const float* b, float* c, bool b_transposed);

// "OpenBLAS 0.3.21": the version of the library that runs the matmuls
// (loading it if it is not yet).
std::string openblas_version();

}  // namespace nx
