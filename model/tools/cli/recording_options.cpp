#include "tools/cli/recording_options.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "tools/explain/trace_writer.h"
#include "tools/explain/vcd_writer.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "core/sim_time.h"

namespace po = boost::program_options;

namespace pcisim::cli {

void RecordingOptions::add_to(po::options_description& opts) {
    opts.add_options()("vcd", po::value<std::string>(&vcd),
                       "write the bus's PCI signals in the window as VCD (GTKWave)")(
        "trace", po::value<std::string>(&trace),
        "write the window as Chrome trace-event JSON (Perfetto, chrome://tracing)")(
        "window", po::value<std::string>(&window),
        "START_US:END_US of simulated time to record, at most 20000 us long (default: from the "
        "end of the warm-up); a window past the run's end makes the run longer")(
        "pcap", po::value<std::string>(&pcap),
        "write every frame on the wire during the run as pcapng (tcpdump, Wireshark), stamped "
        "with its simulated time ('-': to stdout)");
}

void RecordingOptions::note_given(const po::variables_map& vm) {
    vcd_given = vm.count("vcd") > 0;
    trace_given = vm.count("trace") > 0;
    pcap_given = vm.count("pcap") > 0;
}

std::vector<output::OutputFile> RecordingOptions::outputs() const {
    std::vector<output::OutputFile> out;
    if (vcd_given) out.push_back({"--vcd", vcd});
    if (trace_given) out.push_back({"--trace", trace});
    if (pcap_given) out.push_back({"--pcap", pcap});
    return out;
}

namespace {

// Simulated time is kept in 64-bit picoseconds (9.2e12 us); a window must fit well inside.
constexpr double kMaxWindowUs = 1e12;

// TimeWindow::parse with the bounds it leaves out: "nan:nan" passed its comparisons and made
// the recording loop forever, "1:inf" overflowed the picoseconds.
TimeWindow checked_window(const std::string& text) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("--window " + text + ": " + why +
                                     "; expected START_US:END_US, finite, 0 <= START < END <= 1e12");
    };
    std::size_t colon = text.find(':');
    if (colon == std::string::npos) throw bad("no colon");
    double bounds[2];
    const std::string parts[2] = {text.substr(0, colon), text.substr(colon + 1)};
    for (int i = 0; i < 2; ++i) {
        const std::string& part = parts[i];
        char* end = nullptr;
        bounds[i] = std::strtod(part.c_str(), &end);
        if (part.empty() || end != part.c_str() + part.size())
            throw bad("\"" + part + "\" is not a number");
        if (!std::isfinite(bounds[i])) throw bad("\"" + part + "\" is not a finite number");
        if (bounds[i] > kMaxWindowUs) throw bad("\"" + part + "\" is beyond the simulated time");
    }
    if (bounds[0] < 0 || bounds[1] <= bounds[0]) throw bad("an empty or negative window");
    if (bounds[1] - bounds[0] > kMaxRecordingUs) {
        std::ostringstream o;
        o << "--window " << text << ": " << bounds[1] - bounds[0] << " us is longer than a "
          << "recording may be (" << kMaxRecordingUs << " us: it keeps every bus transaction, "
          << "about 5 MB per ms); expected a window of at most " << kMaxRecordingUs << " us";
        throw std::invalid_argument(o.str());
    }
    return TimeWindow::parse(text);
}

// The latest simulated time a run reaches without a recording: the longest warm-up and the
// longest window, each overshot by at most one batch.
double reach_us(const RunConfig& run) {
    return ps_to_us(std::max(run.warmup_ps, run.max_warmup_ps) + 2 * run.batch_ps) +
           run.max_window_us;
}

}  // namespace

TimeWindow RecordingOptions::resolve(const Scenario& s, double default_us) const {
    if (!window.empty()) {
        TimeWindow w = checked_window(window);
        // The run goes on until the window has closed: one past its reach would simulate for
        // as long as the window says (1e12 us), whatever the scenario allows.
        const double reach = reach_us(RunConfig::from(s));
        if (ps_to_us(w.to) > reach) {
            std::ostringstream o;
            o << "--window " << window << ": ends after " << reach
              << " us, the latest time the run reaches (simulation.max_warmup_us, "
                 "simulation.max_window_us and a batch each); expected an end before it, or a "
                 "larger simulation.max_window_us";
            throw std::invalid_argument(o.str());
        }
        return w;
    }
    Picos from = RunConfig::from(s).warmup_ps;
    return {from, from + ns_to_ps(default_us * 1000)};
}

bool RecordingOptions::write_views(const Recording& recording, const char* command) const {
    auto write = [&](bool given, const std::string& path, auto&& writer) {
        if (!given) return true;
        if (output::is_stdout(path)) {  // main() checks that the standard output took it all
            writer(std::cout, recording);
            return true;
        }
        std::ofstream out(path);
        writer(out, recording);
        if (out) return true;
        std::cerr << "pcisim " << command << ": cannot write " << path << "\n";
        return false;
    };
    bool ok = write(vcd_given, vcd, [](std::ostream& o, const Recording& r) { write_vcd(o, r); });
    return write(trace_given, trace,
                 [](std::ostream& o, const Recording& r) { write_chrome_trace(o, r); }) &&
           ok;
}

}  // namespace pcisim::cli
