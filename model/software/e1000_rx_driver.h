// The receive path of the Linux 2.6.9 e1000 driver, rewritten in C++ against the simulated
// hardware: configure_rx, alloc_rx_buffers (a fresh skb per slot, RDT written every
// driver.rx_rdt_batch buffers: E1000_RX_BUFFER_WRITE, 16, in 2.6.9) and clean_rx_irq (frames
// with DD, at most the NAPI quota per poll).  What becomes of a frame is driver.rx_mode:
//   - drop: the driver frees the skb without reading the data (the 2004 receive measurements);
//   - stack: netif_receive_skb, with cpu.cycles.rx_stack_per_packet for the stack's work;
//   - forward: IP forwarding (cpu.cycles.rx_forward_per_packet) hands the skb to the transmit
//     half of the NIC's other port, whose clean_tx_irq frees it; when that port's queue is
//     stopped the frame is dropped (no qdisc queue is modelled).
// The transmit half (e1000_driver.h) calls poll() from its NAPI handler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "software/port_driver.h"
#include "software/skb_pool.h"

namespace pcisim {

class Cpu;
class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> rx_driver_params();  // driver.rx_*

enum class RxMode { Drop, Stack, Forward };

struct RxDriverOptions {
    unsigned ring_size = 256;     // RxDescriptors
    unsigned rdt_batch = 16;      // E1000_RX_BUFFER_WRITE
    RxMode mode = RxMode::Drop;   // driver.rx_mode
    unsigned rdtr = 0, radv = 128;  // RxIntDelay, RxAbsIntDelay (1.024 us units)
    unsigned napi_weight = 64;    // netdev->weight: frames per poll
    std::uint32_t buffer_bytes = 2048;  // rx_buffer_len for a 1500-byte MTU
    bool no_refill = false;       // testing.rx_driver_no_refill: the ring is filled once only
    static RxDriverOptions from(const ScenarioView& s);
};

class E1000RxDriver final : public RxDriver {
public:
    // `bar` is the port's register base; the ring lives at `ring_base`; buffers come from `skbs`.
    E1000RxDriver(const RxDriverOptions& options, std::uint64_t bar,
                  std::uint64_t ring_base, SkbPool& skbs);

    void forward_to(TxDriver* tx) override { forward_ = tx; }
    const TxDriver* forward_target() const override { return forward_; }

    void configure_rx() override;
    // clean_rx_irq and the refill: at most `quota` frames; returns the frames cleaned.
    unsigned poll(unsigned quota);
    const RxDriverOptions& options() const { return options_; }
    unsigned ring_size() const override { return options_.ring_size; }

    using Counters = RxDriverCounters;
    const Counters& counters() const override { return counters_; }
    void reset_counters() override { counters_ = Counters{}; }
    std::uint64_t forwarded_since_start() const override { return forwarded_since_start_; }

private:
    void alloc_rx_buffers();
    void charge(double cycles);
    void free_skb(unsigned slot);
    void forward(unsigned slot, std::uint32_t length);
    void trace_cleaned(unsigned slot, std::uint32_t length);
    std::uint64_t desc_addr(unsigned i) const { return ring_base_ + 16ull * i; }

    // The CPU running this code now: the one that called in (an interrupt, a timer and the
    // thread may each be on another CPU).
    static Cpu& cpu();
    RxDriverOptions options_;
    std::uint64_t bar_, ring_base_;
    SkbPool& skbs_;
    std::vector<Skb> buffers_;       // the skb of each ring slot
    std::vector<bool> has_buffer_;
    unsigned next_to_use_ = 0, next_to_clean_ = 0;
    TxDriver* forward_ = nullptr;
    Counters counters_;
    std::uint64_t forwarded_since_start_ = 0;
};

}  // namespace pcisim
