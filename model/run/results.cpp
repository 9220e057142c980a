#include "run/results.h"

#include <cmath>
#include <sstream>

#include "core/sim_time.h"

namespace pcisim {

using nlohmann::json;

namespace {

json bus_results(PciBus& bus, double window_us, double window_s) {
    const auto& c = bus.counters();
    double bus_bytes_per_s = bus.config().width_bits / 8.0 * bus.config().clock_mhz * 1e6;
    return {{"kind", bus.config().kind == BusKind::Pci ? "pci" : "pcix"},
            {"width_bits", bus.config().width_bits},
            {"clock_mhz", bus.config().clock_mhz},
            {"peak_bytes_per_s", bus_bytes_per_s},
            {"utilisation", static_cast<double>(c.busy) / (window_us * 1e6)},
            {"transactions", c.transactions},
            {"retries", c.retries},
            {"disconnects", c.disconnects},
            {"preemptions", c.preemptions},
            {"split_responses", c.split_responses},
            {"data_bytes_per_s", static_cast<double>(c.data_bytes) / window_s}};
}

json master_results(const DmaMaster& m, double window_s) {
    const auto& t = m.totals();
    double n = t.requests ? static_cast<double>(t.requests) : 1;
    return {{"name", m.config().name},
            {"bytes_per_s", static_cast<double>(t.bytes) / window_s},
            {"requests", t.requests},
            {"transactions", t.transactions},
            {"retries", t.retries},
            {"disconnects", t.disconnects},
            {"preemptions", t.preemptions},
            {"mean_latency_ns", ps_to_ns(t.latency_sum) / n},
            {"mean_arbitration_ns", ps_to_ns(t.arbitration_sum) / n}};
}

json driver_counters(const E1000Driver::Counters& d) {
    return {{"packets_queued", d.queued},
            {"packets_cleaned", d.cleaned},
            {"queue_stops", d.stops},
            {"tdt_writes", d.tdt_writes},
            {"descriptors_queued", d.descriptors}};
}

// Totals, then each NIC, each port and each CPU: tx_pps and tx_pps_by_port cover every
// transmitting port (in the order of the NICs and their ports); a CPU's entry adds up the
// driver counters of the ports it drives.
void add_nic_results(json& r, const Platform& platform, const std::vector<FrameCheck>& frames,
                     double window_s) {
    const std::uint32_t size = platform.config().pktgen.size;
    const Topology& topology = platform.config().topology;
    double pps = window_frame_rate(frames, window_s);
    r["tx_pps"] = pps;
    r["tx_mbps"] = pps * 8 * (size + 4) / 1e6;  // pktgen's definition
    json by_port = json::array(), ports = json::array();
    std::vector<double> nic_pps(platform.nics().size(), 0);
    std::vector<json> nic_by_port(platform.nics().size(), json::array());
    double wire_limit = 0;
    for (const FrameCheck& f : frames) {
        const PortSoftware& sw = *platform.ports()[f.port];
        double port_pps = port_frame_rate(f, window_s);
        by_port.push_back(port_pps);
        nic_pps[sw.nic] += port_pps;
        nic_by_port[sw.nic].push_back(port_pps);
        wire_limit += platform.nics()[sw.nic]->port(sw.port).wire_limit_pps(size);
        json port = {{"nic", topology.nics[sw.nic].name},
                     {"port", sw.port},
                     {"cpu", topology.port_cpu[f.port]},
                     {"tx_pps", port_pps},
                     {"tx_frames", f.window_frames}};
        port.update(driver_counters(sw.driver->counters()));
        ports.push_back(port);
    }
    r["tx_pps_by_port"] = by_port;
    r["wire_limit_pps"] = wire_limit;
    std::uint64_t sent = window_frames(frames);
    r["tx_frames"] = sent;
    if (platform.nics().size() == 1) r["nic"] = platform.nics()[0]->stats();
    json nics = json::array();
    for (std::size_t n = 0; n < platform.nics().size(); ++n) {
        const NicPlacement& placement = topology.nics[n];
        nics.push_back({{"name", placement.name},
                        {"model", placement.params.model},
                        {"segment", placement.card < 0
                                        ? std::string("bus")
                                        : topology.cards[placement.card].bridge.name},
                        {"tx_pps", nic_pps[n]},
                        {"tx_pps_by_port", nic_by_port[n]},
                        {"stats", platform.nics()[n]->stats()}});
    }
    r["nics"] = nics;
    r["ports"] = ports;
    json cpus = json::array();
    std::uint64_t mmio_reads = 0, mmio_writes = 0, queued = 0;
    for (std::size_t c = 0; c < platform.cpus().size(); ++c) {
        const auto& t = platform.cpus()[c]->totals();
        E1000Driver::Counters d;
        for (std::size_t k = 0; k < platform.ports().size(); ++k) {
            if (topology.port_cpu[k] != c) continue;
            const auto& port = platform.ports()[k]->driver->counters();
            d.queued += port.queued;
            d.cleaned += port.cleaned;
            d.stops += port.stops;
            d.tdt_writes += port.tdt_writes;
            d.descriptors += port.descriptors;
        }
        double w = window_s * 1e12;
        queued += d.queued;
        mmio_reads += t.mmio_reads;
        mmio_writes += t.mmio_writes;
        json cpu = {{"busy_fraction", static_cast<double>(t.busy) / w},
                    {"mmio_stall_fraction", static_cast<double>(t.mmio_stall) / w},
                    {"waiting_fraction", static_cast<double>(t.waiting) / w},
                    {"interrupts", t.interrupts},
                    {"timer_ticks", t.timer_ticks},
                    {"mmio_reads", t.mmio_reads},
                    {"mmio_writes", t.mmio_writes}};
        cpu.update(driver_counters(d));
        cpus.push_back(cpu);
    }
    r["cpus"] = cpus;
    double n = sent ? static_cast<double>(sent) : 1;
    r["mmio_reads_per_packet"] = static_cast<double>(mmio_reads) / n;
    r["mmio_writes_per_packet"] = static_cast<double>(mmio_writes) / n;
    r["packets_queued"] = queued;
}

}  // namespace

json results_document(const json& resolved_scenario, Platform& platform,
                      const std::vector<FrameCheck>& frames, const RunWindow& window) {
    double window_s = window.window_us * 1e-6;
    json r;
    r["scenario"] = resolved_scenario;
    r["warmup_us"] = window.warmup_us;
    r["window_us"] = window.window_us;
    r["stability"] = window.stability;
    r["bus"] = bus_results(platform.bus(), window.window_us, window_s);
    json masters = json::array();
    for (const auto& m : platform.masters()) masters.push_back(master_results(*m, window_s));
    r["masters"] = masters;
    if (!platform.cards().empty()) {
        json cards = json::array();
        for (std::size_t c = 0; c < platform.cards().size(); ++c) {
            json bus = bus_results(platform.cards()[c]->bus, window.window_us, window_s);
            bus["name"] = platform.config().topology.cards[c].bridge.name;
            cards.push_back(bus);
        }
        r["card_buses"] = cards;
    }
    if (!platform.nics().empty()) add_nic_results(r, platform, frames, window_s);
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
      << r["warmup_us"].get<double>() << " us warm-up (";
    if (r["stability"].is_number() && std::isfinite(r["stability"].get<double>()))
        o << "last batch changed the rate by " << 100 * r["stability"].get<double>() << " %)\n";
    else
        o << "one batch: stability not measured)\n";
    auto bus_line = [&o](const std::string& name, const json& bus) {
        o << name << ": " << 100 * bus["utilisation"].get<double>() << " % busy, "
          << bus["data_bytes_per_s"].get<double>() / 1e6 << " MB/s of data (peak "
          << bus["peak_bytes_per_s"].get<double>() / 1e6 << " MB/s), " << bus["transactions"]
          << " transactions, " << bus["retries"] << " retries, " << bus["disconnects"]
          << " disconnects, " << bus["preemptions"] << " latency-timer preemptions\n";
    };
    bus_line("bus", b);
    if (r.contains("card_buses"))
        for (const json& card : r["card_buses"])
            bus_line(card["name"].get<std::string>() + " bus (" + card["kind"].get<std::string>() +
                         " " + card["width_bits"].dump() + "/" + card["clock_mhz"].dump() + ")",
                     card);
    if (r.contains("tx_pps")) {
        o.precision(0);
        o << "tx: " << r["tx_pps"].get<double>() << " pps, " << r["tx_mbps"].get<double>()
          << " Mbit/s (wire limit " << r["wire_limit_pps"].get<double>() << " pps)\n";
        if (r["ports"].size() > 1) {
            for (const json& n : r["nics"]) {
                o << "  " << n["name"].get<std::string>() << " (" << n["model"].get<std::string>()
                  << " on " << n["segment"].get<std::string>() << "): "
                  << n["tx_pps"].get<double>() << " pps";
                for (const json& p : r["ports"])
                    if (p["nic"] == n["name"])
                        o << "; port " << p["port"] << " on cpu" << p["cpu"] << " "
                          << p["tx_pps"].get<double>() << " pps";
                o << "\n";
            }
        }
        o.precision(2);
        o << "per packet: " << r["mmio_reads_per_packet"].get<double>() << " register reads, "
          << r["mmio_writes_per_packet"].get<double>() << " register writes\n";
        for (std::size_t i = 0; i < r["cpus"].size(); ++i) {
            const json& c = r["cpus"][i];
            o.precision(1);
            o << "cpu" << i << ": " << 100 * c["busy_fraction"].get<double>() << " % busy, "
              << 100 * c["mmio_stall_fraction"].get<double>() << " % stalled on register reads, "
              << 100 * c["waiting_fraction"].get<double>() << " % waiting on the queue, "
              << c["interrupts"] << " interrupts\n";
        }
        if (r.contains("nic")) o << "nic: " << r["nic"].dump() << "\n";
    }
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
