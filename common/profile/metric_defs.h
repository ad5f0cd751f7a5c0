// The summary metrics nx knows: names as in the Neuron profile schema
// (neuron-facts.md section 3) plus a few nx adds, each with its unit, which
// direction is better, and what it means.  Reports, comparisons, gates and the
// man page (nx(7)) all read this one table.
#pragma once

#include <string_view>
#include <vector>

namespace nx {

enum class Better { higher, lower, neither };

struct MetricDef {
    std::string_view name;
    std::string_view unit;        // "s", "%", "count", "bytes", "flop", "flop/B", "ratio"
    Better better;
    std::string_view description;
};

const std::vector<MetricDef>& metric_defs();
// nullptr for a name nx does not define (source metrics nx does not know are
// still kept, with an empty unit).
const MetricDef* find_metric_def(std::string_view name);
// The unit of a metric: its definition's, or for a metric only the source
// knows, the one its name states (_percent, _bytes, _time, _ns, _count,
// _flops); empty when neither says.
std::string_view metric_unit(std::string_view name);

}  // namespace nx
