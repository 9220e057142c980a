#include "run/results.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/line_use.h"
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
            {"utilisation_fraction", static_cast<double>(c.busy) / (window_us * 1e6)},
            {"transactions_in_window", c.transactions},
            {"retries_in_window", c.retries},
            {"disconnects_in_window", c.disconnects},
            {"preemptions_in_window", c.preemptions},
            {"split_responses_in_window", c.split_responses},
            {"data_bytes_per_s", static_cast<double>(c.data_bytes) / window_s}};
}

json master_results(const DmaMaster& m, double window_s) {
    const auto& t = m.totals();
    double n = t.requests ? static_cast<double>(t.requests) : 1;
    return {{"name", m.config().name},
            {"bytes_per_s", static_cast<double>(t.bytes) / window_s},
            {"requests_in_window", t.requests},
            {"transactions_in_window", t.transactions},
            {"retries_in_window", t.retries},
            {"disconnects_in_window", t.disconnects},
            {"preemptions_in_window", t.preemptions},
            {"mean_latency_ns", ps_to_ns(t.latency_sum) / n},
            {"mean_arbitration_ns", ps_to_ns(t.arbitration_sum) / n}};
}

// {"p50", "p90", "p99", "max", "mean"}; null where there is no sample (or, for a percentile,
// too few for its estimate).
json distribution_results(const Distribution& d) {
    auto or_null = [](const std::optional<double>& v) { return v ? json(*v) : json(); };
    json r = {{"p50", or_null(d.percentile(0))},
              {"p90", or_null(d.percentile(1))},
              {"p99", or_null(d.percentile(2))},
              {"max", nullptr},
              {"mean", nullptr}};
    if (d.count()) r["max"] = d.max(), r["mean"] = d.mean();
    return r;
}

// The driver counters a port and a CPU report: one table for the results and the metrics
// reference.
struct DriverCounter {
    const char* key;
    std::uint64_t E1000Driver::Counters::*count;
    const char* meaning;
};
constexpr DriverCounter kDriverCounters[] = {
    {"packets_queued", &E1000Driver::Counters::queued, "packets accepted (xmit_frame)"},
    {"packets_cleaned", &E1000Driver::Counters::cleaned,
     "packets cleaned (DD seen, skb freed)"},
    {"queue_stops", &E1000Driver::Counters::stops, "times the queue was stopped (ring full)"},
    {"tdt_writes", &E1000Driver::Counters::tdt_writes, "tail (TDT) register writes"},
    {"descriptors_queued", &E1000Driver::Counters::descriptors, "descriptors filled"},
};

json driver_counters(const E1000Driver::Counters& d) {
    json r;
    for (const DriverCounter& c : kDriverCounters) r[c.key] = d.*c.count;
    return r;
}

