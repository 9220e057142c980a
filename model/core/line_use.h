// What a cache line the software touches holds.  The CPU caches count the lines that move
// between CPUs by what they hold, so that `explain` can name them per packet ("the skb's
// reference count went to the other CPU and back").
#pragma once

#include <array>
#include <cstdint>

namespace pcisim {

enum class LineUse : std::uint8_t {
    Other,
    SkbHead,      // struct sk_buff: len, data, the list pointers (alloc_skb clears it)
    SkbRefcount,  // skb->users (atomic_inc by pktgen, atomic_dec_and_test at the free)
    SkbData,      // the data buffer: headers pktgen writes, payload the copy driver reads
    Descriptor,   // the TX/RX descriptor ring in host memory (the NIC writes DD back)
    BufferInfo,   // the driver's e1000_buffer array (skb, dma, next_to_watch)
    RingState,    // next_to_use, next_to_clean and the tx_lock beside them
    SlabArray,    // the slab's shared array (objects passed between CPUs)
    Count
};

constexpr std::size_t kLineUses = static_cast<std::size_t>(LineUse::Count);

// A count per LineUse.
using LineUseCounts = std::array<std::uint64_t, kLineUses>;

const char* to_string(LineUse use);

}  // namespace pcisim
