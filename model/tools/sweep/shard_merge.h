// Joins the shards of one sweep (--shard I/N runs) into the table the unsharded sweep gives.
#pragma once

#include <vector>

#include "tools/sweep/sweep_table.h"

namespace pcisim::sweep {

// Every shard must come from the same scenario, overrides and axes, and together they must hold
// each point exactly once.  Throws std::runtime_error saying which shard or point is wrong.
SweepTable merge_shards(const std::vector<SweepTable>& shards);

}  // namespace pcisim::sweep
