// The parameter schema: every scenario key with its type, unit, default, range and meaning.  The
// checks in scenario.cpp and the generated docs/scenario-reference.md both come from this table,
// so they cannot drift apart.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pcisim {

enum class ParamType { Number, Integer, Boolean, Text, Choice, Notes };

struct ParamSpec {
    std::string path;           // dotted; "bridges[]." marks the items of an array of objects
    ParamType type;
    std::string unit;           // "" when dimensionless
    nlohmann::json default_value;
    double min = 0, max = 0;    // inclusive range for numbers; ignored when min > max
    std::vector<std::string> choices;  // Choice: allowed strings; Integer/Number: allowed values
    std::string meaning;
    // A key of an array item that takes another key's value when not given ("nics[].model"
    // from "nic.model"): no default is filled in, so a change of that key (a sweep's override)
    // reaches every item that does not set its own.
    std::string inherits;
};

// Builders that keep the tables short.
ParamSpec number(std::string path, std::string unit, double def, double min, double max,
                 std::string meaning);
ParamSpec integer(std::string path, std::string unit, long long def, long long min,
                  long long max, std::string meaning);
ParamSpec one_of_integers(std::string path, std::string unit, long long def,
                          std::vector<long long> allowed, std::string meaning);
ParamSpec boolean(std::string path, bool def, std::string meaning);
ParamSpec text(std::string path, std::string def, std::string meaning);
ParamSpec choice(std::string path, std::string def, std::vector<std::string> choices,
                 std::string meaning);
// `spec` under another path, taking the value of `spec.path` when not given (ParamSpec::inherits).
ParamSpec inherited(const ParamSpec& spec, std::string path, std::string meaning);
// An object of free-text strings (key -> reason), e.g. why a platform value is what it is.
ParamSpec notes(std::string path, std::string meaning);

// Each module lists its own parameters next to its code.
std::vector<ParamSpec> scenario_params();    // name, description, platform, why, nic.enabled
std::vector<ParamSpec> simulation_params();  // model/run/simulation.cpp
std::vector<ParamSpec> bus_params();
std::vector<ParamSpec> host_params();
std::vector<ParamSpec> bridge_params();
std::vector<ParamSpec> dma_master_params();
std::vector<ParamSpec> nic_params();
std::vector<ParamSpec> driver_params();
std::vector<ParamSpec> rx_driver_params();    // model/software/e1000_rx_driver.cpp
std::vector<ParamSpec> wire_source_params();  // model/e1000/wire_source.cpp
std::vector<ParamSpec> pktgen_params();
std::vector<ParamSpec> tcp_params();  // workload.kind, tcp.*: model/software/tcp_sender.cpp
std::vector<ParamSpec> cpu_params();
std::vector<ParamSpec> cpu_cache_params();
std::vector<ParamSpec> slab_params();
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
// A segment's clock against its kind (PCI 33 or 66, PCI-X 50 to 133 MHz); `path` is its key
// ("bus", "card_bridges[0].bus").
void check_bus_clock(const nlohmann::json& bus, const std::string& path,
                     std::vector<std::string>& problems);
// The NIC's share of it (model/e1000/e1000_params.cpp): packet buffer split, packet size against
// the TX FIFO, ports of the model, a PCI-only part on PCI-X, preloaded frames.
void check_nic_combinations(const nlohmann::json& doc, std::vector<std::string>& problems);
// The same for one NIC of several (model/run/topology.cpp): its nic.* values with the inherited
// ones filled in, the key path they are named by in messages ("nic", "nics[1]"), the ports it
// transmits on and the kind of the segment it sits on, each with its key.
struct NicCheck {
    const nlohmann::json& keys;
    std::string path;
    unsigned ports;
    std::string ports_key;
    std::string bus_kind;
    std::string bus_key;
};
void check_nic(const NicCheck& nic, const nlohmann::json& doc, std::vector<std::string>& problems);
// The wire source's rate against the line rate and its ports against the driven ones
// (model/e1000/wire_source.cpp).
void check_wire_source(const nlohmann::json& doc, std::vector<std::string>& problems);

// Markdown reference of every key (docs/scenario-reference.md).
std::string schema_markdown();

}  // namespace pcisim
