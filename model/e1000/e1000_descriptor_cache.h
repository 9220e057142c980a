// The transmit descriptor ring as the NIC sees it (TDBA/TDLEN/TDH/TDT) and its on-chip
// descriptor cache.  The receive ring (RDBA/RDLEN/RDH/RDT) uses the same ring and cache
// bookkeeping and makes its own fetch decision (e1000_rx_port.h); fetch_wanted() and
// complete_packet_descriptors() are the transmit side's.  Decides what to fetch next (8254x SDM 3.4 "Transmit descriptor fetching"
// and 13.4.42 TXDCTL): fetch when the cache is empty, prefetch when fewer than PTHRESH
// descriptors are left and at least HTHRESH wait in host memory; a fetch takes as many as fit,
// never past TDT, never past the ring end (a wrap is a second fetch), and when it is limited by
// cache room it ends on a host cache-line boundary.
#pragma once

#include <cstdint>

#include <boost/circular_buffer.hpp>

#include "e1000/e1000_regs.h"

namespace pcisim {
class DmaMemory;
}

namespace pcisim::e1000 {

struct CachedDescriptor {
    unsigned index;  // ring slot
    TxDescriptor desc;
};

struct DescriptorFetch {
    std::uint64_t addr;
    unsigned first;  // ring slot of the first descriptor
    unsigned count;
};

class DescriptorCache {
public:
    DescriptorCache(unsigned capacity, unsigned cache_line_bytes);

    // Register values as software writes them (TDBAL, TDBAH, TDLEN, TDH, TDT).
    void set_base_low(std::uint32_t v) {
        base_ = (base_ & ~0xFFFFFFFFull) | Tdbal{v}.address_low();
    }
    void set_base_high(std::uint32_t v) { base_ = (base_ & 0xFFFFFFFFull) | (std::uint64_t(v) << 32); }
    void set_length_bytes(std::uint32_t v) { length_bytes_ = Tdlen{v}.length_bytes(); }
    void set_head(std::uint32_t v);  // software writes TDH only while idle: drops the cache
    void set_tail(std::uint32_t v) { tail_ = slots() ? v % slots() : 0; }

    std::uint64_t base() const { return base_; }
    std::uint32_t length_bytes() const { return length_bytes_; }
    unsigned slots() const { return length_bytes_ / kDescriptorBytes; }
    unsigned head() const { return head_; }
    unsigned tail() const { return tail_; }
    std::uint64_t slot_addr(unsigned slot) const { return base_ + std::uint64_t(slot) * kDescriptorBytes; }

    // Descriptors software has handed over that are not yet fetched.
    unsigned waiting_in_host() const;
    bool fetch_wanted(Txdctl txdctl) const;
    DescriptorFetch plan_fetch() const;  // only when fetch_wanted()
    void fetch_issued(const DescriptorFetch& f);
    void fetch_arrived(const DescriptorFetch& f, const DmaMemory& mem);

    // Descriptors of the first whole packet (up to EOP) in the cache; 0 when there is none.
    unsigned complete_packet_descriptors() const;
    const CachedDescriptor& peek(unsigned i) const { return cache_[i]; }
    CachedDescriptor pop();
    // Its data is in the FIFO: TDH moves past it (SDM 3.4: head advances as descriptors are
    // processed).
    void descriptor_processed() { head_ = (head_ + 1) % slots(); }
    unsigned cached() const { return static_cast<unsigned>(cache_.size()); }
    unsigned capacity() const { return capacity_; }
    unsigned fetching() const { return fetching_; }  // requested, not yet arrived

private:
    unsigned capacity_;
    unsigned descriptors_per_line_;
    std::uint64_t base_ = 0;
    std::uint32_t length_bytes_ = 0;
    unsigned head_ = 0, tail_ = 0;
    unsigned next_fetch_ = 0;  // ring slot of the next descriptor to fetch
    unsigned next_pop_ = 0;    // ring slot of the next descriptor to process
    unsigned fetching_ = 0;    // descriptors requested but not yet arrived
    boost::circular_buffer<CachedDescriptor> cache_;  // capacity_ slots: no allocation per fetch
};

}  // namespace pcisim::e1000
