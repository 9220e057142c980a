#include "software/skb_pool.h"

#include <stdexcept>

namespace pcisim {

namespace {
unsigned size_class(std::uint32_t bytes) {
    unsigned c = 0;
    while ((64u << c) < bytes) ++c;
    return c;
}
}  // namespace

SkbPool::SkbPool(std::uint64_t base, std::uint64_t bytes, unsigned cache_line_bytes)
    : end_(base + bytes), next_(base), line_(cache_line_bytes), free_by_class_(16) {}

Skb SkbPool::allocate(std::uint32_t frame_len) {
    std::uint32_t need = kHeadroom + frame_len;
    unsigned c = size_class(need);
    int id;
    if (!free_by_class_.at(c).empty()) {
        id = free_by_class_[c].back();
        free_by_class_[c].pop_back();
    } else {
        std::uint32_t size = 64u << c;
        std::uint64_t head = (next_ + line_ - 1) / line_ * line_;
        if (head + size > end_)
            throw std::runtime_error("skb pool exhausted: more buffers in flight than the "
                                     "host memory region holds");
        next_ = head + size;
        id = static_cast<int>(slots_.size());
        slots_.push_back({head, size, 0});
    }
    slots_[id].users = 1;
    ++in_use_;
    Skb skb;
    skb.id = id;
    skb.head = slots_[id].head;
    skb.data = skb.head + kHeadroom - kEthHeader;
    skb.len = frame_len;
    return skb;
}

void SkbPool::hold(const Skb& skb) { ++slots_.at(skb.id).users; }

void SkbPool::release(const Skb& skb) {
    Slot& s = slots_.at(skb.id);
    if (s.users == 0) throw std::logic_error("skb released twice");
    if (--s.users == 0) {
        free_by_class_[size_class(s.size)].push_back(skb.id);
        --in_use_;
    }
}

}  // namespace pcisim
