// SCENARIO on the command line of run, check and explain: a file, or "-" for the standard input
// (read once, with a file's limits; a relative platform path is then looked up from the current
// directory, then in the data directory).
#pragma once

#include <string>
#include <vector>

#include "run/scenario.h"

namespace pcisim::cli {

// Throws ScenarioError, as Scenario::load does.
Scenario load_scenario(const std::string& file, const std::vector<std::string>& sets);

}  // namespace pcisim::cli
