// Where the time of one received frame goes, from a recorded window (the receive side of
// explain; critical_path.h is the transmit side).
//
// The window is cut at the ends of the receiving port's data writes, first to last: N frames
// delivered to host memory, N - 1 periods between them (rx_pps's own definition).  Each
// resource's time is split instant by instant, with a priority where activities overlap:
//   wire: frames arriving (gap, preamble, frame, FCS) > idle;
//   NIC receive DMA engine: a NIC bus transaction in progress belongs to the receive step it
//     serves (a write to the frame's data write if one is in flight, else to the descriptor
//     write-back; a read to the descriptor fetch), split into address/attribute, DEVSEL/wait,
//     data and turnaround clocks (reads also retry attempts and split responses); otherwise
//     the step data write > write-back > descriptor fetch > frame held for a descriptor > idle,
//     a bus step either requesting the bus (another master holds it, or arbitration) or
//     waiting (a write: queued in the NIC's bus interface; a read: its latency);
//   CPU: register-read stall > refill > clean_rx_irq > rest of the interrupt handler > timer >
//     xmit > waiting.
// Each resource's parts sum to the period; the busiest resource limits the rate (the engine's
// busy time leaves out frames held for a descriptor: that wait is the driver's doing).
#pragma once

#include <nlohmann/json.hpp>

#include "run/recording.h"

namespace pcisim {

struct ReceiveSetup {
    double measured_pps = 0;  // the run's rx_pps of the port the recording follows
    nlohmann::json run_rx;    // the run's rx.* results (missed frames by cause), or null
};

// Throws std::runtime_error when the recording follows no receiving port or the window holds
// too few delivered frames.
nlohmann::json explain_receive(const Recording& recording, const ReceiveSetup& setup);
// The readable report of explain_receive()'s result.
std::string explain_receive_text(const nlohmann::json& explanation);

}  // namespace pcisim
