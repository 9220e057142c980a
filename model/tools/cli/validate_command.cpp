// pcisim validate: simulate every calibration case, compare with the reference measurements,
// print the table and write docs/validation.md; optionally the driver-variant predictions.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/numeric_options.h"
#include "tools/cli/options.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/verbosity.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "core/data_dir.h"
#include "tools/sweep/worker_pool.h"
#include "tools/validate/calibration_set.h"
#include "tools/validate/validation_report.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {

// Simulates points in worker processes; the tx_pps of each by key (NaN when it failed).
std::map<std::string, double> simulate(const std::vector<validate::SimPoint>& all,
                                       std::size_t jobs, std::vector<std::string>& failures) {
    std::vector<validate::SimPoint> points;
    std::map<std::string, double> pps;
    for (const auto& p : all)
        if (pps.emplace(p.key(), std::nan("")).second) points.push_back(p);
    sweep::PoolOptions options;
    options.parallel = jobs;
    // Each scenario file is read once, here; a file that does not load fails its points in
    // the workers, with its own error.
    auto path = [](const validate::SimPoint& p) {
        return data_path("scenarios/" + p.scenario + ".json").string();
    };
    std::map<std::string, Scenario> files;
    for (const auto& p : points) {
        if (files.count(p.scenario)) continue;
        try {
            files.emplace(p.scenario, Scenario::load(path(p)));
        } catch (const ScenarioError&) {
        }
    }
    auto point_scenario = [&](std::size_t i) {
        const validate::SimPoint& p = points[i];
        std::vector<std::string> sets = p.sets;
        sets.push_back("packet.size=" + std::to_string(p.size));
        auto file = files.find(p.scenario);
        return file == files.end() ? Scenario::load(path(p), sets) : file->second.with(sets);
    };
    auto job = [&](std::size_t i) {
        Scenario s = point_scenario(i);
        Simulation sim(s);
        nlohmann::json r = sim.run();
        return nlohmann::json{{"value", r.at(nlohmann::json::json_pointer(points[i].result))}};
    };
    std::size_t done = 0;
    auto on_done = [&](std::size_t i, const sweep::JobOutcome& o) {
        if (o.ok)
            pps[points[i].key()] = o.result["value"].get<double>();
        else
            failures.push_back(points[i].key() + ": " + o.error);
        if (++done % 20 == 0 || done == points.size())
            output::info_stream() << "validate: " << done << "/" << points.size()
                                  << " simulations\n";
    };
    sweep::run_jobs(points.size(), job, options, on_done);
    return pps;
}

}  // namespace

int validate(const Args& args) {
    std::string case_id, doc, json_out, jobs_text;
    std::size_t jobs = sweep::default_parallelism();
    bool predictions = false, strict = false;
    po::options_description opts(
        "pcisim validate [--case ID] [-j N] [--doc FILE] [--json OUT] [--predictions] [--strict]\n"
        "Exits 0 when every check is within tolerance but the documented known misses\n"
        "(docs/calibration.md), 1 otherwise.  Options");
    opts.add_options()("help,h", "this help")(
        "case", po::value<std::string>(&case_id), "only the calibration case with this id")(
        "jobs,j", po::value<std::string>(&jobs_text),
        "simulations at once, 1 to 1024 (default: cores)")(
        "doc", po::value<std::string>(&doc),
        "write the report (Markdown) here, e.g. docs/validation.md")(
        "json", po::value<std::string>(&json_out),
        "write every check as JSON ('-': to stdout, the table then to stderr)")(
        "predictions", po::bool_switch(&predictions),
        "also simulate the driver variants on every platform (the predictions section)")(
        "strict", po::bool_switch(&strict), "fail on the documented known misses too");
    try {
        po::variables_map vm;
        if (!parse_options(args, opts, vm)) return 0;
        if (vm.count("jobs")) jobs = parse_count("-j", jobs_text, 1, kMaxWorkers);
    } catch (const po::error& e) {
        std::cerr << "pcisim validate: " << e.what() << "\n";
        return 2;
    }
    try {
        auto set = validate::CalibrationSet::load(data_path("scenarios/calibration.json").string());
        if (!case_id.empty() && !set.has_case(case_id)) {
            std::cerr << "pcisim validate: --case " << case_id
                      << " is not a calibration case; see scenarios/calibration.json\n";
            return 2;
        }
        std::vector<validate::SimPoint> points = set.points(case_id);
        std::vector<validate::Prediction> grid;
        if (predictions) {
            grid = validate::prediction_grid(set.predictions());
            for (const auto& g : grid) points.push_back(g.point);
        }
        std::vector<std::string> failures;
        auto pps = simulate(points, jobs, failures);
        auto lookup = [&](const validate::SimPoint& p) { return pps.at(p.key()); };
        auto checks = set.evaluate(lookup, case_id);
        std::vector<validate::TierResult> tiers;
        for (const auto& tier : set.tiers())
            tiers.push_back({tier, set.tier_file(tier), set.summarize(checks, tier)});
        for (auto& g : grid) g.pps = pps.at(g.point.key());
        std::ostream& table = output::report_stream(json_out);
        table << validate::table_text(checks, tiers, set.tolerances(), strict);
        for (const auto& f : failures) std::cerr << "failed simulation: " << f << "\n";
        // -q: the verdict alone, where the table would have gone.
        if (output::quiet())
            (output::is_stdout(json_out) ? std::cerr : std::cout)
                << "validate: " << validate::verdict(tiers, strict) << "\n";
        if (!doc.empty())
            output::write_text_file(
                doc, validate::report_markdown(
                         checks, tiers, set.tolerances(), grid,
                         set.predictions().value("notes", std::vector<std::string>{})));
        if (!json_out.empty()) {
            nlohmann::json report = validate::to_json(checks, tiers, grid, strict);
            report["provenance"] = provenance();
            output::write_output(json_out, output::json_text(report, 2, json_out) + "\n");
        }
        return validate::all_pass(tiers, strict) && failures.empty() ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "pcisim validate: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace pcisim::cli
