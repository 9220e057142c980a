// The host bridge (memory controller hub): DMA reads pay an initial latency (DRAM access plus
// the coherence snoop of the CPU caches) and then stream whole cache lines at the memory rate;
// it is also where CPU register accesses leave for the I/O buses.
#pragma once

#include <cstdint>

#include <systemc>

#include "platform/memory_path.h"

namespace pcisim {

class Scenario;
class BridgeFace;

class HostBridge : public sc_core::sc_module, public MemoryPath {
public:
    HostBridge(sc_core::sc_module_name name, const Scenario& s);

    Picos read_time(std::uint64_t addr, std::uint32_t bytes) const override;

    // Where register accesses go: the face on the NIC's segment, `down` after the CPU issues
    // them; a read's value is back at the CPU `up` after the face has it.
    void route_mmio(BridgeFace* face, Picos down, Picos up);
    // `issued` is when the CPU issues the access (>= now: a CPU may be ahead of the kernel).
    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos issued);  // posted
    void mmio_read(std::uint64_t addr, MmioClient* client, std::uint64_t tag, Picos issued);

    Picos mmio_down_latency() const { return mmio_down_; }
    Picos mmio_up_latency() const { return mmio_up_; }

private:
    unsigned line_bytes_;
    Picos memory_latency_, line_time_, mmio_down_, mmio_up_;
    BridgeFace* face_ = nullptr;
    Picos route_down_ = 0, route_up_ = 0;
};

}  // namespace pcisim
