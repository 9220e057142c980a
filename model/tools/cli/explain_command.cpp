// pcisim explain: where the time of a packet goes in the steady state (explain/critical_path.h).
#include <algorithm>
#include <iostream>

#include <boost/program_options.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/explain_setup.h"
#include "tools/cli/provenance.h"
#include "tools/cli/recording_options.h"
#include "tools/cli/scenario_source.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/output_paths.h"
#include "tools/output/pcap_writer.h"
#include "tools/explain/critical_path.h"
#include "tools/explain/cpu_placement.h"
#include "tools/explain/host_data.h"
#include "tools/explain/receive_path.h"
#include "run/scenario.h"
#include "run/simulation.h"

namespace po = boost::program_options;

namespace pcisim::cli {

namespace {
constexpr double kDefaultWindowUs = 1000;  // from the end of the warm-up
// A TCP stream sends in bursts of a window (a TSO frame is some 20 segments at once): a 1 ms
// window's mean can miss the run's rate by 10 %, a 10 ms one is within 0.1 %.
constexpr double kTcpWindowUs = 10000;

// The transmit side: the followed port's frames, their mean size as s (pktgen: packet.size; a
// TCP stream: the segments on the wire, not the skbs the stack hands down).
nlohmann::json explain_transmit(const Scenario& s, const Recording& rec, const nlohmann::json& results) {
    const ExplainSetup setup = transmit_setup(s, rec, results);
    nlohmann::json x = pcisim::explain(rec, setup);
    nlohmann::json host_data = host_data_costs(s, results);
    if (!host_data.is_null()) x["host_data"] = host_data;
    nlohmann::json placement = cpu_placement_costs(s, results);
    if (!placement.is_null()) x["cpus"] = placement;
    x["run"] = {{"tx_pps", results.value("tx_pps", 0.0)},
                {"wire_limit_pps", results.value("wire_limit_pps", 0.0)},
                {"window_us", results["window_us"]}};
    if (setup.wire_frames && results.contains("tcp")) {
        const nlohmann::json& tcp = results["tcp"];
        double skbs = tcp["frames_to_driver"].get<double>();
        x["tcp"] = {{"tso", s.boolean("driver.tso")},
                    {"segments", tcp["segments_sent"]},
                    {"frames_to_driver", tcp["frames_to_driver"]},
                    {"segments_per_frame", skbs > 0 ? tcp["segments_sent"].get<double>() / skbs : 0.0},
                    {"throughput_mbit_s", tcp["throughput_mbit_s"]}};
        // The far end is not on the recorded bus: its load is the segments it processed in the
        // run's window at tcp.receiver_segment_us each.  When it is busy all the time, it and not
        // the sender's resources sets the throughput, and the sender's frames may run ahead of
        // it while its window fills.
        const double receiver_us = s.number("tcp.receiver_segment_us");
        const double window_us = results["window_us"].get<double>();
        if (receiver_us > 0 && window_us > 0)
            x["tcp"]["receiver"] = {
                {"segment_us", receiver_us},
                {"busy_fraction",
                 std::min(1.0, receiver_us * tcp["segments"].get<double>() / window_us)}};
    }
    return x;
}

}

int explain(const Args& args) {
    std::string file, json_out, direction = "both";
    bool json_given = false;
    std::vector<std::string> sets;
    RecordingOptions recording;
    po::options_description opts(
        "pcisim explain SCENARIO [--set KEY=VALUE ...] [--json OUT] [--window START_US:END_US] "
        "[--vcd FILE] [--trace FILE] [--pcap FILE] [--direction tx|rx|both]");
    opts.add_options()("help,h", "this help")(
        "set", po::value<std::vector<std::string>>(&sets)->composing(),
        "override a scenario key: --set packet.size=300")(
        "json", po::value<std::string>(&json_out),
        "write the explanation as JSON to this file ('-': to stdout, the text then to stderr)")(
        "direction", po::value<std::string>(&direction),
        "tx: the transmitted frames, rx: the received frames, both (the default): each "
        "direction the run has");
    recording.add_to(opts);
    opts.add_options()("scenario", po::value<std::string>(&file),
                       "scenario JSON file ('-': read from stdin)");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
        if (vm.count("help")) {
            std::cout << opts << "\n"
                      << "The window (default: " << kDefaultWindowUs << " us, a TCP stream "
                      << kTcpWindowUs << " us, from the end of the warm-up) is analysed and,\nwith --vcd or "
                         "--trace, also written out.\n";
            return 0;
        }
        po::notify(vm);
        json_given = vm.count("json") > 0;
        recording.note_given(vm);
        // Not ->required(): boost would name a '--scenario' option the usage never shows.
        if (file.empty()) throw po::error("missing SCENARIO, the scenario JSON file to explain");
    } catch (const po::error& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 2;
    }
    std::unique_ptr<Scenario> s;
    std::unique_ptr<Recording> rec;
    try {
        s = std::make_unique<Scenario>(load_scenario(file, sets));
        const bool tcp = s->text("workload.kind") == "tcp_stream";
        rec = std::make_unique<Recording>(recording.resolve(*s, tcp ? kTcpWindowUs : kDefaultWindowUs));
    } catch (const ScenarioError& e) {
        return report_scenario_error(e);
    } catch (const std::invalid_argument& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 2;
    }
    // Where the outputs go, before anything is simulated: none may be an input or another output.
    std::vector<output::OutputFile> outputs;
    if (json_given) outputs.push_back({"--json", json_out});
    for (auto& o : recording.outputs()) outputs.push_back(o);
    std::vector<std::string> output_paths;
    for (const auto& o : outputs) output_paths.push_back(o.path);
    try {
        output::check_outputs(outputs, s->files());
    } catch (const output::OutputError& e) {
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
    // Transmitted frames come from pktgen or the TCP sender, received ones from the wire source.
    if (direction != "tx" && direction != "rx" && direction != "both") {
        std::cerr << "pcisim explain: --direction: '" << direction
                  << "' is not one of tx, rx, both\n";
        return 2;
    }
    const bool transmits = s->boolean("pktgen.enabled"), receives = s->boolean("wire_source.enabled");
    if (!transmits && !receives) {
        std::cerr << "pcisim explain: " << file
                  << ": pktgen.enabled and wire_source.enabled are false; explain follows the "
                     "frames a port transmits or receives, so the scenario needs one of them\n";
        return 2;
    }
    if ((direction == "tx" && !transmits) || (direction == "rx" && !receives)) {
        std::cerr << "pcisim explain: --direction " << direction << ": " << file << " has "
                  << (direction == "tx" ? "pktgen.enabled false: no port transmits"
                                        : "wire_source.enabled false: no port receives")
                  << "; expected --direction " << (direction == "tx" ? "rx" : "tx") << " or both\n";
        return 2;
    }
    bool explain_tx = transmits && direction != "rx";
    const bool explain_rx = receives && direction != "tx";
    nlohmann::json x;
    output::PcapCapture capture(version_line());
    try {
        Simulation sim(*s);
        sim.attach_recorder(*rec);
        if (recording.pcap_given) capture.attach(sim);
        nlohmann::json results = sim.run();
        // pktgen on but every port receive-only (wire_source.receive_only): by default explain
        // the side that has frames; asked for the transmit side, say why there is none.
        bool any_sent = false;
        for (const auto& port : results["ports"])
            any_sent = any_sent || port.value("tx_pps", 0.0) > 0;
        if (explain_tx && !any_sent && explain_rx) explain_tx = false;
        if (explain_tx) {
            x = explain_transmit(*s, *rec, results);
        } else {
            x = {{"direction", "rx"}};
        }
        if (explain_rx) x["receive"] = explain_receive(*rec, receive_setup(*s, *rec, results));
        x["scenario"] = s->text("name");
        x["resolved_scenario"] = s->resolved();
        x["provenance"] = provenance();
        if (!recording.write_views(*rec, "explain")) return 1;
        if (recording.pcap_given) capture.write(recording.pcap);
    } catch (const std::exception& e) {
        std::cerr << "pcisim explain: " << e.what() << "\n";
        return 1;
    }
    std::ostream& report = output::report_stream(output_paths);
    report << "scenario " << x["scenario"].get<std::string>() << "\n";
    if (explain_tx) report << explain_text(x);
    if (explain_tx && explain_rx) report << "\n";
    if (explain_rx) report << explain_receive_text(x["receive"]);
    if (json_given) {
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
