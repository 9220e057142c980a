// Which CPU ran what, and what the CPUs cost each other, per packet, for `explain`: each CPU's
// part of a packet's chain (the pktgen threads it runs, the interrupts and cleanup timer ticks
// it took) and, per packet sent, its locked instructions, the cache lines it took from other
// CPUs (by what they hold), the copies it took from them, the misses of another NUMA node's
// memory and its spinning on locks others held, each with the time it cost (counts from the
// run's results, costs from the scenario's parameters).
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

namespace pcisim {

class Scenario;

// Null on a machine with one CPU whose kernel has no locked instructions.
nlohmann::json cpu_placement_costs(const Scenario& s, const nlohmann::json& results);
// The text explain prints for it.
void print_cpu_placement(std::ostream& o, const nlohmann::json& placement);

}  // namespace pcisim
