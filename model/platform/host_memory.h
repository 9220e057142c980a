// Host DRAM as the functional store for descriptors and packet data.  Timing lives in the host
// bridge; this is only the bytes.  Data moves functionally at the simulated instant a transfer
// completes (a DMA read sees memory as it is when its last byte arrives).
#pragma once

#include <cstdint>
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
    struct Unmap {
        std::uint64_t bytes;
        void operator()(std::uint8_t* p) const;
    };
    // An anonymous mapping, not a zero-filled vector: its zero pages are filled by the kernel
    // only when touched, so a run pays (in start-up time and RSS) only for the few megabytes of
    // rings and buffers it uses, not for all of host.memory_mib.  Mapped directly rather than
    // through calloc (which maps a block this large in the same way): AddressSanitizer poisons
    // and unpoisons the shadow of every heap block, an eighth of its size written at allocation
    // and again at free, which for 64 MiB cost a sanitized run 4096 page faults.  Every access
    // is range-checked above, so the heap's redzones add nothing here.
    std::unique_ptr<std::uint8_t[], Unmap> bytes_;
    std::uint64_t size_;
};

}  // namespace pcisim
