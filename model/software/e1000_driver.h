// The transmit path of the Linux 2.6.9 e1000 driver, rewritten in C++ against the simulated
// hardware (register accesses through the Cpu, descriptors in host memory).  Function names
// follow the driver's so the two can be read side by side: configure_tx, xmit_frame (with
// tx_map and tx_queue), intr and clean (NAPI), clean_tx_irq, and the variants the 2004 threads
// tried, as options: notxints, txdmac_prefetch, tdt_batching, clean_at_xmit.  The offload path
// (e1000_tso, e1000_tx_csum) follows the skb's offload fields (skb_pool.h): a context
// descriptor when the offsets change, then extended data descriptors.
#pragma once

#include <string>

#include <cstdint>
#include <functional>
#include <vector>

#include "e1000/e1000_regs.h"
#include "platform/kernel_timer.h"
#include "platform/spin_lock.h"
#include "software/e1000_rx_driver.h"
#include "software/port_driver.h"
#include "software/skb_pool.h"

namespace pcisim {

class Cpu;
class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> driver_params();  // driver.*

struct DriverOptions {
    unsigned ring_size = 256;
    bool napi = true;
    unsigned tidv = 64, tadv = 64;       // 1.024 us units (e1000_param.c defaults)
    unsigned itr_per_s = 8000;           // InterruptThrottleRate; 0 = off
    bool notxints = false;               // no IDE/RS, no TXDW; cleanup timer reads TDH
    bool txdmac_prefetch = false;        // write TXDMAC = 0 (packet prefetch on)
    unsigned tdt_batch = 1;              // write TDT every n packets
    bool tdt_from_timer = false;         // write TDT only from the cleanup timer
    unsigned clean_at_xmit = 0;          // clean in xmit when more descriptors are in use
    double cleanup_timer_us = 1000;
    bool copy = false;                   // copy each packet into a static per-descriptor buffer
    bool tso = false;                    // NETIF_F_TSO on (ethtool -K tso): TSO skbs accepted
    bool notxints_clean_locked = true;   // notxints: the cleanup holds tx_lock throughout
    // The copy driver's buffer per descriptor: sized at ring set-up for the largest frame (the
    // MTU's), not a driver.* key: the platform sets it from packet.size.
    std::uint32_t copy_buffer_bytes = 2048;
    // What probe learns from the device (its ID, STATUS.PCIX_MODE), not a driver.* key: an
    // 82544 on a PCI-X bus, which needs the dword-alignment workaround.  The platform sets it.
    bool pcix_82544 = false;
    // Also from the device ID: e1000_init_hw sets TXDCTL to full descriptor write-back
    // (WTHRESH = 1, GRAN = 1) on mac types after the 82544.  The platform sets it.
    bool full_tx_desc_writeback = false;
    bool ignore_ring_space = false;      // testing.driver_ignore_ring_space: fault injection
    // Probe: what the driver learns from the device's PCI device ID (e1000_set_mac_type) and
    // whether it sits on a PCI-X bus (STATUS.PCIX_MODE): pcix_82544, full_tx_desc_writeback.
    void probe(std::uint16_t device_id, bool pcix);
    // The variants that clean up (and announce packets) from a periodic timer.
    bool needs_cleanup_timer() const { return notxints || tdt_from_timer; }
    static DriverOptions from(const ScenarioView& s);
};

class E1000Driver final : public TxDriver {
public:
    static constexpr std::uint32_t kMaxDataPerDescriptor = 4096;  // E1000_MAX_DATA_PER_TXD
    static constexpr std::uint32_t kDescriptorBytes = e1000::kDescriptorBytes;  // of its ring

    // `bar` is the port's register base; the ring lives at `ring_base` in host memory.
    // `static_buffer` (driver.copy) hands out the per-descriptor buffers at ring set-up.
    E1000Driver(const DriverOptions& options, std::uint64_t bar,
                std::uint64_t ring_base, std::function<void(const Skb&)> free_skb,
                std::function<std::uint64_t(std::uint32_t)> static_buffer = {});
    // 2.6.9: at most 4 KB per data descriptor, with TSO at most 4 MSS (the NIC checks FIFO room
    // for ceil(buffer / MSS) segments before it fetches a buffer).
    static std::uint32_t max_data_per_descriptor(std::uint32_t tso_mss);
    // TXD_USE_COUNT: the descriptors xmit_frame reserves for a packet of `len` bytes (one per
    // 4 KB; the 82544 workaround may add one per buffer; one for a context descriptor; with TSO
    // on one for the sentinel, which 2.6.9 counts for every frame).  The scenario check holds it
    // against the NIC's descriptor cache (through the family's entry, e1000_drivers.cpp).
    static unsigned descriptors_needed(const DriverOptions& options, std::uint32_t len,
                                       std::uint32_t tso_mss, bool checksum_offload);

