#include "tools/validate/shared_runs.h"

#include <map>
#include <set>
#include <utility>

#include "core/data_dir.h"

namespace pcisim::validate {

RunPlan plan_runs(const std::vector<SimPoint>& points) {
    RunPlan plan;
    std::map<std::string, Scenario> files;      // scenario name -> the file, loaded
    std::map<std::string, std::size_t> run_of;  // checked scenario's text -> its run
    std::set<std::string> keys;
    for (const auto& p : points) {
        if (!keys.insert(p.key()).second) continue;
        std::vector<std::string> sets = p.sets;
        sets.push_back("packet.size=" + std::to_string(p.size));
        try {
            auto file = files.find(p.scenario);
            if (file == files.end())
                file = files.emplace(p.scenario, Scenario::load(data_path(
                                         "scenarios/" + p.scenario + ".json").string()))
                           .first;
            Scenario s = file->second.with(sets);
            auto [at, added] = run_of.emplace(s.resolved().dump(), plan.runs.size());
            if (added) plan.runs.push_back({std::move(s), {}});
            plan.runs[at->second].points.push_back(p);
        } catch (const ScenarioError& e) {
            plan.failures.push_back(p.key() + ": " + e.what());
        }
    }
    return plan;
}

}  // namespace pcisim::validate
