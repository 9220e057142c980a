#include "run/nic_families.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "config/param_spec.h"
#include "config/scenario_view.h"
#include "e1000/e1000_family.h"
#include "software/e1000_drivers.h"

namespace pcisim {

namespace {

// A family and the drivers of its ports.
struct FamilyEntry {
    const NicFamily* nic;
    const PortDrivers* drivers;
};

// One line per family.
const std::vector<FamilyEntry>& entries() {
    static const std::vector<FamilyEntry> table = {
        {&e1000::family(), &e1000_drivers()},
    };
    return table;
}

}  // namespace

const std::vector<const NicFamily*>& nic_families() {
    static const std::vector<const NicFamily*> families = [] {
        std::vector<const NicFamily*> all;
        for (const FamilyEntry& e : entries()) all.push_back(e.nic);
        return all;
    }();
    return families;
}

const PortDrivers* drivers_of_model(const std::string& model) {
    for (const FamilyEntry& e : entries())
        if (e.nic->has_model(model)) return e.drivers;
    return nullptr;
}

const PortDrivers& drivers_of(const NicSpec& nic) {
    if (const PortDrivers* drivers = drivers_of_model(nic.model())) return *drivers;
    throw std::invalid_argument("nic.model " + nic.model() + ": no NIC family has this part");
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
