#include "run/nic_families.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "config/param_spec.h"
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

std::vector<ParamSpec> nic_family_params() {
    std::vector<ParamSpec> all;
    for (const NicFamily* family : nic_families())
        for (ParamSpec& p : family->params()) all.push_back(std::move(p));
    return all;
}

void check_nic_keys(const NicCheck& nic, const nlohmann::json& doc, std::vector<std::string>& problems) {
    const std::string model = nic.keys["model"].get<std::string>();
    for (const NicFamily* family : nic_families())
        if (family->has_model(model)) return family->check(nic, doc, problems);
}

StatGroup<const Nic*> nic_statistics() {
    StatGroup<const Nic*> g;
    for (const NicFamily* family : nic_families())
        g.group<const Nic*>("", family->statistics(), [](const Nic* nic) { return std::optional(nic); });
    return g;
}

}  // namespace pcisim
