// How a kernel's work splits over the physical cores of an LNC=2 logical
// core, as the Neuron documentation describes programming one (nx-sim(7),
// LNC): each core takes a disjoint part of the output and reads what that
// part needs from the HBM the two share (inputs both parts need are read by
// both); the cores meet only where one needs the other's results
// (nki.isa.core_barrier) or partial results must be combined
// (nki.isa.sendrecv_compute).  The documentation does not say how neuronx-cc
// itself partitions a graph: these are the model's choices, one per op.
#pragma once

#include <vector>

#include "common/model/elementwise.h"
#include "common/model/matmul.h"

namespace nx::model {

// The matmul's part on each of `lanes` cores.  The output splits along N
// (every core reads all of lhsT and its share of rhs's columns) when M <= N,
// else along M (every core reads all of rhs): the smaller operand is the one
// read twice.  Parts end at tile boundaries, the first taking the odd tile.
// One part when the chosen dimension has fewer than two tiles and the other
// too: a single output tile would need its K split and the partial sums
// combined, which the model does not do.
std::vector<MatmulProblem> shard_matmul(const MatmulProblem& p, int lanes);

// The element-wise op's part on each core: whole row tiles (128 rows) when
// there are two or more; within one row tile the columns (binary,
// activation, copy, reduce; a reduction's two partial sums are then combined
// by one sendrecv_compute) or, for layernorm, whose rows need every column,
// the rows.  One part when neither splits.
std::vector<ElementwiseSpec> shard_elementwise(const ElementwiseSpec& e, int lanes);

}  // namespace nx::model
