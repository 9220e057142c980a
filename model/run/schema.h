// The parameter schema: every scenario key with its type, unit, default, range and meaning.  The
// checks in scenario.cpp and the generated docs/scenario-reference.md both come from this table,
// so they cannot drift apart.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/param_spec.h"

namespace pcisim {

// Each module lists its own parameters next to its code and declares the list in its header
// (bus_params() in platform/pci_bus.h, each NIC family's through run/nic_families.h, ...); these are
// run/'s own.
std::vector<ParamSpec> scenario_params();    // name, description, platform, why, nic.enabled
std::vector<ParamSpec> simulation_params();  // model/run/simulation.cpp
std::vector<ParamSpec> topology_params();  // nics[], card_bridges[]: model/run/topology.cpp
std::vector<ParamSpec> testing_params();  // test-only fault injection (model/run/fault_injection.cpp)

// The whole table, in documentation order.
const std::vector<ParamSpec>& schema();
const ParamSpec* find_param(const std::string& schema_path);
// The keys directly inside an object of the schema ("" the top level, "bus", "bridges[]" an
// item of that array), in schema order: leaves with their spec, objects with leaf == nullptr.
// Null when the schema has no such object.
struct SchemaChild {
    std::string key;
    const ParamSpec* leaf;
};
const std::vector<SchemaChild>* schema_children(const std::string& object_path);

// Checks between keys that a per-key range cannot express (PCI at 100 MHz, ring sizes, host
// memory for the socket buffers, FIFO room): everything about the scenario that the run would
// otherwise find out.  `doc` has every default filled in; problems are appended, one line each.
void check_combinations(const nlohmann::json& doc, std::vector<std::string>& problems);
// The modules' own checks live with them: check_bus_clock (platform/pci_bus.h), each NIC
// family's (its entry's check, called through run/nic_families.h), check_wire_source
// (nic/wire_source.h).

// Markdown reference of every key (docs/scenario-reference.md).
std::string schema_markdown();

}  // namespace pcisim
