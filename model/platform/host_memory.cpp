#include "platform/host_memory.h"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace pcisim {

namespace {

std::uint8_t* map_zero_pages(std::uint64_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<std::uint8_t*>(p);
}

}  // namespace

HostMemory::HostMemory(std::uint64_t bytes)
    : bytes_(map_zero_pages(bytes), Unmap{bytes}), size_(bytes) {}

void HostMemory::Unmap::operator()(std::uint8_t* p) const { munmap(p, bytes); }

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
    return bytes_.get() + addr;
}

}  // namespace pcisim
