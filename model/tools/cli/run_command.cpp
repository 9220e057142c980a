#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/options.h"
#include "tools/cli/recording_options.h"
#include "tools/cli/run_progress.h"
#include "tools/cli/scenario_source.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/pcap_writer.h"
#include "tools/output/verbosity.h"
#include "run/scenario.h"
#include "run/schema.h"
#include "run/results.h"
#include "run/simulation.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {

struct ScenarioArgs {
    std::string file;
    std::vector<std::string> sets;
    std::string json_out;
    RecordingOptions recording;  // run only
};

// Parses "SCENARIO [--set K=V ...] [--json OUT]"; throws po::error on bad usage.  nullopt when
// --help was asked for (and printed).
std::optional<ScenarioArgs> parse(const Args& args, bool with_json, const char* usage) {
    ScenarioArgs a;
    po::options_description opts(usage);
    opts.add_options()("help,h", "this help")(
        "set", po::value<std::vector<std::string>>(&a.sets)->composing(),
        "override a scenario key: --set bus.clock_mhz=66 (dotted path; value is JSON or a "
        "string)");
    if (with_json) {
        opts.add_options()("json", po::value<std::string>(&a.json_out),
                           "write the full results as JSON to this file ('-': to stdout, "
                           "the summary then to stderr)");
        a.recording.add_to(opts);
    }
    opts.add_options()("scenario", po::value<std::string>(&a.file),
                       "scenario JSON file ('-': read from stdin)");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    po::variables_map vm;
    if (!parse_options(args, opts, vm, &pos)) return std::nullopt;
    // Checked here rather than by ->required(): the option is given positionally, and boost's
    // message would name a '--scenario' option the usage never shows.
    if (a.file.empty()) throw po::error("missing SCENARIO, the scenario JSON file to load");
    return a;
}

}  // namespace

int report_scenario_error(const std::exception& e) {
    if (auto* se = dynamic_cast<const ScenarioError*>(&e)) {
        for (const auto& p : se->problems()) std::cerr << "pcisim: " << p << "\n";
    } else {
        std::cerr << "pcisim: " << e.what() << "\n";
    }
    return 2;
}

int run(const Args& args) {
    ScenarioArgs a;
    try {
        auto parsed = parse(args, true,
                            "pcisim run SCENARIO [--set KEY=VALUE ...] [--json OUT] [--vcd FILE] "
                            "[--trace FILE] [--pcap FILE] [--window START_US:END_US]\n"
                            "('-' as SCENARIO: read it from the standard input).  Options");
        if (!parsed) return 0;
        a = std::move(*parsed);
        if (!a.recording.window.empty() && !a.recording.wanted())
            throw po::error("--window needs --vcd or --trace");
    } catch (const po::error& e) {
        std::cerr << "pcisim run: " << e.what() << "\n";
        return 2;
    }
    std::unique_ptr<Scenario> s;
    try {
        s = std::make_unique<Scenario>(load_scenario(a.file, a.sets));
    } catch (const ScenarioError& e) {
        return report_scenario_error(e);
    }
    if (!a.recording.pcap.empty()) {
        try {
            output::check_output_path("--pcap", a.recording.pcap, {a.file});
        } catch (const output::OutputError& e) {
            std::cerr << "pcisim run: " << e.what() << "\n";
            return 2;
        }
    }
    // The results repeat the scenario: a string in it that JSON cannot hold would fail the
    // write after the whole run.
    if (auto bad = output::invalid_utf8(s->resolved()); bad && !a.json_out.empty()) {
        std::cerr << "pcisim run: cannot write " << a.json_out << ": scenario." << *bad
                  << "; expected UTF-8 text\n";
        return 2;
    }
    std::unique_ptr<Recording> recording;
    try {
        // Without --window: the first 100 us after the warm-up.
        if (a.recording.wanted()) recording = std::make_unique<Recording>(a.recording.resolve(*s, 100));
    } catch (const std::invalid_argument& e) {
        std::cerr << "pcisim run: " << e.what() << "\n";
        return 2;
    }
    nlohmann::json results;
    output::PcapCapture capture(version_line());
    try {
        Simulation sim(*s);
        if (recording) sim.attach_recorder(*recording);
        if (!a.recording.pcap.empty()) capture.attach(sim);
        {
            RunProgress progress("pcisim run: " + s->text("name"));
            results = sim.run();
        }
        // The recording names the simulation's modules: write it while they exist.
        if (recording && !a.recording.write_views(*recording, "run")) return 1;
    } catch (const std::exception& e) {
        std::cerr << "pcisim run: simulation failed: " << e.what() << "\n";
        return 1;
    }
    if (!a.recording.pcap.empty()) {
        try {
            capture.write(a.recording.pcap);
        } catch (const output::OutputError& e) {
            std::cerr << "pcisim run: " << e.what() << "\n";
            return 1;
        }
    }
    output::report_stream(a.json_out) << summarize(results);
    // The results already hold the resolved scenario; this says what made them.  Where the
    // results and recordings were written is no part of what they are.
    results["provenance"] =
        provenance_without({"--json", "--vcd", "--trace", "--window", "--pcap"}, {"-q", "--quiet"});
    if (!a.json_out.empty()) {
        try {
            output::write_output(a.json_out, output::json_text(results, 2, a.json_out) + "\n");
        } catch (const output::OutputError& e) {
            std::cerr << "pcisim run: " << e.what() << "\n";
            return 1;
        }
    }
    return 0;
}

int check(const Args& args) {
    ScenarioArgs a;
    try {
        auto parsed = parse(args, false,
                            "pcisim check SCENARIO [--set KEY=VALUE ...]\n"
                            "('-' as SCENARIO: read it from the standard input).  Options");
        if (!parsed) return 0;
        a = std::move(*parsed);
        load_scenario(a.file, a.sets);
    } catch (const po::error& e) {
        std::cerr << "pcisim check: " << e.what() << "\n";
        return 2;
    } catch (const ScenarioError& e) {
        return report_scenario_error(e);
    }
    if (!output::quiet()) std::cout << a.file << ": ok\n";
    return 0;
}

int schema(const Args& args) {
    po::options_description opts("pcisim schema: every scenario key, its type, default and "
                                 "meaning, as Markdown on stdout");
    opts.add_options()("help,h", "this help");
    try {
        po::variables_map vm;
        if (!parse_options(args, opts, vm)) return 0;
    } catch (const po::error& e) {
        std::cerr << "pcisim schema: " << e.what() << "\n";
        return 2;
    }
    std::cout << schema_markdown();
    return 0;
}

}  // namespace pcisim::cli
