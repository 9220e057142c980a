// Socket buffers in host memory, as the kernel's slab allocator hands them out: the sk_buff
// (the "skb head", skbuff_head_cache) and the data buffer (kmalloc's size-N cache: a power-of-two
// size class, cache-line aligned), each from its SlabCache with per-CPU arrays.  16 bytes of the
// buffer are reserved and the 14-byte Ethernet header is pushed back into them, so the frame
// starts 2 bytes into the buffer.
//
// The lines of an skb, as 2.6.9 lays them out (include/linux/skbuff.h, net/core/skbuff.c):
// struct sk_buff's first line (list pointers, dst), its line with len and the flags (cloned,
// ip_summed), its last line with users, head, data, tail and end; and the skb_shared_info that
// alloc_skb puts after the data it was asked for (SKB_DATA_ALIGN), holding dataref, nr_frags,
// tso_size and frag_list.  So a frame of N bytes that alloc_skb(N + slack) holds takes
// kmalloc's size class of SKB_DATA_ALIGN(N + slack) + sizeof(struct skb_shared_info).
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
    std::uint64_t shinfo = 0; // its skb_shared_info, after the data
    // The lines of the sk_buff (see SkbPool): list pointers and dst; len and the flags;
    // users, head and data.
    std::uint64_t head_line() const { return meta; }
    std::uint64_t len_line() const { return meta + 64; }
    std::uint64_t refcount_line() const { return meta + 192; }
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
    // sizeof(struct skb_shared_info) on i386 (MAX_SKB_FRAGS 18 fragments of 8 bytes, plus 16).
    static constexpr std::uint32_t kSharedInfoBytes = 160;

    // Buffers live in [base, base + bytes) of host memory.
    SkbPool(std::uint64_t base, std::uint64_t bytes, unsigned cache_line_bytes);
    // Its caches count their batches into it (slab_batches_): it stays where it was made.
    SkbPool(const SkbPool&) = delete;
    SkbPool& operator=(const SkbPool&) = delete;

    // NUMA: the region splits into the memory nodes' parts (node n from n * node_bytes on);
    // before the first allocation.
    void use_nodes(unsigned nodes, std::uint64_t node_bytes);
    // alloc_skb(alloc_bytes) holding a frame of `frame_len` bytes, from `cpu`'s slab arrays
    // (any stable key per CPU); a slab the cache grows for it takes pages of `node` (the
    // allocating CPU's).  Throws when the region is exhausted.
    // `zeroed` (pktgen's): receives how many bytes from the frame's start are zero but for
    // pktgen's stamp: all of a new buffer's, those its last owner marked (mark_zeroed), 0 when
    // another allocator had it since; every allocation forgets the mark, as its new owner may
    // write anything there.
    Skb allocate(std::uint32_t alloc_bytes, std::uint32_t frame_len, const void* cpu,
                 unsigned node = 0, std::uint32_t* zeroed = nullptr);
    // pktgen built its frame in `skb`: its first `bytes` are zeros but for the stamp.
    void mark_zeroed(const Skb& skb, std::uint32_t bytes) { slots_.at(skb.id).zeroed = bytes; }
    void hold(const Skb& skb);                   // one more user (a clone queued again)
    unsigned users(const Skb& skb) const;        // skb->users
    // One user fewer; at zero the buffer and the sk_buff go back to `cpu`'s arrays.  True then.
    bool release(const Skb& skb, const void* cpu);
    std::size_t in_use() const { return in_use_; }
    // Before the first allocation: the slab caches get an SMP kernel's shared arrays.
    void use_shared_arrays(bool on);
    // A region of its own for good (the copy driver's static buffers), aligned to `align`
    // (at least a cache line).
    std::uint64_t carve(std::uint32_t bytes, std::uint32_t align = 0);
    // Batches between the per-CPU arrays and the slab lists, over all caches.
    std::uint64_t slab_batches() const { return slab_batches_; }

    // The size class (kmalloc cache) of alloc_skb(alloc_bytes)'s data buffer, with lines of
    // `line` bytes (SKB_DATA_ALIGN aligns to the CPU's cache line); where its
    // skb_shared_info starts.
    static std::uint32_t buffer_bytes(std::uint32_t alloc_bytes, unsigned line);
    static std::uint32_t shared_info_offset(std::uint32_t alloc_bytes, unsigned line);

private:
    struct Slot {
        std::uint64_t head;
        std::uint32_t size;
        unsigned users;
        std::uint32_t zeroed;  // mark_zeroed's bytes (a new buffer: all) until reallocated
    };
    SlabCache& data_cache(std::uint32_t size);

    // Free room per memory node: buffers from the bottom up, sk_buffs from the top down.
    struct Region {
        std::uint64_t next, end;
    };
    std::vector<Region> regions_;
    unsigned grow_node_ = 0;  // the node a slab grown now takes its pages from
    std::uint32_t line_;
    std::vector<Slot> slots_;
    std::vector<std::uint64_t> structs_;           // sk_buff addresses by id
    std::unique_ptr<SlabCache> struct_cache_;
    std::vector<std::unique_ptr<SlabCache>> data_caches_;  // by size class
    std::vector<int> struct_of_slot_;              // the sk_buff a buffer was allocated with
    std::size_t in_use_ = 0;
    bool shared_arrays_ = false;
    std::uint64_t slab_batches_ = 0;  // every cache's refills and flushes
};

}  // namespace pcisim
