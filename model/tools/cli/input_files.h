// The files a command reads that its outputs must never replace (output::check_outputs).
#pragma once

#include <string>
#include <vector>

namespace pcisim::cli {

// Every file under the data directory's scenarios/ (the calibration set, its scenarios and
// their platforms) and docs/data/ (the reference measurements): what validate and bench read.
std::vector<std::string> scenario_tree_files();

}  // namespace pcisim::cli
