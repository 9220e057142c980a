// When one frame passed each stage of a NIC's transmit path, stamped as it goes and handed to
// the frame observer when its last byte has left.  Consecutive stamps bound the per-packet
// stages of the results (packet_stages_ns_by_port, run/measurement.h), so the stages add up to
// the time from the tail write to the last byte on the wire; the stamps never decrease in this
// order.  The stages are those of a descriptor-ring NIC with a store-and-forward transmit FIFO
// (the e1000's: e1000/e1000_tx_ring.h and e1000_mac.h stamp them); a frame preloaded into the
// FIFO (nic.preload_*) has only `committed` (time zero) and the wire stamps.
#pragma once

#include <cstdint>
#include <functional>

#include "core/pci_types.h"

namespace pcisim {

struct FrameTimeline {
    Picos tail_written = 0;         // the tail (TDT) write that handed over its last (EOP)
                                    // descriptor reached the NIC
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

// Every frame that has left a port, with its stages (`times.wire_end`: when its last byte left).
using FrameObserver = std::function<void(unsigned port, const std::uint8_t* frame, unsigned len,
                                         const FrameTimeline& times)>;

}  // namespace pcisim
