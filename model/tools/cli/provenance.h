// What produced an output: pcisim's version and git commit, the SystemC library's version and
// the command line.  Every JSON output carries it as "provenance" so that a result file says
// which build and which command made it; the CSV outputs leave it to the JSON beside them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pcisim::cli {

// Called once by main() with its arguments.
void record_command_line(int argc, char* argv[]);

// {"pcisim_version", "git", "systemc_version", "command_line"}; command_line is the argument
// list as given, program name first.
nlohmann::json provenance();

// "pcisim 0.1.0 (git 932e4db), SystemC 2.3.4-Accellera": what --version prints.
std::string version_line();

}  // namespace pcisim::cli
