#include "platform/mmio_router.h"

namespace pcisim {

void MmioRouter::add_window(std::uint64_t base, std::uint64_t bytes, MmioTarget& face,
                            Picos down, Picos up) {
    windows_.push_back({base, base + bytes, &face, down, up});
}

const MmioRouter::Window* MmioRouter::window_of(std::uint64_t addr) const {
    for (const Window& w : windows_)
        if (addr >= w.base && addr < w.end) return &w;
    return nullptr;
}

void MmioRouter::mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) {
    if (const Window* w = window_of(addr))
        return w->face->mmio_write(addr, value, at + w->down, cpu);
    segment_face_.mmio_write(addr, value, at, cpu);
}

void MmioRouter::mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                           MmioClient* client, std::uint64_t tag) {
    if (const Window* w = window_of(addr))
        return w->face->mmio_read(addr, at + w->down, cpu, return_latency + w->up, client, tag);
    segment_face_.mmio_read(addr, at, cpu, return_latency, client, tag);
}

}  // namespace pcisim
