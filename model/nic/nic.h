// A NIC as the harness sees it: what the platform, the simulation, the results and explain ask
// of any NIC family, so that none of them names one (the e1000 implements it, e1000/e1000.h).
// What a NIC is made from, and the table of families, are in nic_family.h.
//
// Nothing here is on a per-packet path of the simulation: the harness asks these between batches
// (catch_up, the counts), when the watchdog looks, and when the results are written; the wire
// source hands each frame to receive_frame (one call per received frame, which costs far less
// than the frame's own events).
#pragma once

#include <cstdint>
#include <string>

#include "core/pci_types.h"
#include "nic/frame_timeline.h"

namespace pcisim {

// Where a frame carries its number: pktgen's header (the sequence field after the Ethernet, IP
// and UDP headers and pktgen's magic), which the wire source fills and a receiving driver reads.
inline constexpr unsigned kFrameSeqOffset = 46;

// One port's transmit side, for the watchdog's diagnostic and the conservation check.
struct NicTransmitState {
    unsigned ring_head = 0, ring_tail = 0;  // the descriptor ring's head and tail (TDH, TDT)
    std::uint32_t fifo_used = 0, fifo_capacity = 0;  // transmit FIFO bytes
};

// One port's receive side since time zero (not reset with the statistics), for the checks,
// the watchdog and the receive window.
struct NicReceiveState {
    std::uint64_t arrived = 0;    // frames the MAC took while the receiver was on
    std::uint64_t delivered = 0;  // written to host memory and written back
    std::uint64_t missed = 0;     // dropped: no descriptor or no FIFO room
    std::uint64_t while_off = 0;  // arrived while the receiver was off (before the driver
                                  // turned it on), which no statistic counts
    std::uint64_t in_nic = 0;     // arrived, neither delivered nor missed yet
    unsigned ring_head = 0, ring_tail = 0;  // RDH, RDT
    std::uint32_t fifo_used = 0, fifo_capacity = 0;  // receive FIFO bytes
    bool enabled = false;         // the driver has turned the receiver on (RCTL.EN)
};

// All ports' receive counters since the statistics were reset (rx.* of the results).
struct NicReceiveTotals {
    std::uint64_t missed_no_descriptor = 0, missed_fifo_full = 0, no_buffer_arrivals = 0;
    std::uint64_t bytes_delivered = 0;   // frame data written to host memory
    std::uint64_t descriptor_bytes = 0;  // descriptors fetched and written back, in bytes
};

class Nic {
public:
    virtual ~Nic() = default;

    // Its module's name ("nic", "nic0"), which is also its master's name on the bus.
    virtual const char* module_name() const = 0;

    // The run: counters from zero when the window opens; each port's wire kept lazily (frames
    // finished when someone looks), and catch_up() before reading anything below; the frames
    // that have left, with their stages (set before the run).
    virtual void reset_stats() = 0;
    virtual void set_lazy_wire(bool on) = 0;
    virtual void catch_up() = 0;
    virtual void set_frame_timeline_observer(FrameObserver fn) = 0;

    // Transmit: frames that have left port `port` since time zero, those of them that were in
    // its FIFO at time zero (nic.preload_packets), the most frames per second its wire carries
    // at `frame_bytes` (without FCS), and its ring and FIFO.
    virtual std::uint64_t frames_sent(unsigned port) const = 0;
    virtual std::uint64_t preloaded_frames() const = 0;
    virtual double wire_limit_pps(unsigned port, std::size_t frame_bytes) const = 0;
    virtual NicTransmitState transmit_state(unsigned port) const = 0;

    // Receive: a frame from the wire at port `port` whose last byte is in now (`seq` at
    // kFrameSeqOffset, the rest zeros); the port's counts; all ports' totals.
    virtual void receive_frame(unsigned port, std::uint32_t len, std::uint32_t seq) = 0;
    virtual NicReceiveState receive_state(unsigned port) const = 0;
    virtual NicReceiveTotals receive_totals() const = 0;

    // The modules explain follows (their names in the trace, trace_hooks.h): the port, its MAC
    // (the wire), its receive engine.
    virtual std::string port_module(unsigned port) const = 0;
    virtual std::string mac_module(unsigned port) const = 0;
    virtual std::string receive_module(unsigned port) const = 0;
};

}  // namespace pcisim
