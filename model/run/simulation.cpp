#include "run/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include <systemc>

#include "platform/bridge_face.h"
#include "platform/cpu.h"
#include "platform/dma_master.h"
#include "software/e1000_driver.h"
#include "e1000/e1000.h"
#include "run/recording.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "core/invariants.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "software/pktgen.h"
#include "run/run_monitor.h"
#include "core/sim_time.h"
#include "software/skb_pool.h"

namespace pcisim {

using nlohmann::json;

namespace {
// Where things live: the NIC's memory BAR (as a BIOS would assign it), each port's descriptor
// ring, and the socket buffers.  Addresses carry no timing beyond cache-line alignment.
constexpr std::uint64_t kNicBar = 0xf0000000;
constexpr std::uint64_t kRingBase = 0x100000;
constexpr std::uint64_t kRingSpacing = 0x100000;
constexpr std::uint64_t kSkbBase = 0x400000;
}  // namespace

// The software and CPU of one transmitting port.
struct PortSoftware : CpuSoftware {
    std::unique_ptr<Cpu> cpu;
    std::unique_ptr<E1000Driver> driver;
    std::unique_ptr<Pktgen> pktgen;
    bool enabled = true;
    bool has_work() const override { return enabled && pktgen->has_work(); }
    bool quiet() const override { return driver->xmit_is_quiet(); }
    void start() override { driver->configure_tx(); }
    void run_once() override { pktgen->run_once(); }
    void interrupt() override { pktgen->interrupt(); }
    void timer() override { pktgen->timer(); }
};

namespace {

// Frames of `port` that left the wire, the frames preloaded into the FIFO left out.
std::uint64_t frames_from_pktgen(const E1000& nic, unsigned port) {
    std::uint64_t sent = nic.frames_sent(port), preloaded = nic.params().preload_packets;
    return sent > preloaded ? sent - preloaded : 0;
}

// Whether pktgen has packets to send (a stopped queue included).  Once it is done, packets a
// driver variant leaves unannounced (tdt_batch) may legitimately stay in the ring.
bool packets_owed(const PortSoftware& sw) { return sw.has_work() || sw.driver->queue_stopped(); }

// Who waits on what, for the watchdog's diagnostic.
std::string port_state(const PortSoftware& sw, const E1000& nic, unsigned port) {
    const e1000::TxPort& tx = nic.port(port);
    std::ostringstream o;
    o << "port " << port << ": pktgen queued " << sw.pktgen->sent() << ", driver queue "
      << (sw.driver->queue_stopped() ? "stopped" : "running") << " with "
      << sw.driver->descriptors_in_use() << " of " << sw.driver->options().ring_size
      << " descriptors in use; NIC TDH " << tx.tdh() << " TDT " << tx.tdt() << ", TX FIFO "
      << tx.fifo().used() << " of " << tx.fifo().capacity() << " B used, "
      << frames_from_pktgen(nic, port) << " frames sent";
    return o.str();
}

// Every packet pktgen queued is on the wire or still in flight: its descriptors not yet
// cleaned by the driver, or its frame holding FIFO room (cleaned after DD, not yet sent).
void check_conservation(const PortSoftware& sw, const E1000& nic, unsigned port) {
    std::uint64_t queued = sw.pktgen->sent(), sent = frames_from_pktgen(nic, port);
    std::uint64_t frame_bytes = std::max<std::uint64_t>(1, sw.pktgen->frame_bytes());
    std::uint64_t in_flight_max =
        sw.driver->descriptors_in_use() + nic.port(port).fifo().used() / frame_bytes;
    if (sent > queued || queued - sent > in_flight_max)
        throw InvariantViolation(
            "nic port " + std::to_string(port),
            "packets not conserved: " + std::to_string(queued) + " queued, " +
                std::to_string(sent) + " sent, at most " + std::to_string(in_flight_max) +
                " can be in flight; " + port_state(sw, nic, port));
}

// SystemC reports an exception thrown inside a process as an sc_report whose message is the
// exception's what(), wrapped in several lines; the model's own one-line message is the useful
// part.
void advance(Picos t) {
    try {
        sc_core::sc_start(ps(t));
    } catch (const sc_core::sc_report& r) {
        throw std::runtime_error(r.get_msg());
    }
}

// The watchdog never fires inside a quiet time the scenario itself asks for: pktgen's gap,
// the interrupt delays and throttling, the cleanup timer of the timer-driven variants.
double watchdog_us(const Scenario& s) {
    double limit = s.number("simulation.watchdog_us");
    if (limit == 0) return 0;
    double quiet = s.number("pktgen.ipg_ns") / 1000;
    quiet = std::max(quiet, 1.024 * static_cast<double>(s.integer("driver.tidv")));
    quiet = std::max(quiet, 1.024 * static_cast<double>(s.integer("driver.tadv")));
    if (s.integer("driver.itr_per_s") > 0)
        quiet = std::max(quiet, 1e6 / static_cast<double>(s.integer("driver.itr_per_s")));
    if (s.boolean("driver.notxints") || s.boolean("driver.tdt_from_timer"))
        quiet = std::max(quiet, s.number("driver.cleanup_timer_us"));
    return std::max(limit, 2 * quiet);
}

}  // namespace

// Every frame leaving the MAC: counted, and checked to be the next in pktgen's order.
struct FrameCheck {
    unsigned port = 0;
    bool check_order = false;
    std::uint32_t expected_seq = 0;
    std::uint64_t frames = 0;
    Picos first = 0, last = 0;     // in the window
    std::uint64_t window_frames = 0;
    void seen(const std::uint8_t* frame, unsigned len, Picos when) {
        ++frames;
        if (check_order) {
            std::uint32_t seq;
            std::memcpy(&seq, frame + kPktgenSeqOffset, sizeof seq);
            if (len < kPktgenSeqOffset + 4 || seq != expected_seq)
                throw InvariantViolation("nic port " + std::to_string(port),
                                         "sent packet " + std::to_string(seq) + " where packet " +
                                             std::to_string(expected_seq) + " was next");
            ++expected_seq;
        }
        if (window_frames++ == 0) first = when;
        last = when;
    }
};

// Opens a recording at its window's start and closes it at its end: one event each.
struct RecorderWindow : sc_core::sc_module {
    Recording& recording;
    PciBus& bus;
    bool opened = false;
    sc_core::sc_event edge;
    SC_HAS_PROCESS(RecorderWindow);
    RecorderWindow(sc_core::sc_module_name n, Recording& r, PciBus& b)
        : sc_core::sc_module(n), recording(r), bus(b) {
        SC_METHOD(at_edge);
        sensitive << edge;
        dont_initialize();
        edge.notify(ps(r.window().from));
    }
    void at_edge() {
        if (opened) return recording.close(bus);
        opened = true;
        recording.open(bus);
        edge.notify(ps(recording.window().to - recording.window().from));
    }
};

struct Simulation::Parts {
    std::unique_ptr<HostMemory> memory;
    std::unique_ptr<HostBridge> host;
    std::vector<std::unique_ptr<PciBridge>> bridges;
    std::unique_ptr<PciBus> bus;
    std::unique_ptr<BridgeFace> face;
    std::vector<std::unique_ptr<DmaMaster>> masters;
    std::unique_ptr<SkbPool> skbs;
    std::unique_ptr<E1000> nic;
    std::vector<std::unique_ptr<PortSoftware>> ports;
    std::vector<FrameCheck> frames;
    Picos window_start = 0;
    std::unique_ptr<RunMonitor> monitor;
    std::unique_ptr<RecorderWindow> recorder;
    Picos record_until = 0;
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
    if (s.boolean("nic.enabled")) build_nic();

