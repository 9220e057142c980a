// What a run measures while it runs: the frames each port puts on the wire (checked to leave
// once and in pktgen's order) and the rate over the measurement window.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pci_types.h"

namespace pcisim {

// Every frame leaving one port's MAC: counted, and checked to be the next in pktgen's order.
struct FrameCheck {
    unsigned port = 0;
    bool check_order = false;
    std::uint32_t expected_seq = 0;
    std::uint64_t frames = 0;      // since time zero
    Picos first = 0, last = 0;     // in the window
    std::uint64_t window_frames = 0;
    void seen(const std::uint8_t* frame, unsigned len, Picos when);
    void open_window() { window_frames = 0, first = last = 0; }
};

// One port's frames per second over the window: between the first and the last frame it sent
// in it, which is free of the +-1 frame a window boundary would add (0.6 % at 80 kpps over
// 2 ms); with fewer than two frames, the count over the whole window of `window_s` seconds.
double port_frame_rate(const FrameCheck& port, double window_s);
// The ports' rates added up.  Each port is measured on its own: one interval from the first
// frame of any port to the last of any would count a frame more than the ports' intervals hold
// (two ports at the wire limit came out above twice the limit).
double window_frame_rate(const std::vector<FrameCheck>& ports, double window_s);
std::uint64_t window_frames(const std::vector<FrameCheck>& ports);
std::uint64_t frames_since_start(const std::vector<FrameCheck>& ports);

}  // namespace pcisim
