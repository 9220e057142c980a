#include "tools/cli/bench_against.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <ostream>
#include <stdexcept>

namespace pcisim::cli {

namespace {

struct Outcome {
    int status = 0;
    std::string err;
};

// `binary` with `args`, its standard output dropped and its standard error kept (through a
// temporary file: nothing to read while it runs).
Outcome run_binary(const std::string& binary, const std::vector<std::string>& args) {
    std::FILE* err_file = std::tmpfile();
    if (!err_file) throw std::runtime_error("bench: cannot create a temporary file");
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("bench: fork failed");
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(fileno(err_file), STDERR_FILENO);
        execv(binary.c_str(), argv.data());
        _exit(127);
    }
    Outcome o;
    waitpid(pid, &o.status, 0);
    std::rewind(err_file);
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, err_file)) > 0;) o.err.append(buf, n);
    std::fclose(err_file);
    return o;
}

// One bench run of `binary` on `id`: the simulation child's figures for `packets` frames.  The
// JSON goes to a file of a fresh directory, which every pcisim with a bench takes (older ones
// have no '-' for standard output).
nlohmann::json bench_once(const std::string& binary, const std::string& id, std::uint64_t packets) {
    char dir_template[] = "/tmp/pcisim-bench-XXXXXX";
    if (!mkdtemp(dir_template)) throw std::runtime_error("bench: cannot create a directory in /tmp");
    const std::filesystem::path dir = dir_template, report_file = dir / "bench.json";
    Outcome o = run_binary(binary, {"bench", "--case", id, "--packets", std::to_string(packets),
                                    "--runs", "1", "--json", report_file.string()});
    std::ifstream in(report_file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove_all(dir);
    if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)
        throw std::runtime_error("bench --against: " + binary + " bench --case " + id +
                                 " failed (status " + std::to_string(o.status) + "): " + o.err);
    try {
        const nlohmann::json report = nlohmann::json::parse(text);
        return report.at("cases").at(0).at("sizes").at(0);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("bench --against: " + binary + " bench --case " + id +
                                 " wrote no benchmark JSON (" + e.what() + ")");
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

nlohmann::json compare_builds(const BuildComparison& c) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto& id : c.cases) {
        std::vector<double> ratios, self_cpu, other_cpu;
        nlohmann::json pairs = nlohmann::json::array(), self_last, other_last;
        for (unsigned i = 0; i < c.pairs; ++i) {
            // Alternate which build goes first, so that a drift of the machine's speed within
            // a pair does not favour one side.
            const bool self_first = i % 2 == 0;
            nlohmann::json first = bench_once(self_first ? c.self : c.other, id, c.packets);
            nlohmann::json second = bench_once(self_first ? c.other : c.self, id, c.packets);
            self_last = self_first ? first : second;
            other_last = self_first ? second : first;
            const double s = self_last.at("cpu_s").get<double>();
            const double o = other_last.at("cpu_s").get<double>();
            self_cpu.push_back(s);
            other_cpu.push_back(o);
            ratios.push_back(s / o);
            pairs.push_back({{"self_cpu_s", s}, {"other_cpu_s", o}, {"ratio", s / o},
                             {"self_first", self_first}});
        }
        cases.push_back({{"id", id},
                         {"pairs", pairs},
                         {"median_ratio", median(ratios)},
                         {"min_ratio", *std::min_element(ratios.begin(), ratios.end())},
                         {"max_ratio", *std::max_element(ratios.begin(), ratios.end())},
                         {"self_median_cpu_s", median(self_cpu)},
                         {"other_median_cpu_s", median(other_cpu)},
                         {"self_deltas_per_packet", self_last.value("deltas_per_packet", 0.0)},
                         {"other_deltas_per_packet", other_last.value("deltas_per_packet", 0.0)},
                         {"self_peak_rss_mib", self_last.value("peak_rss_mib", 0.0)},
                         {"other_peak_rss_mib", other_last.value("peak_rss_mib", 0.0)},
                         {"self_real_time_factor", self_last.value("real_time_factor", 0.0)}});
    }
    return {{"self", c.self}, {"other", c.other}, {"packets", c.packets}, {"pairs", c.pairs},
            {"cases", cases}};
}

void print_comparison(const nlohmann::json& report, std::ostream& out) {
    out << "this build against " << report["other"].get<std::string>() << ", "
        << report["packets"].get<std::uint64_t>() << " packets, "
        << report["pairs"].get<unsigned>() << " alternating pairs; CPU time of the simulation\n"
        << "case           this cpu s  other cpu s   ratio (median)   min    max   "
           "deltas/pkt (this, other)\n"
        << std::fixed;
    for (const auto& c : report["cases"])
        out << std::left << std::setw(14) << c["id"].get<std::string>() << std::right
            << std::setprecision(3) << std::setw(11) << c["self_median_cpu_s"].get<double>()
            << std::setw(13) << c["other_median_cpu_s"].get<double>() << std::setw(17)
            << c["median_ratio"].get<double>() << std::setw(7) << c["min_ratio"].get<double>()
            << std::setw(7) << c["max_ratio"].get<double>() << std::setprecision(1)
            << std::setw(12) << c["self_deltas_per_packet"].get<double>() << ", "
            << c["other_deltas_per_packet"].get<double>() << "\n";
    out << "ratio: this build's CPU time over the other's, per pair; below 1 is faster.\n";
}

}  // namespace pcisim::cli