// Totals, then each NIC, each port and each CPU: tx_pps and tx_pps_by_port cover every
// transmitting port (in the order of the NICs and their ports); a CPU's entry adds up the
// driver counters of the ports it drives.
void add_nic_results(json& r, const Platform& platform, const std::vector<FrameCheck>& frames,
                     double window_s) {
    const Topology& topology = platform.config().topology;
    double pps = window_frame_rate(frames, window_s);
    r["tx_pps"] = pps;
    json by_port = json::array(), ports = json::array();
    json latency = json::array(), interval = json::array(), stages = json::array();
    std::vector<double> nic_pps(platform.nics().size(), 0);
    std::vector<json> nic_by_port(platform.nics().size(), json::array());
    double wire_limit = 0, mbps = 0;
    for (const FrameCheck& f : frames) {
        const PortSoftware& sw = *platform.ports()[f.port];
        double port_pps = port_frame_rate(f, window_s);
        // pktgen's definition (frame + FCS), with the frames' mean size: a TCP sender's vary.
        double frame = f.window_frames ? double(f.window_bytes) / double(f.window_frames)
                                       : double(sw.frame_bytes());
        mbps += port_pps * 8 * (frame + 4) / 1e6;
        by_port.push_back(port_pps);
        nic_pps[sw.nic] += port_pps;
        nic_by_port[sw.nic].push_back(port_pps);
        wire_limit += platform.nics()[sw.nic]->port(sw.port).wire_limit_pps(sw.frame_bytes());
        latency.push_back(distribution_results(f.times.latency));
        interval.push_back(distribution_results(f.times.frame_interval));
        json port_stages;
        for (std::size_t i = 0; i < kPacketStageCount; ++i)
            port_stages[kPacketStages[i].key] = distribution_results(f.times.stages[i]);
        stages.push_back(port_stages);
        json port = {{"nic", topology.nics[sw.nic].name},
                     {"port", sw.port},
                     {"cpu", topology.port_cpu[f.port]},
                     {"tx_pps", port_pps},
                     {"tx_frames", f.window_frames}};
        port.update(driver_counters(sw.driver->counters()));
        ports.push_back(port);
    }
    r["tx_mbps"] = mbps;
    r["tx_pps_by_port"] = by_port;
    r["wire_limit_pps"] = wire_limit;
    std::uint64_t sent = window_frames(frames);
    r["tx_frames"] = sent;
    r["packet_latency_ns_by_port"] = latency;
    r["frame_interval_ns_by_port"] = interval;
    r["packet_stages_ns_by_port"] = stages;
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
    std::uint64_t mmio_reads = 0, mmio_writes = 0, queued = 0, cache_misses = 0, slab_batches = 0,
                  locked_ops = 0, transfers = 0;
    for (std::size_t c = 0; c < platform.cpus().size(); ++c) {
        const auto& t = platform.cpus()[c]->totals();
        E1000Driver::Counters d;
        for (std::size_t k = 0; k < platform.ports().size(); ++k) {
            if (topology.port_cpu[k] != c) continue;
            const auto& port = platform.ports()[k]->driver->counters();
            for (const DriverCounter& c : kDriverCounters) d.*c.count += port.*c.count;
        }
        double w = window_s * 1e12;
        queued += d.queued;
        mmio_reads += t.mmio_reads;
        mmio_writes += t.mmio_writes;
        cache_misses += t.cache_misses;
        slab_batches += t.slab_batches;
        locked_ops += t.locked_ops;
        json moved_in = json::object(), taken = json::object();
        std::uint64_t cpu_transfers = 0, remote_misses = 0;
        if (const CacheCoherence* caches = platform.caches()) {
            const CacheCoherence::Counters& k = caches->counters(static_cast<unsigned>(c));
            remote_misses = k.remote_misses;
            for (std::size_t u = 0; u < kLineUses; ++u) {
                const char* use = to_string(static_cast<LineUse>(u));
                moved_in[use] = k.transfers[u];
                taken[use] = k.invalidations[u];
                cpu_transfers += k.transfers[u];
            }
        }
        transfers += cpu_transfers;
        json cpu = {{"busy_fraction", static_cast<double>(t.busy) / w},
                    {"mmio_stall_fraction", static_cast<double>(t.mmio_stall) / w},
                    {"waiting_fraction", static_cast<double>(t.waiting) / w},
                    {"interrupts", t.interrupts},
                    {"timer_ticks", t.timer_ticks},
                    {"mmio_reads", t.mmio_reads},
                    {"mmio_writes", t.mmio_writes},
                    {"cache_misses", t.cache_misses},
                    {"slab_batches", t.slab_batches},
                    {"locked_ops", t.locked_ops},
                    {"lock_spin_fraction", static_cast<double>(t.lock_spin) / w},
                    {"remote_misses", remote_misses},
                    {"line_transfers", cpu_transfers},
                    {"line_transfers_by_use", moved_in},
                    {"line_invalidations_by_use", taken}};
        cpu.update(driver_counters(d));
        cpus.push_back(cpu);
    }
    r["cpus"] = cpus;
    double n = sent ? static_cast<double>(sent) : 1;
    r["mmio_reads_per_packet"] = static_cast<double>(mmio_reads) / n;
    r["mmio_writes_per_packet"] = static_cast<double>(mmio_writes) / n;
    r["cache_misses_per_packet"] = static_cast<double>(cache_misses) / n;
    r["slab_batches_per_packet"] = static_cast<double>(slab_batches) / n;
    r["locked_ops_per_packet"] = static_cast<double>(locked_ops) / n;
    r["line_transfers_per_packet"] = static_cast<double>(transfers) / n;
    r["snoop_hits_per_packet"] = static_cast<double>(platform.host().snoop_hits()) / n;
    r["snoop_extra_ns_per_packet"] = platform.host().snoop_extra_ps() / 1e3 / n;
    r["packets_queued"] = queued;
}

// The driver counters' keys under `prefix` (ports[]. or cpus[].), counted by `whose` driver.
void add_driver_metrics(std::vector<MetricSpec>& out, const std::string& prefix,
                        const std::string& whose) {
    for (const DriverCounter& c : kDriverCounters)
        out.push_back({prefix + c.key, "count", whose + ": " + c.meaning + "."});
}

// The receive side (only with wire_source.enabled): received pps as the NIC delivered frames to
// host memory, what the wire offered, missed frames by cause, what the drivers did with the
// frames, and the receive path's share of the bus and the CPUs.
void add_rx_results(json& r, const Platform& platform, const RunWindow& window, double window_s) {
    std::uint64_t arrived = 0, delivered = 0, missed = 0;
    json by_port = json::array();
    for (const RxPortWindow& w : window.rx) {
        arrived += w.arrived, delivered += w.delivered, missed += w.missed;
        by_port.push_back(static_cast<double>(w.delivered) / window_s);
    }
    E1000RxDriver::Counters d;
    double cpu_seconds = 0;
    for (const auto& sw : platform.ports()) {
        if (!sw->rx) continue;
        const auto& c = sw->rx->counters();
        d.received += c.received, d.dropped += c.dropped, d.to_stack += c.to_stack;
        d.forwarded += c.forwarded, d.forward_dropped += c.forward_dropped;
        d.rdt_writes += c.rdt_writes, d.polls += c.polls;
        cpu_seconds += c.cycles / (sw->cpu.costs().clock_mhz * 1e6);
    }
    std::uint64_t no_descriptor = 0, fifo_full = 0, no_buffer = 0, data_bytes = 0,
                  descriptor_bytes = 0;
    for (const auto& nic : platform.nics()) {
        const e1000::RxStats& s = nic->rx_stats();
        no_descriptor += s.missed_no_descriptor, fifo_full += s.missed_fifo_full;
        no_buffer += s.no_buffer_arrivals;
        data_bytes += s.bytes_delivered;
        descriptor_bytes += (s.descriptors_fetched + s.descriptors_written_back) * 16;
    }
    const WireSourceConfig& wire = platform.config().wire;
    double offered = 0;
    for (const auto& w : platform.wire_sources())
        offered += wire.rate_pps > 0 ? wire.rate_pps : 1e12 / static_cast<double>(w->frame_interval());
    r["rx"] = {{"rx_pps", static_cast<double>(delivered) / window_s},
               {"rx_pps_by_port", by_port},
               {"offered_pps", offered},
               {"frames_arrived", arrived},
               {"frames_delivered", delivered},
               {"missed_frames", missed},
               {"missed_by_cause", {{"no_descriptor", no_descriptor}, {"fifo_full", fifo_full}}},
               {"no_buffer_arrivals", no_buffer},
               {"driver_received", d.received},
               {"driver_dropped", d.dropped},
               {"driver_to_stack", d.to_stack},
               {"driver_forwarded", d.forwarded},
               {"forward_dropped", d.forward_dropped},
               {"forward_pps", static_cast<double>(d.forwarded) / window_s},
               {"rdt_writes", d.rdt_writes},
               {"polls", d.polls},
               {"cpu_fraction", cpu_seconds / window_s},
               {"bus_data_bytes_per_s", static_cast<double>(data_bytes) / window_s},
               {"bus_descriptor_bytes_per_s", static_cast<double>(descriptor_bytes) / window_s}};
}

