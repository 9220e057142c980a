#include "tools/cli/recording_options.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
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
        "START_US:END_US of simulated time to record (default: from the end of the warm-up)")(
        "pcap", po::value<std::string>(&pcap),
        "write every frame on the wire during the run as pcapng (tcpdump, Wireshark), stamped "
        "with its simulated time");
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
    return TimeWindow::parse(text);
}

}  // namespace

TimeWindow RecordingOptions::resolve(const Scenario& s, double default_us) const {
    if (!window.empty()) return checked_window(window);
    Picos from = RunConfig::from(s).warmup_ps;
    return {from, from + ns_to_ps(default_us * 1000)};
}

bool RecordingOptions::write_views(const Recording& recording, const char* command) const {
    auto write = [&](const std::string& path, auto&& writer) {
        if (path.empty()) return true;
        std::ofstream out(path);
        writer(out, recording);
        if (out) return true;
        std::cerr << "pcisim " << command << ": cannot write " << path << "\n";
        return false;
    };
    bool ok = write(vcd, [](std::ostream& o, const Recording& r) { write_vcd(o, r); });
    return write(trace, [](std::ostream& o, const Recording& r) { write_chrome_trace(o, r); }) && ok;
}

}  // namespace pcisim::cli
