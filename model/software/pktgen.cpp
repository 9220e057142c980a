#include "software/pktgen.h"

#include <algorithm>
#include <cstring>

#include "platform/host_memory.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"

namespace pcisim {

std::vector<ParamSpec> pktgen_params() {
    return {
        integer("packet.size", "bytes", 60, 60, 9000,
                "pktgen pkt_size: the frame without the 4-byte FCS (60 = minimum frame)."),
        integer("pktgen.count", "packets", 0, 0, 1LL << 40, "Packets to send; 0 = no end."),
        integer("pktgen.clone_skb", "packets", 0, 0, 1LL << 40,
                "Send the same skb this many times before building a new one; 0 = a fresh "
                "skb (allocation, new buffer, headers written by the CPU) for every packet."),
        number("pktgen.ipg_ns", "ns", 0, 0, 1e9, "pktgen's inter-packet delay."),
        number("pktgen.timestamp_ns", "ns", 0, 0, 100000,
               "CPU time fill_packet spends on the timestamp it writes into each new packet "
               "(do_gettimeofday; not repeated for clones): the kernel's clock source read, "
               "about 0.05-0.2 us from the TSC, 0.5-2 us from the ACPI PM timer (port reads "
               "through the south bridge). Platform dependent: set by the presets."),
        boolean("pktgen.enabled", true,
                "false: the CPU only sets the NIC up and sends nothing (preloaded FIFO runs)."),
        integer("pktgen.ports", "ports", 1, 1, 2,
                "Ports transmitting at once on the NIC, or on each NIC of nics[] that sets no "
                "ports of its own (2 needs a dual-port NIC)."),
        integer("pktgen.cpus", "CPUs", 0, 0, 16,
                "CPUs running pktgen threads: the transmitting ports, in the order of the NICs "
                "and their ports, are dealt to them in turn (nics[].cpu binds a NIC's ports to "
                "one), and a CPU with several ports takes them in turn like pktgen's thread "
                "looping over its devices; 0 = one CPU per port."),
    };
}

PktgenOptions PktgenOptions::from(const ScenarioView& s) {
    PktgenOptions o;
    o.size = static_cast<std::uint32_t>(s.integer("packet.size"));
    o.count = static_cast<std::uint64_t>(s.integer("pktgen.count"));
    o.clone_skb = static_cast<std::uint64_t>(s.integer("pktgen.clone_skb"));
    o.ipg = ns_to_ps(s.number("pktgen.ipg_ns"));
    o.timestamp = ns_to_ps(s.number("pktgen.timestamp_ns"));
    o.enabled = s.boolean("pktgen.enabled");
    o.ports = static_cast<unsigned>(s.integer("pktgen.ports"));
    o.cpus = static_cast<unsigned>(s.integer("pktgen.cpus"));
    return o;
}

Cpu& Pktgen::cpu() { return Cpu::current(); }

Pktgen::Pktgen(TxDriver& driver, SkbPool& pool, const PktgenOptions& options)
    : driver_(driver), pool_(pool), options_(options) {}

bool Pktgen::has_work() const {
    return !driver_.queue_stopped() && (options_.count == 0 || sent_ < options_.count);
}

void Pktgen::charge_slab_batches(std::uint64_t before) {
    std::uint64_t batches = pool_.slab_batches() - before;
    if (!batches) return;
    cpu().count_slab_batches(batches);
    cpu().charge(batches * cpu().costs().slab_batch_cycles);
}

Skb Pktgen::fill_packet() {
    const CpuCosts& c = cpu().costs();
    cpu().charge(c.skb_alloc_cycles + c.skb_fill_cycles_per_byte * options_.size);
    // pktgen stamps every packet it builds with do_gettimeofday (clones repeat the stamp).
    if (options_.timestamp) cpu().charge(options_.timestamp / 1e6 * c.clock_mhz);
    std::uint64_t batches = pool_.slab_batches();
    std::uint32_t zeroed = 0;
    Skb skb = pool_.allocate(options_.size + kPktgenAllocSlack, options_.size, &cpu(),
                             cpu().node(), &zeroed);
    charge_slab_batches(batches);
    // alloc_skb clears the sk_buff and sets up its skb_shared_info; pktgen writes the headers.
    // The CPU does not touch the rest of the payload, so a DMA read finds only the headers'
    // lines modified in its cache. (The simulated memory gets zeros there, so every run sends
    // the same frames.)
    cpu().touch(skb.meta, SkbPool::kSkbStructBytes, true, LineUse::SkbHead);
    cpu().touch(skb.shinfo, 16, true, LineUse::SkbData);
    cpu().touch(skb.data, std::min<std::uint32_t>(skb.len, kPktgenWrittenBytes), true,
                LineUse::SkbData);
    std::uint8_t* frame = cpu().memory().span(skb.data, skb.len);
    // A new buffer, or one that held pktgen's frame since its last allocation, is zero already
    // but for the stamp written below: zeroing it (up to 24 cold lines a frame, the first
    // touch of fresh pages) would change no byte.
    if (zeroed < skb.len) std::memset(frame, 0, skb.len);
    std::memcpy(frame + kPktgenMagicOffset, &kPktgenMagic, sizeof kPktgenMagic);
    // The sequence number of the first packet sent from this skb (clones repeat it).
    std::memcpy(frame + kPktgenSeqOffset, &seq_, sizeof seq_);
    pool_.mark_zeroed(skb, std::max(zeroed, skb.len));
    return skb;
}

void Pktgen::run_once() {
    const CpuCosts& c = cpu().costs();
    if (options_.ipg && cpu().now() < next_send_)
        cpu().charge((next_send_ - cpu().now()) / 1e6 * c.clock_mhz);
    cpu().charge(c.pktgen_loop_cycles);
    if (!have_skb_ || options_.clone_skb == 0 || clone_uses_ >= options_.clone_skb) {
        if (have_skb_) release(skb_);  // pktgen's own reference
        skb_ = fill_packet();
        have_skb_ = true;
        clone_uses_ = 0;
    }
    pool_.hold(skb_);  // the driver's reference (atomic_inc of skb->users), dropped at clean
    cpu().touch(skb_.refcount_line(), 4, true, LineUse::SkbRefcount);
    cpu().locked_instruction();
    Picos xmit = cpu().now();
    if (driver_.xmit_frame(skb_) == TxDriver::TxResult::Busy) {
        pool_.release(skb_, &cpu());  // never the last user: pktgen still holds it
        cpu().locked_instruction();   // atomic_dec of skb->users
        return;  // retried when the queue wakes
    }
    if (on_xmit_) on_xmit_(xmit);
    ++seq_;
    ++sent_;
    ++clone_uses_;
    next_send_ = cpu().now() + options_.ipg;
}

// kfree_skb: drop a reference (skb->users); the last one frees the buffer and the sk_buff into
// this CPU's slab arrays.
void Pktgen::release(const Skb& skb) {
    cpu().touch(skb.refcount_line(), 4, true, LineUse::SkbRefcount);
    // kfree_skb reads skb->users; only a buffer others still use takes atomic_dec_and_test.
    const bool last = pool_.users(skb) == 1;
    if (!last) cpu().locked_instruction();
    std::uint64_t batches = pool_.slab_batches();
    if (last) {
        // __kfree_skb: the dst and the destructor, skb->cloned, then skb_release_data's look at
        // the shared info (dataref, nr_frags, frag_list) before the buffer goes.
        cpu().touch(skb.head_line(), 8, false, LineUse::SkbHead);
        cpu().touch(skb.len_line(), 8, false, LineUse::SkbHead);
        cpu().touch(skb.shinfo, 16, false, LineUse::SkbData);
    }
    pool_.release(skb, &cpu());
    charge_slab_batches(batches);
}

void Pktgen::free_skb(const Skb& skb) {
    release(skb);
    // The driver's dev_kfree_skb; the buffer really goes back to the slab only at the last user.
    if (options_.clone_skb == 0) cpu().charge(cpu().costs().skb_free_cycles);
}

}  // namespace pcisim
