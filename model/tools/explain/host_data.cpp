#include "tools/explain/host_data.h"

#include "run/scenario.h"

namespace pcisim {

nlohmann::json host_data_costs(const Scenario& s, const nlohmann::json& results) {
    const double misses = results.value("cache_misses_per_packet", 0.0);
    const double batches = results.value("slab_batches_per_packet", 0.0);
    const double snoops = results.value("snoop_hits_per_packet", 0.0);
    if (s.integer("cpu.cache.kib") == 0 && batches == 0) return nullptr;
    const double cycle_ns = 1e3 / s.number("cpu.clock_mhz");
    return {
        {"cache_misses_per_packet", misses},
        {"cache_miss_ns_per_packet", misses * s.number("cpu.cache.miss_ns")},
        {"slab_batches_per_packet", batches},
        {"slab_batch_ns_per_packet", batches * s.number("cpu.cycles.slab_batch") * cycle_ns},
        {"snoop_hits_per_packet", snoops},
        // As the host bridge charged them: a read's first line, or a further line in its stream.
        {"snoop_extra_ns_per_packet", results.value("snoop_extra_ns_per_packet", 0.0)},
    };
}

}  // namespace pcisim
