// The pattern study's for-loop sizes: how many times each size unrolls the
// loop body.  The study's script (neuron_hardware_deep_analyzer.py,
// analyze_for_loop_hardware_behavior, littlemex/ec2-cfn-templates-for-genai
// a9c86df, the commit of its published figures) runs small, medium and large
// for 3, 10 and 30 iterations with a heavier body at each size (the model's
// lowering of the bodies: common/model/patterns.cpp).  Here as multiples of
// the study's 3 unified iterations, so --iterations scales every size.
#pragma once

#include <cstdint>
#include <string_view>

namespace nx {

// Unrolled trips of a for-loop size at `iterations`; 0 for an unknown size.
int64_t for_loop_trips(std::string_view size, int64_t iterations);

}  // namespace nx
