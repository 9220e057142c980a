// A PCI-to-PCI (or hub-to-PCI-X) bridge between the host side and a secondary segment with its
// own clock.  Going up it adds its upstream latency, going down its downstream latency; on its
// secondary segment it answers reads with delayed or split transactions (its BridgeFace).
// Its primary side is a point-to-point link (hub interface, HyperTransport): no arbitration
// is modelled there.
#pragma once

#include <vector>

#include <cstdint>
#include <string>

#include <systemc>

#include "platform/bridge_face.h"
#include "platform/memory_path.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> bridge_params();  // bridges[].*

// bridges[i].* (bridge_params() lists units, defaults and ranges).
struct BridgeConfig {
    std::string name = "bridge";
    Picos upstream_latency_ps = 100000;    // a read request or posted write going up
    Picos downstream_latency_ps = 100000;  // read data or a register access coming down
    FaceConfig face;                       // its face on the secondary segment
    // `prefix` is the array item ("bridges.1"); the face's line size is the host's.
    static BridgeConfig from(const ScenarioView& s, const std::string& prefix,
                             unsigned cache_line_bytes);
};

class PciBridge : public sc_core::sc_module, public MemoryPath {
public:
    PciBridge(sc_core::sc_module_name name, const BridgeConfig& config, MemoryPath& parent);

    Picos read_time(std::uint64_t addr, std::uint32_t bytes) const override;
    // Writes and reads go up in order through the same queue (PCI-to-PCI Bridge 1.2, 5.2).
    void posted_write(std::uint64_t addr, std::uint32_t bytes, Picos at) override;
    Picos read_start(Picos at) const override;
    Snoop snoop_read(std::uint64_t addr, std::uint32_t bytes, Picos at) const override;
    void read_taken(std::uint64_t addr, std::uint32_t bytes, Picos at) override;
    Picos read_jitter(std::uint64_t n) const override { return parent_.read_jitter(n); }
    Picos upstream_latency() const { return up_; }
    Picos downstream_latency() const { return down_; }

private:
    MemoryPath& parent_;
    Picos up_, down_;
};

}  // namespace pcisim
