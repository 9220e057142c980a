// Socket buffers in host memory, as the kernel's slab allocator hands them out: the head is
// cache-line aligned in a power-of-two size class, 16 bytes are reserved, and the 14-byte
// Ethernet header is pushed back into them, so the frame starts 2 bytes into the head.
// Freed buffers are reused last-in first-out (the hot one first), like a slab free list.
#pragma once

#include <cstdint>
#include <vector>

namespace pcisim {

struct Skb {
    int id = -1;
    std::uint64_t head = 0;   // start of the buffer (cache-line aligned)
    std::uint64_t data = 0;   // first byte of the frame
    std::uint32_t len = 0;
};

class SkbPool {
public:
    static constexpr std::uint32_t kHeadroom = 16;   // NET_SKB_PAD-style reserve
    static constexpr std::uint32_t kEthHeader = 14;

    // Buffers live in [base, base + bytes) of host memory.
    SkbPool(std::uint64_t base, std::uint64_t bytes, unsigned cache_line_bytes);

    Skb allocate(std::uint32_t frame_len);  // throws when the region is exhausted
    void hold(const Skb& skb);              // one more user (a clone queued again)
    void release(const Skb& skb);           // one user fewer; freed at zero
    std::size_t in_use() const { return in_use_; }

private:
    struct Slot { std::uint64_t head; std::uint32_t size; unsigned users; };
    std::uint64_t end_, next_;
    unsigned line_;
    std::vector<Slot> slots_;
    std::vector<std::vector<int>> free_by_class_;  // LIFO per size class
    std::size_t in_use_ = 0;
};

}  // namespace pcisim
