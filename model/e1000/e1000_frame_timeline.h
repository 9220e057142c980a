// When one frame passed each stage of the transmit path inside the NIC, stamped as it goes and
// handed to the frame observer when its last byte has left.  Consecutive stamps bound the
// per-packet stages of the results (packet_stages_ns_by_port, run/measurement.h), so the stages
// add up to the time from the tail write to the last byte on the wire; the stamps never
// decrease in this order.  A frame preloaded into the FIFO (nic.preload_*) has only
// `committed` (time zero) and the wire stamps.
#pragma once

#include "core/pci_types.h"

namespace pcisim::e1000 {

struct FrameTimeline {
    Picos tail_written = 0;         // the TDT write that handed over its last (EOP) descriptor
                                    // reached the NIC
    Picos descriptors_fetched = 0;  // that descriptor arrived in the descriptor cache
    Picos engine_ready = 0;         // the DMA engine turned to it: from here on it waited only
                                    // for TX FIFO room (equal to data_started when there was room)
    Picos data_started = 0;         // FIFO room reserved, its first data read asked for
    Picos data_in = 0;              // the last byte of its data arrived
    Picos committed = 0;            // finished (nic.packet_processing_ns) and handed to the MAC:
                                    // wholly in the FIFO, ready to send (store-and-forward)
    Picos wire_start = 0;           // its preamble starts
    Picos wire_end = 0;             // its last byte (FCS) has left
};

}  // namespace pcisim::e1000
