// pcisim sweep: one simulation per point of a --vary product, in worker processes that run point
// after point (tools/sweep/worker_pool.h).
#include <unistd.h>

#include <csignal>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/numeric_options.h"
#include "tools/cli/metrics_reference.h"
#include "tools/cli/options.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/output_paths.h"
#include "tools/output/output_lock.h"
#include "tools/output/verbosity.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "core/data_dir.h"
#include "tools/sweep/progress.h"
#include "tools/sweep/sweep_axes.h"
#include "tools/sweep/sweep_journal.h"
#include "tools/sweep/sweep_table.h"
#include "tools/sweep/worker_pool.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {

const char* kSweepUsage =
    "pcisim sweep SCENARIO --vary KEY=V1,V2,...|KEY=A:B:STEP ... [--set KEY=VALUE ...] [-j N]\n"
    "             [-o OUT.csv] [--shard I/N] [--timeout-s S] [--resume] [--force] [--columns LIST]";

// A sweep larger than this is more likely a typo in a STEP than a plan; --force runs it.
constexpr std::size_t kPointsWithoutForce = 100000;
// Every row of a run is held in memory until the end: a larger sweep must be split in shards.
constexpr std::size_t kMaxPoints = 10000000;

struct SweepArgs {
    std::string file;
    std::vector<std::string> varies, sets;
    std::size_t jobs = 0;  // 0: one per CPU
    std::string out = "sweep.csv";
    std::string shard;
    double timeout_s = 0;
    bool resume = false;
    bool force = false;
    std::vector<std::string> columns;  // --columns, split at the commas
};

// --columns: names of the CSV's metric columns, each checked against the metrics reference
// (a list's index, "cpus.0.busy_fraction", is "cpus[].busy_fraction" there).
std::vector<std::string> metric_columns(const std::string& list) {
    std::set<std::string> known;
    for (const auto& m : run_json_metrics()) known.insert(m.key);
    const std::regex index(R"(\.[0-9]+(?=\.|$))");
    std::vector<std::string> names;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        if (!known.count(std::regex_replace(name, index, "[]")))
            throw po::error("--columns: \"" + name + "\" is not a metric; expected names as in "
                            "the CSV header, from 'pcisim metrics' (tx_pps, "
                            "bus.utilisation_fraction, cpus.0.busy_fraction)");
        names.push_back(name);
    }
    if (names.empty()) throw po::error("--columns: no metric named; expected NAME[,NAME...]");
    return names;
}

// nullopt when --help was asked for (and printed).
std::optional<SweepArgs> parse_sweep_args(const Args& args) {
    SweepArgs a;
    std::string jobs, timeout = "0", columns;
    po::options_description opts(kSweepUsage);
    opts.add_options()("help,h", "this help")(
        "vary", po::value<std::vector<std::string>>(&a.varies)->multitoken()->composing(),
        "a swept key: KEY=V1,V2,... (values JSON or strings) or KEY=A:B:STEP (A to B "
        "inclusive); several give their cartesian product")(
        "set", po::value<std::vector<std::string>>(&a.sets)->composing(),
        "override a scenario key at every point: --set simulation.min_window_us=500 (not a "
        "varied key)")(
        "jobs,j", po::value<std::string>(&jobs),
        "worker processes at once, 1 to 1024 (default: the number of CPUs)")(
        "output,o", po::value<std::string>(&a.out)->default_value(a.out),
        "CSV to write; the JSON goes beside it (OUT.json), and while the sweep runs its journal "
        "(OUT.journal) and lock (OUT.lock)")(
        "shard", po::value<std::string>(&a.shard),
        "run only points i with i % N == I; join shards with 'pcisim merge'")(
        "timeout-s", po::value<std::string>(&timeout)->default_value(timeout),
        "wall-clock limit per point in seconds; 0 = none")(
        "resume", po::bool_switch(&a.resume),
        "continue the sweep whose journal or OUT.json is there (after Ctrl-C, a kill or a "
        "crash): its ok points are kept, the others run")(
        "force", po::bool_switch(&a.force),
        "run a sweep of more than 100000 points")(
        "columns", po::value<std::string>(&columns),
        "the metrics the CSV has, comma-separated, in this order (names as in the CSV's header: "
        "tx_pps,cpus.0.busy_fraction); default: all, the headline ones first.  OUT.json keeps "
        "every metric")(
        "scenario", po::value<std::string>(&a.file), "scenario JSON file");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    po::variables_map vm;
    if (!parse_options(args, opts, vm, &pos)) return std::nullopt;
    // Not ->required(): boost would name a '--scenario' option the usage never shows.
    if (a.file.empty()) throw po::error("missing SCENARIO, the scenario JSON file to sweep");
    if (a.varies.empty()) throw po::error("at least one --vary KEY=VALUES is required");
    if (vm.count("jobs")) a.jobs = parse_count("-j", jobs, 1, kMaxWorkers);
    a.timeout_s = parse_finite("--timeout-s", timeout, 0, false);
    if (vm.count("columns")) a.columns = metric_columns(columns);
    return a;
}

