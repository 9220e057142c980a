// Reporting: the results document of a measured run (JSON, units in the key names) and its
// readable summary.  Nothing here simulates or decides when to stop.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metric_spec.h"
#include "run/measurement.h"
#include "run/platform.h"

namespace pcisim {

// A receiving port's frames in the window, as its NIC counted them.  `delivered` counts the
// frames written back (DD) in the window, but at most the frames that arrived in it and were
// not missed: a receive rate never above what the wire sent.
struct RxPortWindow {
    std::uint64_t arrived = 0, delivered = 0, missed = 0;
};

// How the measurement went.
struct RunWindow {
    double warmup_us = 0;    // simulated time before the window
    double window_us = 0;    // the window's length
    double stability = 0;    // the rate's change in the last batch (NaN: one batch only)
    std::vector<RxPortWindow> rx;  // per receiving port, in the order of the ports
};

// Not const: the bus settles what it kept lazily before its counters are read.
nlohmann::json results_document(const nlohmann::json& resolved_scenario, Platform& platform,
                                const std::vector<FrameCheck>& frames, const RunWindow& window);

// Every key results_document writes, with its unit and meaning, in documentation order
// (docs/metrics-reference.md): from the same statistics declarations the document is written
// from (each NIC family's statistics group, through run/nic_families.h).
std::vector<MetricSpec> result_metrics();

// The readable summary of a results document.
std::string summarize(const nlohmann::json& results);

}  // namespace pcisim
