// The kernel packet generator (Linux 2.6.9 pktgen) as the CPU's process-context work: build or
// reuse an skb, hand it to the driver's hard_start_xmit, count it; spin while the queue is
// stopped.  The frame carries pktgen's header (magic, sequence number) so the MAC side can
// check that every packet leaves once and in order.
#pragma once

#include <vector>

#include <string>

#include <cstdint>
#include <functional>

#include "platform/cpu.h"
#include "software/port_driver.h"
#include "software/skb_pool.h"
#include "software/workload.h"

namespace pcisim {

class ScenarioView;
struct ParamSpec;

// This module's scenario keys (unit, default, range, meaning), collected by run/schema.cpp.
std::vector<ParamSpec> pktgen_params();  // pktgen.*

struct PktgenOptions {
    std::uint32_t size = 60;        // pkt_size: the frame without FCS
    std::uint64_t count = 0;        // 0 = no end
    std::uint64_t clone_skb = 0;    // 0 = a fresh skb per packet
    Picos ipg = 0;                  // pktgen's inter-packet delay
    Picos timestamp = 0;            // CPU time to stamp each new packet (do_gettimeofday)
    bool enabled = true;            // false: the CPU only sets the NIC up
    unsigned ports = 1;             // ports transmitting at once (per NIC)
    unsigned cpus = 0;              // CPUs running pktgen; 0 = one per port
    static PktgenOptions from(const ScenarioView& s);
};

// Where pktgen's header sits in the frame: after Ethernet (14), IPv4 (20) and UDP (8).
constexpr unsigned kPktgenMagicOffset = 42;
constexpr unsigned kPktgenSeqOffset = 46;
constexpr std::uint32_t kPktgenMagic = 0xbe9be955;
// The bytes fill_packet writes: those headers and pktgen's own (magic, sequence number,
// timestamp: 16 bytes with a 32-bit kernel's struct timeval, 24 with a 64-bit one's). The
// 2004 pktgen only skb_put()s the rest of the payload, leaving it as the slab had it (the
// memset of the payload came to pktgen years later).
constexpr unsigned kPktgenWrittenBytes = kPktgenMagicOffset + 16;
// fill_packet asks alloc_skb for the frame and 64 + 16 bytes more (2.6.9 net/core/pktgen.c).
constexpr unsigned kPktgenAllocSlack = 64 + 16;

class Pktgen : public Workload {
public:
    Pktgen(TxDriver& driver, SkbPool& pool, const PktgenOptions& options);

    const char* name() const override { return "pktgen"; }
    bool has_work() const override;
    void run_once() override;
    void interrupt() override { driver_.intr(); }
    void timer() override { driver_.watchdog_timer(); }
    void free_skb(const Skb& skb) override;
    bool quiet() const override { return driver_.xmit_is_quiet(); }
    void on_xmit(std::function<void(Picos)> fn) override { on_xmit_ = std::move(fn); }
    std::uint64_t frames_queued() const override { return sent_; }
    std::uint32_t frame_bytes() const override { return options_.size; }  // FIFO room one packet takes
    bool fills_ring() const override { return true; }
    // Each packet has its own buffer only without clone_skb; clones repeat a number.
    bool numbers_frames() const override { return options_.clone_skb == 0; }

    std::uint64_t sent() const { return sent_; }

private:
    Skb fill_packet();
    void release(const Skb& skb);
    void charge_slab_batches(std::uint64_t before);  // the batches since `before`

    // The CPU running this code now: the one that called in (an interrupt, a timer and the
    // thread may each be on another CPU).
    static Cpu& cpu();
    TxDriver& driver_;
    SkbPool& pool_;
    PktgenOptions options_;
    Skb skb_;
    bool have_skb_ = false;
    std::uint64_t clone_uses_ = 0;
    std::uint64_t sent_ = 0;
    std::uint32_t seq_ = 0;
    Picos next_send_ = 0;
    std::function<void(Picos)> on_xmit_;
};

}  // namespace pcisim
