// Counters the NIC model keeps (since the last reset_stats()), shared by its parts: TxStats for
// the transmit side and the bus interface, RxStats for the receive side.
#pragma once

#include <cstdint>

#include "core/pci_types.h"

namespace pcisim::e1000 {

struct TxStats {
    std::uint64_t descriptor_fetches = 0;   // descriptor DMA reads
    std::uint64_t descriptors_fetched = 0;
    std::uint64_t data_reads = 0;           // packet data DMA reads (one per buffer)
    std::uint64_t writebacks = 0;           // descriptor write-back DMA writes
    std::uint64_t descriptors_written_back = 0;
    std::uint64_t interrupts = 0;           // INTA# assertions
    std::uint64_t tx_frames = 0;
    std::uint64_t tx_bytes = 0;             // frame bytes without FCS, preamble, IPG
    // Offloads (e1000_tso_engine.h): context descriptors taken, TSO packets started, the
    // segments they made, and non-TSO packets whose checksums the NIC inserted.
    std::uint64_t context_descriptors = 0, tso_packets = 0, tso_segments = 0,
                  checksum_packets = 0;
    // Bus outcome of the NIC's own requests (sums of DmaStats).
    std::uint64_t bus_transactions = 0, retries = 0, disconnects = 0, preemptions = 0;
    // Time sums, divided by tx_frames for the per-packet means in E1000::stats().
    Picos descriptor_fetch = 0;  // issue to last byte of descriptor reads
    Picos arbitration = 0;       // all NIC requests
    Picos overhead = 0;
    Picos read_latency = 0;      // descriptor and data reads
    Picos data_phases = 0;       // all NIC requests
    Picos fifo_wait = 0;         // packets ready to fetch but waiting for FIFO room
    Picos wire = 0;              // frame + preamble + FCS + IPG

    void add_bus(const DmaStats& s) {
        bus_transactions += s.transactions;
        retries += s.retries;
        disconnects += s.disconnects;
        preemptions += s.preemptions;
        arbitration += s.arbitration;
        overhead += s.overhead;
        data_phases += s.data;
    }
};

// The receive side's counters, all ports together.  Frames the wire delivers while RCTL.EN is
// clear are not counted (the receiver is off).  A frame that finds the RX FIFO full is missed
// (MPC), counted by why the FIFO was full: no receive descriptor was on chip or in host memory
// (the driver is behind), or there were descriptors and the DMA engine could not empty the FIFO
// fast enough (the bus is behind).
struct RxStats {
    std::uint64_t frames_arrived = 0;         // frames the MAC received (RCTL.EN set)
    std::uint64_t frames_delivered = 0;       // written to host memory and written back (DD)
    std::uint64_t bytes_delivered = 0;        // bytes those data writes carried
    std::uint64_t missed_no_descriptor = 0;   // MPC, with no descriptor available
    std::uint64_t missed_fifo_full = 0;       // MPC, with descriptors available
    std::uint64_t no_buffer_arrivals = 0;     // RNBC: arrived with no descriptor available
    std::uint64_t descriptor_fetches = 0;     // receive descriptor DMA reads
    std::uint64_t descriptors_fetched = 0;
    std::uint64_t data_writes = 0;            // packet data DMA writes (one per frame)
    std::uint64_t writebacks = 0;             // descriptor write-back DMA writes
    std::uint64_t descriptors_written_back = 0;
    std::uint64_t missed() const { return missed_no_descriptor + missed_fifo_full; }
};

}  // namespace pcisim::e1000
