// The way up from a bus segment to host memory: the host bridge itself or a PCI bridge that
// forwards further up.  Both answer "how long until these bytes are here".
#pragma once

#include <cstdint>

#include "core/pci_types.h"

namespace pcisim {

class MemoryPath {
public:
    virtual ~MemoryPath() = default;
    // Time from asking for [addr, addr+bytes) at this point until the last byte is back here,
    // once the read has started (read_start).
    virtual Picos read_time(std::uint64_t addr, std::uint32_t bytes) const = 0;
    // A posted DMA write of [addr, addr+bytes) handed up at this point at `at`.
    virtual void posted_write(std::uint64_t addr, std::uint32_t bytes, Picos at) = 0;
    // When a read asked for here at `at` starts: not before the posted writes handed up before
    // it are in memory, since a read request must not pass a posted memory write moving the
    // same way (PCI 3.0 Appendix E, ordering rule 5 and Table E-1; PCI-X 2.0 8.4).
    virtual Picos read_start(Picos at) const = 0;
    // The extra latency of the n-th read a face asks for (the host's seeded spread, standing
    // for other traffic in the host bridge and memory); 0 without one.
    virtual Picos read_jitter(std::uint64_t n) const = 0;
    // Coherent DMA: what the snoop of the CPU caches finds for a read of [addr, addr+bytes)
    // asked for here at `at`.  `first`: the time from asking until the read's first line is
    // back when a CPU cache holds it modified (the snoop hit replaces the memory access; 0: it
    // comes from memory, read_time); `further`: the later lines held modified (none when they cost nothing), each arriving
    // that much later than the memory stream and holding up the lines after it.
    struct Snoop {
        Picos first = 0;
        ModifiedLines further;
    };
    virtual Snoop snoop_read(std::uint64_t addr, std::uint32_t bytes, Picos at) const {
        return {};
    }
    // A read asked for here at `at` has taken [addr, addr+bytes): the CPU caches write back the
    // lines they held modified then.
    virtual void read_taken(std::uint64_t addr, std::uint32_t bytes, Picos at) {}
};

// The CPU's side of a register read: the value arrives after the whole round trip.
class MmioClient {
public:
    virtual ~MmioClient() = default;
    virtual void mmio_read_done(std::uint64_t tag, std::uint32_t value) = 0;
};

// Where the host bridge sends CPU register accesses: the face that carries them onto the
// devices' segment.  `at` is when an access arrives there and `cpu` the CPU that issued it (its
// port on the host bridge, HostBridge::attach_cpu); a read's value goes back up
// `return_latency` after the face has it.  Accesses of several CPUs that arrive at the same time
// go on in CPU order: the order in which the kernel runs CPUs that wake at the same instant
// depends on its event queue's history, so the order they issue in says nothing.
class MmioTarget {
public:
    virtual ~MmioTarget() = default;
    virtual void mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) = 0;
    virtual void mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                           MmioClient* client, std::uint64_t tag) = 0;
};

}  // namespace pcisim