// A TCP stream as netperf reports it (only with workload.kind tcp_stream): the payload the
// receivers took in the window, the sending CPUs' time (running code and stalled on register
// reads) as a share of the window and per KB (1024 bytes) of payload, and what the stack did.
void add_tcp_results(json& r, const Platform& platform, double window_s) {
    TcpSender::Counters sent;
    TcpReceiver::Counters received;
    std::uint64_t max_in_flight = 0;
    json by_port = json::array();
    std::vector<bool> sending(platform.cpus().size(), false);
    for (std::size_t k = 0; k < platform.ports().size(); ++k) {
        const PortSoftware& sw = *platform.ports()[k];
        const auto& s = sw.tcp->counters();
        const auto& p = sw.peer->counters();
        sent.writes += s.writes, sent.frames += s.frames, sent.segments += s.segments;
        sent.writer_blocked += s.writer_blocked;
        max_in_flight = std::max(max_in_flight, sw.tcp->max_in_flight());
        received.payload_bytes += p.payload_bytes, received.segments += p.segments;
        received.acks_sent += p.acks_sent, received.delayed_acks += p.delayed_acks;
        received.bad_checksums += p.bad_checksums;
        by_port.push_back(static_cast<double>(p.payload_bytes) * 8 / window_s / 1e6);
        sending[platform.config().topology.port_cpu[k]] = true;
    }
    double cpu_s = 0, cpus = 0;
    for (std::size_t c = 0; c < platform.cpus().size(); ++c) {
        if (!sending[c]) continue;
        const auto& t = platform.cpus()[c]->totals();
        cpu_s += static_cast<double>(t.busy + t.mmio_stall) * 1e-12;
        cpus += 1;
    }
    const double kb = static_cast<double>(received.payload_bytes) / 1024;
    std::uint64_t modified_lines = 0;  // lines DMA reads found modified in a CPU cache
    if (platform.caches())
        for (const auto& cache : platform.caches()->caches())
            modified_lines += cache->counters().snoop_hits;
    r["tcp"] = {{"throughput_mbit_s", static_cast<double>(received.payload_bytes) * 8 / window_s / 1e6},
                {"throughput_mbit_s_by_port", by_port},
                {"send_cpu_pct", cpus ? 100 * cpu_s / (window_s * cpus) : 0.0},
                {"send_service_demand_us_per_kb", kb > 0 ? cpu_s * 1e6 / kb : 0.0},
                {"payload_bytes", received.payload_bytes},
                {"segments", received.segments},
                {"segments_sent", sent.segments},
                {"frames_to_driver", sent.frames},
                {"writes", sent.writes},
                {"acks", received.acks_sent},
                {"delayed_acks", received.delayed_acks},
                {"writer_blocked", sent.writer_blocked},
                {"max_in_flight_bytes", max_in_flight},
                {"modified_lines_read_per_segment",
                 static_cast<double>(modified_lines) /
                     static_cast<double>(std::max<std::uint64_t>(1, received.segments))},
                {"bad_checksums", received.bad_checksums}};
}

// The table of one per-packet distribution's keys.
void add_distribution_metrics(std::vector<MetricSpec>& out, const std::string& key,
                              const std::string& what) {
    out.push_back({key + ".p50", "ns", "Median " + what + " (P-square estimate)."});
    out.push_back({key + ".p90", "ns", "90th percentile of the " + what + " (P-square estimate)."});
    out.push_back({key + ".p99", "ns", "99th percentile of the " + what + " (P-square estimate)."});
    out.push_back({key + ".max", "ns", "Largest " + what + "."});
    out.push_back({key + ".mean", "ns", "Mean " + what + "."});
}

}  // namespace

json results_document(const json& resolved_scenario, Platform& platform,
                      const std::vector<FrameCheck>& frames, const RunWindow& window) {
    double window_s = window.window_us * 1e-6;
    json r;
    r["scenario"] = resolved_scenario;
    r["warmup_us"] = window.warmup_us;
    r["window_us"] = window.window_us;
    r["stability_fraction"] = window.stability;
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
    if (!platform.wire_sources().empty()) add_rx_results(r, platform, window, window_s);
    if (platform.config().tcp.enabled) add_tcp_results(r, platform, window_s);
    return r;
}

