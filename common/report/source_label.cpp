#include "common/report/source_label.h"

namespace nx {

std::string target_backend(const std::string& target, const std::string& backend) {
    return (target.empty() ? "?" : target) + "/" + (backend.empty() ? "?" : backend);
}

std::string SourceLabels::label(const std::string& name, const std::string& target, const std::string& backend) const {
    return mixed() ? name + " " + target_backend(target, backend) : name;
}

}  // namespace nx
