#include "software/e1000_driver.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "platform/cpu.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_regs.h"
#include "platform/host_memory.h"
#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/inet_checksum.h"
#include "core/sim_time.h"

namespace pcisim {

using namespace e1000;

namespace {
// IMS_ENABLE_MASK of 2.6.9: RXT0 | TXDW | RXDMT0 | RXSEQ | LSC.
constexpr std::uint32_t kRxt0 = 1u << 7, kRxdmt0 = 1u << 4, kRxseq = 1u << 3;
constexpr std::uint32_t kTctlPsp = 1u << 3;
constexpr std::uint32_t kTipgDefault = 8 | (8 << 10) | (6 << 20);  // IPGT 8, IPGR1 8, IPGR2 6

using inet::put16;
}  // namespace

std::vector<ParamSpec> driver_params() {
    return {
        integer("driver.ring_size", "descriptors", 256, 80, 4096,
                "TX descriptors in the ring (TxDescriptors); a multiple of 8."),
        boolean("driver.napi", true, "NAPI: the interrupt masks itself and cleanup runs in "
                                     "the poll routine, which re-enables interrupts."),
        integer("driver.tidv", "1.024 us", 64, 0, 65535, "TIDV, TX interrupt delay (TxIntDelay)."),
        integer("driver.tadv", "1.024 us", 64, 0, 65535,
                "TADV, TX absolute interrupt delay (TxAbsIntDelay)."),
        integer("driver.itr_per_s", "interrupts/s", 8000, 0, 100000,
                "InterruptThrottleRate; written to ITR as 1e9/(rate*256); 0 = no throttling."),
        boolean("driver.notxints", false,
                "No TX interrupts: no IDE/RS on descriptors (no write-backs), TXDW not "
                "enabled, a cleanup timer reads TDH and frees up to it."),
        boolean("driver.txdmac_prefetch", false,
                "Write TXDMAC = 0 at configure time: the NIC's packet prefetch on."),
        integer("driver.tdt_batch", "packets", 1, 1, 4096,
                "Write TDT once every this many packets (and when the queue stops)."),
        boolean("driver.tdt_from_timer", false,
                "Write TDT only from the cleanup timer (and when the queue stops)."),
        integer("driver.clean_at_xmit", "descriptors", 0, 0, 4096,
                "Clean the ring inside xmit when more than this many descriptors are in use; "
                "0 = never."),
        number("driver.cleanup_timer_us", "us", 1000, 10, 1e6,
               "Period of the cleanup timer of notxints / tdt_from_timer."),
        boolean("driver.copy", false,
                "The copy driver of the 2004 threads: one static buffer per descriptor, "
                "allocated at ring set-up (2 KiB, or the next power of two above the frame, "
                "at most 4 KiB); tx_map copies the packet into it (cpu.cycles.copy_per_byte) "
                "and the NIC reads that buffer; skbs are freed at cleanup as in stock."),
        boolean("driver.notxints_clean_locked", true,
                "notxints: the cleanup (from the timer, or from xmit when the ring runs low) holds "
                "tx_lock while it reads TDH and cleans, so a CPU sending meanwhile spins on it. "
                "The patch's text is not public; the Opteron's SMP measurements pin it (two CPUs "
                "slower than one: docs/smp.md). false: the lock only around the queue's wake, "
                "as 2.6.9's e1000_clean_tx_irq. Only an SMP kernel has the lock."),
        boolean("driver.tso", false,
                "TCP segmentation offload on (ethtool -K tso on): the stack may hand the driver "
                "TSO frames, which it sends with a context descriptor and TSE data descriptors; "
                "every frame reserves one descriptor more for the TSO sentinel."),
    };
}

void DriverOptions::probe(std::uint16_t device_id, bool pcix) {
    const e1000::ModelTraits& part = e1000::ModelTraits::of_device(device_id);
    // The PCI-X erratum's workaround applies on a PCI-X bus only.
    pcix_82544 = part.pcix_dword_erratum && pcix;
    full_tx_desc_writeback = part.full_tx_desc_writeback;
}

DriverOptions DriverOptions::from(const ScenarioView& s) {
    DriverOptions o;
    o.ring_size = static_cast<unsigned>(s.integer("driver.ring_size"));
    o.napi = s.boolean("driver.napi");
    o.tidv = static_cast<unsigned>(s.integer("driver.tidv"));
    o.tadv = static_cast<unsigned>(s.integer("driver.tadv"));
    o.itr_per_s = static_cast<unsigned>(s.integer("driver.itr_per_s"));
    o.notxints = s.boolean("driver.notxints");
    o.txdmac_prefetch = s.boolean("driver.txdmac_prefetch");
    o.tdt_batch = static_cast<unsigned>(s.integer("driver.tdt_batch"));
    o.tdt_from_timer = s.boolean("driver.tdt_from_timer");
    o.clean_at_xmit = static_cast<unsigned>(s.integer("driver.clean_at_xmit"));
    o.cleanup_timer_us = s.number("driver.cleanup_timer_us");
    o.copy = s.boolean("driver.copy");
    o.tso = s.boolean("driver.tso");
    o.notxints_clean_locked = s.boolean("driver.notxints_clean_locked");
    o.ignore_ring_space = s.boolean("testing.driver_ignore_ring_space");
    return o;
}

Cpu& E1000Driver::cpu() { return Cpu::current(); }

E1000Driver::E1000Driver(const DriverOptions& options, std::uint64_t bar,
                         std::uint64_t ring_base, std::function<void(const Skb&)> free_skb,
                         std::function<std::uint64_t(std::uint32_t)> static_buffer)
    : tx_lock_(ring_base + 16ull * options.ring_size, LineUse::RingState),
      options_(options),
      bar_(bar),
      ring_base_(ring_base),
      free_skb_(std::move(free_skb)),
      static_buffer_(std::move(static_buffer)),
      buffer_info_(options.ring_size) {}

std::uint32_t E1000Driver::max_data_per_descriptor(std::uint32_t tso_mss) {
    return tso_mss ? std::min(kMaxDataPerDescriptor, tso_mss << 2) : kMaxDataPerDescriptor;
}

unsigned E1000Driver::descriptors_needed(const DriverOptions& options, std::uint32_t len,
                                         std::uint32_t tso_mss, bool checksum_offload) {
    const std::uint32_t per = max_data_per_descriptor(tso_mss);
    unsigned count = (len + per - 1) / per;
    if (options.pcix_82544) ++count;
    if (tso_mss || checksum_offload) ++count;
    if (options.tso) ++count;
    return count;
}

void E1000Driver::configure_tx() {
    HostMemory& mem = cpu().memory();
    if (options_.copy) {
        if (!static_buffer_) throw std::logic_error("driver.copy without static buffers");
        for (unsigned i = 0; i < options_.ring_size; ++i)
            copy_buffers_.push_back(static_buffer_(options_.copy_buffer_bytes));
    }
    std::vector<std::uint8_t> zero(16ull * options_.ring_size, 0);
    mem.write(ring_base_, zero.data(), zero.size());
    cpu().mmio_write(bar_ + kTdbal, static_cast<std::uint32_t>(ring_base_));
    cpu().mmio_write(bar_ + kTdbah, static_cast<std::uint32_t>(ring_base_ >> 32));
    cpu().mmio_write(bar_ + kTdlen, 16 * options_.ring_size);
    cpu().mmio_write(bar_ + kTdh, 0);
    cpu().mmio_write(bar_ + kTdt, 0);
    cpu().mmio_write(bar_ + kTipg, kTipgDefault);
    cpu().mmio_write(bar_ + kTidv, options_.tidv);
    cpu().mmio_write(bar_ + kTadv, options_.tadv);
    cpu().mmio_write(bar_ + kTctl, kTctlEn | kTctlPsp);
    // e1000_init_hw on parts after the 82544: "full descriptor write-back", WTHRESH = 1 with
    // GRAN = 1 (E1000_TXDCTL_FULL_TX_DESC_WB), read-modify-write of TXDCTL.
    if (options_.full_tx_desc_writeback) {
        std::uint32_t txdctl = cpu().mmio_read(bar_ + kTxdctl);
        cpu().mmio_write(bar_ + kTxdctl, (txdctl & ~kTxdctlWthreshMask) | kTxdctlFullDescWriteBack);
    }
    if (options_.txdmac_prefetch) cpu().mmio_write(bar_ + kTxdmac, 0);
    if (options_.itr_per_s)
        cpu().mmio_write(bar_ + kItr, static_cast<std::uint32_t>(1e9 / (options_.itr_per_s * 256.0)));
    // 2.6.9 configure_tx: IFCS|EOP always; IDE when a delay is set; RS (write-back) on 8254x.
    txd_cmd_ = kCmdEop | kCmdIfcs;
    if (!options_.notxints) txd_cmd_ |= kCmdRs | (options_.tidv ? kCmdIde : 0);
    ims_mask_ = kRxt0 | kRxdmt0 | kRxseq | kIcrLsc | (options_.notxints ? 0 : kIcrTxdw);
    cpu().mmio_write(bar_ + kIms, ims_mask_);
}

bool E1000Driver::xmit_is_quiet() const {
    // A receiving port's device raises RXT0 by itself, which the handler unmasks again.
    return options_.clean_at_xmit == 0 && (ims_mask_ & (kIcrTxdw | kIcrTxqe)) == 0 && !rx_;
}

unsigned E1000Driver::desc_unused() const {
    // E1000_DESC_UNUSED: one slot always stays empty so that head == tail means empty.
    unsigned count = options_.ring_size;
    return (next_to_clean_ > next_to_use_ ? 0 : count) + next_to_clean_ - next_to_use_ - 1;
}

unsigned E1000Driver::descriptors_in_use() const { return options_.ring_size - 1 - desc_unused(); }

std::string E1000Driver::held_back() const {
    return std::to_string(tdt_pending_) + " of its frames are in the ring without a TDT write " +
           "(driver.tdt_batch " + std::to_string(options_.tdt_batch) + ")";
}

// 2.6.9: spin_trylock(&tx_lock) on entry (LLTX: a failed trylock returns NETDEV_TX_LOCKED and
// pktgen tries again at once, so the CPU spins while another holds it), unlocked on the way out.
E1000Driver::TxResult E1000Driver::xmit_frame(const Skb& skb) {
    tx_lock_.lock(cpu());
    const TxResult result = xmit_locked(skb);
    tx_lock_.unlock(cpu());
    return result;
}

E1000Driver::TxResult E1000Driver::xmit_locked(const Skb& skb) {
    const CpuCosts& c = cpu().costs();
    cpu().charge(c.xmit_frame_cycles);
    // skb->len and the flags, skb->data, skb_shinfo(skb)->nr_frags and tso_size.
    cpu().touch(skb.len_line(), 8, false, LineUse::SkbHead);
    cpu().touch(skb.refcount_line(), 8, false, LineUse::SkbRefcount);
    cpu().touch(skb.shinfo, 8, false, LineUse::SkbData);
    if (options_.clean_at_xmit && descriptors_in_use() > options_.clean_at_xmit)
        wake_if_cleaned(options_.notxints ? clean_to_head() : clean_tx_irq());
    if (skb.tso_mss && !options_.tso)
        throw std::logic_error("e1000 driver: an skb with tso_mss " + std::to_string(skb.tso_mss) +
                               " while driver.tso is false (the stack hands TSO frames only to "
                               "a device with TSO on)");
    const std::uint32_t max_per_descriptor = max_data_per_descriptor(skb.tso_mss);
    const unsigned count = descriptors_needed(options_, skb.len, skb.tso_mss, skb.checksum_offload);
    if (desc_unused() < count + 2 && !options_.ignore_ring_space) {
        queue_stopped_ = true;
        cpu().locked_instruction();  // netif_stop_queue: set_bit of __LINK_STATE_XOFF
        ++counters_.stops;
        ++counters_.busy;
        // Descriptors queued but not yet announced must reach the NIC, or nothing frees space.
        if (tdt_pending_) write_tdt();
        return TxResult::Busy;
    }
    unsigned first = next_to_use_;
    unsigned used = tx_offload(skb);
    unsigned data_first = next_to_use_;
    unsigned data = tx_map(skb, max_per_descriptor);
    // Cleanup frees from the packet's first descriptor (its context descriptor) to its EOP.
    buffer_info_[first].next_to_watch = buffer_info_[data_first].next_to_watch;
    tx_queue(data_first, data, skb);
    used += data;
    ++counters_.queued;
    counters_.descriptors += used;
    if (++tdt_pending_ >= options_.tdt_batch && !options_.tdt_from_timer) write_tdt();
    return TxResult::Ok;
}

// e1000_tso and e1000_tx_csum.  The frame's headers are real bytes at skb.data: the offsets
// come from them (IPv4 IHL, TCP data offset) and must add up to skb.header_len.  With TSO the
// driver clears the IP total length and checksum and seeds the TCP checksum with the
// pseudo-header sum without the length, as the NIC expects (SDM 3.5); with checksum offload
// alone the stack has left the TCP checksum seeded with the whole pseudo-header sum
// (CHECKSUM_HW) and the IP checksum filled in, and the NIC fills only the TCP checksum.
unsigned E1000Driver::tx_offload(const Skb& skb) {
    if (!skb.tso_mss && !skb.checksum_offload) return 0;
    HostMemory& mem = cpu().memory();
    const unsigned ipcss = SkbPool::kEthHeader;
    if (skb.header_len < ipcss + 40 || skb.header_len > skb.len || skb.header_len > 255)
        throw std::logic_error("e1000 driver: an offload skb with header_len " +
                               std::to_string(skb.header_len) + " of " + std::to_string(skb.len) +
                               " B; expected Ethernet + IPv4 + TCP headers, 54 to 255 B");
    std::uint8_t* h = mem.span(skb.data, skb.header_len);
    const unsigned tucss = ipcss + (h[ipcss] & 0xFu) * 4;
    const unsigned tcp_header = tucss + 12 < skb.header_len ? (h[tucss + 12] >> 4) * 4u : 0;
    if ((h[ipcss] >> 4) != 4 || tucss + tcp_header != skb.header_len)
        throw std::logic_error("e1000 driver: skb header_len " + std::to_string(skb.header_len) +
                               " does not match the headers at skb.data (IP version " +
                               std::to_string(h[ipcss] >> 4) + ", TCP header at " +
                               std::to_string(tucss) + " of " + std::to_string(tcp_header) +
                               " B); expected 14 + IPv4 IHL*4 + TCP doff*4");
    TxContextDescriptor ctx{};
    ctx.tucss = static_cast<std::uint8_t>(tucss);
    ctx.tucso = static_cast<std::uint8_t>(tucss + 16);
    if (skb.tso_mss) {
        const std::uint32_t payload = skb.len - skb.header_len;
        if (skb.tso_mss > 0xFFFF || payload > 0xFFFFF)
            throw std::logic_error("e1000 driver: a TSO skb of MSS " + std::to_string(skb.tso_mss) +
                                   " and " + std::to_string(payload) +
                                   " B payload; expected MSS < 65536 and payload < 1 MiB");
        put16(h + ipcss + 2, 0);   // total length
        put16(h + ipcss + 10, 0);  // header checksum
        // IPPROTO_TCP and the addresses; no length.
        put16(h + tucss + 16, inet::fold(inet::ones_sum(h + ipcss + 12, 8, 6)));
        cpu().touch(skb.data, skb.header_len, true, LineUse::SkbData);
        ctx.ipcss = static_cast<std::uint8_t>(ipcss);
        ctx.ipcso = static_cast<std::uint8_t>(ipcss + 10);
        ctx.ipcse = static_cast<std::uint16_t>(tucss - 1);
        ctx.paylen_dtyp_tucmd =
            payload | std::uint32_t(kCmdDext | kCmdTse | kTucmdIp | kTucmdTcp) << 24;
        ctx.hdrlen = static_cast<std::uint8_t>(skb.header_len);
        ctx.mss = static_cast<std::uint16_t>(skb.tso_mss);
    } else {
        cpu().touch(skb.data, skb.header_len, false, LineUse::SkbData);
        ctx.paylen_dtyp_tucmd = std::uint32_t(kCmdDext) << 24;
    }
    // 2.6.9's e1000_tso and e1000_tx_csum write a context descriptor for every offload skb,
    // although the NIC would keep an unchanged context (SDM 3.3.6).
    unsigned i = next_to_use_;
    mem.write(desc_addr(i), &ctx, sizeof ctx);
    cpu().touch(desc_addr(i), sizeof ctx, true, LineUse::Descriptor);
    buffer_info_[i] = BufferInfo{};
    cpu().touch(info_addr(i), kBufferInfoBytes, true, LineUse::BufferInfo);
    cpu().charge(cpu().costs().context_descriptor_cycles);
    ++counters_.context_descriptors;
    next_to_use_ = i + 1 == options_.ring_size ? 0 : i + 1;
    return 1;
}

unsigned E1000Driver::tx_map(const Skb& skb, std::uint32_t max_per_descriptor) {
    const CpuCosts& c = cpu().costs();
    unsigned i = next_to_use_, used = 0, last = i;
    std::uint32_t offset = 0, len = skb.len;
    while (len) {
        std::uint32_t size = std::min(len, max_per_descriptor);
        // 2.6.9 with TSO: the last 4 bytes of a TSO skb go in a sentinel descriptor of their
        // own (a workaround for premature descriptor write-backs in TSO mode).
        if (skb.tso_mss && size == len && size > 8) size -= 4;
        // 82544 in PCI-X mode (errata): a buffer must not end in the first dword of a qword
        // (address bit 2 clear); shorten it by 4 bytes, the rest goes in one more descriptor.
        std::uint64_t dma = options_.copy ? copy_buffers_[i] : skb.data + offset;
        std::uint64_t last_byte = dma + size - 1;
        if (options_.pcix_82544 && !(last_byte & 4) && size > 4) size -= 4;
        if (options_.copy) copy_to_static(skb, offset, size, i);
        BufferInfo& b = buffer_info_[i];
        b.skb = skb;
        b.owns_skb = false;
        b.dma = dma;
        b.length = size;
        cpu().charge(c.per_descriptor_cycles);
        cpu().touch(info_addr(i), kBufferInfoBytes, true, LineUse::BufferInfo);
        len -= size;
        offset += size;
        last = i;
        ++used;
        if (len && ++i == options_.ring_size) i = 0;
    }
    buffer_info_[last].owns_skb = true;
    buffer_info_[next_to_use_].next_to_watch = last;
    return used;
}

// The copy driver's tx_map (skb_copy_bits): the CPU reads the skb's data and writes it to the
// descriptor's static buffer, whose lines are then modified in its cache when the NIC reads them.
void E1000Driver::copy_to_static(const Skb& skb, std::uint32_t offset, std::uint32_t size,
                                 unsigned i) {
    HostMemory& mem = cpu().memory();
    if (size > options_.copy_buffer_bytes)
        throw std::logic_error("driver.copy: a descriptor's data does not fit its buffer");
    std::memcpy(mem.span(copy_buffers_[i], size), mem.span(skb.data + offset, size), size);
    cpu().charge(cpu().costs().copy_cycles_per_byte * size);
    cpu().touch(skb.data + offset, size, false, LineUse::SkbData);
    cpu().touch(copy_buffers_[i], size, true, LineUse::SkbData);
}

void E1000Driver::tx_queue(unsigned first, unsigned count, const Skb& skb) {
    HostMemory& mem = cpu().memory();
    // Offload skbs get extended data descriptors (SDM 3.3.7): TSE and both checksums for TSO,
    // the TCP checksum alone for checksum offload.
    std::uint8_t extended = 0, popts = 0;
    if (skb.tso_mss) extended = kCmdDext | kCmdTse, popts = kPoptsIxsm | kPoptsTxsm;
    else if (skb.checksum_offload) extended = kCmdDext, popts = kPoptsTxsm;
    unsigned i = first;
    for (unsigned n = 0; n < count; ++n) {
        const BufferInfo& b = buffer_info_[i];
        TxDescriptor d{};
        d.buffer_addr = b.dma;
        d.length = static_cast<std::uint16_t>(b.length);
        d.cmd = kCmdIfcs;
        if (n + 1 == count) d.cmd = txd_cmd_;
        if (extended) {
            d.cmd |= extended;
            d.cso = kDtypData << 4;  // DTALEN 19:16 stay 0: at most 4 KB per descriptor
            d.css = popts;
        }
        mem.write(desc_addr(i), &d, sizeof d);
        cpu().touch(desc_addr(i), sizeof d, true, LineUse::Descriptor);
        if (++i == options_.ring_size) i = 0;
    }
    next_to_use_ = i;
}

void E1000Driver::write_tdt() {
    cpu().mmio_write(bar_ + kTdt, next_to_use_);
    ++counters_.tdt_writes;
    tdt_pending_ = 0;
}

void E1000Driver::free_descriptor(unsigned i) {
    BufferInfo& b = buffer_info_[i];
    if (b.owns_skb) free_skb_(b.skb);
    b = BufferInfo{};
    TxDescriptor zero{};
    cpu().memory().write(desc_addr(i), &zero, sizeof zero);
    cpu().touch(info_addr(i), kBufferInfoBytes, true, LineUse::BufferInfo);
    cpu().touch(desc_addr(i), sizeof zero, true, LineUse::Descriptor);
}

unsigned E1000Driver::free_packet(unsigned first, unsigned eop) {
    unsigned i = first;
    for (bool last = false; !last;) {
        last = i == eop;
        free_descriptor(i);
        if (++i == options_.ring_size) i = 0;
    }
    cpu().charge(cpu().costs().clean_per_packet_cycles);
    ++counters_.cleaned;
    cpu().let_others_run();
    return i;
}

bool E1000Driver::clean_tx_irq() {
    HostMemory& mem = cpu().memory();
    bool cleaned = false;
    unsigned i = next_to_clean_;
    while (i != next_to_use_) {
        unsigned eop = buffer_info_[i].next_to_watch;
        TxDescriptor d;
        mem.read(desc_addr(eop), &d, sizeof d);
        cpu().touch(info_addr(i), kBufferInfoBytes, false, LineUse::BufferInfo);  // next_to_watch
        cpu().touch(desc_addr(eop), sizeof d, false, LineUse::Descriptor);       // the DD bit
        if (!(d.status & kStaDd)) break;
        i = free_packet(i, eop);
        cleaned = true;
    }
    next_to_clean_ = i;
    finish_clean(false);
    return cleaned;
}

bool E1000Driver::clean_tx_to(unsigned hw_head) {
    bool cleaned = false;
    unsigned i = next_to_clean_;
    // Every descriptor before the hardware head has been fetched and its data sent to the
    // FIFO; free whole packets only.
    while (i != hw_head && i != next_to_use_) {
        unsigned eop = buffer_info_[i].next_to_watch;
        cpu().touch(info_addr(i), kBufferInfoBytes, false, LineUse::BufferInfo);
        unsigned span = (eop + options_.ring_size - i) % options_.ring_size;
        unsigned avail = (hw_head + options_.ring_size - i) % options_.ring_size;
        if (span >= avail) break;
        i = free_packet(i, eop);
        cleaned = true;
    }
    next_to_clean_ = i;
    finish_clean(options_.notxints_clean_locked);
    return cleaned;
}

// The end of a clean: next_to_clean written, and (2.6.9 e1000_clean_tx_irq) tx_lock taken
// around the queue's wake; the ring's indices and the lock share a line.
void E1000Driver::finish_clean(bool locked) {
    cpu().touch(ring_state_addr(), 64, true, LineUse::RingState);
    if (locked) return;  // the caller holds the lock
    tx_lock_.lock(cpu());
    tx_lock_.unlock(cpu());
}

void E1000Driver::wake_if_cleaned(bool cleaned) {
    // 2.6.9 wakes the queue as soon as anything was cleaned: netif_wake_queue clears
    // __LINK_STATE_XOFF and schedules the device (test_and_set of __LINK_STATE_SCHED),
    // net_tx_action clears that and trylocks the queue lock: four locked instructions.
    if (cleaned && queue_stopped_) {
        queue_stopped_ = false;
        ++counters_.wakes;
        for (int op = 0; op < 4; ++op) cpu().locked_instruction();
        if (on_wake_) on_wake_();
    }
}

void E1000Driver::intr() {
    const CpuCosts& c = cpu().costs();
    std::uint32_t icr = cpu().mmio_read(bar_ + kIcr);
    if (!icr) return;  // not ours (shared line)
    cpu().charge(c.poll_cycles);
    // atomic_inc and atomic_dec_and_test of irq_sem around the handler; with NAPI also
    // netif_rx_schedule's and netif_rx_complete's bit operations on the poll state.
    for (int op = 0; op < (options_.napi ? 4 : 2); ++op) cpu().locked_instruction();
    if (options_.napi) {
        // Mask, flush the posted write with a STATUS read, poll, unmask and flush again.
        cpu().mmio_write(bar_ + kImc, ~0u);
        cpu().mmio_read(bar_ + kStatus);
        if (rx_) napi_poll();
        else wake_if_cleaned(clean_tx_irq());
        cpu().mmio_write(bar_ + kIms, ims_mask_);
        cpu().mmio_read(bar_ + kStatus);
    } else {
        // E1000_MAX_INTR passes while anything is cleaned.
        for (int pass = 0; pass < 10; ++pass) {
            bool received = rx_ && rx_->poll(rx_->options().ring_size) > 0;
            bool cleaned = clean_tx_irq();
            wake_if_cleaned(cleaned);
            if (!cleaned && !received) break;
        }
    }
}

// 2.6.9 e1000_clean: clean the TX ring, then at most a quota of received frames; a poll that
// used its whole quota goes to the back of the poll list (the CPU's other pending ports run)
// and net_rx_action calls it again, by then seeing what the NIC has written back meanwhile
// (netdev_max_backlog's bound is not modelled).
void E1000Driver::napi_poll() {
    const unsigned quota = rx_->options().napi_weight;
    for (;;) {
        wake_if_cleaned(clean_tx_irq());
        if (rx_->poll(quota) < quota) return;
        if (poll_others_) poll_others_();
        cpu().charge(cpu().costs().poll_cycles);
        cpu().catch_up();
    }
}

// notxints has no DD bits to look at: read how far the NIC has come (TDH) and clean up to it.
bool E1000Driver::clean_to_head() {
    // From the timer the lock is taken here; from xmit the caller holds it already.
    const bool lock = options_.notxints_clean_locked && !tx_lock_.held_by(cpu());
    if (lock) tx_lock_.lock(cpu());
    unsigned head = cpu().mmio_read(bar_ + kTdh);
    const bool cleaned = clean_tx_to(head % options_.ring_size);
    if (lock) tx_lock_.unlock(cpu());
    return cleaned;
}

void E1000Driver::watchdog_timer() {
    if (options_.tdt_from_timer && tdt_pending_) write_tdt();
    if (options_.notxints) {
        wake_if_cleaned(clean_to_head());
    } else {
        wake_if_cleaned(clean_tx_irq());
    }
    // mod_timer(jiffies + 1) from the handler: the timer stays on this CPU (the timer's lock
    // and its base's, two locked instructions).
    if (timer_) {
        timer_->mod(cpu());
        for (int op = 0; op < 2; ++op) cpu().locked_instruction();
    }
}

}  // namespace pcisim
