#include "run/results.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>

#include "core/line_use.h"
#include "core/sim_time.h"
#include "run/nic_families.h"
#include "run/stats_json.h"

namespace pcisim {

using nlohmann::json;

// The results document's statistics, each declared once (core/stats.h) with its unit, meaning
// and value: the document and docs/metrics-reference.md both come from these groups.  The
// values are worked out first, in one pass over the platform as before (sums in the order of
// the ports, NICs and CPUs), into the structs the groups read.
namespace {

const std::string kCount = "count";

// A bus segment: the devices' own or an on-card bridge's.
struct BusView {
    PciBus* bus;  // not const: the bus settles what it kept lazily before its counters are read
    std::string name;
    double window_us, window_s;
};

StatGroup<BusView> bus_statistics() {
    StatGroup<BusView> g;
    g.stat("kind", "", "pci or pcix: the NIC's segment.",
           [](const BusView& b) { return b.bus->config().kind == BusKind::Pci ? "pci" : "pcix"; })
        .stat("width_bits", "bits", "Its data width.",
              [](const BusView& b) { return b.bus->config().width_bits; })
        .stat("clock_mhz", "MHz", "Its clock.", [](const BusView& b) { return b.bus->config().clock_mhz; })
        .stat("peak_bytes_per_s", "bytes/s", "width_bits/8 x clock: one data phase per clock.",
              [](const BusView& b) {
                  return b.bus->config().width_bits / 8.0 * b.bus->config().clock_mhz * 1e6;
              })
        .stat("utilisation_fraction", "fraction", "Share of the window in which the bus was "
              "busy: from FRAME# to the end of the turnaround, retries included (was "
              "`utilisation`).",
              [](const BusView& b) {
                  return static_cast<double>(b.bus->counters().busy) / (b.window_us * 1e6);
              })
        .stat("transactions_in_window", kCount, "Transactions of every master (was "
              "`transactions`).", [](const BusView& b) { return b.bus->counters().transactions; })
        .stat("retries_in_window", kCount, "Transactions the target ended with Retry (was "
              "`retries`).", [](const BusView& b) { return b.bus->counters().retries; })
        .stat("disconnects_in_window", kCount, "Transactions the target ended with a Disconnect "
              "(was `disconnects`).", [](const BusView& b) { return b.bus->counters().disconnects; })
        .stat("preemptions_in_window", kCount, "Bursts cut by the latency timer after GNT# was "
              "taken away (was `preemptions`).",
              [](const BusView& b) { return b.bus->counters().preemptions; })
        .stat("split_responses_in_window", kCount, "PCI-X reads answered with a Split Response "
              "(was `split_responses`).",
              [](const BusView& b) { return b.bus->counters().split_responses; })
        .stat("data_bytes_per_s", "bytes/s", "Bytes moved in data phases, over the window.",
              [](const BusView& b) {
                  return static_cast<double>(b.bus->counters().data_bytes) / b.window_s;
              });
    return g;
}

// An on-card bridge's segment (card_bridges[]) reports as the NIC's segment does.
StatGroup<BusView> card_bus_statistics() {
    StatGroup<BusView> g;
    g.stat("name", "", "The on-card bridge above the segment (card_bridges[].name); only with "
                       "card bridges.",
           [](const BusView& b) { return b.name; })
        .group<BusView>("", bus_statistics(), [](const BusView& b) { return std::optional(b); });
    return g;
}

struct MasterView {
    const DmaMaster* master;
    double window_s;
    double mean(Picos sum) const {
        double n = master->totals().requests ? static_cast<double>(master->totals().requests) : 1;
        return ps_to_ns(sum) / n;
    }
};

StatGroup<MasterView> master_statistics() {
    StatGroup<MasterView> g;
    g.stat("name", "", "A synthetic master (scenario masters[]).",
           [](const MasterView& m) { return m.master->config().name; })
        .stat("bytes_per_s", "bytes/s", "Bytes it moved, over the window.",
              [](const MasterView& m) {
                  return static_cast<double>(m.master->totals().bytes) / m.window_s;
              })
        .stat("requests_in_window", kCount, "Reads or writes it finished (was `requests`).",
              [](const MasterView& m) { return m.master->totals().requests; })
        .stat("transactions_in_window", kCount, "Bus transactions they took (was "
              "`transactions`).", [](const MasterView& m) { return m.master->totals().transactions; })
        .stat("retries_in_window", kCount, "Retries among them (was `retries`).",
              [](const MasterView& m) { return m.master->totals().retries; })
        .stat("disconnects_in_window", kCount, "Disconnects among them (was `disconnects`).",
              [](const MasterView& m) { return m.master->totals().disconnects; })
        .stat("preemptions_in_window", kCount, "Latency-timer preemptions among them (was "
              "`preemptions`).", [](const MasterView& m) { return m.master->totals().preemptions; })
        .stat("mean_latency_ns", "ns", "Mean time from its request to its last byte.",
              [](const MasterView& m) { return m.mean(m.master->totals().latency_sum); })
        .stat("mean_arbitration_ns", "ns", "Mean time from REQ# to FRAME#, per request.",
              [](const MasterView& m) { return m.mean(m.master->totals().arbitration_sum); });
    return g;
}

// One per-packet distribution: {"p50", "p90", "p99", "max", "mean"}; null where there is no
// sample (or, for a percentile, too few for its estimate).
StatGroup<const Distribution*> distribution_statistics(const std::string& what) {
    auto sampled = [](const Distribution* d, double v) {
        return d->count() ? StatValue(v) : StatValue();
    };
    StatGroup<const Distribution*> g;
    g.stat("p50", "ns", "Median " + what + " (P-square estimate).",
           [](const Distribution* d) { return d->percentile(0); })
        .stat("p90", "ns", "90th percentile of the " + what + " (P-square estimate).",
              [](const Distribution* d) { return d->percentile(1); })
        .stat("p99", "ns", "99th percentile of the " + what + " (P-square estimate).",
              [](const Distribution* d) { return d->percentile(2); })
        .stat("max", "ns", "Largest " + what + ".",
              [sampled](const Distribution* d) { return sampled(d, d->max()); })
        .stat("mean", "ns", "Mean " + what + ".",
              [sampled](const Distribution* d) { return sampled(d, d->mean()); });
    return g;
}

// The stages split packet_latency_ns_by_port: a packet's stages add up to its latency, so the
// stages' means add up to the latency's mean.
StatGroup<const PacketTimes*> stage_statistics() {
    StatGroup<const PacketTimes*> g;
    for (std::size_t i = 0; i < kPacketStageCount; ++i) {
        const PacketStage& stage = kPacketStages[i];
        g.group<const Distribution*>(
            stage.key,
            distribution_statistics(std::string(stage.key) + " time of the port's packets in "
                                                             "the window: " + stage.meaning),
            [i](const PacketTimes* t) { return std::optional(&t->stages[i]); });
    }
    return g;
}

// The driver counters a port and a CPU report.
struct DriverCounter {
    const char* key;
    std::uint64_t TxDriverCounters::*count;
    const char* meaning;
};
constexpr DriverCounter kDriverCounters[] = {
    {"packets_queued", &TxDriverCounters::queued, "packets accepted (xmit_frame)"},
    {"packets_cleaned", &TxDriverCounters::cleaned,
     "packets cleaned (DD seen, skb freed)"},
    {"queue_stops", &TxDriverCounters::stops, "times the queue was stopped (ring full)"},
    {"tdt_writes", &TxDriverCounters::tdt_writes, "tail (TDT) register writes"},
    {"descriptors_queued", &TxDriverCounters::descriptors, "descriptors filled"},
};

// The driver counters, counted by `whose` driver.
StatGroup<TxDriverCounters> driver_statistics(const std::string& whose) {
    StatGroup<TxDriverCounters> g;
    for (const DriverCounter& c : kDriverCounters)
        g.stat(c.key, kCount, whose + ": " + c.meaning + ".",
               [count = c.count](const TxDriverCounters& d) { return d.*count; });
    return g;
}

// A transmitting port, in the order of the NICs and their ports.
struct PortView {
    std::string nic;
    unsigned port, cpu;
    double pps;
    std::uint64_t frames;
    TxDriverCounters driver;
};

StatGroup<PortView> port_statistics() {
    StatGroup<PortView> g;
    g.stat("nic", "", "A transmitting port's NIC (nics[].name).", [](const PortView& p) { return p.nic; })
        .stat("port", "", "Its number on that NIC.", [](const PortView& p) { return p.port; })
        .stat("cpu", "", "The CPU whose pktgen thread drives it (cpus[] index).",
              [](const PortView& p) { return p.cpu; })
        .stat("tx_pps", "packets/s", "Its frames per second on the wire (as tx_pps).",
              [](const PortView& p) { return p.pps; })
        .stat("tx_frames", kCount, "Its frames in the window.", [](const PortView& p) { return p.frames; })
        .group<TxDriverCounters>("", driver_statistics("Its driver"),
                                      [](const PortView& p) { return std::optional(p.driver); });
    return g;
}

struct NicView {
    std::string name, model, segment;
    double pps;
    std::vector<StatValue> pps_by_port;
    const Nic* nic;  // its statistics are its family's (run/nic_families.h)
};

StatGroup<NicView> nic_list_statistics() {
    StatGroup<NicView> g;
    g.stat("name", "", "The NIC's module: nic for the single NIC of nic.*, else nic0, nic1, ... "
                       "(nics[]).",
           [](const NicView& n) { return n.name; })
        .stat("model", "", "Its part (nic.model).", [](const NicView& n) { return n.model; })
        .stat("segment", "", "Where it sits: bus (the devices' segment) or the name of the "
                             "on-card bridge above it.",
              [](const NicView& n) { return n.segment; })
        .stat("tx_pps", "packets/s", "Its transmitting ports' tx_pps added up.",
              [](const NicView& n) { return n.pps; })
        .values("tx_pps_by_port", "packets/s", "tx_pps of each of its transmitting ports.",
                [](const NicView& n) { return n.pps_by_port; })
        .group<const Nic*>("stats", nic_statistics(),
                           [](const NicView& n) { return std::optional(n.nic); });
    return g;
}

struct CpuView {
    Cpu::Totals totals;
    TxDriverCounters driver;  // of the ports it drives, added up
    double window_ps;
    // Its cache's coherence counters (none without a cache model): lines taken from other
    // CPUs' modified copies and lines its writes took from others, by what they hold.
    const CacheCoherence::Counters* coherence = nullptr;
    std::uint64_t line_transfers = 0;  // summed over the uses
    double share(Picos t) const { return static_cast<double>(t) / window_ps; }
};

// The names of what a line holds (core/line_use.h), in the enumeration's order.
std::vector<std::string> line_use_names() {
    std::vector<std::string> names;
    for (std::size_t u = 0; u < kLineUses; ++u) names.push_back(to_string(static_cast<LineUse>(u)));
    return names;
}

// A CPU's coherence counts by use, none without a cache model.
std::vector<StatValue> by_use(const CpuView& c, const LineUseCounts CacheCoherence::Counters::*counts) {
    std::vector<StatValue> v;
    if (c.coherence)
        for (std::uint64_t n : c.coherence->*counts) v.push_back(n);
    return v;
}

StatGroup<CpuView> cpu_statistics() {
    StatGroup<CpuView> g;
    g.stat("busy_fraction", "fraction", "Share of the window the CPU ran code (pktgen, driver, "
                                        "interrupts).",
           [](const CpuView& c) { return c.share(c.totals.busy); })
        .stat("mmio_stall_fraction", "fraction", "Share of the window it was stalled on register "
                                                 "reads.",
              [](const CpuView& c) { return c.share(c.totals.mmio_stall); })
        .stat("waiting_fraction", "fraction", "Share of the window it had nothing to do (pktgen "
                                              "spinning on a stopped queue).",
              [](const CpuView& c) { return c.share(c.totals.waiting); })
        .stat("interrupts", kCount, "Interrupts it took.", [](const CpuView& c) { return c.totals.interrupts; })
        .stat("timer_ticks", kCount, "Driver timer ticks it ran.",
              [](const CpuView& c) { return c.totals.timer_ticks; })
        .stat("mmio_reads", kCount, "Register reads it made.",
              [](const CpuView& c) { return c.totals.mmio_reads; })
        .stat("mmio_writes", kCount, "Register writes it made.",
              [](const CpuView& c) { return c.totals.mmio_writes; })
        .stat("cache_misses", kCount, "Cache lines its software touched that were not in its "
                                      "cache (cpu.cache; 0 without a cache model).",
              [](const CpuView& c) { return c.totals.cache_misses; })
        .stat("slab_batches", kCount, "Slab array refills and flushes its software made (batches "
                                      "moved between the per-CPU arrays and the slab lists).",
              [](const CpuView& c) { return c.totals.slab_batches; })
        .stat("locked_ops", kCount, "Locked instructions its software executed (atomic "
                                    "operations and spin locks of an SMP kernel; 0 with "
                                    "kernel.smp false).",
              [](const CpuView& c) { return c.totals.locked_ops; })
        .stat("lock_spin_fraction", "fraction", "Share of the window it spun on a spin lock "
                                                "another CPU held (tx_lock while another CPU "
                                                "cleans; part of busy_fraction).",
              [](const CpuView& c) { return c.share(c.totals.lock_spin); })
        .stat("remote_misses", kCount, "Cache misses of its software to another NUMA node's "
                                       "memory (host.numa_nodes; host.numa_hop_ns each on top).",
              [](const CpuView& c) {
                  return c.coherence ? c.coherence->remote_misses : std::uint64_t{0};
              })
        .stat("line_transfers", kCount, "Cache lines its software took from another CPU's "
                                        "modified copy (cpu.cache.transfer_ns each).",
              [](const CpuView& c) { return c.line_transfers; })
        // By what the line holds (core/line_use.h): ring_state is the ring indices, tx_lock
        // and the queue state; slab_array the slab's shared array.
        .breakdown("line_transfers_by_use", line_use_names(), kCount,
                   [](const std::string& use) { return "Of line_transfers, the lines holding " + use + "."; },
                   [](const CpuView& c) { return by_use(c, &CacheCoherence::Counters::transfers); })
        .breakdown("line_invalidations_by_use", line_use_names(), kCount,
                   [](const std::string& use) {
                       return "Writes of its software to lines holding " + use + " that took "
                              "them from other CPUs' copies (cpu.cache.invalidate_ns each when "
                              "it held a shared copy).";
                   },
                   [](const CpuView& c) { return by_use(c, &CacheCoherence::Counters::invalidations); })
        .group<TxDriverCounters>(
            "", driver_statistics("The drivers of the ports it drives, added up"),
            [](const CpuView& c) { return std::optional(c.driver); });
    return g;
}

// The transmit side (with NICs): totals, then each NIC, each port and each CPU.  tx_pps and
// tx_pps_by_port cover every transmitting port (in the order of the NICs and their ports); a
// CPU's entry adds up the driver counters of the ports it drives.
struct TxReport {
    double pps = 0, mbps = 0, wire_limit = 0;
    std::vector<StatValue> pps_by_port;
    std::uint64_t frames = 0;
    std::vector<const PacketTimes*> times;  // by port
    std::vector<NicView> nics;
    std::vector<PortView> ports;
    std::vector<CpuView> cpus;
    double per_packet_divisor = 1;  // tx_frames, at least 1
    std::uint64_t mmio_reads = 0, mmio_writes = 0, queued = 0, cache_misses = 0, slab_batches = 0,
                  locked_ops = 0, line_transfers = 0;
    std::uint64_t snoop_hits = 0;
    double snoop_extra_ps = 0;
    double per_packet(double total) const { return total / per_packet_divisor; }
};

TxReport tx_report(const Platform& platform, const std::vector<FrameCheck>& frames, double window_s) {
    const Topology& topology = platform.config().topology;
    TxReport t;
    t.pps = window_frame_rate(frames, window_s);
    std::vector<double> nic_pps(platform.nics().size(), 0);
    std::vector<std::vector<StatValue>> nic_by_port(platform.nics().size());
    for (const FrameCheck& f : frames) {
        const PortSoftware& sw = *platform.ports()[f.port];
        double port_pps = port_frame_rate(f, window_s);
        // pktgen's definition (frame + FCS), with the frames' mean size: a TCP sender's vary.
        double frame = f.window_frames ? double(f.window_bytes) / double(f.window_frames)
                                       : double(sw.workload->frame_bytes());
        t.mbps += port_pps * 8 * (frame + 4) / 1e6;
        t.pps_by_port.push_back(port_pps);
        nic_pps[sw.nic] += port_pps;
        nic_by_port[sw.nic].push_back(port_pps);
        t.wire_limit += platform.nics()[sw.nic]->wire_limit_pps(sw.port, sw.workload->frame_bytes());
        if (f.packet_times) t.times.push_back(&f.times);
        t.ports.push_back({topology.nics[sw.nic].name, sw.port, topology.port_cpu[f.port],
                           port_pps, f.window_frames, sw.driver->counters()});
    }
    t.frames = window_frames(frames);
    for (std::size_t n = 0; n < platform.nics().size(); ++n) {
        const NicPlacement& placement = topology.nics[n];
        t.nics.push_back({placement.name, placement.spec->model(),
                          placement.card < 0 ? std::string("bus")
                                             : topology.cards[placement.card].bridge.name,
                          nic_pps[n], nic_by_port[n],
                          platform.nics()[n].get()});
    }
    for (std::size_t c = 0; c < platform.cpus().size(); ++c) {
        const auto& totals = platform.cpus()[c]->totals();
        TxDriverCounters d;
        for (std::size_t k = 0; k < platform.ports().size(); ++k) {
            if (topology.port_cpu[k] != c) continue;
            const auto& port = platform.ports()[k]->driver->counters();
            for (const DriverCounter& dc : kDriverCounters) d.*dc.count += port.*dc.count;
        }
        t.queued += d.queued;
        t.mmio_reads += totals.mmio_reads;
        t.mmio_writes += totals.mmio_writes;
        t.cache_misses += totals.cache_misses;
        t.slab_batches += totals.slab_batches;
        t.locked_ops += totals.locked_ops;
        CpuView cpu{totals, d, window_s * 1e12};
        if (const CacheCoherence* caches = platform.caches()) {
            cpu.coherence = &caches->counters(static_cast<unsigned>(c));
            for (std::uint64_t n : cpu.coherence->transfers) cpu.line_transfers += n;
        }
        t.line_transfers += cpu.line_transfers;
        t.cpus.push_back(cpu);
    }
    t.per_packet_divisor = t.frames ? static_cast<double>(t.frames) : 1;
    t.snoop_hits = platform.host().snoop_hits();
    t.snoop_extra_ps = platform.host().snoop_extra_ps();
    return t;
}

StatGroup<TxReport> tx_statistics() {
    using T = TxReport;
    auto per_port = [](const std::string& key, const StatGroup<const Distribution*>& inner,
                       std::function<const Distribution*(const PacketTimes*)> pick) {
        StatGroup<const PacketTimes*> item;
        item.group<const Distribution*>("", inner, [pick](const PacketTimes* t) {
            return std::optional(pick(t));
        });
        return std::make_pair(key, item);
    };
    auto latency = per_port(
        "packet_latency_ns_by_port",
        distribution_statistics("per-packet latency of the port in the window, from pktgen's "
                                "hard_start_xmit call for the packet to the last byte of its "
                                "frame on the wire (with the time it waits in the TX ring behind "
                                "the packets before it: pktgen keeps the ring full, so about the "
                                "ring's packets times the frame interval)"),
        [](const PacketTimes* t) { return &t->latency; });
    auto interval = per_port(
        "frame_interval_ns_by_port",
        distribution_statistics("time between the last bytes of consecutive frames of the port "
                                "in the window (its mean is 1/tx_pps_by_port)"),
        [](const PacketTimes* t) { return &t->frame_interval; });
    auto times = [](const T& t) { return std::optional(t.times); };
    StatGroup<T> g;
    g.stat("tx_pps", "packets/s", "Frames per second on the wire, all ports: each port's frames "
                                  "from its first to its last frame in the window, added up.",
           [](const T& t) { return t.pps; })
        .stat("tx_mbps", "Mbit/s", "Each port's tx_pps x 8 x (its frames' mean size in the window "
                                   "+ 4): pktgen's definition, (packet.size + 4) for pktgen's "
                                   "frames.",
              [](const T& t) { return t.mbps; })
        .values("tx_pps_by_port", "packets/s", "tx_pps of each transmitting port.",
                [](const T& t) { return t.pps_by_port; })
        .stat("wire_limit_pps", "packets/s", "The ports' wire limits added up: 1/(frame + "
                                             "preamble + FCS + gap time).",
              [](const T& t) { return t.wire_limit; })
        .stat("tx_frames", kCount, "Frames all ports sent in the window.",
              [](const T& t) { return t.frames; })
        .list<const PacketTimes*>(latency.first, latency.second, times)
        .list<const PacketTimes*>(interval.first, interval.second, times)
        .list<const PacketTimes*>("packet_stages_ns_by_port", stage_statistics(), times)
        .group<const Nic*>("nic", nic_statistics(),
                           [](const T& t) {
                               return t.nics.size() == 1 ? std::optional(t.nics[0].nic) : std::nullopt;
                           },
                           " (only with a single NIC)")
        .list<NicView>("nics", nic_list_statistics(), [](const T& t) { return std::optional(t.nics); })
        .list<PortView>("ports", port_statistics(), [](const T& t) { return std::optional(t.ports); })
        .list<CpuView>("cpus", cpu_statistics(), [](const T& t) { return std::optional(t.cpus); })
        .stat("mmio_reads_per_packet", "reads/packet", "All CPUs' register reads over tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.mmio_reads)); })
        .stat("mmio_writes_per_packet", "writes/packet", "All CPUs' register writes over "
                                                         "tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.mmio_writes)); })
        .stat("cache_misses_per_packet", "lines/packet", "All CPUs' cache misses over tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.cache_misses)); })
        .stat("slab_batches_per_packet", "batches/packet", "All CPUs' slab refills and flushes "
                                                           "over tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.slab_batches)); })
        .stat("locked_ops_per_packet", "ops/packet", "All CPUs' locked instructions over "
                                                     "tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.locked_ops)); })
        .stat("line_transfers_per_packet", "lines/packet", "Cache lines moved from one CPU's "
                                                           "modified copy to another CPU over "
                                                           "tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.line_transfers)); })
        .stat("snoop_hits_per_packet", "lines/packet", "Lines DMA reads found modified in a CPU "
              "cache (coherent DMA: host.snoop_hit_ns for a read's first line, "
              "host.snoop_line_ns for each further one), over tx_frames.",
              [](const T& t) { return t.per_packet(static_cast<double>(t.snoop_hits)); })
        .stat("snoop_extra_ns_per_packet", "ns/packet", "What those snoop hits added to the DMA "
              "reads over memory (< 0 where a cache answers faster than memory), over tx_frames.",
              [](const T& t) { return t.per_packet(t.snoop_extra_ps / 1e3); })
        .stat("packets_queued", kCount, "Packets all drivers accepted in the window.",
              [](const T& t) { return t.queued; });
    return g;
}

// The receive side (only with wire_source.enabled): received pps as the NIC delivered frames to
// host memory, what the wire offered, missed frames by cause, what the drivers did with the
// frames, and the receive path's share of the bus and the CPUs.
struct RxReport {
    std::uint64_t arrived = 0, delivered = 0, missed = 0;
    std::vector<StatValue> pps_by_port;
    RxDriverCounters driver;
    double cpu_seconds = 0, offered = 0, window_s = 0;
    std::uint64_t no_descriptor = 0, fifo_full = 0, no_buffer = 0, data_bytes = 0,
                  descriptor_bytes = 0;
    double per_s(std::uint64_t n) const { return static_cast<double>(n) / window_s; }
};

RxReport rx_report(const Platform& platform, const RunWindow& window, double window_s) {
    RxReport r;
    r.window_s = window_s;
    for (const RxPortWindow& w : window.rx) {
        r.arrived += w.arrived, r.delivered += w.delivered, r.missed += w.missed;
        r.pps_by_port.push_back(static_cast<double>(w.delivered) / window_s);
    }
    RxDriverCounters& d = r.driver;
    for (const auto& sw : platform.ports()) {
        if (!sw->rx) continue;
        const auto& c = sw->rx->counters();
        d.received += c.received, d.dropped += c.dropped, d.to_stack += c.to_stack;
        d.forwarded += c.forwarded, d.forward_dropped += c.forward_dropped;
        d.rdt_writes += c.rdt_writes, d.polls += c.polls;
        r.cpu_seconds += c.cycles / (sw->cpu.costs().clock_mhz * 1e6);
    }
    for (const auto& nic : platform.nics()) {
        const NicReceiveTotals s = nic->receive_totals();
        r.no_descriptor += s.missed_no_descriptor, r.fifo_full += s.missed_fifo_full;
        r.no_buffer += s.no_buffer_arrivals;
        r.data_bytes += s.bytes_delivered;
        r.descriptor_bytes += s.descriptor_bytes;
    }
    const WireSourceConfig& wire = platform.config().wire;
    for (const auto& w : platform.wire_sources())
        r.offered += wire.rate_pps > 0 ? wire.rate_pps : 1e12 / static_cast<double>(w->frame_interval());
    return r;
}

StatGroup<RxReport> rx_statistics() {
    using R = RxReport;
    StatGroup<R> g;
    g.stat("rx_pps", "packets/s", "Received frames per second: frames the NICs wrote to host "
           "memory and wrote back (DD) in the window, at most those that arrived in it and were "
           "not missed (never above what the wire sent), all receiving ports; rx.* only with "
           "wire_source.enabled.",
           [](const R& r) { return r.per_s(r.delivered); })
        .values("rx_pps_by_port", "packets/s", "rx.rx_pps of each receiving port.",
                [](const R& r) { return r.pps_by_port; })
        .stat("offered_pps", "packets/s", "Frames per second the wire sources send, all receiving "
                                          "ports.",
              [](const R& r) { return r.offered; })
        .stat("frames_arrived", kCount, "Frames the receivers took from the wire in the window.",
              [](const R& r) { return r.arrived; })
        .stat("frames_delivered", kCount, "Frames written to host memory and written back in the "
              "window, at most rx.frames_arrived less rx.missed_frames (rx.rx_pps's count).",
              [](const R& r) { return r.delivered; })
        .stat("missed_frames", kCount, "Frames missed because the RX FIFO was full (MPC).",
              [](const R& r) { return r.missed; })
        .stat("missed_by_cause.no_descriptor", kCount, "Missed with no receive descriptor "
              "available (the driver behind: ring empty).",
              [](const R& r) { return r.no_descriptor; })
        .stat("missed_by_cause.fifo_full", kCount, "Missed with descriptors available (the DMA "
              "engine and the bus behind).",
              [](const R& r) { return r.fifo_full; })
        .stat("no_buffer_arrivals", kCount, "Frames that arrived with no descriptor available "
              "(RNBC), missed or not.",
              [](const R& r) { return r.no_buffer; })
        .stat("driver_received", kCount, "Frames the drivers cleaned (clean_rx_irq).",
              [](const R& r) { return r.driver.received; })
        .stat("driver_dropped", kCount, "Of those, dropped in the driver (driver.rx_mode drop).",
              [](const R& r) { return r.driver.dropped; })
        .stat("driver_to_stack", kCount, "Of those, handed to the stack (driver.rx_mode stack).",
              [](const R& r) { return r.driver.to_stack; })
        .stat("driver_forwarded", kCount, "Of those, queued on the other port's transmit ring "
              "(driver.rx_mode forward).",
              [](const R& r) { return r.driver.forwarded; })
        .stat("forward_dropped", kCount, "Of those, dropped because the other port's transmit "
              "queue was stopped (driver.rx_mode forward; no qdisc queue is modelled).",
              [](const R& r) { return r.driver.forward_dropped; })
        .stat("forward_pps", "packets/s", "The forwarding rate: rx.driver_forwarded over the "
              "window (the egress ports' tx_pps once steady).",
              [](const R& r) { return r.per_s(r.driver.forwarded); })
        .stat("rdt_writes", kCount, "Receive tail (RDT) register writes.",
              [](const R& r) { return r.driver.rdt_writes; })
        .stat("polls", kCount, "Receive polls (clean_rx_irq calls).",
              [](const R& r) { return r.driver.polls; })
        .stat("cpu_fraction", "fraction", "CPU time of the receive path (cleaning, skb free and "
              "allocation, refill, stack) over the window, added over the CPUs.",
              [](const R& r) { return r.cpu_seconds / r.window_s; })
        .stat("bus_data_bytes_per_s", "bytes/s", "Received frame data the NICs wrote over the "
              "bus (posted writes).",
              [](const R& r) { return r.per_s(r.data_bytes); })
        .stat("bus_descriptor_bytes_per_s", "bytes/s", "Receive descriptors the NICs fetched and "
              "wrote back over the bus.",
              [](const R& r) { return r.per_s(r.descriptor_bytes); });
    return g;
}

// A TCP stream as netperf reports it (only with workload.kind tcp_stream): the payload the
// receivers took in the window, the sending CPUs' time (running code and stalled on register
// reads) as a share of the window and per KB (1024 bytes) of payload, and what the stack did.
struct TcpReport {
    TcpSender::Counters sent;
    TcpReceiver::Counters received;
    std::uint64_t max_in_flight = 0, modified_lines = 0;
    std::vector<StatValue> mbit_by_port;
    double cpu_s = 0, cpus = 0, window_s = 0;
    double kb() const { return static_cast<double>(received.payload_bytes) / 1024; }
};

TcpReport tcp_report(const Platform& platform, double window_s) {
    TcpReport r;
    r.window_s = window_s;
    std::vector<bool> sending(platform.cpus().size(), false);
    for (std::size_t k = 0; k < platform.ports().size(); ++k) {
        const PortSoftware& sw = *platform.ports()[k];
        const auto& s = sw.tcp->counters();
        const auto& p = sw.peer->counters();
        r.sent.writes += s.writes, r.sent.frames += s.frames, r.sent.segments += s.segments;
        r.sent.writer_blocked += s.writer_blocked;
        r.max_in_flight = std::max(r.max_in_flight, sw.tcp->max_in_flight());
        r.received.payload_bytes += p.payload_bytes, r.received.segments += p.segments;
        r.received.acks_sent += p.acks_sent, r.received.delayed_acks += p.delayed_acks;
        r.received.bad_checksums += p.bad_checksums;
        r.mbit_by_port.push_back(static_cast<double>(p.payload_bytes) * 8 / window_s / 1e6);
        sending[platform.config().topology.port_cpu[k]] = true;
    }
    for (std::size_t c = 0; c < platform.cpus().size(); ++c) {
        if (!sending[c]) continue;
        const auto& t = platform.cpus()[c]->totals();
        r.cpu_s += static_cast<double>(t.busy + t.mmio_stall) * 1e-12;
        r.cpus += 1;
    }
    // Lines DMA reads found modified in a CPU cache.
    if (platform.caches())
        for (const auto& cache : platform.caches()->caches())
            r.modified_lines += cache->counters().snoop_hits;
    return r;
}

StatGroup<TcpReport> tcp_statistics() {
    using R = TcpReport;
    StatGroup<R> g;
    g.stat("throughput_mbit_s", "Mbit/s", "TCP payload the receivers took in order in the "
           "window, in 10^6 bits per second (netperf's throughput); tcp.* only with "
           "workload.kind tcp_stream.",
           [](const R& r) {
               return static_cast<double>(r.received.payload_bytes) * 8 / r.window_s / 1e6;
           })
        .values("throughput_mbit_s_by_port", "Mbit/s", "tcp.throughput_mbit_s of each port.",
                [](const R& r) { return r.mbit_by_port; })
        .stat("send_cpu_pct", "%", "Time the sending CPUs ran code or stalled on register reads, "
              "over the window and the number of sending CPUs (netperf's send CPU utilisation).",
              [](const R& r) { return r.cpus ? 100 * r.cpu_s / (r.window_s * r.cpus) : 0.0; })
        .stat("send_service_demand_us_per_kb", "us/KB", "That CPU time per KB (1024 bytes) of "
              "payload received (netperf's send service demand).",
              [](const R& r) { return r.kb() > 0 ? r.cpu_s * 1e6 / r.kb() : 0.0; })
        .stat("payload_bytes", "bytes", "Payload the receivers took in order in the window.",
              [](const R& r) { return r.received.payload_bytes; })
        .stat("segments", kCount, "Segments the receivers took from the wire and processed "
              "(tcp.receiver_segment_us each).",
              [](const R& r) { return r.received.segments; })
        .stat("segments_sent", kCount, "MSS segments in the skbs handed to the drivers (one per "
              "skb without TSO; with it the NIC cuts each skb into these); it differs from "
              "tcp.segments by what was queued or in flight at the window's start and end.",
              [](const R& r) { return r.sent.segments; })
        .stat("frames_to_driver", kCount, "skbs the stacks handed to the drivers (one per segment "
              "without TSO).",
              [](const R& r) { return r.sent.frames; })
        .stat("writes", kCount, "Application write() calls.", [](const R& r) { return r.sent.writes; })
        .stat("acks", kCount, "ACKs the receivers sent (at once or by the delayed-ACK timer).",
              [](const R& r) { return r.received.acks_sent; })
        .stat("delayed_acks", kCount, "Of the receivers' ACKs, those sent by the delayed-ACK "
              "timer.",
              [](const R& r) { return r.received.delayed_acks; })
        .stat("writer_blocked", kCount, "Times a writer found the send buffer full and slept.",
              [](const R& r) { return r.sent.writer_blocked; })
        .stat("modified_lines_read_per_segment", "lines/segment", "Cache lines the DMA reads "
              "found modified in a CPU cache (each written back on the way: a copied payload), "
              "over tcp.segments; each costs a snoop hit (host.snoop_hit_ns for a read's first "
              "line, host.snoop_line_ns for each further one).",
              [](const R& r) {
                  return static_cast<double>(r.modified_lines) /
                         static_cast<double>(std::max<std::uint64_t>(1, r.received.segments));
              })
        .stat("max_in_flight_bytes", "bytes", "The most payload a sender had sent and not yet "
              "seen acknowledged, since time zero (never more than the window).",
              [](const R& r) { return r.max_in_flight; })
        .stat("bad_checksums", kCount, "Segments whose IP or TCP checksum did not verify at the "
              "receiver (checksum offload asked of a NIC that does not do it).",
              [](const R& r) { return r.received.bad_checksums; });
    return g;
}

// The whole run: the measurement, the bus segments and masters, then each side the run has.
struct RunReport {
    Platform* platform;
    RunWindow window;
    double window_s;
    std::optional<TxReport> tx;
    std::optional<RxReport> rx;
    std::optional<TcpReport> tcp;
};

StatGroup<RunReport> run_statistics() {
    using R = RunReport;
    StatGroup<R> g;
    // The scenario is a document, not a statistic: results_document writes it beside these.
    g.described("scenario", "", "The resolved scenario the run simulated: every key, defaults "
                                "filled in (docs/scenario-reference.md).")
        .stat("warmup_us", "us", "Simulated time before the measurement window (discarded).",
              [](const R& r) { return r.window.warmup_us; })
        .stat("window_us", "us", "Length of the measurement window every rate and count is over.",
              [](const R& r) { return r.window.window_us; })
        .stat("stability_fraction", "fraction", "Relative change of the measured rate in the "
              "window's last batch (compare simulation.stability); null when the window is one "
              "batch.",
              [](const R& r) { return r.window.stability; })
        .group<BusView>("bus", bus_statistics(), [](const R& r) {
            return std::optional(BusView{&r.platform->bus(), "", r.window.window_us, r.window_s});
        })
        .list<BusView>("card_buses", card_bus_statistics(), [](const R& r) {
            std::optional<std::vector<BusView>> cards;
            if (r.platform->cards().empty()) return cards;
            cards.emplace();
            for (std::size_t c = 0; c < r.platform->cards().size(); ++c)
                cards->push_back({&r.platform->cards()[c]->bus,
                                  r.platform->config().topology.cards[c].bridge.name,
                                  r.window.window_us, r.window_s});
            return cards;
        })
        .list<MasterView>("masters", master_statistics(), [](const R& r) {
            std::vector<MasterView> masters;
            for (const auto& m : r.platform->masters()) masters.push_back({m.get(), r.window_s});
            return std::optional(masters);
        })
        .group<TxReport>("", tx_statistics(), [](const R& r) { return r.tx; })
        .group<RxReport>("rx", rx_statistics(), [](const R& r) { return r.rx; })
        .group<TcpReport>("tcp", tcp_statistics(), [](const R& r) { return r.tcp; });
    return g;
}

const StatGroup<RunReport>& run_group() {
    static const StatGroup<RunReport> g = run_statistics();
    return g;
}

}  // namespace

json results_document(const json& resolved_scenario, Platform& platform,
                      const std::vector<FrameCheck>& frames, const RunWindow& window) {
    RunReport report{&platform, window, window.window_us * 1e-6, {}, {}, {}};
    // The buses settle what they ran ahead before anything else is read: what the NICs count
    // of their own DMA includes it.
    platform.bus().counters();
    for (auto& card : platform.cards()) card->bus.counters();
    if (!platform.nics().empty()) report.tx = tx_report(platform, frames, report.window_s);
    if (!platform.wire_sources().empty()) report.rx = rx_report(platform, window, report.window_s);
    if (platform.config().tcp.enabled) report.tcp = tcp_report(platform, report.window_s);
    json r = stats_json(run_group(), report);
    r["scenario"] = resolved_scenario;
    return r;
}

std::vector<MetricSpec> result_metrics() { return run_group().metrics(); }

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
