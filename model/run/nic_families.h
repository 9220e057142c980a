// The NIC families a scenario may place (nic/nic_family.h), and what the harness asks of them
// without naming one: the family of a nic.model, a NIC's spec read from the scenario, the
// drivers of its ports, and the statistics every family's NICs report.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nic/nic_family.h"
#include "software/port_driver.h"

namespace pcisim {

class ScenarioView;

const std::vector<const NicFamily*>& nic_families();
// The drivers of a NIC's ports (software/port_driver.h), by its family; of a nic.model's
// (null when no family has that part: the key's own check has said so).
const PortDrivers& drivers_of(const NicSpec& nic);
const PortDrivers* drivers_of_model(const std::string& model);
// The NIC of the scenario's `prefix` ("nic", "nics.1"), read by the family of its nic.model;
// throws std::invalid_argument when no family has that part (the scenario check has refused it).
std::shared_ptr<const NicSpec> read_nic(const ScenarioView& s, const std::string& prefix);
// The statistics of the NICs of every family (a NIC reports its own family's).
StatGroup<const Nic*> nic_statistics();
// Every family's nic.* keys, and the checks of one NIC by its family (none when no family has
// its nic.model: the key's own check has said so).
std::vector<ParamSpec> nic_family_params();
void check_nic_keys(const NicCheck& nic, const nlohmann::json& doc, std::vector<std::string>& problems);

}  // namespace pcisim
