// pcisim bench: how fast the simulator itself runs, on a fixed set of cases.
//
// Every measurement is one simulation in its own forked child (SystemC elaborates once per
// process, and the child's getrusage then covers exactly that simulation): it loads the
// scenario, elaborates, and simulates from time zero until N frames have left the wire.
// Each (case, N) is run several times, one child at a time, and each figure is the median.
// A second kind of child runs one ordinary sweep point (Simulation::run: warm-up, then batches
// until the rate is stable) to show what share of a point its start-up takes.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <systemc>

#include "tools/cli/bench_against.h"
#include "tools/cli/commands.h"
#include "tools/cli/provenance.h"
#include "tools/cli/numeric_options.h"
#include "tools/cli/options.h"
#include "tools/output/json_text.h"
#include "tools/output/output_file.h"
#include "tools/output/output_paths.h"
#include "tools/cli/input_files.h"
#include "tools/output/verbosity.h"
#include "tools/sweep/own_arena.h"
#include "run/scenario.h"
#include "run/simulation.h"
#include "core/data_dir.h"

namespace po = boost::program_options;
using nlohmann::json;

namespace pcisim::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct BenchCase {
    const char* id;
    const char* what;
    const char* scenario;  // in scenarios/
    std::vector<std::string> sets;
};

// The standard cases of issue 8.
const std::vector<BenchCase>& standard_cases() {
    static const std::vector<BenchCase> cases = {
        {"stock-60", "60 B, stock driver, PCI-X 64/133", "xeon-pcix-133", {}},
        {"fastest-60", "60 B, notxints + ring 4096 + TXDMAC prefetch, PCI 64/66 (athlon)",
         "athlon-64-66-82546gb",
         {"driver.notxints=true", "driver.ring_size=4096", "driver.txdmac_prefetch=true"}},
        {"stock-1500", "1500 B, stock driver, PCI-X 64/133", "xeon-pcix-133",
         {"packet.size=1500"}},
        {"two-port-60", "60 B, both ports of the 82546, stock driver, PCI-X 64/133",
         "xeon-pcix-133", {"pktgen.ports=2"}},
    };
    return cases;
}

