// Socket buffers in host memory, as the kernel's slab allocator hands them out: the sk_buff
// (the "skb head", skbuff_head_cache) and the data buffer (kmalloc's size-N cache: a power-of-two
// size class, cache-line aligned), each from its SlabCache with per-CPU arrays.  16 bytes of the
// buffer are reserved and the 14-byte Ethernet header is pushed back into them, so the frame
// starts 2 bytes into the buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "software/slab_cache.h"

namespace pcisim {

struct Skb {
    int id = -1;
    std::uint64_t head = 0;   // start of the data buffer (cache-line aligned)
    std::uint64_t data = 0;   // first byte of the frame
    std::uint32_t len = 0;
    std::uint64_t meta = 0;   // the struct sk_buff
    // Offloads the stack asks of the NIC (skb->ip_summed == CHECKSUM_HW, skb_shinfo->tso_size).
    // The frame at `data` starts with Ethernet (14 bytes), IPv4 and TCP headers, header_len in all.
    std::uint32_t header_len = 0;    // Ethernet + IP + TCP header bytes; 0: not a TCP frame
    std::uint32_t tso_mss = 0;       // TCP payload bytes per segment; 0: no segmentation
    bool checksum_offload = false;   // the NIC fills the IP and TCP checksums
};

class SkbPool {
public:
    static constexpr std::uint32_t kHeadroom = 16;   // NET_SKB_PAD-style reserve
    static constexpr std::uint32_t kEthHeader = 14;
    static constexpr std::uint32_t kSkbStructBytes = 256;  // sizeof(struct sk_buff), aligned

    // Buffers live in [base, base + bytes) of host memory.
    SkbPool(std::uint64_t base, std::uint64_t bytes, unsigned cache_line_bytes);

    // From `cpu`'s slab arrays (any stable key per CPU).  Throws when the region is exhausted.
    Skb allocate(std::uint32_t frame_len, const void* cpu);
    void hold(const Skb& skb);                   // one more user (a clone queued again)
    unsigned users(const Skb& skb) const;        // skb->users
    // One user fewer; at zero the buffer and the sk_buff go back to `cpu`'s arrays.  True then.
    bool release(const Skb& skb, const void* cpu);
    std::size_t in_use() const { return in_use_; }
    // A region of its own for good (the copy driver's static buffers), aligned to `align`
    // (at least a cache line).
    std::uint64_t carve(std::uint32_t bytes, std::uint32_t align = 0);
    // Batches between the per-CPU arrays and the slab lists, over all caches.
    std::uint64_t slab_batches() const;

    // The size class (kmalloc cache) of a buffer for a frame of `frame_len` bytes.
    static std::uint32_t buffer_bytes(std::uint32_t frame_len);

private:
    struct Slot { std::uint64_t head; std::uint32_t size; unsigned users; };
    SlabCache& data_cache(std::uint32_t size);

    std::uint64_t end_, next_;
    std::uint32_t line_;
    std::vector<Slot> slots_;
    std::vector<std::uint64_t> structs_;           // sk_buff addresses by id
    std::unique_ptr<SlabCache> struct_cache_;
    std::vector<std::unique_ptr<SlabCache>> data_caches_;  // by size class
    std::vector<int> struct_of_slot_;              // the sk_buff a buffer was allocated with
    std::size_t in_use_ = 0;
};

}  // namespace pcisim
