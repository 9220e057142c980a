// Where CPU register accesses go when the devices sit on more than one segment.  A PCI-PCI
// bridge forwards a memory access downstream when its address falls in the bridge's memory
// window (PCI-to-PCI Bridge Architecture 1.2: its Memory Base and Limit registers): an access to a
// device behind an on-card bridge goes to that card's face, after the bridge's downstream
// latency, and a read's value comes back after its upstream latency; every other access goes to
// the face of the devices' segment.  The card bridge's primary side is not arbitrated for on the
// devices' segment (like the platform bridges' primary links): only its latencies are added.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pci_types.h"
#include "platform/memory_path.h"

namespace pcisim {

class MmioRouter : public MmioTarget {
public:
    explicit MmioRouter(MmioTarget& segment_face) : segment_face_(segment_face) {}

    // [base, base + bytes) lies behind a bridge whose face on its secondary segment is `face`.
    void add_window(std::uint64_t base, std::uint64_t bytes, MmioTarget& face, Picos down,
                    Picos up);

    void mmio_write(std::uint64_t addr, std::uint32_t value, Picos at, unsigned cpu) override;
    void mmio_read(std::uint64_t addr, Picos at, unsigned cpu, Picos return_latency,
                   MmioClient* client, std::uint64_t tag) override;

private:
    struct Window {
        std::uint64_t base, end;
        MmioTarget* face;
        Picos down, up;
    };
    const Window* window_of(std::uint64_t addr) const;

    MmioTarget& segment_face_;
    std::vector<Window> windows_;
};

}  // namespace pcisim
