// An E1000's statistics as the results document reports them (nic.* / nics[].stats.*), for
// tests that build a NIC without a run.
#pragma once

#include <nlohmann/json.hpp>

#include "e1000/e1000_statistics.h"
#include "run/stats_json.h"

namespace pcisim {

inline nlohmann::json nic_stats(const E1000& nic) {
    return stats_json(e1000::statistics(), e1000::NicCounters::of(nic));
}

}  // namespace pcisim
