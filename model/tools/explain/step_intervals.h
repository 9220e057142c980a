// The recorded NIC/CPU steps as intervals: each End paired with the oldest open Begin of the
// same module, step, port and packet.  Steps still open when the window closes end at its end;
// an End whose Begin came before the window starts at the window's start.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/recording.h"
#include "tools/explain/interval_sweep.h"

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

// One module's steps as spans, each on the channel of its step's place in `order`.
std::vector<Span> module_spans(const std::vector<StepInterval>& steps, const std::string& module,
                               const std::vector<TraceStep>& order);

// One module's time in [a, b), each piece given to the first step of `order` active over it:
// `parts` per unit (ns, and byte-times at bytes_per_s, divided by `units`: the packets or
// frames of the span) named by `names` (whose last entry, label order.size(), is "none of
// them"), and `none`, the time with none of the steps.
struct StepParts {
    nlohmann::json parts;
    Picos none = 0;
};
StepParts module_step_parts(const std::vector<StepInterval>& steps, const std::string& module,
                            const std::vector<TraceStep>& order, const char* const* names,
                            Picos a, Picos b, double units, double bytes_per_s);

}  // namespace pcisim