std::vector<sweep::Axis> parse_axes(const std::vector<std::string>& varies) {
    std::vector<sweep::Axis> axes;
    std::set<std::string> seen;
    for (const auto& spec : varies) {
        sweep::Axis axis = sweep::parse_axis(spec);
        sweep::check_key_known(axis.key, "--vary " + spec);
        if (!seen.insert(axis.key).second)
            throw sweep::UsageError("--vary " + spec + ": key \"" + axis.key +
                                    "\" is varied twice; expected each key once");
        axes.push_back(std::move(axis));
    }
    return axes;
}

// Throws UsageError for a sweep too large to run, or to run without --force.
void check_size(std::size_t points, bool sharded, bool force) {
    const std::string what =
        "--vary: " + std::to_string(points) + " points" + (sharded ? " in this shard" : "");
    if (points > kMaxPoints)
        throw sweep::UsageError(what + " is more than one run can hold (" +
                                std::to_string(kMaxPoints) +
                                "); expected fewer values, or --shard I/N over several runs");
    if (points > kPointsWithoutForce && !force)
        throw sweep::UsageError(what + " is more than " + std::to_string(kPointsWithoutForce) +
                                "; expected fewer values (a STEP too small?), or --force");
}

std::string join(const std::vector<std::string>& lines, const std::string& sep) {
    std::string out;
    for (const auto& l : lines) out += (out.empty() ? "" : sep) + l;
    return out;
}

std::string point_label(const sweep::SweepTable& t, const sweep::SweepRow& row) {
    std::string label;
    for (std::size_t i = 0; i < t.axes.size(); ++i)
        label += t.axes[i].key + "=" + row.values[i].dump() + " ";
    return label + (row.ok ? "ok" : "failed: " + row.error);
}

// The files the sweep reads, which it must never write: the scenario, its platform files, and
// those of the platforms a --vary platform=... axis names.
std::vector<std::string> input_files(const Scenario& base, const std::vector<sweep::Axis>& axes) {
    std::vector<std::string> inputs = base.files();
    for (const auto& axis : axes) {
        if (axis.key != "platform") continue;
        for (const auto& value : axis.values) {
            try {
                for (const auto& f : base.with(sweep::point_overrides({axis}, {0, {value}})).files())
                    inputs.push_back(f);
            } catch (const ScenarioError&) {
                // Its points fail with the loader's message; the other points still run.
            }
        }
    }
    return inputs;
}

// Every file the sweep writes beside the lock: none may be an input or another's.
std::vector<output::OutputFile> sweep_outputs(const std::string& out) {
    return {{"-o", out, true},
            {"-o", sweep::json_path_for(out), true},
            {"-o", sweep::beside(out, ".journal"), true},
            {"-o", sweep::beside(out, ".lock"), true}};
}

