// A recorded window as Chrome trace-event JSON (Perfetto, chrome://tracing).
//
// Process "bus" has one track per bus master with a slice per transaction (and one per
// arbitration wait, REQ# to FRAME#); each NIC or CPU module is a process whose tracks hold
// its steps (descriptor fetch, data read, processing, wire, write-back, xmit, MMIO stall ...).
// A track never holds overlapping slices: a step that overlaps the previous one of its kind
// (two posted write-backs in flight, a register read inside the interrupt handler) goes on
// another track of the same module.  Flows join the steps of one packet (by its frame number).
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "run/recording.h"

namespace pcisim {

nlohmann::json chrome_trace(const Recording& recording);
void write_chrome_trace(std::ostream& out, const Recording& recording);

}  // namespace pcisim