std::vector<MetricSpec> result_metrics() {
    std::vector<MetricSpec> m = {
        {"scenario", "", "The resolved scenario the run simulated: every key, defaults filled in "
         "(docs/scenario-reference.md)."},
        {"warmup_us", "us", "Simulated time before the measurement window (discarded)."},
        {"window_us", "us", "Length of the measurement window every rate and count is over."},
        {"stability_fraction", "fraction", "Relative change of the measured rate in the "
         "window's last batch (compare simulation.stability); null when the window is one "
         "batch."},
        {"bus.kind", "", "pci or pcix: the NIC's segment."},
        {"bus.width_bits", "bits", "Its data width."},
        {"bus.clock_mhz", "MHz", "Its clock."},
        {"bus.peak_bytes_per_s", "bytes/s", "width_bits/8 x clock: one data phase per clock."},
        {"bus.utilisation_fraction", "fraction", "Share of the window in which the bus was "
         "busy: from FRAME# to the end of the turnaround, retries included (was `utilisation`)."},
        {"bus.transactions_in_window", "count", "Transactions of every master (was "
         "`transactions`)."},
        {"bus.retries_in_window", "count", "Transactions the target ended with Retry (was "
         "`retries`)."},
        {"bus.disconnects_in_window", "count", "Transactions the target ended with a Disconnect "
         "(was `disconnects`)."},
        {"bus.preemptions_in_window", "count", "Bursts cut by the latency timer after GNT# was "
         "taken away (was `preemptions`)."},
        {"bus.split_responses_in_window", "count", "PCI-X reads answered with a Split Response "
         "(was `split_responses`)."},
        {"bus.data_bytes_per_s", "bytes/s", "Bytes moved in data phases, over the window."},
    };
    // An on-card bridge's segment (card_bridges[]) reports as the NIC's segment does.
    std::size_t bus_keys = m.size();
    m.push_back({"card_buses[].name", "", "The on-card bridge above the segment "
                 "(card_bridges[].name); only with card bridges."});
    for (std::size_t i = 0; i < bus_keys; ++i)
        if (m[i].key.rfind("bus.", 0) == 0)
            m.push_back({"card_buses[]." + m[i].key.substr(4), m[i].unit, m[i].meaning});
    std::vector<MetricSpec> traffic = {
        {"masters[].name", "", "A synthetic master (scenario masters[])."},
        {"masters[].bytes_per_s", "bytes/s", "Bytes it moved, over the window."},
        {"masters[].requests_in_window", "count", "Reads or writes it finished (was `requests`)."},
        {"masters[].transactions_in_window", "count", "Bus transactions they took (was "
         "`transactions`)."},
        {"masters[].retries_in_window", "count", "Retries among them (was `retries`)."},
        {"masters[].disconnects_in_window", "count", "Disconnects among them (was "
         "`disconnects`)."},
        {"masters[].preemptions_in_window", "count", "Latency-timer preemptions among them (was "
         "`preemptions`)."},
        {"masters[].mean_latency_ns", "ns", "Mean time from its request to its last byte."},
        {"masters[].mean_arbitration_ns", "ns", "Mean time from REQ# to FRAME#, per request."},
        {"tx_pps", "packets/s", "Frames per second on the wire, all ports: each port's frames "
         "from its first to its last frame in the window, added up."},
        {"tx_mbps", "Mbit/s", "Each port's tx_pps x 8 x (its frames' mean size in the window + 4): "
                                "pktgen's definition, (packet.size + 4) for pktgen's frames."},
        {"tx_pps_by_port[]", "packets/s", "tx_pps of each transmitting port."},
        {"wire_limit_pps", "packets/s", "The ports' wire limits added up: 1/(frame + preamble + "
         "FCS + gap time)."},
        {"tx_frames", "count", "Frames all ports sent in the window."},
    };
    m.insert(m.end(), traffic.begin(), traffic.end());
    add_distribution_metrics(m, "packet_latency_ns_by_port[]",
                             "per-packet latency of the port in the window, from pktgen's "
                             "hard_start_xmit call for the packet to the last byte of its frame "
                             "on the wire (with the time it waits in the TX ring behind the "
                             "packets before it: pktgen keeps the ring full, so about the ring's "
                             "packets times the frame interval)");
    add_distribution_metrics(m, "frame_interval_ns_by_port[]",
                             "time between the last bytes of consecutive frames of the port in "
                             "the window (its mean is 1/tx_pps_by_port)");
    // The stages split packet_latency_ns_by_port: a packet's stages add up to its latency, so
    // the stages' means add up to the latency's mean.
    for (const PacketStage& stage : kPacketStages)
        add_distribution_metrics(m, "packet_stages_ns_by_port[]." + std::string(stage.key),
                                 std::string(stage.key) + " time of the port's packets in "
                                     "the window: " + stage.meaning);
    for (const MetricSpec& s : E1000::stats_metrics())
        m.push_back({"nic." + s.key, s.unit, s.meaning + " (only with a single NIC)"});
    std::vector<MetricSpec> nics = {
        {"nics[].name", "", "The NIC's module: nic for the single NIC of nic.*, else nic0, "
         "nic1, ... (nics[])."},
        {"nics[].model", "", "Its part (nic.model)."},
        {"nics[].segment", "", "Where it sits: bus (the devices' segment) or the name of the "
         "on-card bridge above it."},
        {"nics[].tx_pps", "packets/s", "Its transmitting ports' tx_pps added up."},
        {"nics[].tx_pps_by_port[]", "packets/s", "tx_pps of each of its transmitting ports."},
    };
    m.insert(m.end(), nics.begin(), nics.end());
    for (const MetricSpec& s : E1000::stats_metrics())
        m.push_back({"nics[].stats." + s.key, s.unit, s.meaning});
    std::vector<MetricSpec> ports = {
        {"ports[].nic", "", "A transmitting port's NIC (nics[].name)."},
        {"ports[].port", "", "Its number on that NIC."},
        {"ports[].cpu", "", "The CPU whose pktgen thread drives it (cpus[] index)."},
        {"ports[].tx_pps", "packets/s", "Its frames per second on the wire (as tx_pps)."},
        {"ports[].tx_frames", "count", "Its frames in the window."},
    };
    m.insert(m.end(), ports.begin(), ports.end());
    add_driver_metrics(m, "ports[].", "Its driver");
    std::vector<MetricSpec> cpus = {
        {"cpus[].busy_fraction", "fraction", "Share of the window the CPU ran code (pktgen, "
         "driver, interrupts)."},
        {"cpus[].mmio_stall_fraction", "fraction", "Share of the window it was stalled on "
         "register reads."},
        {"cpus[].waiting_fraction", "fraction", "Share of the window it had nothing to do "
         "(pktgen spinning on a stopped queue)."},
        {"cpus[].interrupts", "count", "Interrupts it took."},
        {"cpus[].timer_ticks", "count", "Driver timer ticks it ran."},
        {"cpus[].mmio_reads", "count", "Register reads it made."},
        {"cpus[].mmio_writes", "count", "Register writes it made."},
        {"cpus[].cache_misses", "count", "Cache lines its software touched that were not in its "
         "cache (cpu.cache; 0 without a cache model)."},
        {"cpus[].slab_batches", "count", "Slab array refills and flushes its software made "
         "(batches moved between the per-CPU arrays and the slab lists)."},
        {"cpus[].locked_ops", "count", "Locked instructions its software executed (atomic "
         "operations and spin locks of an SMP kernel; 0 with kernel.smp false)."},
        {"cpus[].lock_spin_fraction", "fraction", "Share of the window it spun on a spin lock "
         "another CPU held (tx_lock while another CPU cleans; part of busy_fraction)."},
        {"cpus[].remote_misses", "count", "Cache misses of its software to another NUMA node's "
         "memory (host.numa_nodes; host.numa_hop_ns each on top)."},
        {"cpus[].line_transfers", "count", "Cache lines its software took from another CPU's "
         "modified copy (cpu.cache.transfer_ns each)."},
    };
    // By what the line holds (core/line_use.h): ring_state is the ring indices, tx_lock and
    // the queue state; slab_array the slab's shared array.
    for (std::size_t u = 0; u < kLineUses; ++u) {
        const std::string use = to_string(static_cast<LineUse>(u));
        cpus.push_back({"cpus[].line_transfers_by_use." + use, "count",
                        "Of line_transfers, the lines holding " + use + "."});
    }
    for (std::size_t u = 0; u < kLineUses; ++u) {
        const std::string use = to_string(static_cast<LineUse>(u));
        cpus.push_back({"cpus[].line_invalidations_by_use." + use, "count",
                        "Writes of its software to lines holding " + use + " that took them from "
                        "other CPUs' copies (cpu.cache.invalidate_ns each when it held a shared "
                        "copy)."});
    }
    m.insert(m.end(), cpus.begin(), cpus.end());
    add_driver_metrics(m, "cpus[].", "The drivers of the ports it drives, added up");
    std::vector<MetricSpec> totals = {
        {"mmio_reads_per_packet", "reads/packet", "All CPUs' register reads over tx_frames."},
        {"mmio_writes_per_packet", "writes/packet", "All CPUs' register writes over tx_frames."},
        {"cache_misses_per_packet", "lines/packet", "All CPUs' cache misses over tx_frames."},
        {"slab_batches_per_packet", "batches/packet", "All CPUs' slab refills and flushes over "
         "tx_frames."},
        {"locked_ops_per_packet", "ops/packet", "All CPUs' locked instructions over tx_frames."},
        {"line_transfers_per_packet", "lines/packet", "Cache lines moved from one CPU's "
         "modified copy to another CPU over tx_frames."},
        {"snoop_hits_per_packet", "lines/packet", "Lines DMA reads found modified in a CPU "
         "cache (coherent DMA: host.snoop_hit_ns for a read's first line, host.snoop_line_ns "
         "for each further one), over tx_frames."},
        {"snoop_extra_ns_per_packet", "ns/packet", "What those snoop hits added to the DMA "
         "reads over memory (< 0 where a cache answers faster than memory), over tx_frames."},
        {"packets_queued", "count", "Packets all drivers accepted in the window."},
        {"rx.rx_pps", "packets/s", "Received frames per second: frames the NICs wrote to "
         "host memory and wrote back (DD) in the window, at most those that arrived in it and "
         "were not missed (never above what the wire sent), all receiving ports; rx.* only "
         "with wire_source.enabled."},
        {"rx.rx_pps_by_port[]", "packets/s", "rx.rx_pps of each receiving port."},
        {"rx.offered_pps", "packets/s", "Frames per second the wire sources send, all receiving "
         "ports."},
        {"rx.frames_arrived", "count", "Frames the receivers took from the wire in the window."},
        {"rx.frames_delivered", "count", "Frames written to host memory and written back in "
         "the window, at most rx.frames_arrived less rx.missed_frames (rx.rx_pps's count)."},
        {"rx.missed_frames", "count", "Frames missed because the RX FIFO was full (MPC)."},
        {"rx.missed_by_cause.no_descriptor", "count", "Missed with no receive descriptor "
         "available (the driver behind: ring empty)."},
        {"rx.missed_by_cause.fifo_full", "count", "Missed with descriptors available (the DMA "
         "engine and the bus behind)."},
        {"rx.no_buffer_arrivals", "count", "Frames that arrived with no descriptor available "
         "(RNBC), missed or not."},
        {"rx.driver_received", "count", "Frames the drivers cleaned (clean_rx_irq)."},
        {"rx.driver_dropped", "count", "Of those, dropped in the driver (driver.rx_mode drop)."},
        {"rx.driver_to_stack", "count", "Of those, handed to the stack (driver.rx_mode stack)."},
        {"rx.driver_forwarded", "count", "Of those, queued on the other port's transmit ring "
         "(driver.rx_mode forward)."},
        {"rx.forward_dropped", "count", "Of those, dropped because the other port's transmit "
         "queue was stopped (driver.rx_mode forward; no qdisc queue is modelled)."},
        {"rx.forward_pps", "packets/s", "The forwarding rate: rx.driver_forwarded over the "
         "window (the egress ports' tx_pps once steady)."},
        {"rx.rdt_writes", "count", "Receive tail (RDT) register writes."},
        {"rx.polls", "count", "Receive polls (clean_rx_irq calls)."},
        {"rx.cpu_fraction", "fraction", "CPU time of the receive path (cleaning, skb free and "
         "allocation, refill, stack) over the window, added over the CPUs."},
        {"rx.bus_data_bytes_per_s", "bytes/s", "Received frame data the NICs wrote over the "
         "bus (posted writes)."},
        {"rx.bus_descriptor_bytes_per_s", "bytes/s", "Receive descriptors the NICs fetched and "
         "wrote back over the bus."},
        {"tcp.throughput_mbit_s", "Mbit/s", "TCP payload the receivers took in order in the "
         "window, in 10^6 bits per second (netperf's throughput); tcp.* only with workload.kind "
         "tcp_stream."},
        {"tcp.throughput_mbit_s_by_port[]", "Mbit/s", "tcp.throughput_mbit_s of each port."},
        {"tcp.send_cpu_pct", "%", "Time the sending CPUs ran code or stalled on register reads, "
         "over the window and the number of sending CPUs (netperf's send CPU utilisation)."},
        {"tcp.send_service_demand_us_per_kb", "us/KB", "That CPU time per KB (1024 bytes) of "
         "payload received (netperf's send service demand)."},
        {"tcp.payload_bytes", "bytes", "Payload the receivers took in order in the window."},
        {"tcp.segments", "count", "Segments the receivers took from the wire and processed "
         "(tcp.receiver_segment_us each)."},
        {"tcp.segments_sent", "count", "MSS segments in the skbs handed to the drivers (one "
         "per skb without TSO; with it the NIC cuts each skb into these); it differs from "
         "tcp.segments by what was queued or in flight at the window's start and end."},
        {"tcp.frames_to_driver", "count", "skbs the stacks handed to the drivers (one per "
         "segment without TSO)."},
        {"tcp.writes", "count", "Application write() calls."},
        {"tcp.acks", "count", "ACKs the receivers sent (at once or by the delayed-ACK timer)."},
        {"tcp.delayed_acks", "count", "Of the receivers' ACKs, those sent by the delayed-ACK "
         "timer."},
        {"tcp.writer_blocked", "count", "Times a writer found the send buffer full and slept."},
        {"tcp.modified_lines_read_per_segment", "lines/segment", "Cache lines the DMA reads "
         "found modified in a CPU cache (each written back on the way: a copied payload), "
         "over tcp.segments; each costs a snoop hit (host.snoop_hit_ns for a read's first "
         "line, host.snoop_line_ns for each further one)."},
        {"tcp.max_in_flight_bytes", "bytes", "The most payload a sender had sent and not yet "
         "seen acknowledged, since time zero (never more than the window)."},
        {"tcp.bad_checksums", "count", "Segments whose IP or TCP checksum did not verify at the "
         "receiver (checksum offload asked of a NIC that does not do it)."},
    };
    m.insert(m.end(), totals.begin(), totals.end());
    return m;
}

