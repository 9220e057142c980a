#include "run/nic_families.h"

#include <stdexcept>

#include "config/scenario_view.h"
#include "e1000/e1000_family.h"

namespace pcisim {

// One line per family.
const std::vector<const NicFamily*>& nic_families() {
    static const std::vector<const NicFamily*> families = {
        &e1000::family(),
    };
    return families;
}

std::shared_ptr<const NicSpec> read_nic(const ScenarioView& s, const std::string& prefix) {
    const std::string own = prefix + ".model";
    const std::string model = s.text(s.has(own) ? own : "nic.model");
    for (const NicFamily* family : nic_families())
        if (family->has_model(model)) return family->read(s, prefix);
    throw std::invalid_argument(own + ": no NIC family has the part " + model);
}

StatGroup<const Nic*> nic_statistics() {
    StatGroup<const Nic*> g;
    for (const NicFamily* family : nic_families())
        g.group<const Nic*>("", family->statistics(), [](const Nic* nic) { return std::optional(nic); });
    return g;
}

}  // namespace pcisim
