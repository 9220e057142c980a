#include "run/sustained_rate.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/sim_time.h"

namespace pcisim {

std::string unsteady_frames(const FrameCheck& port, Picos from, Picos to, bool finished) {
    if (port.window_frames < 2) return "";  // too few frames: the minimum-frames rule says so
    if (finished) to = std::min(to, port.last);
    const double window_us = ps_to_us(to - from);
    const double frames = static_cast<double>(port.window_frames);
    const double pps = port_frame_rate(port, window_us * 1e-6);
    const double claimed = pps * window_us * 1e-6;  // the frames that rate puts in the window
    const Picos gap = std::max({port.first - from, port.longest_gap, to - port.last});
    const bool agrees = std::fabs(claimed - frames) <=
                        std::max(SustainedRule::kBoundaryFrames, SustainedRule::kAgreement * frames);
    const bool spread = ps_to_us(gap) <= SustainedRule::kMaxGapShare * window_us;
    if (agrees && spread) return "";
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(1);
    o << port.window_frames << " frames in the " << window_us << " us window come in bursts: ";
    o.precision(0);
    o << pps << " pps between the first and the last frame, " << frames / (window_us * 1e-6)
      << " pps over the window";
    o.precision(1);
    o << ", and no frame for " << ps_to_us(gap) << " us ("
      << std::lround(100 * ps_to_us(gap) / window_us) << " % of the window)";
    return o.str();
}

}  // namespace pcisim
