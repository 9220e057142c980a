#include "platform/pci_bridge.h"

#include "config/scenario_view.h"
#include "config/param_spec.h"
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

BridgeConfig BridgeConfig::from(const ScenarioView& s, const std::string& prefix,
                                unsigned cache_line_bytes) {
    BridgeConfig c;
    c.name = s.text(prefix + ".name");
    c.upstream_latency_ps = ns_to_ps(s.number(prefix + ".upstream_latency_ns"));
    c.downstream_latency_ps = ns_to_ps(s.number(prefix + ".downstream_latency_ns"));
    c.face = FaceConfig::from(s, prefix, cache_line_bytes);
    return c;
}

PciBridge::PciBridge(sc_core::sc_module_name name, const BridgeConfig& config,
                     MemoryPath& parent)
    : sc_core::sc_module(name),
      parent_(parent),
      up_(config.upstream_latency_ps),
      down_(config.downstream_latency_ps) {}

Picos PciBridge::read_time(std::uint64_t addr, std::uint32_t bytes) const {
    return up_ + parent_.read_time(addr, bytes) + down_;
}

void PciBridge::posted_write(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    parent_.posted_write(addr, bytes, at + up_);
}

// read_time counts the way up from here, so the start is given in this bridge's time.
Picos PciBridge::read_start(Picos at) const { return parent_.read_start(at + up_) - up_; }

// The first line's time counts the way up and back; the further lines keep their spacing.
MemoryPath::Snoop PciBridge::snoop_read(std::uint64_t addr, std::uint32_t bytes, Picos at) const {
    Snoop s = parent_.snoop_read(addr, bytes, at + up_);
    if (s.first) s.first += up_ + down_;
    return s;
}

void PciBridge::read_taken(std::uint64_t addr, std::uint32_t bytes, Picos at) {
    parent_.read_taken(addr, bytes, at + up_);
}

}  // namespace pcisim
