// What produced an output: pcisim's version and git commit, the SystemC library's version and
// the command line.  Every JSON output carries it as "provenance" so that a result file says
// which build and which command made it; the CSV outputs leave it to the JSON beside them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metric_spec.h"

namespace pcisim::cli {

// Called once by main() with its arguments.
void record_command_line(int argc, char* argv[]);

// {"pcisim_version", "git", "systemc_version", "command_line"}; command_line is the argument
// list as given, program name first.
nlohmann::json provenance();
// The same without the options in `output_options` (each with its value, "--json OUT" or
// "--json=OUT") and the flags in `output_flags` ("-q"): those that choose where results go, not
// what they are.  Two runs that differ only in them give byte-identical results
// (tests/test_end_to_end.cpp), provenance included.
nlohmann::json provenance_without(const std::vector<std::string>& output_options,
                                  const std::vector<std::string>& output_flags = {});

// Its keys, for the metrics reference (docs/metrics-reference.md).
std::vector<MetricSpec> provenance_metrics();

// "pcisim 0.1.0 (git 932e4db), SystemC 2.3.4-Accellera": what --version prints.
std::string version_line();

}  // namespace pcisim::cli
