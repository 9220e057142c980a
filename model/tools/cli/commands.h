// The pcisim subcommands.  Each takes the arguments after its name and returns the exit code:
// 0 success, 1 a run that failed, 2 bad input (scenario or command line).
#pragma once

#include <string>
#include <vector>

namespace pcisim::cli {

using Args = std::vector<std::string>;

int run(const Args& args);     // pcisim run SCENARIO [--set K=V ...] [--json OUT]
int check(const Args& args);   // pcisim check SCENARIO [--set K=V ...]
int schema(const Args& args);  // pcisim schema: the scenario reference as Markdown
int metrics(const Args& args); // pcisim metrics: the results reference as Markdown
// pcisim sweep SCENARIO --vary KEY=LIST|A:B:STEP ... [--set K=V ...] [-j N] [-o OUT.csv]
//              [--shard I/N] [--timeout-s S]
int sweep(const Args& args);
int merge(const Args& args);     // pcisim merge OUT.csv SHARD.csv ...
int validate(const Args& args);  // pcisim validate [--case ID] [-j N] [--doc FILE] [--predictions]
// pcisim fit SWEEP.csv [--group-by KEYS] [--x COL] [--y COL] [--wire-pps-column COL]
//            [--bus-bytes-per-s B] [--json OUT]
int fit(const Args& args);
// pcisim explain SCENARIO [--set K=V ...] [--json OUT] [--window START_US:END_US] [--vcd FILE]
//                [--trace FILE]
int explain(const Args& args);
// pcisim bench [--case ID ...] [--packets N1,N2,...] [--runs R] [--json OUT]
// pcisim bench --against OTHER_PCISIM [--case ID ...] [--packets N] [--pairs P] [--json OUT]
int bench(const Args& args);

// Prints every problem of a scenario error to stderr, one line each.
int report_scenario_error(const std::exception& e);

}  // namespace pcisim::cli
