// The host bridge (memory controller hub): DMA reads pay an initial latency (DRAM access plus
// the coherence snoop of the CPU caches) and then stream whole cache lines at the memory rate;
// it is also where CPU register accesses leave for the I/O buses.
#pragma once

#include <cstdint>

#include <systemc>

#include "platform/bridge_face.h"
#include "platform/memory_path.h"

namespace pcisim {

class Scenario;

// host.* (host_params() lists units, defaults and ranges).
struct HostConfig {
    std::uint64_t memory_bytes = 64ull << 20;
    unsigned cache_line_bytes = 64;
    Picos memory_latency_ps = 150000;  // to the first cache line of a DMA read
    Picos line_transfer_ps = 30000;    // each further line
    Picos mmio_down_ps = 100000;       // CPU to the host bridge's output
    Picos mmio_up_ps = 100000;         // a register read's value back into the CPU
    FaceConfig face;                   // its face on the segment below it (host.* keys too)
    static HostConfig from(const Scenario& s);
};

class HostBridge : public sc_core::sc_module, public MemoryPath {
public:
    HostBridge(sc_core::sc_module_name name, const HostConfig& config);

    Picos read_time(std::uint64_t addr, std::uint32_t bytes) const override;

    // Where register accesses go: the face on the devices' segment, `down` after the CPU issues
    // them (this bridge's and every bridge's on the way); a read's value is back at the CPU `up`
    // after the face has it.  Must be bound before the simulation starts (checked then).
    void bind_mmio(MmioTarget& face, Picos down, Picos up);
    // `issued` is when the CPU issues the access (>= now: a CPU may be ahead of the kernel).
    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos issued);  // posted
    void mmio_read(std::uint64_t addr, MmioClient* client, std::uint64_t tag, Picos issued);

    const HostConfig& config() const { return config_; }

private:
    void end_of_elaboration() override;

    HostConfig config_;
    MmioTarget* face_ = nullptr;
    Picos route_down_ = 0, route_up_ = 0;
};

}  // namespace pcisim
