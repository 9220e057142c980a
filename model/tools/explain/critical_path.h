// Where the time of one packet goes, from a recorded steady-state window.
//
// The window is cut at the wire ends of port 0's frames, from the first to the last, so it holds
// exactly N packet periods (the measured rate's own definition).  Each resource's time in it is
// split into what the resource was doing, instant by instant, with a priority when activities
// overlap:
//   NIC DMA engine: a NIC bus transaction in progress belongs to the step that issued it (a
//     read to the data read or descriptor fetch in flight, a write to the write-back; split
//     completions carrying the NIC's data count as its read) and is split into its address/
//     attribute, DEVSEL/read-turnaround/wait-state, data and turnaround clocks, or is a retry
//     attempt / split response.  Otherwise the step is data read > descriptor fetch >
//     processing > write-back > FIFO wait > idle, and a bus step is either requesting the bus
//     (another master holds it, or arbitration) or waiting (for read data: back-off, bridge
//     and memory latency; a write: queued behind a NIC read);
//   CPU: register-read stall > interrupt handler > timer > xmit > waiting;
//   wire: frame > inter-packet gap > idle.
// Every picosecond of the window lands in exactly one part, so a resource's parts sum to the
// period.  The resource whose busy time per packet is closest to the period limits the rate;
// the next-busiest is the next bottleneck.  Byte-times: ns x B / 1e9, B = width/8 x clock.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "run/recording.h"

namespace pcisim {

struct ExplainSetup {
    double packet_size = 60;   // s, bytes (frame without FCS)
    double measured_pps = 0;   // the run's tx_pps of the port the recording follows
    // s from the frames on the wire (their mean size): a TCP stream's skbs leave as segments.
    bool wire_frames = false;
};

// Throws std::runtime_error when the window holds too few frames to measure a period.
nlohmann::json explain(const Recording& recording, const ExplainSetup& setup);
// The readable report of explain()'s result.
std::string explain_text(const nlohmann::json& explanation);

}  // namespace pcisim
