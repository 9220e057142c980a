// Where the bytes are, per packet, for `explain`: the CPU's cache misses, the slab's batch moves
// and the DMA reads that found their first line modified in a CPU cache (snoop hits), each with
// the time it cost (counts from the run's results, costs from the scenario's parameters).
#pragma once

#include <nlohmann/json.hpp>

namespace pcisim {

class Scenario;

// Null without a cache model (cpu.cache.kib 0) and no slab batches.
nlohmann::json host_data_costs(const Scenario& s, const nlohmann::json& results);

}  // namespace pcisim
