// pcisim validate: simulate every calibration case, compare with the reference measurements,
// print the table and write docs/validation.md; optionally the driver-variant predictions.
#include <algorithm>
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
#include "tools/output/output_paths.h"
#include "tools/cli/input_files.h"
#include "tools/output/verbosity.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "core/data_dir.h"
#include "tools/sweep/worker_pool.h"
#include "tools/validate/calibration_set.h"
#include "tools/validate/shared_runs.h"
#include "tools/validate/validation_report.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {

// Simulates points in worker processes, one run per checked scenario (shared_runs.h); the
// value of each point by key (NaN when it failed).
std::map<std::string, double> simulate(const std::vector<validate::SimPoint>& all,
                                       std::size_t jobs, std::vector<std::string>& failures) {
    std::map<std::string, double> pps;
    for (const auto& p : all) pps.emplace(p.key(), std::nan(""));
    validate::RunPlan plan = validate::plan_runs(all);
    failures.insert(failures.end(), plan.failures.begin(), plan.failures.end());
    const std::vector<validate::SharedRun>& runs = plan.runs;
    sweep::PoolOptions options;
    options.parallel = jobs;
    auto job = [&](std::size_t i) {
        Scenario scenario = plan.scenario(i);  // the simulation keeps a reference to it
        Simulation sim(scenario);
        sim.rates_only();
        nlohmann::json r = sim.run(), values = nlohmann::json::array();
        for (const auto& p : runs[i].points)
            values.push_back(r.at(nlohmann::json::json_pointer(p.result)));
        return nlohmann::json{{"values", values}};
    };
    std::size_t done = 0;
    auto on_done = [&](std::size_t i, const sweep::JobOutcome& o) {
        const auto& points = runs[i].points;
        for (std::size_t k = 0; k < points.size(); ++k) {
            if (o.ok)
                pps[points[k].key()] = o.result["values"][k].get<double>();
            else
                failures.push_back(points[k].key() + ": " + o.error);
        }
        if (++done % 20 == 0 || done == runs.size())
            output::info_stream() << "validate: " << done << "/" << runs.size()
                                  << " simulations\n";
    };
    sweep::run_jobs(runs.size(), job, options, on_done);
    return pps;
}

}  // namespace

int validate(const Args& args) {
    std::string case_id, doc, json_out, jobs_text;
    std::vector<std::string> tier_args;
    bool doc_given = false, json_given = false;
    std::size_t jobs = sweep::default_parallelism();
    bool predictions = false, strict = false;
    po::options_description opts(
        "pcisim validate [--case ID] [--tier T ...] [-j N] [--doc FILE] [--json OUT]\n"
        "                [--predictions] [--strict]\n"
        "Checks every tier; exits 0 when every check of the tiers in the verdict (the default\n"
        "ones: stock and variants; or those --tier names) is within tolerance but the\n"
        "documented known misses (docs/calibration.md), 1 otherwise.  Options");
    opts.add_options()("help,h", "this help")(
        "case", po::value<std::string>(&case_id), "only the calibration case with this id")(
        "tier", po::value<std::vector<std::string>>(&tier_args),
        "a tier whose misses fail validate (stock, variants, smp; 'all'; may repeat); "
        "default: the tiers calibration.json's default_tiers names")(
        "jobs,j", po::value<std::string>(&jobs_text),
        "simulations at once, 1 to 1024 (default: cores)")(
        "doc", po::value<std::string>(&doc),
        "write the report (Markdown) here, e.g. docs/validation.md ('-': to stdout, the table "
        "then to stderr)")(
        "json", po::value<std::string>(&json_out),
        "write every check as JSON ('-': to stdout, the table then to stderr)")(
        "predictions", po::bool_switch(&predictions),
        "also simulate the driver variants on every platform (the predictions section)")(
        "strict", po::bool_switch(&strict), "fail on the documented known misses too");
    try {
        po::variables_map vm;
        if (!parse_options(args, opts, vm)) return 0;
        if (vm.count("jobs")) jobs = parse_count("-j", jobs_text, 1, kMaxWorkers);
        doc_given = vm.count("doc") > 0;
        json_given = vm.count("json") > 0;
    } catch (const po::error& e) {
        std::cerr << "pcisim validate: " << e.what() << "\n";
        return 2;
    }
    // The report files may be none of the calibration set's files, nor each other.
    std::vector<output::OutputFile> outputs;
    if (doc_given) outputs.push_back({"--doc", doc});
    if (json_given) outputs.push_back({"--json", json_out});
    try {
        output::check_outputs(outputs, scenario_tree_files());
    } catch (const output::OutputError& e) {
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
        std::vector<std::string> in_verdict = tier_args.empty() ? set.default_tiers() : tier_args;
        for (const auto& t : tier_args)
            if (t != "all" && std::find(set.tiers().begin(), set.tiers().end(), t) == set.tiers().end()) {
                std::cerr << "pcisim validate: --tier " << t << " is not a tier; expected all";
                for (const auto& name : set.tiers()) std::cerr << ", " << name;
                std::cerr << "\n";
                return 2;
            }
        if (std::find(in_verdict.begin(), in_verdict.end(), "all") != in_verdict.end())
            in_verdict = set.tiers();
        std::vector<std::string> failures;
        auto pps = simulate(points, jobs, failures);
        auto lookup = [&](const validate::SimPoint& p) { return pps.at(p.key()); };
        auto checks = set.evaluate(lookup, case_id);
        std::vector<validate::TierResult> tiers;
        for (const auto& tier : set.tiers())
            tiers.push_back({tier, set.tier_file(tier), set.summarize(checks, tier),
                             std::find(in_verdict.begin(), in_verdict.end(), tier) !=
                                 in_verdict.end()});
        for (auto& g : grid) g.pps = pps.at(g.point.key());
        const std::vector<std::string> output_paths = {doc_given ? doc : "", json_out};
        std::ostream& table = output::report_stream(output_paths);
        table << validate::table_text(checks, tiers, set.tolerances(), strict);
        for (const auto& f : failures) std::cerr << "failed simulation: " << f << "\n";
        // -q: the verdict alone, where the table would have gone.
        if (output::quiet())
            (output::is_stdout(json_out) || output::is_stdout(doc) ? std::cerr : std::cout)
                << "validate: " << validate::verdict(tiers, strict) << "\n";
        if (doc_given)
            output::write_output(
                doc, validate::report_markdown(
                         checks, tiers, set.tolerances(), grid,
                         set.predictions().value("notes", std::vector<std::string>{})));
        if (json_given) {
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
