// A PCI-to-PCI (or hub-to-PCI-X) bridge between the host side and a secondary segment with its
// own clock.  Going up it adds its upstream latency, going down its downstream latency; on its
// secondary segment it answers reads with delayed or split transactions (its BridgeFace).
// Its primary side is a point-to-point link (hub interface, HyperTransport): no arbitration
// is modelled there.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "platform/memory_path.h"

namespace pcisim {

class Scenario;

class PciBridge : public sc_core::sc_module, public MemoryPath {
public:
    PciBridge(sc_core::sc_module_name name, const Scenario& s, const std::string& prefix,
              const MemoryPath& parent);

    Picos read_time(std::uint64_t addr, std::uint32_t bytes) const override;
    Picos upstream_latency() const { return up_; }
    Picos downstream_latency() const { return down_; }

private:
    const MemoryPath& parent_;
    Picos up_, down_;
};

}  // namespace pcisim