std::string scenario_path(const BenchCase& c) {
    return data_path(std::string("scenarios/") + c.scenario + ".json").string();
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double cpu_seconds(const rusage& u) {
    auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

// What the child does: frames > 0 simulates that many frames, frames == 0 one sweep point.
// `base` is the case's scenario, read by the parent; the child checks its own copy as a sweep
// worker checks its point's (Scenario::with).
json measure_in_child(const Scenario& base, std::uint64_t frames, Clock::time_point forked) {
    Clock::time_point started = Clock::now();
    Scenario s = base.with({});
    Clock::time_point loaded = Clock::now();
    Simulation sim(s);
    Clock::time_point elaborated = Clock::now();
    std::uint64_t deltas_before = sc_core::sc_delta_count();
    std::uint64_t sent = 0;
    if (frames) {
        sent = sim.run_frames(frames);
    } else {
        json r = sim.run();
        sent = r["tx_frames"].get<std::uint64_t>();
    }
    Clock::time_point finished = Clock::now();
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    double simulated_s = sc_core::sc_time_stamp().to_seconds();
    double wall_s = seconds(finished - elaborated);
    auto deltas = static_cast<double>(sc_core::sc_delta_count() - deltas_before);
    return {{"fork_s", seconds(started - forked)},
            {"load_s", seconds(loaded - started)},
            {"elaborate_s", seconds(elaborated - loaded)},
            {"wall_s", wall_s},
            {"cpu_s", cpu_seconds(u)},
            {"simulated_s", simulated_s},
            {"frames", sent},
            {"packets_per_wall_s", static_cast<double>(sent) / wall_s},
            {"real_time_factor", simulated_s / wall_s},
            {"deltas_per_packet", deltas / static_cast<double>(std::max<std::uint64_t>(sent, 1))},
            {"peak_rss_mib", static_cast<double>(u.ru_maxrss) / 1024}};
}

// One measurement in a forked child; its results come back through a pipe as JSON.
json measure(const BenchCase& c, const Scenario& base, std::uint64_t frames) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("bench: cannot create a pipe");
    std::cout.flush();
    std::cerr.flush();
    Clock::time_point forked = Clock::now();
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("bench: fork failed");
    if (pid == 0) {
        close(fds[0]);
        int code = 0;
        std::string text;
        // On an arena of its own, as a sweep worker simulates (tools/sweep/own_arena.h).
        sweep::run_on_own_arena([&] {
            try {
                text = measure_in_child(base, frames, forked).dump();
            } catch (const std::exception& e) {
                text = json{{"error", e.what()}}.dump();
                code = 1;
            }
        });
        for (std::size_t at = 0; at < text.size();) {
            ssize_t n = write(fds[1], text.data() + at, text.size() - at);
            if (n <= 0) break;
            at += static_cast<std::size_t>(n);
        }
        close(fds[1]);
        // _exit: the parent's atexit handlers and static destructors are not the child's.
        _exit(code);
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    json r = text.empty() ? json{{"error", "the benchmark child died (status " +
                                               std::to_string(status) + ")"}}
                          : json::parse(text);
    if (r.contains("error"))
        throw std::runtime_error(std::string("bench ") + c.id + ": " +
                                 r["error"].get<std::string>());
    return r;
}

// Per figure, the median over the runs.
json median_of(const std::vector<json>& runs) {
    json m = json::object();
    for (const auto& [key, value] : runs.front().items()) {
        std::vector<double> v;
        for (const auto& r : runs) v.push_back(r[key].get<double>());
        std::sort(v.begin(), v.end());
        std::size_t n = v.size();
        m[key] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
    return m;
}

json bench_case(const BenchCase& c, const std::vector<std::uint64_t>& sizes, unsigned runs) {
    // Loaded once here, as pcisim sweep does before it forks its workers: a bad case fails
    // before any measurement, and the children find the schema tables already built.
    Scenario base = Scenario::load(scenario_path(c), c.sets);
    json sizes_out = json::array();
    for (std::uint64_t n : sizes) {
        std::vector<json> samples;
        for (unsigned i = 0; i < runs; ++i) samples.push_back(measure(c, base, n));
        json m = median_of(samples);
        m["packets"] = n;
        sizes_out.push_back(m);
        output::info_stream() << "bench: " << c.id << " " << n << " packets: "
                              << m["wall_s"].get<double>() << " s\n";
    }
    std::vector<json> points;
    for (unsigned i = 0; i < runs; ++i) points.push_back(measure(c, base, 0));
    json point = median_of(points);
    double startup = point["fork_s"].get<double>() + point["load_s"].get<double>() +
                     point["elaborate_s"].get<double>();
    point["startup_s"] = startup;
    point["startup_share"] = startup / (startup + point["wall_s"].get<double>());
    json sets = c.sets;
    return {{"id", c.id}, {"what", c.what}, {"scenario", c.scenario}, {"sets", sets},
            {"sizes", sizes_out}, {"sweep_point", point}};
}

void print_table(const json& report, std::ostream& out) {
    out << std::fixed;
    out << "case           packets    wall s     cpu s     sim s  kpps/wall-s  x real time"
                 "  deltas/pkt  RSS MiB  start-up ms\n";
    for (const auto& c : report["cases"]) {
        for (const auto& s : c["sizes"]) {
            out << std::left << std::setw(12) << c["id"].get<std::string>() << std::right
                      << std::setw(11) << s["packets"].get<std::uint64_t>() << std::setprecision(3)
                      << std::setw(10) << s["wall_s"].get<double>() << std::setw(10)
                      << s["cpu_s"].get<double>() << std::setw(10)
                      << s["simulated_s"].get<double>() << std::setprecision(0) << std::setw(13)
                      << s["packets_per_wall_s"].get<double>() / 1e3 << std::setprecision(2)
                      << std::setw(13) << s["real_time_factor"].get<double>()
                      << std::setprecision(1) << std::setw(12)
                      << s["deltas_per_packet"].get<double>() << std::setw(9)
                      << s["peak_rss_mib"].get<double>() << std::setw(13)
                      << 1e3 * (s["fork_s"].get<double>() + s["load_s"].get<double>() +
                                s["elaborate_s"].get<double>())
                      << "\n";
        }
        const json& p = c["sweep_point"];
        out << std::left << std::setw(12) << c["id"].get<std::string>() << std::right
                  << "  one sweep point: " << std::setprecision(2)
                  << 1e3 * p["wall_s"].get<double>() << " ms simulating, "
                  << 1e3 * p["startup_s"].get<double>() << " ms start-up (fork "
                  << 1e3 * p["fork_s"].get<double>() << ", scenario "
                  << 1e3 * p["load_s"].get<double>() << ", elaboration "
                  << 1e3 * p["elaborate_s"].get<double>() << "): " << std::setprecision(1)
                  << 100 * p["startup_share"].get<double>() << " % of the point\n";
    }
    out << "deltas/pkt: SystemC delta cycles (sc_delta_count) per frame sent; each is one "
                 "evaluation phase of one or more process activations.\n";
}

// Frames per measurement; far beyond what a benchmark can simulate in a day.
constexpr std::uint64_t kMaxPackets = 1'000'000'000'000;

std::vector<std::uint64_t> parse_sizes(const std::string& list) {
    std::vector<std::uint64_t> sizes;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
        sizes.push_back(parse_count("--packets", item, 1, kMaxPackets));  // 1e6 as well
    if (sizes.empty()) throw po::error("--packets needs at least one count");
    return sizes;
}

bool selected(const std::vector<std::string>& only, const std::string& id) {
    return only.empty() || std::find(only.begin(), only.end(), id) != only.end();
}

double load_average() {
    double load[1] = {0};
    getloadavg(load, 1);
    return load[0];
}

// --against: the cases (all when none is named) of this build beside another's.
json against_report(const std::string& other, const std::vector<std::string>& only,
                    std::uint64_t packets, unsigned pairs) {
    BuildComparison c;
    c.self = std::filesystem::read_symlink("/proc/self/exe").string();
    c.other = other;
    c.packets = packets;
    c.pairs = pairs;
    for (const auto& bench_case : standard_cases())
        if (selected(only, bench_case.id)) c.cases.push_back(bench_case.id);
    const double load = load_average();
    json report = compare_builds(c);
    report["load_average_1min"] = load;
    report["provenance"] = provenance();
    return report;
}

}  // namespace

int bench(const Args& args) {
    std::string json_out, packets = "1e4,1e5,1e6", runs_text = "3", against, pairs_text = "5";
    bool json_given = false;
    std::vector<std::string> only;
    unsigned runs = 3;
    po::options_description opts(
        "pcisim bench [--case ID ...] [--packets N1,N2,...] [--runs R] [--json OUT]\n"
        "pcisim bench --against OTHER_PCISIM [--case ID ...] [--packets N] [--pairs P] "
        "[--json OUT]");
    opts.add_options()("help,h", "this help")(
        "case", po::value<std::vector<std::string>>(&only)->composing(),
        "only this case (stock-60, fastest-60, stock-1500, two-port-60); repeatable")(
        "packets", po::value<std::string>(&packets),
        "frames to simulate per measurement, e.g. 1e4,1e5,1e6,1e7 (default 1e4,1e5,1e6)")(
        "runs", po::value<std::string>(&runs_text),
        "runs per measurement, 1 to 1000; figures are medians (3)")(
        "json", po::value<std::string>(&json_out),
        "also write the results as JSON ('-': to stdout, the table then to stderr)")(
        "against", po::value<std::string>(&against),
        "another pcisim binary: run both builds' cases in turn and print the CPU-time ratio "
        "per case (this over the other) with its spread; one --packets count (default 1e5)")(
        "pairs", po::value<std::string>(&pairs_text),
        "with --against: alternating pairs of runs per case, 1 to 1000 (5)");
    std::vector<std::uint64_t> sizes;
    unsigned pairs = 5;
    try {
        po::variables_map vm;
        if (!parse_options(args, opts, vm)) return 0;
        json_given = vm.count("json") > 0;
        std::vector<output::OutputFile> outputs;
        if (json_given) outputs.push_back({"--json", json_out});
        output::check_outputs(outputs, scenario_tree_files());
        if (!against.empty() && !vm.count("packets")) packets = "1e5";
        sizes = parse_sizes(packets);
        runs = static_cast<unsigned>(parse_count("--runs", runs_text, 1, 1000));
        pairs = static_cast<unsigned>(parse_count("--pairs", pairs_text, 1, 1000));
        if (vm.count("pairs") && against.empty())
            throw po::error("--pairs " + pairs_text + " needs --against");
        if (vm.count("against")) {
            if (against.empty() || access(against.c_str(), X_OK) != 0)
                throw po::error("--against '" + against + "' is not an executable file; "
                                "expected the path of another pcisim binary");
            if (sizes.size() != 1)
                throw po::error("--packets " + packets + " with --against: expected one count");
        }
        for (const auto& id : only) {
            const auto& all = standard_cases();
            if (std::none_of(all.begin(), all.end(), [&](const BenchCase& c) { return id == c.id; }))
                throw po::error("--case " + id + " is not a benchmark case");
        }
    } catch (const std::exception& e) {
        std::cerr << "pcisim bench: " << e.what() << "\n";
        return 2;
    }
    try {
        json report;
        if (!against.empty()) {
            report = against_report(against, only, sizes.front(), pairs);
            print_comparison(report, output::report_stream(json_out));
        } else {
            report = {{"runs", runs},
                      {"events", "sc_core::sc_delta_count() per frame: delta cycles"},
                      {"load_average_1min", load_average()},
                      {"cases", json::array()},
                      {"provenance", provenance()}};
            for (const auto& c : standard_cases())
                if (selected(only, c.id)) report["cases"].push_back(bench_case(c, sizes, runs));
            print_table(report, output::report_stream(json_out));
        }
        if (json_given)
            output::write_output(json_out, output::json_text(report, 2, json_out) + "\n");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "pcisim bench: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace pcisim::cli
