// A packet on its way through the transmit engine (e1000_tx_engine.h), and the packets in
// flight: from the start of its data fetch until it has been committed to the MAC and its
// descriptors written back.  The engine, the TSO path, the write-back and the commit-ahead
// shortcut hand packets to each other; each is a TxPacket from TxPackets.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "e1000/e1000_descriptor_cache.h"
#include "nic/frame_timeline.h"

namespace pcisim::e1000 {

struct TxPacket {
    std::vector<CachedDescriptor> descriptors;
    std::vector<std::uint8_t> frame;
    unsigned next_buffer = 0;  // next descriptor whose data is to be read
    std::uint32_t filled = 0;  // frame bytes arrived
    bool data_done = false;
    std::uint8_t popts = 0;    // checksums to insert (extended descriptors, not TSO)
    bool committed = false;
    unsigned writes_pending = 0;
    std::int64_t seq = 0;      // frame number in MAC order (traces)
    FrameTimeline times;       // up to `committed`; the MAC adds the wire stamps
};

// The packets in flight in start order, which is MAC order.  Retired packets and sent frames'
// buffers are kept and reused, so that the hot path does not allocate.
class TxPackets {
public:
    using List = std::deque<std::unique_ptr<TxPacket>>;

    // `first_seq`: frames already in the FIFO at time zero (nic.preload_packets) come first.
    explicit TxPackets(std::int64_t first_seq) : next_seq_(first_seq) {}

    // A packet in its initial state with a zeroed frame of `frame_bytes`, numbered next, in
    // flight from now on.
    TxPacket& start(std::uint32_t frame_bytes) {
        std::unique_ptr<TxPacket> p;
        if (spare_packets_.empty()) {
            p = std::make_unique<TxPacket>();
        } else {
            p = std::move(spare_packets_.back());
            spare_packets_.pop_back();
            std::vector<CachedDescriptor> descriptors = std::move(p->descriptors);
            *p = TxPacket{};
            p->descriptors = std::move(descriptors);
            p->descriptors.clear();
        }
        if (!spare_frames_.empty()) {
            p->frame = std::move(spare_frames_.back());
            spare_frames_.pop_back();
        }
        p->frame.assign(frame_bytes, 0);
        p->seq = next_seq_++;
        in_flight_.push_back(std::move(p));
        return *in_flight_.back();
    }
    // The number the next packet will get.
    std::int64_t next_seq() const { return next_seq_; }

    List& in_flight() { return in_flight_; }
    const List& in_flight() const { return in_flight_; }
    // Done with the packet at `it`: its write-backs are in (or it had none); the next in flight.
    List::iterator retire(List::iterator it) {
        spare_packets_.push_back(std::move(*it));
        return in_flight_.erase(it);
    }
    void retire(TxPacket* p) {
        for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it)
            if (it->get() == p) {
                retire(it);
                return;
            }
    }
    // A sent frame's buffer, for a later packet.
    void recycle_frame(std::vector<std::uint8_t>&& frame) { spare_frames_.push_back(std::move(frame)); }

private:
    List in_flight_;
    std::vector<std::unique_ptr<TxPacket>> spare_packets_;
    std::vector<std::vector<std::uint8_t>> spare_frames_;
    std::int64_t next_seq_;
};

}  // namespace pcisim::e1000