// The ok rows of an earlier run of the same sweep, by point index: those of OUT.json, then
// those of the journal (which is newer when both are there).  Throws std::runtime_error when
// either belongs to a different sweep.
std::map<std::size_t, sweep::SweepRow> finished_rows(const sweep::SweepTable& now,
                                                     const std::string& out,
                                                     const std::string& journal) {
    std::map<std::size_t, sweep::SweepRow> rows;
    if (std::filesystem::exists(sweep::json_path_for(out))) {
        sweep::SweepTable before = sweep::read_table(out);
        if (sweep::identity_json(before) != sweep::identity_json(now))
            throw std::runtime_error(sweep::json_path_for(out) +
                                     " was written by a different sweep (scenario, its contents, "
                                     "--set, --vary or --shard differ); expected the same command "
                                     "line");
        for (auto& row : before.rows) rows[row.index] = std::move(row);
    }
    for (auto& [index, row] : sweep::SweepJournal::read(journal, now)) rows[index] = std::move(row);
    std::map<std::size_t, sweep::SweepRow> ok;
    for (auto& [index, row] : rows)
        if (row.ok) ok.emplace(index, std::move(row));
    return ok;
}

// The provenance of the run that started the sweep `--resume` continues (OUT.json's, else the
// journal's), so that a sweep finished in several runs has the same output as one run; null
// when neither records one.
nlohmann::json first_provenance(const std::string& out, const std::string& journal) {
    if (std::filesystem::exists(sweep::json_path_for(out))) {
        nlohmann::json p = sweep::read_table(out).provenance;
        if (!p.is_null()) return p;
    }
    return sweep::SweepJournal::recorded_provenance(journal);
}

}  // namespace

