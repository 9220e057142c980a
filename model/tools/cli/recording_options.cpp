#include "tools/cli/recording_options.h"

#include <fstream>
#include <iostream>

#include "tools/explain/trace_writer.h"
#include "tools/explain/vcd_writer.h"
#include "run/scenario.h"
#include "core/sim_time.h"

namespace po = boost::program_options;

namespace pcisim::cli {

void RecordingOptions::add_to(po::options_description& opts) {
    opts.add_options()("vcd", po::value<std::string>(&vcd),
                       "write the bus's PCI signals in the window as VCD (GTKWave)")(
        "trace", po::value<std::string>(&trace),
        "write the window as Chrome trace-event JSON (Perfetto, chrome://tracing)")(
        "window", po::value<std::string>(&window),
        "START_US:END_US of simulated time to record (default: from the end of the warm-up)");
}

TimeWindow RecordingOptions::resolve(const Scenario& s, double default_us) const {
    if (!window.empty()) return TimeWindow::parse(window);
    double from = s.number("simulation.warmup_us");
    return {ns_to_ps(from * 1000), ns_to_ps((from + default_us) * 1000)};
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
