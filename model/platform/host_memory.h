// Host DRAM as the functional store for descriptors and packet data.  Timing lives in the host
// bridge; this is only the bytes.  Data moves functionally at the simulated instant a transfer
// completes (a DMA read sees memory as it is when its last byte arrives).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/dma_memory.h"

namespace pcisim {

// Final: the CPU's many accesses through a HostMemory& need no virtual call.
class HostMemory final : public DmaMemory {
public:
    explicit HostMemory(std::uint64_t bytes);
    ~HostMemory();
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;

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
    // Inline: every write and every direct access marks the pages it may change.
    void mark_written(std::uint64_t addr, std::uint64_t n) {
        if (n == 0) return;
        for (std::uint64_t page = addr >> kPageShift, last = (addr + n - 1) >> kPageShift;
             page <= last; ++page)
            written_[page >> 6] |= std::uint64_t{1} << (page & 63);
    }
    static constexpr unsigned kPageShift = 12;
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
    //
    // A process may run several simulations one after the other (a sweep's worker:
    // run/kernel_context.h).  Each would map its memory afresh and fault in every page it
    // touches again (nine page faults in ten of `validate --predictions`, each an exit to the
    // hypervisor on a virtual machine), so the process keeps the last mapping, with the pages
    // its memory wrote set to zero again, for the next memory of the same size: the bitmap below
    // says which pages were written (or handed out for writing by span), one bit a page.
    std::unique_ptr<std::uint8_t[], Unmap> bytes_;
    std::uint64_t size_;
    std::vector<std::uint64_t> written_;
};

}  // namespace pcisim
