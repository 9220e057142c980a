// The way up from a bus segment to host memory: the host bridge itself or a PCI bridge that
// forwards further up.  Both answer "how long until these bytes are here".
#pragma once

#include <cstdint>

#include "core/pci_types.h"

namespace pcisim {

class MemoryPath {
public:
    virtual ~MemoryPath() = default;
    // Time from asking for [addr, addr+bytes) at this point until the last byte is back here.
    virtual Picos read_time(std::uint64_t addr, std::uint32_t bytes) const = 0;
};

// The CPU's side of a register read: the value arrives after the whole round trip.
class MmioClient {
public:
    virtual ~MmioClient() = default;
    virtual void mmio_read_done(std::uint64_t tag, std::uint32_t value) = 0;
};

}  // namespace pcisim
