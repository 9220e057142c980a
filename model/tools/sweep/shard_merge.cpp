#include "tools/sweep/shard_merge.h"

#include <algorithm>
#include <stdexcept>

namespace pcisim::sweep {

namespace {

bool same_sweep(const SweepTable& a, const SweepTable& b) {
    if (a.scenario_file != b.scenario_file || a.sets != b.sets || a.axes.size() != b.axes.size() ||
        a.points_total != b.points_total || a.base_scenario != b.base_scenario)
        return false;
    for (std::size_t i = 0; i < a.axes.size(); ++i)
        if (a.axes[i].key != b.axes[i].key || a.axes[i].values != b.axes[i].values) return false;
    return true;
}

}  // namespace

SweepTable merge_shards(const std::vector<SweepTable>& shards) {
    if (shards.empty()) throw std::runtime_error("no shards to merge");
    SweepTable merged = shards.front();
    merged.shard.reset();
    merged.rows.clear();
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (!same_sweep(shards.front(), shards[i]))
            throw std::runtime_error("shard " + std::to_string(i + 1) +
                                     " comes from a different sweep (scenario, --set or --vary "
                                     "differ from the first)");
        merged.rows.insert(merged.rows.end(), shards[i].rows.begin(), shards[i].rows.end());
    }
    std::sort(merged.rows.begin(), merged.rows.end(),
              [](const SweepRow& a, const SweepRow& b) { return a.index < b.index; });
    for (std::size_t i = 0; i < merged.points_total; ++i) {
        if (i >= merged.rows.size() || merged.rows[i].index > i)
            throw std::runtime_error("point " + std::to_string(i) +
                                     " is in none of the shards; is a shard missing?");
        if (merged.rows[i].index < i)
            throw std::runtime_error("point " + std::to_string(merged.rows[i].index) +
                                     " is in more than one shard");
    }
    if (merged.rows.size() > merged.points_total)
        throw std::runtime_error("point " + std::to_string(merged.rows.back().index) +
                                 " is in more than one shard");
    return merged;
}

}  // namespace pcisim::sweep
