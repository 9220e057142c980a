#include "software/e1000_rx_driver.h"

#include "core/trace_hooks.h"
#include "e1000/e1000_regs.h"
#include "e1000/e1000_rx_port.h"
#include "platform/cpu.h"
#include "platform/host_memory.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "software/e1000_driver.h"

namespace pcisim {

using namespace e1000;

std::vector<ParamSpec> rx_driver_params() {
    return {
        integer("driver.rx_ring_size", "descriptors", 256, 80, 4096,
                "RX descriptors in the ring (RxDescriptors); a multiple of 8."),
        integer("driver.rx_rdt_batch", "buffers", 16, 1, 4096,
                "alloc_rx_buffers writes RDT when the slot it filled is a multiple of this "
                "(E1000_RX_BUFFER_WRITE, 16 in 2.6.9)."),
        choice("driver.rx_mode", "drop", {"drop", "stack", "forward"},
               "drop: the driver frees each received skb without touching its data; stack: "
               "hands it to the stack (cpu.cycles.rx_stack_per_packet); forward: IP "
               "forwarding (cpu.cycles.rx_forward_per_packet) transmits it on the NIC's other "
               "port (port 0 to 1, 1 to 0), dropped when that port's queue is stopped."),
        integer("driver.rdtr", "1.024 us", 0, 0, 65535,
                "RDTR, RX interrupt delay (RxIntDelay); 0 = RXT0 at each write-back."),
        integer("driver.radv", "1.024 us", 128, 0, 65535,
                "RADV, RX absolute interrupt delay (RxAbsIntDelay); applies when RDTR is set."),
        integer("driver.napi_weight", "frames", 64, 1, 1024,
                "Frames cleaned per NAPI poll (netdev->weight); the poll repeats while a "
                "whole quota was cleaned, after the CPU's other ports with an interrupt "
                "pending (the poll list)."),
        one_of_integers("driver.rx_buffer_bytes", "B", 2048, {2048, 4096, 8192, 16384},
                        "Receive buffer size (rx_buffer_len, RCTL.BSIZE)."),
    };
}

RxDriverOptions RxDriverOptions::from(const ScenarioView& s) {
    RxDriverOptions o;
    o.ring_size = static_cast<unsigned>(s.integer("driver.rx_ring_size"));
    o.rdt_batch = static_cast<unsigned>(s.integer("driver.rx_rdt_batch"));
    const std::string mode = s.text("driver.rx_mode");
    o.mode = mode == "stack" ? RxMode::Stack : mode == "forward" ? RxMode::Forward : RxMode::Drop;
    o.rdtr = static_cast<unsigned>(s.integer("driver.rdtr"));
    o.radv = static_cast<unsigned>(s.integer("driver.radv"));
    o.napi_weight = static_cast<unsigned>(s.integer("driver.napi_weight"));
    o.buffer_bytes = static_cast<std::uint32_t>(s.integer("driver.rx_buffer_bytes"));
    o.no_refill = s.boolean("testing.rx_driver_no_refill");
    return o;
}

Cpu& E1000RxDriver::cpu() { return Cpu::current(); }

E1000RxDriver::E1000RxDriver(const RxDriverOptions& options, std::uint64_t bar,
                             std::uint64_t ring_base, SkbPool& skbs)
    : options_(options), bar_(bar), ring_base_(ring_base), skbs_(skbs),
      buffers_(options.ring_size), has_buffer_(options.ring_size, false) {}

void E1000RxDriver::charge(double cycles) {
    cpu().charge(cycles);
    counters_.cycles += cycles;
}

// 2.6.9 configure_rx: receiver off while the ring is set up, RDTR/RADV, ring registers with
// RDH = RDT = 0, then the buffers (which move RDT), then RCTL.EN (with RDMTS 1/2, the reset's).
void E1000RxDriver::configure_rx() {
    HostMemory& mem = cpu().memory();
    std::vector<std::uint8_t> zero(16ull * options_.ring_size, 0);
    mem.write(ring_base_, zero.data(), zero.size());
    cpu().mmio_write(bar_ + kRctl, 0);
    cpu().mmio_write(bar_ + kRdtr, options_.rdtr);
    cpu().mmio_write(bar_ + kRadv, options_.radv);
    cpu().mmio_write(bar_ + kRdbal, static_cast<std::uint32_t>(ring_base_));
    cpu().mmio_write(bar_ + kRdbah, static_cast<std::uint32_t>(ring_base_ >> 32));
    cpu().mmio_write(bar_ + kRdlen, 16 * options_.ring_size);
    cpu().mmio_write(bar_ + kRdh, 0);
    cpu().mmio_write(bar_ + kRdt, 0);
    alloc_rx_buffers();
    cpu().mmio_write(bar_ + kRctl, kRctlEn);
}

// Every empty slot from next_to_use on gets a fresh skb and its descriptor the buffer address;
// RDT moves to a slot when that slot is a multiple of rdt_batch (the descriptors before it are
// handed over), as 2.6.9 does to save register writes.
void E1000RxDriver::alloc_rx_buffers() {
    const CpuCosts& c = cpu().costs();
    HostMemory& mem = cpu().memory();
    unsigned i = next_to_use_;
    while (!has_buffer_[i]) {
        charge(c.skb_alloc_cycles + c.rx_refill_per_buffer_cycles);
        // dev_alloc_skb(rx_buffer_len + NET_IP_ALIGN): alloc_skb of 16 bytes more.
        buffers_[i] = skbs_.allocate(options_.buffer_bytes + 2 + 16,
                                     options_.buffer_bytes - SkbPool::kHeadroom, &cpu(), cpu().node());
        has_buffer_[i] = true;
        RxDescriptor d{};
        d.buffer_addr = buffers_[i].data;
        mem.write(desc_addr(i), &d, sizeof d);
        if (i % options_.rdt_batch == 0) {
            cpu().mmio_write(bar_ + kRdt, i);
            ++counters_.rdt_writes;
        }
        if (++i == options_.ring_size) i = 0;
    }
    next_to_use_ = i;
}

// clean_rx_irq: frames in ring order while DD is set, at most `quota`; each frame's skb is freed
// (drop) or handed to the stack, the descriptor's status cleared, then the ring is refilled.
unsigned E1000RxDriver::poll(unsigned quota) {
    const CpuCosts& c = cpu().costs();
    HostMemory& mem = cpu().memory();
    ++counters_.polls;
    trace::emit(TraceStep::RxClean, TracePhase::Begin, cpu().name(), cpu().now());
    unsigned done = 0;
    unsigned i = next_to_clean_;
    while (done < quota) {
        RxDescriptor d;
        mem.read(desc_addr(i), &d, sizeof d);
        if (!(d.status & kRxStaDd)) break;
        if (trace::sink) trace_cleaned(i, d.length);
        charge(c.clean_rx_per_packet_cycles);
        switch (options_.mode) {
        case RxMode::Drop:
            ++counters_.dropped;
            free_skb(i);
            break;
        case RxMode::Stack:
            charge(c.rx_stack_per_packet_cycles);
            ++counters_.to_stack;
            free_skb(i);
            break;
        case RxMode::Forward:
            forward(i, d.length);
            break;
        }
        has_buffer_[i] = false;
        d.status = 0;
        mem.write(desc_addr(i), &d, sizeof d);
        ++counters_.received;
        ++done;
        if (++i == options_.ring_size) i = 0;
    }
    next_to_clean_ = i;
    trace::emit(TraceStep::RxClean, TracePhase::End, cpu().name(), cpu().now());
    trace::emit(TraceStep::RxRefill, TracePhase::Begin, cpu().name(), cpu().now());
    if (!options_.no_refill) alloc_rx_buffers();  // fault injection: a ring run dry
    trace::emit(TraceStep::RxRefill, TracePhase::End, cpu().name(), cpu().now());
    return done;
}

// The frame's number for a trace, from where the wire source put it in the payload (a look at
// the model's memory that costs the simulated CPU nothing: drop mode never reads the data).
void E1000RxDriver::trace_cleaned(unsigned slot, std::uint32_t length) {
    constexpr unsigned kSeqOffset = RxPort::kSeqOffset;
    std::int64_t seq = -1;
    if (length >= kSeqOffset + 4) {
        std::uint32_t v = 0;
        cpu().memory().read(buffers_[slot].data + kSeqOffset, &v, sizeof v);
        seq = v;
    }
    trace::emit(TraceStep::RxFrameCleaned, TracePhase::Instant, cpu().name(), cpu().now(), 0, seq, length);
}

void E1000RxDriver::free_skb(unsigned slot) {
    charge(cpu().costs().skb_free_cycles);
    skbs_.release(buffers_[slot], &cpu());
}

// ip_forward: the frame, without its FCS (clean_rx_irq's skb_put of length - 4), goes out of
// the other port, whose clean_tx_irq frees the skb once sent.  A stopped queue would hold it in
// the qdisc; with no qdisc modelled it is dropped, as a full txqueuelen would.
void E1000RxDriver::forward(unsigned slot, std::uint32_t length) {
    charge(cpu().costs().rx_forward_per_packet_cycles);
    Skb skb = buffers_[slot];
    skb.len = length - 4;
    if (!forward_->queue_stopped() && forward_->xmit_frame(skb) == TxDriver::TxResult::Ok) {
        ++counters_.forwarded;
        ++forwarded_since_start_;
        return;
    }
    ++counters_.forward_dropped;
    free_skb(slot);
}

}  // namespace pcisim
