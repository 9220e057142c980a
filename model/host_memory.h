// Host DRAM as the functional store for descriptors and packet data.  Timing lives in the host
// bridge; this is only the bytes.  Data moves functionally at the simulated instant a transfer
// completes (a DMA read sees memory as it is when its last byte arrives).
#pragma once

#include <cstdint>
#include <vector>

namespace pcisim {

class HostMemory {
public:
    explicit HostMemory(std::uint64_t bytes) : bytes_(bytes, 0) {}

    std::uint64_t size() const { return bytes_.size(); }
    void read(std::uint64_t addr, void* out, std::uint64_t n) const;
    void write(std::uint64_t addr, const void* in, std::uint64_t n);
    std::uint32_t read32(std::uint64_t addr) const;
    std::uint64_t read64(std::uint64_t addr) const;
    void write32(std::uint64_t addr, std::uint32_t v);
    void write64(std::uint64_t addr, std::uint64_t v);
    std::uint8_t* span(std::uint64_t addr, std::uint64_t n);  // checked direct access

private:
    void check(std::uint64_t addr, std::uint64_t n) const;
    std::vector<std::uint8_t> bytes_;
};

}  // namespace pcisim