int sweep(const Args& args) {
    std::optional<SweepArgs> parsed;
    sweep::SweepTable table;
    try {
        parsed = parse_sweep_args(args);
        if (!parsed) return 0;
        table.axes = parse_axes(parsed->varies);
        sweep::check_not_set(table.axes, parsed->sets);
        if (!parsed->shard.empty()) table.shard = sweep::parse_shard(parsed->shard);
        table.points_total = sweep::point_count(table.axes);
        check_size(sweep::shard_point_count(table.points_total, table.shard.value_or(sweep::Shard{})),
                   table.shard.has_value(), parsed->force);
    } catch (const po::error& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        return 2;
    } catch (const sweep::UsageError& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        return 2;
    }
    const SweepArgs& a = *parsed;
    std::optional<Scenario> base;  // read once here; the workers add each point's values
    try {
        base = Scenario::load(a.file, a.sets);
        table.base_scenario = base->resolved();
        sweep::check_axis_paths(table.axes, table.base_scenario);
    } catch (const ScenarioError& e) {
        return report_scenario_error(e);
    } catch (const sweep::UsageError& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        return 2;
    }
    table.scenario_file = a.file;
    table.sets = a.sets;
    table.provenance = provenance();
    table.csv_columns = a.columns;
    // Every string of OUT.json is known now; one that is not UTF-8 would fail the write after
    // every point ran.
    if (auto bad = output::invalid_utf8(sweep::identity_json(table))) {
        std::cerr << "pcisim sweep: cannot write " << sweep::json_path_for(a.out) << ": " << *bad
                  << "; expected UTF-8 text\n";
        return 2;
    }
    // Before the first point: where the outputs go, whether another sweep writes them, and
    // what an earlier run of this sweep finished.
    const std::string journal_path = sweep::beside(a.out, ".journal");
    std::unique_ptr<output::OutputLock> lock;
    std::unique_ptr<sweep::SweepJournal> journal;
    std::map<std::size_t, sweep::SweepRow> done;
    try {
        output::check_outputs(sweep_outputs(a.out), input_files(*base, table.axes));
        lock = std::make_unique<output::OutputLock>(sweep::beside(a.out, ".lock"), a.out);
        for (const auto& path : {a.out, sweep::json_path_for(a.out)})
            output::remove_stale_temporaries(path);  // of a sweep killed while writing
        if (a.resume) {
            try {
                done = finished_rows(table, a.out, journal_path);
                if (auto first = first_provenance(a.out, journal_path); !first.is_null())
                    table.provenance = std::move(first);
            } catch (const std::runtime_error& e) {
                throw std::runtime_error(std::string("--resume: ") + e.what());
            }
        }
        journal = std::make_unique<sweep::SweepJournal>(journal_path, table, a.resume);
    } catch (const std::runtime_error& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        return 2;
    }
    const std::vector<sweep::Point> points =
        sweep::shard_points(table.axes, table.shard.value_or(sweep::Shard{}));
    table.rows.resize(points.size());

    auto point_scenario = [&](std::size_t i) {
        return base->with(sweep::point_overrides(table.axes, points[i]));
    };
    // Runs in the worker process: a bad combination is an expected failure with its reason.
    auto simulate_point = [&](std::size_t i) {
        try {
            Scenario s = point_scenario(i);
            Simulation sim(s);
            return sim.run();
        } catch (const ScenarioError& e) {
            throw std::runtime_error(join(e.problems(), "; "));
        }
    };
    // The points still to run; a resumed sweep keeps its ok rows as they are.
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < points.size(); ++i) {
        auto it = done.find(points[i].index);
        if (it == done.end()) todo.push_back(i);
        else table.rows[i] = std::move(it->second);
    }
    if (a.resume)
        output::info_stream() << "pcisim sweep: resuming: " << points.size() - todo.size() << " of "
                  << points.size() << " points already done\n";
    if (points.size() > kPointsWithoutForce)
        output::info_stream() << "pcisim sweep: " << points.size() << " points (--force)\n";
    sweep::Progress progress(output::info_stream(), isatty(STDERR_FILENO) && !output::quiet(),
                             todo.size());
    std::size_t failed = 0;
    std::string journal_error;  // why the journal could not be written; the sweep then stops
    auto collect = [&](std::size_t job, const sweep::JobOutcome& o) {
        std::size_t i = todo[job];
        sweep::SweepRow& row = table.rows[i];
        row.index = points[i].index;
        row.values = points[i].values;
        row.ok = o.ok;
        row.error = o.error;
        if (o.ok) row.metrics = sweep::flatten_metrics(o.result);
        if (o.interrupted || !journal_error.empty()) return;
        // On the disk before it is counted: a kill from now on cannot lose it.  A point that
        // cannot be recorded is not counted, and no further point runs: a sweep that went on
        // would report points that a kill, or a full disk at the end, loses.
        try {
            journal->append(row);
        } catch (const std::runtime_error& e) {
            journal_error = e.what();
            return;
        }
        failed += !o.ok;
        progress.point_done(o.ok, point_label(table, row));
    };
    sweep::PoolOptions pool{a.jobs ? a.jobs : sweep::default_parallelism(), a.timeout_s,
                            [&] { return !journal_error.empty(); }};
    int stopped_by = 0;
    std::string write_error;
    try {
        auto job = [&](std::size_t j) { return simulate_point(todo[j]); };
        stopped_by = sweep::run_jobs(todo.size(), job, pool, collect);
        // A closed pipe stopped it: what is said from now on may find no reader, and must not
        // end the sweep before its outputs are written.
        if (stopped_by == SIGPIPE) signal(SIGPIPE, SIG_IGN);
        progress.finish();
    } catch (const std::exception& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        std::cerr << "pcisim sweep: the finished points are in " << journal_path
                  << "; continue with the same command and --resume\n";
        return 1;
    }
    if (!journal_error.empty()) {
        // Whatever could not be recorded runs again on --resume; what the journal holds does not.
        std::cerr << "pcisim sweep: " << journal_error << "; stopped the sweep: "
                  << journal->appended() << " points of this run are in " << journal_path
                  << " (every line whole), the points in flight were not counted; free the "
                     "space (or fix the folder) and continue with the same command and --resume\n";
        return 1;
    }
    try {
        sweep::write_table(table, a.out);
        journal->remove();  // the outputs hold its rows now
    } catch (const std::exception& e) {
        std::cerr << "pcisim sweep: " << e.what() << "\n";
        std::cerr << "pcisim sweep: the finished points are in " << journal_path
                  << "; continue with the same command and --resume\n";
        return 1;
    }
    if (stopped_by) {
        std::cerr << "pcisim sweep: interrupted by " << strsignal(stopped_by)
                  << "; wrote the points done so far to " << a.out << " (the rest marked \""
                  << sweep::kInterrupted << "\"); continue with the same command and --resume\n";
        return 128 + stopped_by;  // as a shell reports a command a signal ended
    }
    output::report_stream("") << "wrote " << a.out << " and " << sweep::json_path_for(a.out) << ": "
              << points.size() << " points, " << failed << " failed\n";
    return failed ? 1 : 0;
}

}  // namespace pcisim::cli
