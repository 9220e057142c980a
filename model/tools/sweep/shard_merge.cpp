#include "tools/sweep/shard_merge.h"

#include <algorithm>
#include <stdexcept>

namespace pcisim::sweep {

namespace {

using nlohmann::json;

// What makes shard `b` part of a different sweep than `a`: the first field that differs, named
// ("" when none does).  The scenario is compared resolved, not by its file's path: shards run
// from different folders or machines name the same file differently.  The builds must agree
// too (pcisim version and git commit), or the shards' numbers need not fit together.
std::string difference(const SweepTable& a, const SweepTable& b) {
    if (a.base_scenario != b.base_scenario) {
        const json patch = json::diff(a.base_scenario, b.base_scenario);
        return "the resolved scenario (at " + patch.at(0).at("path").get<std::string>() + ")";
    }
    if (a.sets != b.sets) return "--set";
    if (a.axes.size() != b.axes.size()) return "the number of --vary keys";
    for (std::size_t i = 0; i < a.axes.size(); ++i)
        if (a.axes[i].key != b.axes[i].key || a.axes[i].values != b.axes[i].values)
            return "--vary " + a.axes[i].key;
    if (a.points_total != b.points_total) return "points_total";
    for (const char* field : {"pcisim_version", "git"}) {
        const json none;
        const json& pa = a.provenance.is_object() ? a.provenance : none;
        const json& pb = b.provenance.is_object() ? b.provenance : none;
        if (pa.value(field, json()) != pb.value(field, json()))
            return std::string("provenance.") + field + " (" + pa.value(field, json()).dump() +
                   " vs " + pb.value(field, json()).dump() + ")";
    }
    return "";
}

}  // namespace

SweepTable merge_shards(const std::vector<SweepTable>& shards) {
    if (shards.empty()) throw std::runtime_error("no shards to merge");
    SweepTable merged = shards.front();
    merged.shard.reset();
    merged.rows.clear();
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (std::string field = difference(shards.front(), shards[i]); !field.empty())
            throw std::runtime_error("shard " + std::to_string(i + 1) +
                                     " comes from a different sweep: " + field +
                                     " differs from the first shard's");
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