namespace {

// A time the summary prints: in us, or in ms when the largest of its group reaches 1 ms (a
// packet that waited in a long ring), with three decimals either way.
struct TimeUnit {
    const char* name;
    double ns;  // of one unit
};
TimeUnit time_unit(double max_ns) { return max_ns >= 1e6 ? TimeUnit{"ms", 1e6} : TimeUnit{"us", 1e3}; }

constexpr const char* kQuantiles[] = {"p50", "p90", "p99", "max", "mean"};

double largest(const json& d, double so_far = 0) {
    for (const char* key : kQuantiles)
        if (d[key].is_number()) so_far = std::max(so_far, d[key].get<double>());
    return so_far;
}

// "p50 12.345, p90 13.000, p99 14.023, max 15.000, mean 12.502 us"
std::string distribution_line(const json& d) {
    const TimeUnit unit = time_unit(largest(d));
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(3);
    const char* sep = "";
    for (const char* key : kQuantiles) {
        o << sep << key << " ";
        if (d[key].is_number()) o << d[key].get<double>() / unit.ns;
        else o << "-";
        sep = ", ";
    }
    o << " " << unit.name;
    return o.str();
}

// One port's packet stages, a line each in the order of the packet's way:
//   port 0 packet stages (us)         p50      p90      p99      max     mean
//     tail_write                    0.412    0.420    0.501    0.611    0.416
void summarize_stages(std::ostringstream& o, std::size_t port, const json& stages) {
    double max_ns = 0;
    for (const PacketStage& stage : kPacketStages) max_ns = largest(stages[stage.key], max_ns);
    const TimeUnit unit = time_unit(max_ns);
    std::string title = "port " + std::to_string(port) + " packet stages (" + unit.name + ")";
    o << std::left << std::setw(28) << title << std::right;
    for (const char* key : kQuantiles) o << std::setw(10) << key;
    o << "\n";
    o.precision(3);
    for (const PacketStage& stage : kPacketStages) {
        o << "  " << std::left << std::setw(26) << stage.key << std::right;
        const json& d = stages[stage.key];
        for (const char* key : kQuantiles) {
            o << std::setw(10);
            if (d[key].is_number()) o << d[key].get<double>() / unit.ns;
            else o << "-";
        }
        o << "\n";
    }
}

// The NIC's counters and per-packet means, a few lines.
void summarize_nic(std::ostringstream& o, const json& nic) {
    o.precision(1);
    o << "nic " << nic["model"].get<std::string>() << ": " << nic["tx_frames"] << " frames ("
      << nic["tx_bytes"] << " bytes), " << nic["descriptor_fetches"]
      << " descriptor fetches (" << nic["descriptors_fetched"] << " descriptors), "
      << nic["data_reads"] << " data reads, " << nic["writebacks"] << " write-backs ("
      << nic["descriptors_written_back"] << " descriptors), " << nic["interrupts"]
      << " interrupts\n";
    o << "nic on the bus: " << nic["bus_transactions_in_window"] << " transactions, "
      << nic["bus_retries_in_window"] << " retries, " << nic["bus_disconnects_in_window"]
      << " disconnects, " << nic["bus_preemptions_in_window"] << " latency-timer preemptions\n";
    const json& t = nic["mean_per_packet_ns"];
    o << "nic per packet (mean ns): descriptor fetch " << t["descriptor"].get<double>()
      << ", arbitration " << t["arbitration"].get<double>() << ", protocol overhead "
      << t["overhead"].get<double>() << ", read latency " << t["read_latency"].get<double>()
      << ", data phases " << t["data_phases"].get<double>() << ", FIFO wait "
      << t["fifo_wait"].get<double>() << ", wire " << t["wire"].get<double>() << "\n";
    for (std::size_t i = 0; i < nic["ports"].size(); ++i) {
        const json& p = nic["ports"][i];
        o << "nic port " << i << ": " << p["frames_sent"] << " frames since start, TX FIFO peak "
          << p["fifo_peak_bytes"] << " of " << p["fifo_bytes"] << " bytes\n";
    }
    for (const auto& a : nic["unimplemented_register_accesses"])
        o << "nic port " << a["port"] << ": no register at offset "
          << a["offset"].get<std::string>() << " (" << a["reads"] << " reads, " << a["writes"]
          << " writes)\n";
}

// The receive side: the rate, the misses and drops by cause, its CPU and bus cost.
void summarize_receive(std::ostringstream& o, const json& x) {
    o.precision(0);
    o << "rx: " << x["rx_pps"].get<double>() << " pps delivered of "
      << x["offered_pps"].get<double>() << " offered; missed " << x["missed_frames"]
      << " (fifo full " << x["missed_by_cause"]["fifo_full"] << ", no descriptor "
      << x["missed_by_cause"]["no_descriptor"] << "), driver dropped "
      << x["driver_dropped"] << ", to the stack " << x["driver_to_stack"];
    if (x["driver_forwarded"].get<std::uint64_t>() + x["forward_dropped"].get<std::uint64_t>())
        o << ", forwarded " << x["driver_forwarded"] << " (" << x["forward_pps"].get<double>()
          << " pps; dropped at a stopped queue " << x["forward_dropped"] << ")";
    o.precision(1);
    o << "; receive path " << 100 * x["cpu_fraction"].get<double>() << " % of a CPU\n";
    o << "rx over the bus: " << x["bus_data_bytes_per_s"].get<double>() / 1e6
      << " MB/s of frame data, " << x["bus_descriptor_bytes_per_s"].get<double>() / 1e6
      << " MB/s of descriptors; " << x["rdt_writes"] << " tail (RDT) writes, " << x["polls"]
      << " polls in the window\n";
}

// A receive-only NIC: what its receive engines did, and its bus activity.
void summarize_nic_receive(std::ostringstream& o, const json& nic) {
    const json& x = nic["rx"];
    o << "nic " << nic["model"].get<std::string>() << " receive: " << x["frames_arrived"]
      << " frames arrived, " << x["frames_delivered"] << " delivered (" << x["bytes_delivered"]
      << " bytes) in " << x["data_writes"] << " data writes, " << x["descriptor_fetches"]
      << " descriptor fetches (" << x["descriptors_fetched"] << " descriptors), "
      << x["writebacks"] << " write-backs, " << x["missed_frames"] << " missed, "
      << nic["interrupts"] << " interrupts\n";
    o << "nic on the bus: " << nic["bus_transactions_in_window"] << " transactions, "
      << nic["bus_retries_in_window"] << " retries, " << nic["bus_disconnects_in_window"]
      << " disconnects, " << nic["bus_preemptions_in_window"] << " latency-timer preemptions\n";
    for (std::size_t i = 0; i < x["ports"].size(); ++i) {
        const json& p = x["ports"][i];
        o << "nic port " << i << ": " << p["frames_delivered"] << " frames delivered since start, "
          << "RX FIFO peak " << p["fifo_peak_bytes"] << " of " << p["fifo_bytes"] << " bytes\n";
    }
}

}  // namespace

