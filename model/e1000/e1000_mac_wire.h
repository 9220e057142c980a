// The MAC in simulated time: when Mac (e1000_mac.h) gets to finish the frames that have left.
// This is the seam between the MAC's timing and the events it costs.
//
// Eager (the default): an event at every frame's end; the frame is finished then and the DMA
// engine is told that FIFO room was freed.
//
// Lazy (set_lazy, while no recording watches every step): a frame's start and end are known
// when it starts, so a frame that has left is finished (counted, observed, its room freed, all at
// its own end time) when someone looks (catch_up), and the MAC has an event of its own only
// while the DMA engine waits for FIFO room (wait_for_room).  That saves an event per frame; the
// owner must catch up before it reads the counters, the FIFO or what its frame observer
// collected.  The results are the same as eager's (docs/architecture.md, "Events the NIC and
// the CPU do without").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "e1000/e1000_mac.h"
#include "core/sim_time.h"

namespace pcisim::e1000 {

class MacWire : public sc_core::sc_module {
public:
    MacWire(sc_core::sc_module_name name, unsigned port, const E1000Params& params, TxFifo& fifo,
            const FrameObserver& observer);

    // A frame whose bytes are all in the FIFO from `times.committed`: now or, lazily, a later
    // time that the DMA engine knows in advance.
    void enqueue(std::vector<std::uint8_t> frame, const FrameTimeline& times);
    void set_enabled(bool on);      // TCTL.EN
    void set_ipgt(unsigned bytes);  // TIPG.IPGT
    std::uint64_t frames_sent() const { return mac_.frames_sent(); }
    const MacStats& stats() const { return mac_.stats(); }
    void reset_stats() { mac_.reset_stats(); }
    double wire_limit_pps(std::size_t len) const { return mac_.wire_limit_pps(len); }
    void on_frame_sent(std::function<void(std::vector<std::uint8_t>&&)> fn) {
        mac_.on_frame_sent(std::move(fn));
    }
    // Called from the MAC's own event after FIFO room was freed (lazy: once the DMA engine has
    // asked for it), so that the DMA engine looks for room again.
    void on_room_freed(std::function<void()> fn) { room_freed_ = std::move(fn); }

    bool lazy() const { return lazy_; }
    void set_lazy(bool on);  // off (the default): an event at every frame's end
    // Lazy: every frame that has left by now is finished (inline: the DMA engine asks often).
    void catch_up() {
        if (lazy_ && mac_.sending() && mac_.send_end() <= now_ps()) mac_.finish_frames(now_ps());
    }
    void wait_for_room();  // lazy: the DMA engine waits for FIFO room

private:
    void advance();       // SC_METHOD: finishes the frame on the wire, starts the next one
    void arm(Picos now);  // the event at the frame's end, when one is wanted

    Mac mac_;
    std::function<void()> room_freed_;
    bool lazy_ = false;
    bool room_wanted_ = false;  // lazy: the DMA engine waits for FIFO room
    sc_core::sc_event wake_{"wake"};
};

}  // namespace pcisim::e1000
