// Whole scenarios simulated in the test's own process (apart from test_support.h: the
// simulation's headers bring names some tests define for themselves).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/scenario.h"
#include "run/simulation.h"
#include "test_support.h"

namespace pcisim::test {

// One run of scenarios/NAME.json with `sets` in this process: its results.
inline nlohmann::json simulate(const std::string& name, const std::vector<std::string>& sets) {
    Scenario s = Scenario::load(scenario_path(name), sets);
    Simulation sim(s);
    return sim.run();
}

// The same with a measurement window of exactly `window_us` after exactly `warmup_us`.
inline nlohmann::json simulate_fixed(const std::string& name, std::vector<std::string> sets,
                                     double window_us = 2000, double warmup_us = 300) {
    for (auto& o : fixed_window(window_us, warmup_us)) sets.push_back(o);
    return simulate(name, sets);
}

}  // namespace pcisim::test
