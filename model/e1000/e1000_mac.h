// Transmit MAC of one port: store-and-forward, so a frame starts only when it is wholly in the
// FIFO (the DMA engine enqueues it at commit).  On the wire a frame takes preamble/SFD (8) +
// max(len, 60) + FCS (4) byte times, followed by the inter-packet gap of TIPG.IPGT plus the
// MAC's own extra byte times (nic.ipg_extra_bytes); with the defaults (IPGT 8 + 4 = 12 bytes =
// 96 bit times) a stream of s-byte frames leaves at exactly 125e6/(s+24) frames/s at 1 Gb/s.
// The frame's FIFO room is released when its last byte has left.
//
// A frame's times are known when it starts, so the wire may be kept lazily (set_lazy): a frame
// that has left is then finished (counted, observed, its room freed, at its own end time) when
// someone looks (catch_up), and the MAC has an event of its own only while the DMA engine waits
// for FIFO room (wait_for_room).  That saves an event per frame; the owner must catch up before
// it reads the counters, the FIFO or what its frame observer collected.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "e1000/e1000_params.h"
#include "e1000/e1000_stats.h"
#include "e1000/e1000_tx_fifo.h"
#include "core/sim_time.h"

namespace pcisim::e1000 {

using FrameObserver =
    std::function<void(unsigned port, const std::uint8_t* frame, unsigned len, Picos when)>;

class Mac : public sc_core::sc_module {
public:
    Mac(sc_core::sc_module_name name, unsigned port, const E1000Params& params, TxFifo& fifo,
        TxStats& stats, const FrameObserver& observer);

    // A frame whose bytes are all in the FIFO (its room was reserved by the DMA engine), from
    // now or, lazily, from a later time `ready` that the DMA engine knows in advance.
    void enqueue(std::vector<std::uint8_t> frame) { enqueue(std::move(frame), now_ps()); }
    void enqueue(std::vector<std::uint8_t> frame, Picos ready);
    bool lazy() const { return lazy_; }
    void set_enabled(bool on);      // TCTL.EN
    void set_ipgt(unsigned bytes);  // TIPG.IPGT, byte times at 1 Gb/s
    void set_lazy(bool on);         // off (the default): an event at every frame's end
    // Lazy: every frame that has left by now is finished (inline: the DMA engine asks often).
    void catch_up() {
        if (lazy_ && sending_ && send_end_ <= now_ps()) finish_frames(now_ps());
    }
    void wait_for_room();           // lazy: the DMA engine waits for FIFO room
    // Called for every frame that has left, with its buffer (the DMA engine reuses it for a
    // later frame instead of allocating one per packet).
    void on_frame_sent(std::function<void(std::vector<std::uint8_t>&&)> fn) {
        frame_sent_ = std::move(fn);
    }
    // Called from the MAC's own event after FIFO room was freed (lazy: once the DMA engine has
    // asked for it), so that the DMA engine looks for room again.
    void on_room_freed(std::function<void()> fn) { room_freed_ = std::move(fn); }

    std::uint64_t frames_sent() const { return frames_sent_; }
    // Frames of `len` bytes (no FCS) per second back to back at the link speed: each with its
    // preamble, FCS and the gap TIPG.IPGT + ipg_extra_bytes as now set (24 byte times around
    // a frame with the driver's IPGT, as IEEE 802.3 has it).
    double wire_limit_pps(std::size_t len) const;

private:
    void advance();  // SC_METHOD: finishes the frame on the wire, starts the next one
    bool finish_frames(Picos upto);  // frames whose last byte has left by `upto`; any?
    void start_next(Picos now);  // the queue's first frame goes on the wire (after the gap)
    void arm(Picos now);         // the event at the frame's end, when one is wanted
    Picos frame_time(std::size_t len) const;

    unsigned port_;
    const E1000Params& params_;
    TxFifo& fifo_;
    TxStats& stats_;
    const FrameObserver& observer_;
    std::function<void(std::vector<std::uint8_t>&&)> frame_sent_;
    std::function<void()> room_freed_;

    struct Queued {
        std::vector<std::uint8_t> frame;
        Picos ready;  // committed to the MAC
    };
    std::deque<Queued> queue_;
    bool enabled_ = false;
    bool lazy_ = false;
    bool room_wanted_ = false;  // lazy: the DMA engine waits for FIFO room
    unsigned ipgt_ = 8;
    bool sending_ = false;   // a frame is on the wire or lined up behind the gap
    bool lined_up_ = false;  // it was lined up while the gap still ran
    Picos send_start_ = 0;   // its preamble starts
    Picos send_end_ = 0;     // its last byte leaves
    Picos wire_free_ = 0;  // end of the inter-packet gap after it
    std::uint64_t frames_sent_ = 0;
    sc_core::sc_event wake_{"wake"};
};

}  // namespace pcisim::e1000
