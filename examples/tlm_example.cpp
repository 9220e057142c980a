// pcisim-tlm-example: pktgen and the e1000 driver transmitting through the e1000 TLM-2.0 model
// on a plain TLM memory and router (model/tlm/example_platform.h; docs/tlm.md).
//
//   pcisim-tlm-example [SCENARIO] [--set KEY=VALUE ...] [--warmup-us T] [--time-us T]
//                      [--router-ns T] [--register-ns T] [--timing approximate|loose]
//                      [--quantum-ns T] [--version]
//
// The scenario (default: every key's default) gives the NIC, CPU, driver, pktgen and host
// memory; the options give the TLM platform's own timing and how long to measure.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "core/sim_time.h"
#include "run/scenario.h"
#include "run/sustained_rate.h"
#include "tlm/example_platform.h"

namespace po = boost::program_options;
using namespace pcisim;

namespace {

const char* kProgram = "pcisim-tlm-example";
// Fewer frames than this in the window measure no rate (as in pcisim run).
constexpr std::uint64_t kMinFrames = 10;

struct Options {
    std::string scenario;
    std::vector<std::string> sets;
    double warmup_us = 200, time_us = 1000, router_ns = 10, register_ns = 60, quantum_ns = 1000;
    std::string timing = "approximate";
};

// A value outside [low, high] (or not a number) is a usage error naming the option.
void check_range(const std::string& option, double v, double low, double high) {
    if (!(v >= low && v <= high)) {
        std::ostringstream o;
        o << "--" << option << " " << v << ": expected a number from " << low << " to " << high;
        throw po::error(o.str());
    }
}

// "pcisim-tlm-example 0.1.0 (git 1a2b3c4), SystemC 2.3.4-Accellera"; CMake defines the version
// and commit for this file (as for pcisim's build_identity.cpp).
std::string version_line() {
    return std::string(kProgram) + " " + PCISIM_VERSION + " (git " + PCISIM_GIT + "), SystemC " +
           std::to_string(sc_core::sc_version_major) + "." +
           std::to_string(sc_core::sc_version_minor) + "." +
           std::to_string(sc_core::sc_version_patch) + "-" + sc_core::sc_version_originator;
}

// Reads the command line into `o`; false when --help or --version was printed.
bool parse(int argc, char* argv[], Options& o) {
    po::options_description opts(
        "pcisim-tlm-example [SCENARIO] [--set KEY=VALUE ...] [--warmup-us T] [--time-us T] "
        "[--router-ns T] [--register-ns T] [--timing approximate|loose] [--quantum-ns T] "
        "[--version]\n"
        "The scenario must transmit with pktgen on one port of one NIC (no wire source, no TCP "
        "stream).  Options");
    opts.add_options()("help,h", "this help")("version", "the version, git commit and SystemC")(
        "set", po::value<std::vector<std::string>>(&o.sets)->composing(),
        "override a scenario key: --set packet.size=128")(
        "warmup-us", po::value<double>(&o.warmup_us), "simulated time before measuring (200)")(
        "time-us", po::value<double>(&o.time_us), "simulated time measured (1000)")(
        "router-ns", po::value<double>(&o.router_ns), "delay of each pass through the router (10)")(
        "register-ns", po::value<double>(&o.register_ns),
        "the NIC's part of a register access (60)")(
        "timing", po::value<std::string>(&o.timing),
        "approximate: every register access and DMA transfer waited out at its time; loose: "
        "quantum keepers, posted register writes, DMI (docs/tlm.md)")(
        "quantum-ns", po::value<double>(&o.quantum_ns), "loose timing's quantum (1000)")(
        "scenario", po::value<std::string>(&o.scenario), "scenario JSON file");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
        std::cout << opts;
        return false;
    }
    if (vm.count("version")) {
        std::cout << version_line() << "\n";
        return false;
    }
    po::notify(vm);
    check_range("warmup-us", o.warmup_us, 0, 1e7);
    check_range("time-us", o.time_us, 1, 1e7);
    check_range("router-ns", o.router_ns, 0, 1e6);
    check_range("register-ns", o.register_ns, 0, 1e6);
    check_range("quantum-ns", o.quantum_ns, 1, 1e9);
    if (o.timing != "approximate" && o.timing != "loose")
        throw po::error("--timing " + o.timing + ": expected approximate or loose");
    return true;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
    use_picosecond_resolution();
    Options o;
    TlmExampleConfig config;
    try {
        if (!parse(argc, argv, o)) return 0;
        Scenario s = o.scenario.empty()
                         ? Scenario::from_json(nlohmann::json::object(), "defaults", o.sets)
                         : Scenario::load(o.scenario, o.sets);
        config = TlmExampleConfig::from(s);
    } catch (const ScenarioError& e) {
        for (const auto& p : e.problems()) std::cerr << kProgram << ": " << p << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << "\n";
        return 2;
    }
    config.router_hop_ps = ns_to_ps(o.router_ns);
    config.nic.register_access_ps = ns_to_ps(o.register_ns);
    config.nic.timing = o.timing == "loose" ? TlmTiming::Loose : TlmTiming::Approximate;
    config.nic.quantum_ps = ns_to_ps(o.quantum_ns);

