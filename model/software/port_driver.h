// What the harness asks of a port's driver, whichever NIC family it drives: the transmit half
// (TxDriver: what pktgen, the TCP sender, forwarding, the platform, the simulation and the
// results use) and the receive half (RxDriver), with the counters the results report.  The
// e1000's (e1000_driver.h, e1000_rx_driver.h) implement them; a family's entry (PortDrivers)
// makes them for a port and checks a scenario's traffic against its NIC and driver.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "software/skb_pool.h"

namespace pcisim {

class KernelTimer;
class NicSpec;
struct DriverOptions;
struct RxDriverOptions;
struct PktgenOptions;
struct TcpStreamOptions;

struct TxDriverCounters {
    std::uint64_t queued = 0, cleaned = 0, busy = 0, stops = 0, wakes = 0, tdt_writes = 0,
                  descriptors = 0, context_descriptors = 0;
};

class RxDriver;

class TxDriver {
public:
    virtual ~TxDriver() = default;

    virtual void configure_tx() = 0;        // probe/open: registers, ring, interrupts
    enum class TxResult { Ok, Busy };
    virtual TxResult xmit_frame(const Skb& skb) = 0;  // hard_start_xmit
    virtual void intr() = 0;                // the interrupt handler (+ NAPI poll)
    virtual void watchdog_timer() = 0;      // the periodic cleanup timer of the variants
    // The device's transmit queue (netif_queue_stopped): the net device's state, which the
    // driver stops and wakes (netif_stop_queue, netif_wake_queue).  Asked before every packet,
    // so a plain flag rather than a virtual call.
    bool queue_stopped() const { return queue_stopped_; }
    // Whether xmit_frame reads nothing the NIC writes and unmasks nothing (CpuSoftware::quiet).
    virtual bool xmit_is_quiet() const = 0;

    // Its ring: descriptors in use of ring_size(), and for the watchdog what it holds back
    // from the NIC ("N of its frames are in the ring without a TDT write (...)").
    virtual unsigned descriptors_in_use() const = 0;
    virtual unsigned ring_size() const = 0;
    virtual std::string held_back() const = 0;
    virtual const TxDriverCounters& counters() const = 0;
    virtual void reset_counters() = 0;

    // Wiring by the platform.  The CPU's other ports on the poll list, run between two whole
    // quotas of this port's NAPI poll; the cleanup timer of the variants that have one; what
    // to call when the queue wakes (netif_wake_queue), on the CPU that woke it.
    virtual void share_poll_list(std::function<void()> others) = 0;
    virtual void use_timer(KernelTimer& timer) = 0;
    virtual void on_wake(std::function<void()> fn) = 0;

protected:
    bool queue_stopped_ = false;
};

struct RxDriverCounters {
    std::uint64_t received = 0;   // frames cleaned (DD seen)
    std::uint64_t dropped = 0;    // of those, dropped in the driver (rx_mode drop)
    std::uint64_t to_stack = 0;   // of those, handed to the stack
    std::uint64_t forwarded = 0;  // of those, queued on the other port's transmit ring
    std::uint64_t forward_dropped = 0;  // of those, dropped: that port's queue was stopped
    std::uint64_t rdt_writes = 0;
    std::uint64_t polls = 0;
    double cycles = 0;            // CPU cycles of the receive path
};

class RxDriver {
public:
    virtual ~RxDriver() = default;

    virtual void configure_rx() = 0;  // ring, buffers, interrupt delays, receive enable
    // rx_mode forward: the transmit half the frames go out of.
    virtual void forward_to(TxDriver* tx) = 0;
    virtual const TxDriver* forward_target() const = 0;
    virtual unsigned ring_size() const = 0;
    virtual const RxDriverCounters& counters() const = 0;
    virtual void reset_counters() = 0;
    // Frames queued on the forwarding port's ring since time zero (not reset with the counters).
    virtual std::uint64_t forwarded_since_start() const = 0;
};

// One NIC's traffic, as the checks before a run see it: the NIC, its driver's options, the key
// its parameter `name` is set by ("nic.NAME" or "nics[n].NAME"), and what is sent to it (a wire
// source's frames when it receives) and from it (a TCP stream, or pktgen's packets: null when
// not).
struct NicTraffic {
    const NicSpec& nic;
    const DriverOptions& driver;
    std::function<std::string(const std::string& name)> key;
    bool receives;
    std::uint32_t wire_size;
    const TcpStreamOptions* tcp;
    const PktgenOptions* pktgen;
};

// A NIC family's drivers as the harness builds them (listed beside the family in
// run/nic_families.cpp): the options for one NIC (what probe learns from its device ID, on a
// PCI-X segment or not, and the copy buffers sized for frames of `largest_frame` bytes), the
// transmit half of a port (its registers at `bar`, its ring at `ring_base`; `free_skb` is the
// workload's dev_kfree_skb, `static_buffer` carves the copy driver's buffers), the receive half
// beside it, the descriptors one packet takes (TXD_USE_COUNT), and the checks of a NIC's
// traffic against the NIC's buffers and descriptor cache.  Its ring's layout in host memory
// (what the scenario check holds host.memory_mib against): the bytes of one transmit
// descriptor, and the most data one descriptor carries (so a packet takes at least
// size / that many; the copy driver's buffers are at most that).
struct PortDrivers {
    std::uint32_t descriptor_bytes;
    std::uint32_t max_data_per_descriptor;
    DriverOptions (*options_for)(const DriverOptions& keys, const NicSpec& nic, bool pcix,
                                 std::uint32_t largest_frame_buffer);
    std::unique_ptr<TxDriver> (*make_tx)(const DriverOptions& options, std::uint64_t bar,
                                         std::uint64_t ring_base,
                                         std::function<void(const Skb&)> free_skb,
                                         std::function<std::uint64_t(std::uint32_t)> static_buffer);
    std::unique_ptr<RxDriver> (*make_rx)(TxDriver& tx, const RxDriverOptions& options,
                                         std::uint64_t bar, std::uint64_t ring_base,
                                         SkbPool& skbs);
    unsigned (*descriptors_needed)(const DriverOptions& options, std::uint32_t len,
                                   std::uint32_t tso_mss, bool checksum_offload);
    void (*check)(const NicTraffic& traffic, std::vector<std::string>& problems);
};

}  // namespace pcisim