std::string summarize(const json& r) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(1);
    const json& b = r["bus"];
    o << "scenario " << r["scenario"]["name"].get<std::string>() << ": "
      << b["kind"].get<std::string>() << " " << b["width_bits"] << "/" << b["clock_mhz"]
      << ", window " << r["window_us"].get<double>() << " us after "
      << r["warmup_us"].get<double>() << " us warm-up (";
    const json& stability = r["stability_fraction"];
    if (stability.is_number() && std::isfinite(stability.get<double>()))
        o << "last batch changed the rate by " << 100 * stability.get<double>() << " %)\n";
    else
        o << "one batch: stability not measured)\n";
    auto bus_line = [&o](const std::string& name, const json& bus) {
        o << name << ": " << 100 * bus["utilisation_fraction"].get<double>() << " % busy, "
          << bus["data_bytes_per_s"].get<double>() / 1e6 << " MB/s of data (peak "
          << bus["peak_bytes_per_s"].get<double>() / 1e6 << " MB/s), "
          << bus["transactions_in_window"] << " transactions, " << bus["retries_in_window"]
          << " retries, " << bus["disconnects_in_window"] << " disconnects, "
          << bus["preemptions_in_window"] << " latency-timer preemptions in the window\n";
    };
    bus_line("bus", b);
    if (r.contains("card_buses"))
        for (const json& card : r["card_buses"])
            bus_line(card["name"].get<std::string>() + " bus (" + card["kind"].get<std::string>() +
                         " " + card["width_bits"].dump() + "/" + card["clock_mhz"].dump() + ")",
                     card);
    // A run whose ports only receive reports the receive side, not a transmit side of zeros.
    const bool receive_only = r.contains("rx") && r["tx_frames"].get<std::uint64_t>() == 0;
    if (r.contains("tx_pps") && !receive_only) {
        o.precision(0);
        o << "tx: " << r["tx_pps"].get<double>() << " pps, " << r["tx_mbps"].get<double>()
          << " Mbit/s (wire limit " << r["wire_limit_pps"].get<double>() << " pps), "
          << r["tx_frames"] << " frames in the window\n";
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
        for (std::size_t i = 0; i < r["packet_latency_ns_by_port"].size(); ++i) {
            o << "port " << i << " packet latency (xmit to last byte on the wire): "
              << distribution_line(r["packet_latency_ns_by_port"][i]) << "\n";
            o << "port " << i << " frame interval: "
              << distribution_line(r["frame_interval_ns_by_port"][i]) << "\n";
            o.precision(1);
            summarize_stages(o, i, r["packet_stages_ns_by_port"][i]);
        }
        o.precision(2);
        o << "per packet: " << r["mmio_reads_per_packet"].get<double>() << " register reads, "
          << r["mmio_writes_per_packet"].get<double>() << " register writes\n";
    }
    if (r.contains("rx")) summarize_receive(o, r["rx"]);
    if (r.contains("tx_pps")) {
        for (std::size_t i = 0; i < r["cpus"].size(); ++i) {
            const json& c = r["cpus"][i];
            o.precision(1);
            o << "cpu" << i << ": " << 100 * c["busy_fraction"].get<double>() << " % busy, "
              << 100 * c["mmio_stall_fraction"].get<double>() << " % stalled on register reads, "
              << 100 * c["waiting_fraction"].get<double>() << " % waiting on the queue, "
              << c["interrupts"] << " interrupts\n";
        }
        auto nic = receive_only ? summarize_nic_receive : summarize_nic;
        if (r.contains("nic")) nic(o, r["nic"]);
        else
            for (const json& n : r["nics"]) nic(o, n["stats"]);
    }
    if (r.contains("tcp")) {
        const json& t = r["tcp"];
        o.precision(1);
        o << "tcp: " << t["throughput_mbit_s"].get<double>() << " Mbit/s, send CPU "
          << t["send_cpu_pct"].get<double>() << " %, ";
        o.precision(3);
        o << "service demand " << t["send_service_demand_us_per_kb"].get<double>()
          << " us/KB; " << t["segments_sent"] << " segments sent in " << t["frames_to_driver"]
          << " frames to the driver, " << t["segments"] << " processed by the receiver, "
          << t["acks"] << " ACKs\n";
    }
    o.precision(1);
    for (const auto& m : r["masters"]) {
        o << "master " << m["name"].get<std::string>() << ": "
          << m["bytes_per_s"].get<double>() / 1e6 << " MB/s, " << m["requests_in_window"]
          << " requests in " << m["transactions_in_window"] << " transactions, "
          << m["retries_in_window"] << " retries, mean latency "
          << m["mean_latency_ns"].get<double>() << " ns (of which "
          << m["mean_arbitration_ns"].get<double>() << " ns arbitration)\n";
    }
    return o.str();
}

}  // namespace pcisim
