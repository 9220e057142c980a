#include "software/skb_pool.h"

#include <algorithm>
#include <stdexcept>

namespace pcisim {

namespace {
unsigned size_class(std::uint32_t bytes) {
    unsigned c = 0;
    while ((64u << c) < bytes) ++c;
    return c;
}
}  // namespace

std::uint32_t SkbPool::shared_info_offset(std::uint32_t alloc_bytes, unsigned line) {
    return (alloc_bytes + line - 1) / line * line;
}

std::uint32_t SkbPool::buffer_bytes(std::uint32_t alloc_bytes, unsigned line) {
    return 64u << size_class(shared_info_offset(alloc_bytes, line) + kSharedInfoBytes);
}

SkbPool::SkbPool(std::uint64_t base, std::uint64_t bytes, unsigned cache_line_bytes)
    : regions_{{base, base + bytes}}, line_(cache_line_bytes), data_caches_(16) {
    // The sk_buffs come from the top of the region down, the buffers from the bottom up, so a
    // buffer's address does not depend on how many sk_buffs there are.
    struct_cache_ = std::make_unique<SlabCache>(kSkbStructBytes, [this] {
        Region& r = regions_[grow_node_];
        if (r.end < r.next + kSkbStructBytes)
            throw std::runtime_error("skb pool exhausted: more buffers in flight than the "
                                     "host memory region holds");
        r.end -= kSkbStructBytes;
        structs_.push_back(r.end);
        return static_cast<int>(structs_.size() - 1);
    });
    struct_cache_->count_batches_into(&slab_batches_);
}

std::uint64_t SkbPool::carve(std::uint32_t bytes, std::uint32_t align) {
    align = std::max(align, line_);
    Region& r = regions_[grow_node_];
    std::uint64_t at = (r.next + align - 1) / align * align;
    if (at + bytes > r.end)
        throw std::runtime_error("skb pool exhausted: more buffers in flight than the "
                                 "host memory region holds");
    r.next = at + bytes;
    return at;
}

void SkbPool::use_nodes(unsigned nodes, std::uint64_t node_bytes) {
    const Region all = regions_.front();
    regions_.clear();
    for (unsigned n = 0; n < nodes; ++n)
        regions_.push_back({std::max(all.next, n * node_bytes),
                            std::min(all.end, (n + 1) * node_bytes)});
}

SlabCache& SkbPool::data_cache(std::uint32_t size) {
    std::unique_ptr<SlabCache>& c = data_caches_.at(size_class(size));
    if (!c) {
        c = std::make_unique<SlabCache>(size, [this, size] {
            std::uint64_t head = carve(size);
            // Fresh host memory is zero (HostMemory), and carved pages are no one else's.
            slots_.push_back({head, size, 0, size - (kHeadroom - kEthHeader)});
            struct_of_slot_.push_back(-1);
            return static_cast<int>(slots_.size() - 1);
        });
        c->use_shared_array(shared_arrays_);
        c->count_batches_into(&slab_batches_);
    }
    return *c;
}

void SkbPool::use_shared_arrays(bool on) {
    shared_arrays_ = on;
    struct_cache_->use_shared_array(on);
    for (auto& c : data_caches_)
        if (c) c->use_shared_array(on);
}

Skb SkbPool::allocate(std::uint32_t alloc_bytes, std::uint32_t frame_len, const void* cpu,
                      unsigned node, std::uint32_t* zeroed) {
    grow_node_ = node < regions_.size() ? node : 0;
    // alloc_skb: the sk_buff first, then the data buffer.
    int meta = struct_cache_->allocate(cpu);
    int id = data_cache(buffer_bytes(alloc_bytes, line_)).allocate(cpu);
    slots_[id].users = 1;
    if (zeroed) *zeroed = slots_[id].zeroed;
    slots_[id].zeroed = 0;
    struct_of_slot_[id] = meta;
    ++in_use_;
    Skb skb;
    skb.id = id;
    skb.head = slots_[id].head;
    skb.data = skb.head + kHeadroom - kEthHeader;
    skb.len = frame_len;
    skb.meta = structs_[meta];
    skb.shinfo = skb.head + shared_info_offset(alloc_bytes, line_);
    return skb;
}

void SkbPool::hold(const Skb& skb) { ++slots_.at(skb.id).users; }

unsigned SkbPool::users(const Skb& skb) const { return slots_.at(skb.id).users; }

bool SkbPool::release(const Skb& skb, const void* cpu) {
    Slot& s = slots_.at(skb.id);
    if (s.users == 0) throw std::logic_error("skb released twice");
    if (--s.users) return false;
    // kfree_skbmem: the data buffer, then the sk_buff.
    data_cache(s.size).free(skb.id, cpu);
    struct_cache_->free(struct_of_slot_[skb.id], cpu);
    --in_use_;
    return true;
}

}  // namespace pcisim
