// Host DRAM as the functional store for descriptors and packet data.  Timing lives in the host
// bridge; this is only the bytes.  Data moves functionally at the simulated instant a transfer
// completes (a DMA read sees memory as it is when its last byte arrives).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/dma_memory.h"

namespace pcisim {

// Final: the CPU's many accesses through a HostMemory& need no virtual call.
class HostMemory final : public DmaMemory {
public:
    explicit HostMemory(std::uint64_t bytes);

    std::uint64_t size() const { return size_; }
    void read(std::uint64_t addr, void* out, std::uint64_t n) const override;
    void write(std::uint64_t addr, const void* in, std::uint64_t n) override;
    std::uint32_t read32(std::uint64_t addr) const;
    std::uint64_t read64(std::uint64_t addr) const;
    void write32(std::uint64_t addr, std::uint32_t v);
    void write64(std::uint64_t addr, std::uint64_t v);
    std::uint8_t* span(std::uint64_t addr, std::uint64_t n);  // checked direct access

private:
    // Inline: every descriptor and packet access checks its range.
    void check(std::uint64_t addr, std::uint64_t n) const {
        if (addr > size_ || n > size_ - addr) outside(addr, n);
    }
    [[noreturn, gnu::cold]] void outside(std::uint64_t addr, std::uint64_t n) const;
    struct Free {
        void operator()(std::uint8_t* p) const { std::free(p); }
    };
    // calloc, not a zero-filled vector: a large calloc maps zero pages that the kernel fills
    // only when touched, so a run pays (in start-up time and RSS) only for the few megabytes
    // of rings and buffers it uses, not for all of host.memory_mib.
    std::unique_ptr<std::uint8_t[], Free> bytes_;
    std::uint64_t size_;
};

}  // namespace pcisim
