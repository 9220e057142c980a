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

// Where the host bridge sends CPU register accesses: the face that carries them onto the
// devices' segment.  `at` is when an access arrives there; a read's value goes back up
// `return_latency` after the face has it.
class MmioTarget {
public:
    virtual ~MmioTarget() = default;
    virtual void mmio_write(std::uint64_t addr, std::uint32_t value, Picos at) = 0;
    virtual void mmio_read(std::uint64_t addr, Picos at, Picos return_latency,
                           MmioClient* client, std::uint64_t tag) = 0;
};

}  // namespace pcisim
