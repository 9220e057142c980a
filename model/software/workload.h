// What a transmitting port's CPU runs above the port's driver: pktgen (pktgen.h) or a bulk TCP
// sender (tcp_sender.h), peers behind this one interface, so that the port, the simulation and
// the results ask the workload and never which one it is.  A new workload is a class that
// implements it and one line where Platform makes a port's workload (make_workload in
// run/platform.cpp).
//
// Each entry point is a piece of kernel code of its own: the process-context loop (run_once,
// has_work, quiet), the device's interrupt handler with its softirq (interrupt), the driver's
// timer (timer), and the skb free the driver calls when it cleans a descriptor (free_skb).
// Today the port's CPU runs them all; keeping them apart lets each be placed on a CPU of its
// own (the interrupt on the CPU of its line's affinity, the timer on the CPU that armed it, the
// free wherever the cleaning runs).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/pci_types.h"
#include "software/skb_pool.h"

namespace pcisim {

class Workload {
public:
    virtual ~Workload() = default;

    virtual const char* name() const = 0;  // in diagnostics: "pktgen", "tcp sender"
    virtual bool has_work() const = 0;     // false while blocked (queue stopped, count reached)
    virtual void run_once() = 0;           // one step of the process-context loop
    virtual void interrupt() = 0;          // the port's interrupt handler and its softirq
    virtual void timer() = 0;              // the driver's periodic timer
    virtual void free_skb(const Skb& skb) = 0;  // the driver's dev_kfree_skb
    // Whether the next run_once is quiet in the sense of CpuSoftware::quiet().
    virtual bool quiet() const = 0;

    // Called with the CPU's time of each frame's hard_start_xmit the driver accepted (once per
    // frame the packet becomes on the wire): what per-packet latencies start from.
    virtual void on_xmit(std::function<void(Picos)> fn) = 0;
    // Frames that are to leave the wire for what the driver accepted, the bytes of a full one
    // (FIFO room and the wire limit), and how many frames one descriptor's packet may become.
    virtual std::uint64_t frames_queued() const = 0;
    virtual std::uint32_t frame_bytes() const = 0;
    virtual std::uint32_t frames_per_packet() const { return 1; }
    // Its steady state keeps the TX ring full, so a warm-up waits for the queue to stop once.
    virtual bool fills_ring() const = 0;
    // Each frame carries a sequence number the MAC side can check for order (else the
    // workload's own receiver checks it).
    virtual bool numbers_frames() const = 0;
    // Its far end must see each frame when it leaves and answers by interrupt (ACKs): the wire
    // may not be kept lazily nor the CPU run ahead.
    virtual bool answers_frames() const { return false; }
    // Such a far end's look at each frame as its last byte leaves the port (`when`).
    virtual void frame_left(const std::uint8_t* /*frame*/, unsigned /*len*/, Picos /*when*/) {}
    // It waits for answers to frames it sent (a TCP stream's data in flight until its ACKs):
    // the wire owes it progress even when it has nothing to send.  What it waits for, for the
    // watchdog's diagnostic ("": nothing beyond the driver's queue).
    virtual bool awaits_answers() const { return false; }
    virtual std::string waiting_for() const { return ""; }
    // It stops once it has queued what it was asked for (pktgen.count); a stream never does.
    virtual bool finishes() const { return true; }
    // Why its far end's share of the window measures no rate it sustains, given the port's wire
    // limit in frames of frame_bytes() per second ("": it does; a TCP stream's goodput above
    // the payload the link carries is the window's edges showing through).
    virtual std::string unmeasured(double /*window_s*/, double /*wire_limit_pps*/) const { return ""; }
    // The measurement window opens: its counters start from zero.
    virtual void reset_counters() {}
};

}  // namespace pcisim
