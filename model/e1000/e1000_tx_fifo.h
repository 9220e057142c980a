// Transmit FIFO space accounting.  The bytes themselves travel with the packet (Packet::frame);
// what matters for timing is how much room is left: a packet's data is fetched only when the
// FIFO can take all of it (8254x SDM 3.4 "Transmit descriptor fetching"; docs/design.md 2.6), and
// the room is given back when the frame has left the wire (store-and-forward).
#pragma once

#include <cstdint>
#include <string>

#include "core/invariants.h"

namespace pcisim::e1000 {

class TxFifo {
public:
    explicit TxFifo(std::uint32_t capacity_bytes) : capacity_(capacity_bytes) {}

    // PBA may only be changed while the FIFO is empty (SDM 13.4.26); we do not police that,
    // the new size applies to the next reservation.
    void set_capacity(std::uint32_t bytes) { capacity_ = bytes; }
    std::uint32_t capacity() const { return capacity_; }
    std::uint32_t used() const { return used_; }
    std::uint32_t peak() const { return peak_; }
    bool has_room(std::uint32_t bytes) const { return used_ + bytes <= capacity_; }

    void reserve(std::uint32_t bytes) {
        if (!has_room(bytes)) violated("overflow: reserving " + std::to_string(bytes) + " B");
        used_ += bytes;
        if (used_ > peak_) peak_ = used_;
    }
    void release(std::uint32_t bytes) {
        if (bytes > used_) violated("underflow: releasing " + std::to_string(bytes) + " B");
        used_ -= bytes;
    }

private:
    [[noreturn]] void violated(const std::string& what) const {
        throw InvariantViolation("nic TX FIFO", what + " with " + std::to_string(used_) + " of " +
                                                    std::to_string(capacity_) + " B used");
    }

    std::uint32_t capacity_;
    std::uint32_t used_ = 0;
    std::uint32_t peak_ = 0;
};

}  // namespace pcisim::e1000
