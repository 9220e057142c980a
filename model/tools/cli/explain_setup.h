// What explain needs to know of a run beyond its recording: the size s and the measured rate of
// the port the recording follows.  Shared by `pcisim explain` and the tests that explain a
// window they simulated themselves.
#pragma once

#include <nlohmann/json.hpp>

#include "run/recording.h"
#include "run/scenario.h"
#include "tools/explain/critical_path.h"
#include "tools/explain/receive_path.h"

namespace pcisim::cli {

// The transmit side: s is pktgen's packet.size, or for a TCP stream the mean segment on the
// wire; the rate is the tx_pps of the first transmitting port (Recording::port()).
ExplainSetup transmit_setup(const Scenario& s, const Recording& rec, const nlohmann::json& results);

// The receive side: the rx_pps of the first receiving port on the recorded segment and the
// run's rx.* results.  Throws std::runtime_error when no port receives there.
ReceiveSetup receive_setup(const Scenario& s, const Recording& rec, const nlohmann::json& results);

}  // namespace pcisim::cli
