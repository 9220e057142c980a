#include "tools/validate/shared_runs.h"

#include <map>
#include <set>
#include <utility>

#include "core/data_dir.h"

namespace pcisim::validate {

namespace {

std::vector<std::string> overrides_of(const SimPoint& p) {
    std::vector<std::string> sets = p.sets;
    sets.push_back("packet.size=" + std::to_string(p.size));
    return sets;
}

}  // namespace

Scenario RunPlan::scenario(std::size_t run) const {
    const SimPoint& p = runs.at(run).points.front();
    return files.at(p.scenario).with(overrides_of(p));
}

RunPlan plan_runs(const std::vector<SimPoint>& points) {
    RunPlan plan;
    std::map<std::string, std::size_t> run_of;  // checked scenario's text -> its run
    std::set<std::string> keys;
    for (const auto& p : points) {
        if (!keys.insert(p.key()).second) continue;
        try {
            auto file = plan.files.find(p.scenario);
            if (file == plan.files.end())
                file = plan.files
                           .emplace(p.scenario, Scenario::load(data_path(
                                        "scenarios/" + p.scenario + ".json").string()))
                           .first;
            auto [at, added] =
                run_of.emplace(file->second.with(overrides_of(p)).resolved().dump(),
                               plan.runs.size());
            if (added) plan.runs.emplace_back();
            plan.runs[at->second].points.push_back(p);
        } catch (const ScenarioError& e) {
            plan.failures.push_back(p.key() + ": " + e.what());
        }
    }
    return plan;
}

}  // namespace pcisim::validate
