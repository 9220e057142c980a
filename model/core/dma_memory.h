// The bytes behind a device's DMA, apart from its timing: what a read brings in and where a
// write's bytes go, at the instant the transfer completes on the device's side.  pcisim's own
// platform hands the NIC its HostMemory; the TLM-2.0 adapter (model/tlm/e1000_tlm.h) serves the
// bytes its socket transactions carried.
#pragma once

#include <cstdint>

namespace pcisim {

class DmaMemory {
public:
    virtual ~DmaMemory() = default;
    // Inside BusMaster::read_done: the bytes of [addr, addr+n) the completed read returned.
    virtual void read(std::uint64_t addr, void* out, std::uint64_t n) const = 0;
    // Inside BusMaster::write_done: the bytes the completed write puts at [addr, addr+n).
    virtual void write(std::uint64_t addr, const void* in, std::uint64_t n) = 0;
};

}  // namespace pcisim
