// The recorded NIC/CPU steps as intervals: each End paired with the oldest open Begin of the
// same module, step, port and packet.  Steps still open when the window closes end at its end;
// an End whose Begin came before the window starts at the window's start.
#pragma once

#include <string>
#include <vector>

#include "run/recording.h"

namespace pcisim {

struct StepInterval {
    std::string module;
    TraceStep step;
    unsigned port;
    std::int64_t packet;
    std::uint32_t bytes;
    Picos start, end;
    bool instant = false;
};

// In order of start time.
std::vector<StepInterval> step_intervals(const Recording& recording);

}  // namespace pcisim
