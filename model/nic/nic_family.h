// A family of NICs (the 8254x: e1000/e1000_family.h) as the harness builds it: the parameters
// of one NIC read from the scenario before it exists (NicSpec: what the topology, the checks
// and the platform need to place it), how it is made on its segment, and the statistics its
// NICs report.  run/nic_families.cpp lists the families, one line each; nothing else in run/ or
// tools/ names one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/dma_memory.h"
#include "core/pci_types.h"
#include "core/stats.h"
#include "nic/nic.h"

#include <nlohmann/json_fwd.hpp>

namespace pcisim {

class PciBus;
class ScenarioView;
struct ParamSpec;

// One NIC's keys as the scenario check sees them: its nic.* values with the inherited ones
// filled in, the key path they are named by in messages ("nic", "nics[1]"), the ports it
// transmits on and the kind of the segment it sits on, each with its key.
struct NicCheck {
    const nlohmann::json& keys;
    std::string path;
    unsigned ports;
    std::string ports_key;
    std::string bus_kind;
    std::string bus_key;
};

// One NIC's parameters, read and checked with the scenario.
class NicSpec {
public:
    virtual ~NicSpec() = default;

    virtual const std::string& model() const = 0;  // nic.model
    // Its PCI device ID: what its driver learns from at probe, as a Linux driver does
    // (e1000_set_mac_type), rather than from the model's name.
    virtual std::uint16_t device_id() const = 0;
    // Its memory BAR: port p's registers at the BAR's base + p * port_register_bytes(), the
    // whole BAR bar_bytes() long.
    virtual std::uint64_t port_register_bytes() const = 0;
    virtual std::uint64_t bar_bytes() const = 0;
    virtual Picos byte_time_ps() const = 0;  // one byte on its wire at its link speed

    // The NIC, on `segment` (whose kind, width and clock it reports to a guest), its registers at
    // `bar`, DMA to `memory`, port p's interrupt to irq_per_port[p] (nullptr: none).
    virtual std::unique_ptr<Nic> make(const std::string& name, PciBus& segment, DmaMemory& memory,
                                      std::uint64_t bar,
                                      std::vector<InterruptSink*> irq_per_port) const = 0;
};

struct NicFamily {
    const char* name;  // "e1000"
    // Whether `model` (a nic.model value) is one of its parts.
    bool (*has_model)(const std::string& model);
    // The NIC of the scenario's `prefix`: "nic" for nic.*, or an item of nics[] ("nics.1"),
    // which takes nic.*'s value for each key it leaves out.
    std::shared_ptr<const NicSpec> (*read)(const ScenarioView& s, const std::string& prefix);
    // What its NICs report (nic.* and nics[].stats.* of the results); a NIC of another family
    // reports none of it.
    const StatGroup<const Nic*>& (*statistics)();
    // Its nic.* keys (unit, default, range, meaning), and the checks between one NIC's keys and
    // the rest of the scenario.
    std::vector<ParamSpec> (*params)();
    void (*check)(const NicCheck& nic, const nlohmann::json& doc, std::vector<std::string>& problems);
};

}  // namespace pcisim
