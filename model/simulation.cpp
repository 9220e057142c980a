#include "simulation.h"

#include <cmath>
#include <sstream>

#include <systemc>

#include "bridge_face.h"
#include "dma_master.h"
#include "host_bridge.h"
#include "host_memory.h"
#include "pci_bridge.h"
#include "pci_bus.h"
#include "sim_time.h"

namespace pcisim {

using nlohmann::json;

struct Simulation::Parts {
    std::unique_ptr<HostMemory> memory;
    std::unique_ptr<HostBridge> host;
    std::vector<std::unique_ptr<PciBridge>> bridges;
    std::unique_ptr<PciBus> bus;
    std::unique_ptr<BridgeFace> face;
    std::vector<std::unique_ptr<DmaMaster>> masters;
    Picos window_start = 0;
};

Simulation::Simulation(const Scenario& s) : scenario_(s), parts_(std::make_unique<Parts>()) {
    use_picosecond_resolution();
    Parts& p = *parts_;
    p.memory = std::make_unique<HostMemory>(static_cast<std::uint64_t>(s.integer("host.memory_mib")) << 20);
    p.host = std::make_unique<HostBridge>("host", s);

    // Host bridge -> bridges[0] -> ... -> the NIC's segment.
    const MemoryPath* up = p.host.get();
    Picos down = p.host->mmio_down_latency(), back = p.host->mmio_up_latency();
    std::string face_prefix = "host";
    for (std::size_t i = 0; i < s.count("bridges"); ++i) {
        std::string prefix = "bridges." + std::to_string(i);
        p.bridges.push_back(std::make_unique<PciBridge>(s.text(prefix + ".name").c_str(), s, prefix, *up));
        up = p.bridges.back().get();
        down += p.bridges.back()->downstream_latency();
        back += p.bridges.back()->upstream_latency();
        face_prefix = prefix;
    }
    p.bus = std::make_unique<PciBus>("bus", BusConfig::from(s, "bus"));
    p.face = std::make_unique<BridgeFace>("face", FaceConfig::from(s, face_prefix), *p.bus, *up);
    p.host->route_mmio(p.face.get(), down, back);

    for (std::size_t i = 0; i < s.count("masters"); ++i) {
        std::string prefix = "masters." + std::to_string(i);
        if (!s.boolean(prefix + ".enabled")) continue;
        auto c = DmaMaster::Config::from(s, prefix);
        p.masters.push_back(std::make_unique<DmaMaster>(c.name.c_str(), c, *p.bus));
    }
}

Simulation::~Simulation() = default;

double Simulation::measured_rate() const {
    Picos window = now_ps() - parts_->window_start;
    if (window == 0) return 0;
    std::uint64_t bytes = 0;
    for (const auto& m : parts_->masters) bytes += m->totals().bytes;
    return static_cast<double>(bytes) / (static_cast<double>(window) * 1e-12);
}

void Simulation::reset_statistics() {
    parts_->window_start = now_ps();
    parts_->bus->reset_counters();
    for (auto& m : parts_->masters) m->reset_totals();
}

json Simulation::run() {
    const Scenario& s = scenario_;
    sc_core::sc_start(ps(ns_to_ps(s.number("simulation.warmup_us") * 1000)));
    reset_statistics();
    Picos batch = ns_to_ps(s.number("simulation.batch_us") * 1000);
    double min_window = s.number("simulation.min_window_us");
    double max_window = s.number("simulation.max_window_us");
    double stability = s.number("simulation.stability");
    double previous = -1, change = 1;
    for (;;) {
        sc_core::sc_start(ps(batch));
        double window_us = ps_to_us(now_ps() - parts_->window_start);
        double rate = measured_rate();
        change = previous > 0 ? std::fabs(rate - previous) / previous : (rate == 0 ? 0 : 1);
        previous = rate;
        if ((window_us >= min_window && change < stability) || window_us >= max_window)
            return results(window_us, change);
    }
}

json Simulation::results(double window_us, double last_change) const {
    const Parts& p = *parts_;
    double window_s = window_us * 1e-6;
    json r;
    r["scenario"] = scenario_.resolved();
    r["warmup_us"] = scenario_.number("simulation.warmup_us");
    r["window_us"] = window_us;
    r["stability"] = last_change;
    const auto& c = p.bus->counters();
    double bus_bytes_per_s = p.bus->config().width_bits / 8.0 * p.bus->config().clock_mhz * 1e6;
    r["bus"] = {{"kind", p.bus->config().kind == BusKind::Pci ? "pci" : "pcix"},
                {"width_bits", p.bus->config().width_bits},
                {"clock_mhz", p.bus->config().clock_mhz},
                {"peak_bytes_per_s", bus_bytes_per_s},
                {"utilisation", static_cast<double>(c.busy) / (window_us * 1e6)},
                {"transactions", c.transactions},
                {"retries", c.retries},
                {"disconnects", c.disconnects},
                {"preemptions", c.preemptions},
                {"split_responses", c.split_responses},
                {"data_bytes_per_s", static_cast<double>(c.data_bytes) / window_s}};
    json masters = json::array();
    for (const auto& m : p.masters) {
        const auto& t = m->totals();
        double n = t.requests ? static_cast<double>(t.requests) : 1;
        masters.push_back({{"name", m->config().name},
                           {"bytes_per_s", static_cast<double>(t.bytes) / window_s},
                           {"requests", t.requests},
                           {"transactions", t.transactions},
                           {"retries", t.retries},
                           {"disconnects", t.disconnects},
                           {"preemptions", t.preemptions},
                           {"mean_latency_ns", ps_to_ns(t.latency_sum) / n},
                           {"mean_arbitration_ns", ps_to_ns(t.arbitration_sum) / n}});
    }
    r["masters"] = masters;
    return r;
}

std::string summarize(const json& r) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(1);
    const json& b = r["bus"];
    o << "scenario " << r["scenario"]["name"].get<std::string>() << ": "
      << b["kind"].get<std::string>() << " " << b["width_bits"] << "/" << b["clock_mhz"]
      << ", window " << r["window_us"].get<double>() << " us after "
      << r["warmup_us"].get<double>() << " us warm-up (last batch changed the rate by "
      << 100 * r["stability"].get<double>() << " %)\n";
    o << "bus: " << 100 * b["utilisation"].get<double>() << " % busy, "
      << b["data_bytes_per_s"].get<double>() / 1e6 << " MB/s of data (peak "
      << b["peak_bytes_per_s"].get<double>() / 1e6 << " MB/s), " << b["transactions"]
      << " transactions, " << b["retries"] << " retries, " << b["disconnects"]
      << " disconnects, " << b["preemptions"] << " latency-timer preemptions\n";
    for (const auto& m : r["masters"]) {
        o << "master " << m["name"].get<std::string>() << ": "
          << m["bytes_per_s"].get<double>() / 1e6 << " MB/s, " << m["requests"]
          << " requests in " << m["transactions"] << " transactions, " << m["retries"]
          << " retries, mean latency " << m["mean_latency_ns"].get<double>() << " ns (of which "
          << m["mean_arbitration_ns"].get<double>() << " ns arbitration)\n";
    }
    return o.str();
}

}  // namespace pcisim
