// Transmit MAC of one port: store-and-forward, so a frame starts only when it is wholly in the
// FIFO (the DMA engine enqueues it at commit).  On the wire a frame takes preamble/SFD (8) +
// max(len, 60) + FCS (4) byte times, followed by the inter-packet gap of TIPG.IPGT plus the
// MAC's own extra byte times (nic.ipg_extra_bytes); with the defaults (IPGT 8 + 4 = 12 bytes =
// 96 bit times) a stream of s-byte frames leaves at exactly 125e6/(s+24) frames/s at 1 Gb/s.
// The frame's FIFO room is released when its last byte has left.
//
// The MAC is told the time: it computes when each frame starts and ends and finishes the frames
// that have left by a given instant.  When that instant comes (an event at every frame's end,
// or lazily when someone looks) is MacWire's business (e1000_mac_wire.h).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "nic/frame_timeline.h"
#include "e1000/e1000_params.h"
#include "e1000/e1000_tx_fifo.h"
#include "core/pci_types.h"

namespace pcisim::e1000 {

// The MAC's counters (since the last reset): frames and their bytes sent, and the wire time
// they took.
struct MacStats {
    std::uint64_t tx_frames = 0;
    std::uint64_t tx_bytes = 0;  // frame bytes without FCS, preamble, IPG
    Picos wire = 0;              // frame + preamble + FCS + IPG
};

class Mac {
public:
    // `name` names the MAC in traces.
    Mac(std::string name, unsigned port, const E1000Params& params, TxFifo& fifo,
        const FrameObserver& observer);

    // A frame whose bytes are all in the FIFO from `times.committed` on (its room was reserved
    // by the DMA engine); the MAC adds the wire stamps.  An idle MAC lines it up at once;
    // returns whether the MAC was idle.
    bool enqueue(std::vector<std::uint8_t>&& frame, const FrameTimeline& times, Picos now);
    void set_enabled(bool on, Picos now);  // TCTL.EN
    void set_ipgt(unsigned bytes) { ipgt_ = bytes; }  // TIPG.IPGT, byte times
    // Finishes every frame whose last byte has left by `upto` (counted, observed, its room
    // freed, all at its own end time) and lines up the next after each; whether there was any.
    bool finish_frames(Picos upto);
    // With no frame on the wire, the queue's first frame goes on it (after the gap).
    void line_up_next(Picos now) {
        if (!sending_) start_next(now);
    }
    bool sending() const { return sending_; }  // a frame is on the wire or lined up behind the gap
    Picos send_end() const { return send_end_; }  // when its last byte leaves
    std::uint64_t frames_sent() const { return frames_sent_; }
    const MacStats& stats() const { return stats_; }
    void reset_stats() { stats_ = MacStats{}; }
    // Frames of `len` bytes (no FCS) per second back to back at the link speed: each with its
    // preamble, FCS and the gap TIPG.IPGT + ipg_extra_bytes as now set (24 byte times around
    // a frame with the driver's IPGT, as IEEE 802.3 has it).
    double wire_limit_pps(std::size_t len) const;
    // Called for every frame that has left, with its buffer (the DMA engine reuses it for a
    // later frame instead of allocating one per packet).
    void on_frame_sent(std::function<void(std::vector<std::uint8_t>&&)> fn) {
        frame_sent_ = std::move(fn);
    }

private:
    void start_next(Picos now);
    Picos frame_time(std::size_t len) const;
    Picos gap() const;  // after a frame: TIPG.IPGT + ipg_extra_bytes byte times

    std::string name_;
    unsigned port_;
    const E1000Params& params_;
    TxFifo& fifo_;
    MacStats stats_;
    const FrameObserver& observer_;
    std::function<void(std::vector<std::uint8_t>&&)> frame_sent_;

    struct Queued {
        std::vector<std::uint8_t> frame;
        FrameTimeline times;  // ready to send from times.committed
    };
    std::deque<Queued> queue_;
    bool enabled_ = false;
    unsigned ipgt_ = 8;
    bool sending_ = false;
    bool lined_up_ = false;  // it was lined up while the gap still ran
    Picos send_start_ = 0;   // its preamble starts
    Picos send_end_ = 0;     // its last byte leaves
    Picos wire_free_ = 0;    // end of the inter-packet gap after it
    std::uint64_t frames_sent_ = 0;
};

}  // namespace pcisim::e1000
