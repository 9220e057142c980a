// What the run would refuse or silently get wrong once it builds the machine, found when the
// scenario is checked (Scenario::load and friends call it after the key checks), so that
// `pcisim check` passes exactly what `pcisim run` runs and every problem names its keys (exit
// 2) instead of a run failing (exit 1) with none.  docs/robustness.md lists the checks.
#pragma once

#include <string>
#include <vector>

namespace pcisim {

class Scenario;

// Builds every module's config from `s` as the run does (a config that refuses the scenario
// reports its problems here), then checks what those configs imply between modules: a TCP
// segment or TSO frame the NIC cannot take (TX FIFO, descriptor cache), host memory for the
// TCP stream's buffers, a receive ring whose tail is never written, a receive buffer that
// holds no frame.  Appends one line per problem.
void check_runnable(const Scenario& s, std::vector<std::string>& problems);

}  // namespace pcisim
