// Labels that say which target and backend a row or chart series comes from
// ("mm_128x512x512 trn2/sim" beside "mm_128x512x512 trn1/neuron"), added only
// when the rows shown together come from more than one: a comparison across
// targets or backends never shows two rows that read the same.
#pragma once

#include <set>
#include <string>

namespace nx {

// "trn2/sim"; a missing part reads "?" ("trn2/?").
std::string target_backend(const std::string& target, const std::string& backend);

class SourceLabels {
public:
    void add(const std::string& target, const std::string& backend) { seen_.insert(target_backend(target, backend)); }
    // More than one target or backend among those added.
    bool mixed() const { return seen_.size() > 1; }
    // `name`, followed by " trn2/sim" when mixed().
    std::string label(const std::string& name, const std::string& target, const std::string& backend) const;

private:
    std::set<std::string> seen_;
};

}  // namespace nx
