#include "e1000/e1000_descriptor_cache.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/dma_memory.h"
#include "core/invariants.h"

namespace pcisim::e1000 {

DescriptorCache::DescriptorCache(unsigned capacity, unsigned cache_line_bytes)
    : capacity_(capacity),
      descriptors_per_line_(std::max(1u, cache_line_bytes / kDescriptorBytes)),
      cache_(capacity) {}

void DescriptorCache::set_head(std::uint32_t v) {
    head_ = next_fetch_ = next_pop_ = slots() ? v % slots() : 0;
    cache_.clear();
}

unsigned DescriptorCache::waiting_in_host() const {
    if (!slots()) return 0;
    return (tail_ + slots() - next_fetch_) % slots();
}

bool DescriptorCache::fetch_wanted(Txdctl txdctl) const {
    unsigned room = capacity_ - cached() - fetching_;
    if (fetching_ || room == 0 || waiting_in_host() == 0) return false;
    if (cache_.empty() || complete_packet_descriptors() == 0) return true;
    // TXDCTL.GRAN: thresholds count descriptors (1) or cache lines (0).
    unsigned unit = txdctl.gran_descriptors() ? 1 : descriptors_per_line_;
    unsigned pthresh = txdctl.pthresh() * unit;
    unsigned hthresh = txdctl.hthresh() * unit;
    return cached() < pthresh && waiting_in_host() >= std::max(1u, hthresh);
}

DescriptorFetch DescriptorCache::plan_fetch() const {
    unsigned room = capacity_ - cached() - fetching_;
    unsigned to_tail_or_end = std::min(waiting_in_host(), slots() - next_fetch_);
    unsigned count = std::min(room, to_tail_or_end);
    if (count < to_tail_or_end) {
        // Limited by cache room: stop at a cache-line boundary so the next fetch starts on one.
        std::uint64_t end = slot_addr(next_fetch_ + count);
        std::uint64_t line = std::uint64_t(descriptors_per_line_) * kDescriptorBytes;
        std::uint64_t aligned = end / line * line;
        if (aligned > slot_addr(next_fetch_))
            count = static_cast<unsigned>((aligned - slot_addr(next_fetch_)) / kDescriptorBytes);
    }
    return {slot_addr(next_fetch_), next_fetch_, count};
}

void DescriptorCache::fetch_issued(const DescriptorFetch& f) {
    next_fetch_ = (f.first + f.count) % slots();
    fetching_ += f.count;
}

void DescriptorCache::fetch_arrived(const DescriptorFetch& f, const DmaMemory& mem) {
    fetching_ -= f.count;
    for (unsigned i = 0; i < f.count; ++i) {
        CachedDescriptor c{f.first + i, {}};
        mem.read(f.addr + std::uint64_t(i) * kDescriptorBytes, &c.desc, kDescriptorBytes);
        // A fetch is planned within the cache's room (plan_fetch): a full cache is a bug.
        if (cache_.full()) throw std::logic_error("e1000: descriptor fetch beyond the cache's room");
        cache_.push_back(c);
    }
}

unsigned DescriptorCache::complete_packet_descriptors() const {
    for (std::size_t i = 0; i < cache_.size(); ++i)
        if (cache_[i].desc.cmd & kCmdEop) return static_cast<unsigned>(i + 1);
    if (cache_.size() + fetching_ >= capacity_ && fetching_ == 0)
        throw std::runtime_error("transmit packet has more descriptors than the descriptor cache");
    return 0;
}

CachedDescriptor DescriptorCache::pop() {
    CachedDescriptor c = cache_.front();
    // Descriptors are processed once each, in ring order: anything else is a fetch gone wrong.
    if (c.index != next_pop_)
        throw InvariantViolation("nic descriptor cache",
                                 "descriptor " + std::to_string(c.index) + " processed where " +
                                     std::to_string(next_pop_) + " was next (TDH " +
                                     std::to_string(head_) + ", TDT " + std::to_string(tail_) + ")");
    next_pop_ = (next_pop_ + 1) % slots();
    cache_.pop_front();
    return c;
}

}  // namespace pcisim::e1000
