// pcisim explain: where the time of a packet goes in the steady state (explain/critical_path.h).
#include <iostream>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/recording_options.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/explain/critical_path.h"
#include "tools/explain/host_data.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "software/pktgen.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {
constexpr double kDefaultWindowUs = 1000;  // from the end of the warm-up
}

int explain(const Args& args) {
    std::string file, json_out;
    std::vector<std::string> sets;
    RecordingOptions recording;
    po::options_description opts(
        "pcisim explain SCENARIO [--set KEY=VALUE ...] [--json OUT] [--window START_US:END_US] "
        "[--vcd FILE] [--trace FILE]");
    opts.add_options()("help,h", "this help")(
        "set", po::value<std::vector<std::string>>(&sets)->composing(),
        "override a scenario key: --set packet.size=300")(
        "json", po::value<std::string>(&json_out),
        "write the explanation as JSON to this file ('-': to stdout, the text then to stderr)");
    recording.add_to(opts);
    opts.add_options()("scenario", po::value<std::string>(&file), "scenario JSON file");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
        if (vm.count("help")) {
            std::cout << opts << "\n"
                      << "The window (default: " << kDefaultWindowUs
                      << " us from the end of the warm-up) is analysed and, with --vcd or\n"
                         "--trace, also written out.\n";
            return 0;
        }
        po::notify(vm);
        // Not ->required(): boost would name a '--scenario' option the usage never shows.
        if (file.empty()) throw po::error("missing SCENARIO, the scenario JSON file to explain");
    } catch (const po::error& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 2;
    }
    std::unique_ptr<Scenario> s;
    std::unique_ptr<Recording> rec;
    try {
        s = std::make_unique<Scenario>(Scenario::load(file, sets));
        rec = std::make_unique<Recording>(recording.resolve(*s, kDefaultWindowUs));
    } catch (const ScenarioError& e) {
        return report_scenario_error(e);
    } catch (const std::invalid_argument& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 2;
    }
    // The explanation follows the NIC's frames; without a NIC no window is long enough.
    if (!s->boolean("nic.enabled")) {
        std::cerr << "pcisim explain: " << file
                  << ": nic.enabled is false; explain follows the frames of the e1000 NIC, so the "
                     "scenario needs one\n";
        return 2;
    }
    // It follows transmitted frames; a receive-only run has none (its figures are under rx.*).
    if (!s->boolean("pktgen.enabled")) {
        std::cerr << "pcisim explain: " << file
                  << ": pktgen.enabled is false; explain follows the frames a port transmits, so "
                     "the scenario needs pktgen (a receive-only run's figures are rx.* in `pcisim "
                     "run --json`)\n";
        return 2;
    }
    nlohmann::json x;
    try {
        Simulation sim(*s);
        sim.attach_recorder(*rec);
        nlohmann::json results = sim.run();
        ExplainSetup setup;
        const PktgenOptions traffic = PktgenOptions::from(*s);
        setup.packet_size = static_cast<double>(traffic.size);
        // The recording follows the first transmitting port (Recording::port()): its rate.
        for (const auto& port : results["ports"])
            if (port["nic"] == rec->port().nic && port["port"] == rec->port().port)
                setup.measured_pps = port["tx_pps"].get<double>();
        x = pcisim::explain(*rec, setup);
        x["scenario"] = s->text("name");
        x["resolved_scenario"] = s->resolved();
        x["provenance"] = provenance();
        nlohmann::json host_data = host_data_costs(*s, results);
        if (!host_data.is_null()) x["host_data"] = host_data;
        x["run"] = {{"tx_pps", results.value("tx_pps", 0.0)},
                    {"wire_limit_pps", results.value("wire_limit_pps", 0.0)},
                    {"window_us", results["window_us"]}};
        if (!recording.write_views(*rec, "explain")) return 1;
    } catch (const std::exception& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 1;
    }
    output::report_stream(json_out) << "scenario " << x["scenario"].get<std::string>() << "\n" << explain_text(x);
    if (!json_out.empty()) {
        try {
            output::write_output(json_out, output::json_text(x, 2, json_out) + "\n");
        } catch (const output::OutputError& e) {
            std::cerr << "pcisim explain: " << e.what() << "\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace pcisim::cli
