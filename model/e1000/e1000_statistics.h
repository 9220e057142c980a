// The statistics an E1000 reports (docs/metrics-reference.md, under "nic." and "nics[].stats."),
// declared once with their units and meanings, read from the counters its parts keep (each part
// counts its own; these add them up over the ports).
#pragma once

#include <cstdint>

#include "core/pci_types.h"
#include "core/stats.h"
#include "e1000/e1000.h"

namespace pcisim::e1000 {

// What the statistics read: the NIC, and its parts' counters added up over its ports.
struct NicCounters {
    const E1000* nic = nullptr;
    std::uint64_t descriptor_fetches = 0, descriptors_fetched = 0, data_reads = 0, writebacks = 0,
                  descriptors_written_back = 0, interrupts = 0, tx_frames = 0, tx_bytes = 0,
                  context_descriptors = 0, tso_packets = 0, tso_segments = 0,
                  checksum_packets = 0;
    Picos fifo_wait = 0, wire = 0;
    BusStats bus;
    RxStats rx;

    static NicCounters of(const E1000& nic);
};

const StatGroup<NicCounters>& statistics();

}  // namespace pcisim::e1000
