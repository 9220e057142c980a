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

void add_nic_results(json& r, const Platform& platform, const std::vector<FrameCheck>& frames,
                     double window_s) {
    double size = static_cast<double>(platform.config().pktgen.size);
    double pps = window_frame_rate(frames, window_s);
    r["tx_pps"] = pps;
    r["tx_mbps"] = pps * 8 * (size + 4) / 1e6;  // pktgen's definition
    json by_port = json::array();
    double wire_limit = 0;
    for (const FrameCheck& f : frames) {
        by_port.push_back(port_frame_rate(f, window_s));
        wire_limit += platform.nic()->port(f.port).wire_limit_pps(platform.config().pktgen.size);
    }
    r["tx_pps_by_port"] = by_port;
    r["wire_limit_pps"] = wire_limit;
    std::uint64_t sent = window_frames(frames);
    r["tx_frames"] = sent;
    r["nic"] = platform.nic()->stats();
    json cpus = json::array();
    std::uint64_t mmio_reads = 0, mmio_writes = 0, queued = 0;
    for (const auto& sw : platform.ports()) {
        const auto& t = sw->cpu->totals();
        const auto& d = sw->driver->counters();
        double w = window_s * 1e12;
        queued += d.queued;
        mmio_reads += t.mmio_reads;
        mmio_writes += t.mmio_writes;
        cpus.push_back({{"busy_fraction", static_cast<double>(t.busy) / w},
                        {"mmio_stall_fraction", static_cast<double>(t.mmio_stall) / w},
                        {"waiting_fraction", static_cast<double>(t.waiting) / w},
                        {"interrupts", t.interrupts},
                        {"timer_ticks", t.timer_ticks},
                        {"mmio_reads", t.mmio_reads},
                        {"mmio_writes", t.mmio_writes},
                        {"packets_queued", d.queued},
                        {"packets_cleaned", d.cleaned},
                        {"queue_stops", d.stops},
                        {"tdt_writes", d.tdt_writes},
                        {"descriptors_queued", d.descriptors}});
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
    if (platform.nic()) add_nic_results(r, platform, frames, window_s);
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
    o << "bus: " << 100 * b["utilisation"].get<double>() << " % busy, "
      << b["data_bytes_per_s"].get<double>() / 1e6 << " MB/s of data (peak "
      << b["peak_bytes_per_s"].get<double>() / 1e6 << " MB/s), " << b["transactions"]
      << " transactions, " << b["retries"] << " retries, " << b["disconnects"]
      << " disconnects, " << b["preemptions"] << " latency-timer preemptions\n";
    if (r.contains("tx_pps")) {
        o.precision(0);
        o << "tx: " << r["tx_pps"].get<double>() << " pps, " << r["tx_mbps"].get<double>()
          << " Mbit/s (wire limit " << r["wire_limit_pps"].get<double>() << " pps)\n";
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
        o << "nic: " << r["nic"].dump() << "\n";
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
