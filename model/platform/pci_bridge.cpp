#include "platform/pci_bridge.h"

#include "platform/bridge_face.h"
#include "run/scenario.h"
#include "run/schema.h"
#include "core/sim_time.h"

namespace pcisim {

std::vector<ParamSpec> bridge_params() {
    std::vector<ParamSpec> p = {
        text("bridges[].name", "bridge", "Name in results and traces (e.g. p64h2)."),
        number("bridges[].upstream_latency_ns", "ns", 100, 0, 10000,
               "Latency a read request or posted write adds going up through the bridge."),
        number("bridges[].downstream_latency_ns", "ns", 100, 0, 10000,
               "Latency read data or a register access adds coming down through the bridge."),
    };
    for (auto& f : face_params("bridges[]")) p.push_back(f);
    return p;
}

PciBridge::PciBridge(sc_core::sc_module_name name, const Scenario& s, const std::string& prefix,
                     const MemoryPath& parent)
    : sc_core::sc_module(name),
      parent_(parent),
      up_(ns_to_ps(s.number(prefix + ".upstream_latency_ns"))),
      down_(ns_to_ps(s.number(prefix + ".downstream_latency_ns"))) {}

Picos PciBridge::read_time(std::uint64_t addr, std::uint32_t bytes) const {
    return up_ + parent_.read_time(addr, bytes) + down_;
}

}  // namespace pcisim
