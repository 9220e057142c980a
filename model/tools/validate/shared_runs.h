// The simulations a list of validation points needs.  Points whose checked scenarios are the
// same document share one run, read for each point's result: a case may name an override its
// preset already has (pktgen.clone_skb=0 on a preset that clones none, kernel.smp=false on a
// uniprocessor), and the same platform recurs across cases and predictions.  A simulation
// depends on nothing but its checked scenario (it is deterministic), so each point of a run
// gets the number it would have got from a run of its own.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "run/scenario.h"
#include "tools/validate/calibration_set.h"

namespace pcisim::validate {

struct SharedRun {
    std::vector<SimPoint> points;  // the points it answers, each key once, in the given order
};

struct RunPlan {
    std::vector<SharedRun> runs;
    // "key: why" for each point whose scenario does not load or check (it has no run).
    std::vector<std::string> failures;
    // The scenario of a run: its first point's file with that point's overrides and size.
    // Built where it runs (a worker), not kept: a thousand checked scenarios are a hundred
    // megabytes that every forked worker would copy the page tables of.
    Scenario scenario(std::size_t run) const;
    // Each scenario file of the points, read once.
    std::map<std::string, Scenario> files;
};

// Reads each scenario file under scenarios/ once.
RunPlan plan_runs(const std::vector<SimPoint>& points);

}  // namespace pcisim::validate