    try {
        TlmExamplePlatform platform("tlm", config);
        E1000& nic = platform.nic().nic();
        // The rate between the first and the last frame that leave in the window.
        const Picos start = ns_to_ps(o.warmup_us * 1000), end = start + ns_to_ps(o.time_us * 1000);
        FrameCheck window;  // the frames in the window, as pcisim run measures them
        window.open_window();
        nic.set_frame_observer([&](unsigned, const std::uint8_t*, unsigned, Picos when) {
            if (when < start || when >= end) return;
            if (window.window_frames > 0) window.longest_gap = std::max(window.longest_gap, when - window.last);
            if (window.window_frames++ == 0) window.first = when;
            window.last = when;
        });
        sc_core::sc_start(ps(end));
        const std::uint64_t frames = window.window_frames;
        const std::uint32_t size = config.platform.pktgen.size;
        // A deadlocked ring, a window too short or bursts: no rate to print (pcisim run's rules,
        // run/sustained_rate.h).
        const bool done = config.platform.pktgen.count && platform.software().workload->frames_queued() >= config.platform.pktgen.count;
        if (frames < kMinFrames) {
            std::ostringstream why;
            why << "only " << frames << " frames left in the " << o.time_us << " us after "
                << o.warmup_us << " us, too few to measure a rate (at least " << kMinFrames
                << "): a deadlocked ring, or a --time-us too short";
            throw std::runtime_error(why.str());
        }
        if (std::string bursts = unsteady_frames(window, start, end, done); !bursts.empty())
            throw std::runtime_error(bursts + "; no rate the port sustains can be read from this "
                                     "window (a ring that stopped, or bursts: a longer --time-us)");
        double pps = (frames - 1) / (ps_to_us(window.last - window.first) * 1e-6);
        std::cout << "e1000 " << config.platform.topology.nics.front().spec->model() << " over TLM-2.0 (router "
                  << o.router_ns << " ns, register access " << o.register_ns << " ns, memory "
                  << ps_to_ns(config.platform.host.memory_latency_ps) << " ns, " << o.timing
                  << " timing";
        if (o.timing == "loose") std::cout << ", quantum " << o.quantum_ns << " ns";
        std::cout << ")\n"
                  << "packets queued by pktgen: " << platform.software().workload->frames_queued() << "\n"
                  << "frames sent in " << o.time_us << " us after " << o.warmup_us
                  << " us: " << frames << "\n"
                  << "rate (first to last of them): "
                  << static_cast<std::uint64_t>(std::llround(pps)) << " pps of "
                  << size << " bytes (wire limit "
                  << static_cast<std::uint64_t>(nic.port(0).wire_limit_pps(size)) << ")\n";
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}

// Our own entry point, so that the SystemC banner is off before the kernel prints it.
int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
