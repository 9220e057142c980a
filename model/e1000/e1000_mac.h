// Transmit MAC of one port: store-and-forward, so a frame starts only when it is wholly in the
// FIFO (the DMA engine enqueues it at commit).  On the wire a frame takes preamble/SFD (8) +
// max(len, 60) + FCS (4) byte times, followed by the inter-packet gap of TIPG.IPGT plus the
// MAC's own extra byte times (nic.ipg_extra_bytes); with the defaults (IPGT 8 + 4 = 12 bytes =
// 96 bit times) a stream of s-byte frames leaves at exactly 125e6/(s+24) frames/s at 1 Gb/s.
// The frame's FIFO room is released when its last byte has left.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "e1000/e1000_params.h"
#include "e1000/e1000_stats.h"
#include "e1000/e1000_tx_fifo.h"

namespace pcisim::e1000 {

using FrameObserver =
    std::function<void(unsigned port, const std::uint8_t* frame, unsigned len, Picos when)>;

class Mac : public sc_core::sc_module {
public:
    Mac(sc_core::sc_module_name name, unsigned port, const E1000Params& params, TxFifo& fifo,
        TxStats& stats, const FrameObserver& observer);

    // A frame whose bytes are all in the FIFO (its room was reserved by the DMA engine).
    void enqueue(std::vector<std::uint8_t> frame);
    void set_enabled(bool on);      // TCTL.EN
    void set_ipgt(unsigned bytes);  // TIPG.IPGT, byte times at 1 Gb/s
    // Called whenever a frame has left and its FIFO room is free again, with the frame's buffer
    // (the DMA engine reuses it for a later frame instead of allocating one per packet).
    void on_frame_sent(std::function<void(std::vector<std::uint8_t>&&)> fn) {
        frame_sent_ = std::move(fn);
    }

    std::uint64_t frames_sent() const { return frames_sent_; }

private:
    void advance();  // SC_METHOD: finishes the frame on the wire, starts the next one
    void start_next(Picos now);  // the queue's first frame goes on the wire (after the gap)
    Picos frame_time(std::size_t len) const;

    unsigned port_;
    const E1000Params& params_;
    TxFifo& fifo_;
    TxStats& stats_;
    const FrameObserver& observer_;
    std::function<void(std::vector<std::uint8_t>&&)> frame_sent_;

    std::deque<std::vector<std::uint8_t>> queue_;
    bool enabled_ = false;
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
