// Whether a rate measured over a window is the rate the port sustains (docs/robustness.md,
// "Rates that mean what they say").  A port's rate is measured between its first and its last
// frame in the window (measurement.h), which is free of the +-1 frame a window boundary adds
// when the frames come evenly.  When they come in bursts (a driver that writes TDT every 60
// packets, interrupts held back for 67 ms) that interval holds one burst and its rate is
// several times what the port sends over time.  The run takes the window as measured only
// when the frames are spread over it: the rate times the window gives the frames counted in
// it, within two frames (one cut at each edge) or 5 %, and no gap without a frame is more than
// a quarter of the window.  A bursty run goes on with a longer window until they are, or fails
// at simulation.max_window_us saying so.
#pragma once

#include <string>

#include "core/pci_types.h"
#include "run/measurement.h"

namespace pcisim {

struct SustainedRule {
    static constexpr double kBoundaryFrames = 2;  // one frame cut off at each edge
    static constexpr double kAgreement = 0.05;    // rate x window vs the frames in it
    static constexpr double kMaxGapShare = 0.25;  // the longest gap in the window
};

// "" when the port's frames in the window [from, to] are spread over it as above; otherwise
// what shows they come in bursts, for a message ("181 frames in the 10000.0 us window ...").
// A port whose workload has finished is judged up to its last frame (`finished`): the quiet
// after it is no burst.
std::string unsteady_frames(const FrameCheck& port, Picos from, Picos to, bool finished);

}  // namespace pcisim