    RunMonitor::Config watch;
    watch.watchdog = p.nic ? ns_to_ps(watchdog_us(s) * 1000) : 0;
    watch.max_wall_s = s.number("simulation.max_wall_s");
    watch.crash_at = ns_to_ps(s.number("testing.crash_at_us") * 1000);
    RunMonitor::Probe probe;
    probe.progress = [this] {
        if (parts_->nic) parts_->nic->catch_up();
        std::uint64_t n = 0;
        for (const auto& f : parts_->frames) n += f.frames;
        return n;
    };
    probe.progress_due = [this] {
        for (const auto& sw : parts_->ports)
            if (packets_owed(*sw)) return true;
        return false;
    };
    probe.diagnose = [this] {
        if (parts_->nic) parts_->nic->catch_up();
        std::string d;
        for (unsigned i = 0; i < parts_->ports.size(); ++i)
            d += (i ? "; " : "") + port_state(*parts_->ports[i], *parts_->nic, i);
        return d.empty() ? std::string("no NIC") : d;
    };
    p.monitor = std::make_unique<RunMonitor>("watchdog", watch, std::move(probe));
}

void Simulation::build_nic() {
    const Scenario& s = scenario_;
    Parts& p = *parts_;
    p.skbs = std::make_unique<SkbPool>(kSkbBase, p.memory->size() - kSkbBase,
                                       static_cast<unsigned>(s.integer("host.cache_line_bytes")));
    unsigned ports = static_cast<unsigned>(s.integer("pktgen.ports"));
    std::vector<InterruptSink*> irqs;
    for (unsigned i = 0; i < ports; ++i) {
        auto sw = std::make_unique<PortSoftware>();
        sw->cpu = std::make_unique<Cpu>(("cpu" + std::to_string(i)).c_str(), s, *p.host, *p.memory);
        irqs.push_back(sw->cpu.get());
        p.ports.push_back(std::move(sw));
    }
    p.nic = std::make_unique<E1000>("nic", e1000::E1000Params::from(s), *p.bus, *p.memory, kNicBar, irqs);
    DriverOptions options = DriverOptions::from(s);
    PktgenOptions traffic = PktgenOptions::from(s);
    p.frames.resize(ports);
    for (unsigned i = 0; i < ports; ++i) {
        PortSoftware& sw = *p.ports[i];
        sw.driver = std::make_unique<E1000Driver>(
            *sw.cpu, options, kNicBar + i * E1000::kBarBytes, kRingBase + i * kRingSpacing,
            [&sw](const Skb& skb) { sw.pktgen->free_skb(skb); });
        sw.pktgen = std::make_unique<Pktgen>(*sw.cpu, *sw.driver, *p.skbs, traffic);
        sw.enabled = s.boolean("pktgen.enabled");
        Picos timer = sw.driver->needs_timer() ? ns_to_ps(options.cleanup_timer_us * 1000) : 0;
        sw.cpu->run(&sw, timer);
        p.frames[i].port = i;
        // Each packet has its own buffer only without clone_skb; clones repeat a number.
        p.frames[i].check_order = traffic.clone_skb == 0 && sw.enabled;
    }
    p.nic->set_frame_observer([this](unsigned port, const std::uint8_t* frame, unsigned len,
                                     Picos when) { parts_->frames.at(port).seen(frame, len, when); });
}

Simulation::~Simulation() = default;

void Simulation::attach_recorder(Recording& recording) {
    parts_->recorder = std::make_unique<RecorderWindow>("recorder", recording, *parts_->bus);
    parts_->record_until = recording.window().to;
}

double Simulation::measured_rate() const {
    const Parts& p = *parts_;
    Picos window = now_ps() - p.window_start;
    if (window == 0) return 0;
    std::uint64_t units = 0;  // frames when a NIC transmits, else the masters' bytes
    if (p.nic) {
        Picos first = 0, last = 0;
        for (const auto& f : p.frames) {
            units += f.window_frames;
            if (f.window_frames && (first == 0 || f.first < first)) first = f.first;
            last = std::max(last, f.last);
        }
        if (units > 1 && last > first)
            return static_cast<double>(units - 1) / (static_cast<double>(last - first) * 1e-12);
    } else {
        for (const auto& m : p.masters) units += m->totals().bytes;
    }
    return static_cast<double>(units) / (static_cast<double>(window) * 1e-12);
}

bool Simulation::ring_filled() const {
    for (const auto& sw : parts_->ports)
        if (sw->enabled && sw->driver->counters().stops == 0) return false;
    return true;
}

void Simulation::reset_statistics() {
    Parts& p = *parts_;
    p.window_start = now_ps();
    p.bus->reset_counters();
    for (auto& m : p.masters) m->reset_totals();
    if (p.nic) p.nic->reset_stats();
    for (auto& sw : p.ports) {
        sw->cpu->reset_totals();
        sw->driver->reset_counters();
    }
    for (auto& f : p.frames) f.window_frames = 0, f.first = f.last = 0;
}

// What may be kept lazily or run ahead of the kernel's time, while no recording wants every step
// as it happens: the MAC's frame ends are counted when they are read (after each step, by the
// watchdog), and a CPU runs ahead when it is the only one (two CPUs running ahead would hand
// their register accesses to the host bridge out of their order of arrival).
void Simulation::take_shortcuts() {
    Parts& p = *parts_;
    if (p.recorder) return;
    if (p.nic) p.nic->set_lazy_wire(true);
    for (auto& sw : p.ports) sw->cpu->allow_run_ahead(p.ports.size() == 1);
}

// Simulates `duration` more and brings what is kept lazily up to the new time, so that every
// counter can be read; no CPU runs ahead past that time.
void Simulation::step(Picos duration) {
    for (auto& sw : parts_->ports) sw->cpu->set_horizon(now_ps() + duration);
    advance(duration);
    if (parts_->nic) parts_->nic->catch_up();
}

json Simulation::run() {
    const Scenario& s = scenario_;
    take_shortcuts();
    Picos batch = ns_to_ps(s.number("simulation.batch_us") * 1000);
    step(ns_to_ps(s.number("simulation.warmup_us") * 1000));
    // pktgen's steady state has a full TX ring (the queue has stopped at least once); until
    // then the CPU is still filling it and the NIC sees a different regime.
    Picos warmup_limit = ns_to_ps(s.number("simulation.max_warmup_us") * 1000);
    while (!ring_filled() && now_ps() < warmup_limit) step(batch);
    warmup_us_ = ps_to_us(now_ps());
    reset_statistics();
    double min_window = s.number("simulation.min_window_us");
    double max_window = s.number("simulation.max_window_us");
    double stability = s.number("simulation.stability");
    double previous = -1, change = 1;
    for (;;) {
        step(batch);
        double window_us = ps_to_us(now_ps() - parts_->window_start);
        double rate = measured_rate();
        // No previous batch: stability not measured yet (NaN, null in the results).
        change = previous > 0 ? std::fabs(rate - previous) / previous
                              : (rate == 0 && previous == 0 ? 0 : std::nan(""));
        previous = rate;
        bool recorded = now_ps() > parts_->record_until;
        if (((window_us >= min_window && change < stability) || window_us >= max_window) &&
            recorded)
            return results(window_us, change);
    }
}

std::uint64_t Simulation::run_frames(std::uint64_t frames) {
    if (!parts_->nic) throw std::logic_error("run_frames: the scenario has no NIC (nic.enabled)");
    Picos batch = ns_to_ps(scenario_.number("simulation.batch_us") * 1000);
    auto sent = [this] {
        std::uint64_t n = 0;
        for (const auto& f : parts_->frames) n += f.frames;
        return n;
    };
    take_shortcuts();
    while (sent() < frames) step(batch);
    return sent();
}

json Simulation::results(double window_us, double last_change) const {
    const Parts& p = *parts_;
    double window_s = window_us * 1e-6;
    json r;
    r["scenario"] = scenario_.resolved();
    r["warmup_us"] = warmup_us_;
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
    if (p.nic) add_nic_results(r, window_s);
    return r;
}

void Simulation::add_nic_results(json& r, double window_s) const {
    const Parts& p = *parts_;
    for (unsigned i = 0; i < p.ports.size(); ++i) check_conservation(*p.ports[i], *p.nic, i);
    double size = static_cast<double>(scenario_.integer("packet.size"));
    std::uint64_t frames = 0, queued = 0;
    Picos first = 0, last = 0;
    for (const auto& f : p.frames) {
        frames += f.window_frames;
        if (f.window_frames && (first == 0 || f.first < first)) first = f.first;
        last = std::max(last, f.last);
    }
    // The rate between the first and the last frame of the window: free of the +-1 frame a
    // window boundary would add (0.6 % at 80 kpps over 2 ms).
    double pps = frames > 1 && last > first
                     ? static_cast<double>(frames - 1) / (static_cast<double>(last - first) * 1e-12)
                     : static_cast<double>(frames) / window_s;
    r["tx_pps"] = pps;
    r["tx_mbps"] = pps * 8 * (size + 4) / 1e6;  // pktgen's definition
    r["wire_limit_pps"] = 125e6 / (std::max(size, 60.0) + 24) * static_cast<double>(p.frames.size());
    r["tx_frames"] = frames;
    r["nic"] = p.nic->stats();
    json cpus = json::array();
    std::uint64_t mmio_reads = 0, mmio_writes = 0;
    for (const auto& sw : p.ports) {
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
    double n = frames ? static_cast<double>(frames) : 1;
    r["mmio_reads_per_packet"] = static_cast<double>(mmio_reads) / n;
    r["mmio_writes_per_packet"] = static_cast<double>(mmio_writes) / n;
    r["packets_queued"] = queued;
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
