#include "tools/explain/cpu_placement.h"

#include <iomanip>

#include "run/scenario.h"

namespace pcisim {

using nlohmann::json;

json cpu_placement_costs(const Scenario& s, const json& results) {
    const json& cpus = results["cpus"];
    const double locked = results.value("locked_ops_per_packet", 0.0);
    if (cpus.size() < 2 && locked == 0) return nullptr;
    const double packets = std::max(1.0, results.value("tx_frames", 0.0));
    const double cycle_ns = 1e3 / s.number("cpu.clock_mhz");
    const double window_ns = results["window_us"].get<double>() * 1e3;
    const double transfer_ns = s.number("cpu.cache.transfer_ns");
    const double invalidate_ns = s.number("cpu.cache.invalidate_ns");
    json out = json::array();
    std::size_t k = 0;
    for (const auto& c : cpus) {
        json threads = json::array();
        for (const auto& port : results["ports"])
            if (port.value("cpu", -1) == static_cast<int>(k))
                threads.push_back(port["nic"].get<std::string>() + " port " +
                                  std::to_string(port["port"].get<int>()));
        double moved = 0, taken = 0;
        json by_use = json::object();
        const json in = c.value("line_transfers_by_use", json::object());
        const json out_of = c.value("line_invalidations_by_use", json::object());
        for (const auto& [use, n] : in.items()) {
            moved += n.get<double>();
            if (n.get<double>() > 0) by_use[use] = n.get<double>() / packets;
        }
        for (const auto& [use, n] : out_of.items()) taken += n.get<double>();
        const double ops = c.value("locked_ops", 0.0) / packets;
        out.push_back({
            {"cpu", k},
            {"pktgen_threads", threads},
            {"interrupts", c["interrupts"]},
            {"timer_ticks", c["timer_ticks"]},
            {"busy_fraction", c["busy_fraction"]},
            {"locked_ops_per_packet", ops},
            {"locked_ns_per_packet", ops * s.number("cpu.cycles.locked_op") * cycle_ns},
            {"lines_in_per_packet", moved / packets},
            {"lines_in_by_use_per_packet", by_use},
            {"lines_in_ns_per_packet", moved / packets * transfer_ns},
            {"lines_taken_per_packet", taken / packets},
            // A write that took a line other CPUs shared costs invalidate_ns when this CPU held
            // a copy (else it was a miss, counted there): an upper bound.
            {"lines_taken_ns_per_packet", taken / packets * invalidate_ns},
            {"remote_misses_per_packet", c.value("remote_misses", 0.0) / packets},
            {"remote_ns_per_packet",
             c.value("remote_misses", 0.0) / packets * s.number("host.numa_hop_ns")},
            {"lock_spin_ns_per_packet", c.value("lock_spin_fraction", 0.0) * window_ns / packets},
        });
        ++k;
    }
    return out;
}

void print_cpu_placement(std::ostream& o, const json& placement) {
    const std::ios_base::fmtflags flags = o.flags();
    const std::streamsize precision = o.precision();
    o << "\nwhere the software ran, and what the CPUs cost each other (CPU time per packet sent):\n";
    for (const auto& c : placement) {
        o << "  cpu" << c["cpu"].get<int>() << ": ";
        std::string runs;
        for (const auto& t : c["pktgen_threads"]) runs += (runs.empty() ? "" : ", ") + t.get<std::string>();
        o << (runs.empty() ? "no pktgen thread" : "pktgen for " + runs) << "; "
          << c["interrupts"].get<long>() << " interrupts, " << c["timer_ticks"].get<long>()
          << " cleanup timer ticks; busy " << std::setprecision(0) << std::fixed
          << 100 * c["busy_fraction"].get<double>() << " %\n"
          << std::setprecision(2);
        auto row = [&](const char* what, double n, double ns) {
            o << "    " << std::left << std::setw(40) << what << std::right << std::setw(7) << n
              << std::setprecision(1) << std::setw(9) << ns << " ns\n" << std::setprecision(2);
        };
        row("locked instructions", c["locked_ops_per_packet"].get<double>(),
            c["locked_ns_per_packet"].get<double>());
        row("lines from another CPU's cache", c["lines_in_per_packet"].get<double>(),
            c["lines_in_ns_per_packet"].get<double>());
        for (const auto& [use, n] : c["lines_in_by_use_per_packet"].items())
            o << "      " << std::left << std::setw(38) << use << std::right << std::setw(7)
              << n.get<double>() << "\n";
        row("lines taken from other CPUs' copies", c["lines_taken_per_packet"].get<double>(),
            c["lines_taken_ns_per_packet"].get<double>());
        row("misses of another node's memory", c["remote_misses_per_packet"].get<double>(),
            c["remote_ns_per_packet"].get<double>());
        o << "    " << std::left << std::setw(47) << "spinning on a lock another CPU held"
          << std::right << std::setprecision(1) << std::setw(9)
          << c["lock_spin_ns_per_packet"].get<double>() << " ns\n";
    }
    o.flags(flags);
    o.precision(precision);
}

}  // namespace pcisim
