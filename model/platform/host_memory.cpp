#include "platform/host_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace pcisim {

namespace {

std::uint8_t* map_zero_pages(std::uint64_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<std::uint8_t*>(p);
}

// The mapping the last memory left, all zero again, for the next memory of its size; empty
// when there is none.
struct SpareMapping {
    std::uint8_t* bytes = nullptr;
    std::uint64_t size = 0;
    ~SpareMapping() {
        if (bytes) munmap(bytes, size);
    }
};
SpareMapping g_spare;

std::uint8_t* zero_pages_of_size(std::uint64_t bytes) {
    if (g_spare.bytes && g_spare.size == bytes) return std::exchange(g_spare.bytes, nullptr);
    return map_zero_pages(bytes);
}

}  // namespace

HostMemory::HostMemory(std::uint64_t bytes)
    : bytes_(zero_pages_of_size(bytes), Unmap{bytes}),
      size_(bytes),
      written_((((bytes + (std::uint64_t{1} << kPageShift) - 1) >> kPageShift) + 63) / 64) {}

void HostMemory::Unmap::operator()(std::uint8_t* p) const { munmap(p, bytes); }

// Zeroing the pages written costs less than faulting them in again, unless most were written
// (a TLM initiator's direct access to all of it, docs/tlm.md): such a mapping goes.
HostMemory::~HostMemory() {
    std::uint64_t pages = 0;
    for (std::uint64_t word : written_) pages += static_cast<unsigned>(__builtin_popcountll(word));
    if (pages > (size_ >> kPageShift) / 2) return;
    const std::uint64_t page_bytes = std::uint64_t{1} << kPageShift;
    for (std::size_t w = 0; w < written_.size(); ++w)
        for (std::uint64_t word = written_[w]; word; word &= word - 1) {
            const std::uint64_t at = ((w * 64) + static_cast<unsigned>(__builtin_ctzll(word)))
                                     << kPageShift;
            std::memset(bytes_.get() + at, 0, std::min(page_bytes, size_ - at));
        }
    if (g_spare.bytes) munmap(g_spare.bytes, g_spare.size);
    g_spare.bytes = bytes_.release();
    g_spare.size = size_;
}

void HostMemory::outside(std::uint64_t addr, std::uint64_t n) const {
    throw std::out_of_range("host memory access at " + std::to_string(addr) + " of " +
                            std::to_string(n) + " bytes is outside the " + std::to_string(size_) +
                            "-byte memory");
}

void HostMemory::read(std::uint64_t addr, void* out, std::uint64_t n) const {
    check(addr, n);
    std::memcpy(out, bytes_.get() + addr, n);
}

void HostMemory::write(std::uint64_t addr, const void* in, std::uint64_t n) {
    check(addr, n);
    mark_written(addr, n);
    std::memcpy(bytes_.get() + addr, in, n);
}

std::uint32_t HostMemory::read32(std::uint64_t addr) const {
    std::uint32_t v;
    read(addr, &v, sizeof v);
    return v;
}

std::uint64_t HostMemory::read64(std::uint64_t addr) const {
    std::uint64_t v;
    read(addr, &v, sizeof v);
    return v;
}

void HostMemory::write32(std::uint64_t addr, std::uint32_t v) { write(addr, &v, sizeof v); }
void HostMemory::write64(std::uint64_t addr, std::uint64_t v) { write(addr, &v, sizeof v); }

std::uint8_t* HostMemory::span(std::uint64_t addr, std::uint64_t n) {
    check(addr, n);
    mark_written(addr, n);
    return bytes_.get() + addr;
}

}  // namespace pcisim