    void configure_tx() override;
    // The port also receives: intr() polls its receive half too (before the simulation).
    void attach_receive(E1000RxDriver* rx) { rx_ = rx; }
    void share_poll_list(std::function<void()> others) override { poll_others_ = std::move(others); }
    // The cleanup timer of the variants that have one (needs_cleanup_timer), which
    // watchdog_timer re-arms where it runs.
    void use_timer(KernelTimer& timer) override { timer_ = &timer; }
    // The thread that sends on the queue may be spinning on another CPU.
    void on_wake(std::function<void()> fn) override { on_wake_ = std::move(fn); }
    TxResult xmit_frame(const Skb& skb) override;
    void intr() override;
    void watchdog_timer() override;
    // See CpuSoftware::quiet: xmit_frame writes descriptors and TDT only and reads
    // device-written memory (DD) only when it cleans (clean_at_xmit), and the driver never
    // unmasks a cause the NIC raises on its own (notxints), so no IMS write of its handlers can
    // still be on its way to the NIC while the CPU runs ahead on the NIC's word that its line
    // stays low.
    bool xmit_is_quiet() const override;
    const DriverOptions& options() const { return options_; }

    using Counters = TxDriverCounters;
    const Counters& counters() const override { return counters_; }
    void reset_counters() override { counters_ = Counters{}; }
    unsigned descriptors_in_use() const override;
    unsigned ring_size() const override { return options_.ring_size; }
    // The packets queued since the last TDT write: in the ring, not yet handed to the NIC.
    std::string held_back() const override;

private:
    struct BufferInfo {
        Skb skb;
        bool owns_skb = false;   // the packet's last descriptor frees its skb
        std::uint64_t dma = 0;
        std::uint32_t length = 0;
        unsigned next_to_watch = 0;
    };
    unsigned desc_unused() const;
    // The offload context the skb needs (a TSO or checksum skb), written as a context
    // descriptor at next_to_use unless the last one written is the same: descriptors used.
    unsigned tx_offload(const Skb& skb);
    unsigned tx_map(const Skb& skb, std::uint32_t max_per_descriptor);
    void tx_queue(unsigned first, unsigned count, const Skb& skb);
    bool clean_tx_irq();                     // by DD bits in host memory
    bool clean_tx_to(unsigned hw_head);      // notxints: by the TDH the timer read
    bool clean_to_head();                    // notxints: read TDH, clean_tx_to it
    void free_descriptor(unsigned i);
    unsigned free_packet(unsigned first, unsigned eop);  // returns the slot after eop
    void write_tdt();
    void finish_clean(bool locked);
    TxResult xmit_locked(const Skb& skb);
    void wake_if_cleaned(bool cleaned);
    std::uint64_t desc_addr(unsigned i) const { return ring_base_ + 16ull * i; }
    // struct e1000_buffer of 2.6.9 on i386: skb, dma, length, time_stamp, next_to_watch.
    static constexpr std::uint32_t kBufferInfoBytes = 24;
    std::uint64_t ring_state_addr() const { return ring_base_ + 16ull * options_.ring_size; }
    std::uint64_t info_addr(unsigned i) const { return ring_state_addr() + 64 + kBufferInfoBytes * i; }
    void copy_to_static(const Skb& skb, std::uint32_t offset, std::uint32_t size, unsigned i);

    void napi_poll();  // e1000_clean with a receive half: until a poll cleans less than a quota

    // The CPU running this code now: the one that called in (an interrupt, a timer and the
    // thread may each be on another CPU).
    static Cpu& cpu();
    E1000RxDriver* rx_ = nullptr;
    std::function<void()> poll_others_;
    KernelTimer* timer_ = nullptr;
    SpinLock tx_lock_;  // adapter->tx_lock, beside next_to_use and next_to_clean
    std::function<void()> on_wake_;
    DriverOptions options_;
    std::uint64_t bar_, ring_base_;
    std::function<void(const Skb&)> free_skb_;
    std::function<std::uint64_t(std::uint32_t)> static_buffer_;
    std::vector<std::uint64_t> copy_buffers_;  // driver.copy: one per descriptor
    std::vector<BufferInfo> buffer_info_;
    unsigned next_to_use_ = 0, next_to_clean_ = 0;
    unsigned tdt_pending_ = 0;               // packets queued since the last TDT write
    std::uint8_t txd_cmd_ = 0;               // RS/IDE/EOP/IFCS on each packet's last descriptor
    std::uint32_t ims_mask_ = 0;
    Counters counters_;
};

}  // namespace pcisim
