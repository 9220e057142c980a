#include "run/simulation.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include <systemc>

#include "core/ethernet.h"
#include "core/invariants.h"
#include "core/sim_time.h"
#include "run/measurement.h"
#include "run/platform.h"
#include "nic/wire_source.h"
#include "run/recording.h"
#include "run/results.h"
#include "run/run_monitor.h"
#include "run/schema.h"
#include "run/sustained_rate.h"

namespace pcisim {

using nlohmann::json;

std::vector<ParamSpec> simulation_params() {
    return {
        number("simulation.warmup_us", "us", 500, 0, 1e7,
               "Simulated time discarded before measuring (rings fill, queues settle)."),
        integer("simulation.seed", "", 1, 0, 1LL << 40,
                "Seed of every random choice (random background masters); same scenario and "
                "seed give identical results."),
        number("simulation.max_warmup_us", "us", 50000, 0, 1e8,
               "Warm-up goes on past warmup_us until every transmitting port's TX ring has "
               "filled once (pktgen's steady state), but not past this."),
        number("simulation.batch_us", "us", 1000, 1, 1e7,
               "Measurement proceeds in batches of this length; stability is checked "
               "after each."),
        number("simulation.min_window_us", "us", 2000, 1, 1e8, "Shortest measurement window."),
        number("simulation.max_window_us", "us", 200000, 1, 1e9,
               "Longest measurement window; the run stops there even if not yet stable."),
        number("simulation.stability", "fraction", 0.001, 1e-6, 0.5,
               "Stop when the rate over the window changed by less than this in the last batch."),
        number("simulation.watchdog_us", "us", 2000, 0, 1e9,
               "Stop the run with a diagnostic when no frame has been sent for this long while "
               "pktgen has packets to send (a deadlocked ring); it is never shorter than twice "
               "the longest quiet time the driver and pktgen allow (timer, interrupt delays, "
               "ITR, pktgen.ipg_ns); 0 = off."),
        number("simulation.max_wall_s", "s", 0, 0, 1e6,
               "Stop the run with a diagnostic after this much wall-clock time; 0 = no limit."),
    };
}

RunConfig RunConfig::from(const Scenario& s) {
    RunConfig c;
    c.warmup_ps = ns_to_ps(s.number("simulation.warmup_us") * 1000);
    c.max_warmup_ps = ns_to_ps(s.number("simulation.max_warmup_us") * 1000);
    c.batch_ps = ns_to_ps(s.number("simulation.batch_us") * 1000);
    c.min_window_us = s.number("simulation.min_window_us");
    c.max_window_us = s.number("simulation.max_window_us");
    c.stability = s.number("simulation.stability");
    c.watchdog_us = s.number("simulation.watchdog_us");
    c.max_wall_s = s.number("simulation.max_wall_s");
    c.crash_at_ps = ns_to_ps(s.number("testing.crash_at_us") * 1000);
    return c;
}

namespace {

// Frames of `port` that left the wire, the frames preloaded into the FIFO left out.
std::uint64_t frames_from_pktgen(const Nic& nic, unsigned port) {
    std::uint64_t sent = nic.frames_sent(port), preloaded = nic.preloaded_frames();
    return sent > preloaded ? sent - preloaded : 0;
}

// "nic port 1", "nic2 port 0": the NIC's module name and the port.
std::string port_name(const Platform& platform, const PortSoftware& sw) {
    return platform.config().topology.nics[sw.nic].name + " port " + std::to_string(sw.port);
}

void catch_up(const Platform& platform) {
    for (const auto& nic : platform.nics()) nic->catch_up();
}

// Whether pktgen has packets to send (a stopped queue included).  Once it is done, packets a
// driver variant leaves unannounced (tdt_batch) may legitimately stay in the ring.  A TCP
// stream with payload in flight is owed its ACKs, which come only from frames on the wire: a
// stream whose segments sit in the ring unannounced (driver.tdt_batch at or above the segments
// its window allows) has stopped.
bool packets_owed(const PortSoftware& sw) {
    return sw.has_work() || sw.driver->queue_stopped() ||
           (sw.enabled && sw.workload->awaits_answers());
}

// Who waits on what, for the watchdog's diagnostic.
std::string port_state(const Platform& platform, const PortSoftware& sw) {
    const Nic& nic = *platform.nics()[sw.nic];
    const unsigned port = sw.port;
    const NicTransmitState tx = nic.transmit_state(port);
    std::ostringstream o;
    o << (platform.nics().size() > 1 ? port_name(platform, sw) : "port " + std::to_string(port))
      << ": " << sw.workload->name() << " queued " << sw.workload->frames_queued()
      << ", driver queue "
      << (sw.driver->queue_stopped() ? "stopped" : "running") << " with "
      << sw.driver->descriptors_in_use() << " of " << sw.driver->ring_size()
      << " descriptors in use; NIC TDH " << tx.ring_head << " TDT " << tx.ring_tail << ", TX FIFO "
      << tx.fifo_used << " of " << tx.fifo_capacity << " B used, "
      << frames_from_pktgen(nic, port) << " frames sent";
    const std::string waiting = sw.enabled ? sw.workload->waiting_for() : "";
    if (!waiting.empty()) o << "; " << waiting;
    return o.str();
}

// What a receiving port's NIC and driver have done since time zero, and what stops it when
// nothing is received: no receive buffer, or no descriptor handed to the NIC.
std::string receive_state(const Platform& platform, const PortSoftware& sw) {
    const NicReceiveState rx = platform.nics()[sw.nic]->receive_state(sw.port);
    std::ostringstream o;
    o << (platform.nics().size() > 1 ? port_name(platform, sw) : "port " + std::to_string(sw.port))
      << " receives: " << rx.arrived << " frames arrived, " << rx.delivered
      << " delivered, " << rx.missed << " missed, " << rx.while_off
      << " while the receiver was off (RCTL.EN); NIC RDH " << rx.ring_head << " RDT " << rx.ring_tail
      << " of " << sw.rx->ring_size() << ", receive FIFO " << rx.fifo_used << " of "
      << rx.fifo_capacity << " B used";
    if (!rx.enabled) o << "; the receiver is off (RCTL.EN clear)";
    else if (rx.fifo_capacity == 0) o << "; the NIC has no receive buffer (nic.pba_rx_kb 0)";
    else if (rx.ring_head == rx.ring_tail)
        o << "; the driver has handed the NIC no receive descriptor (RDT = RDH)";
    return o.str();
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

// The longest a healthy packet may take from the tail write to its last byte on the wire: a
// register write and a data read through every bridge, then the frame at the link speed (a
// 9000-byte frame takes 7.2 ms at 10 Mb/s).
Picos one_packet_ps(const PlatformConfig& platform) {
    const HostConfig& host = platform.host;
    Picos path = host.mmio_down_ps + host.mmio_up_ps + host.memory_latency_ps;
    for (const BridgeConfig& b : platform.bridges)
        path += 2 * (b.upstream_latency_ps + b.downstream_latency_ps);
    Picos card = 0, byte_time = 0;
    for (const CardBridgeConfig& c : platform.topology.cards)
        card = std::max(card, 2 * (c.bridge.upstream_latency_ps + c.bridge.downstream_latency_ps));
    for (const NicPlacement& n : platform.topology.nics)
        byte_time = std::max(byte_time, n.spec->byte_time_ps());
    std::uint64_t lines = platform.pktgen.size / host.cache_line_bytes + 2;
    Picos wire = Picos(wire_byte_times(platform.pktgen.size)) * byte_time;
    return path + card + lines * host.line_transfer_ps + wire;
}

// The watchdog never fires inside a quiet time the scenario itself asks for: pktgen's gap,
// the interrupt delays and throttling, the cleanup timer of the timer-driven variants, and
// one packet's own time.
double watchdog_us(const RunConfig& run, const PlatformConfig& platform) {
    if (run.watchdog_us == 0) return 0;
    const DriverOptions& driver = platform.driver;
    double quiet = ps_to_us(platform.pktgen.ipg);
    quiet = std::max(quiet, ps_to_us(one_packet_ps(platform)));
    quiet = std::max(quiet, 1.024 * static_cast<double>(driver.tidv));
    quiet = std::max(quiet, 1.024 * static_cast<double>(driver.tadv));
    if (driver.itr_per_s > 0) quiet = std::max(quiet, 1e6 / static_cast<double>(driver.itr_per_s));
    if (driver.needs_cleanup_timer()) quiet = std::max(quiet, driver.cleanup_timer_us);
    // A TCP sender waits for ACKs: a round trip, or the receiver's delayed-ACK timer.
    if (platform.tcp.enabled)
        quiet = std::max(quiet, ps_to_us(platform.tcp.rtt + platform.tcp.delayed_ack));
    // A receiver refills its ring after the receive interrupt, which RDTR/RADV may hold back,
    // and a wire source sending bursts at a low rate is quiet between them.
    if (platform.wire.enabled) {
        quiet = std::max(quiet, 1.024 * static_cast<double>(platform.rx_driver.rdtr));
        quiet = std::max(quiet, 1.024 * static_cast<double>(platform.rx_driver.radv));
        if (platform.wire.rate_pps > 0)
            quiet = std::max(quiet, 1e6 * std::max(1u, platform.wire.burst_frames) /
                                        platform.wire.rate_pps);
    }
    return std::max(run.watchdog_us, 2 * quiet);
}

}  // namespace

// The port of `nic` explain follows, with the modules it reads in the trace.
RecordedPort recorded_port(const Nic& nic, unsigned port, std::string cpu, std::string wire) {
    return {nic.module_name(),       port, std::move(cpu), std::move(wire), nic.port_module(port),
            nic.mac_module(port), nic.receive_module(port)};
}

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

// A receiving port's NIC counters since time zero.
RxPortWindow receive_counts(const Platform& platform, const PortSoftware& sw) {
    const NicReceiveState rx = platform.nics()[sw.nic]->receive_state(sw.port);
    return {rx.arrived, rx.delivered, rx.missed};
}

struct Simulation::Parts {
    std::unique_ptr<Platform> platform;
    std::vector<FrameCheck> frames;  // per transmitting port
    std::vector<RxPortWindow> rx_at_open;  // per receiving port, when the window opened
    Picos window_start = 0;
    std::unique_ptr<RunMonitor> monitor;
    std::unique_ptr<RecorderWindow> recorder;
    Picos record_until = 0;
    std::function<void(const WireFrame&)> wire_frame;  // --pcap; empty: nobody asked
    std::vector<std::string> interfaces;               // of each transmitting port
    std::vector<Workload*> answering;  // of each transmitting port: its workload when it
                                       // answers frames (sees each leave), else nullptr
};

Simulation::Simulation(const Scenario& s)
    : scenario_(s), config_(RunConfig::from(s)), parts_(std::make_unique<Parts>()) {
    Parts& p = *parts_;
    p.platform = std::make_unique<Platform>(PlatformConfig::from(s));
    Platform& platform = *p.platform;
    p.frames.resize(platform.ports().size());
    for (unsigned i = 0; i < p.frames.size(); ++i) {
        PortSoftware& sw = *platform.ports()[i];
        p.frames[i].port = i;
        p.interfaces.push_back(std::string(platform.nics()[sw.nic]->module_name()) + ".port" +
                               std::to_string(sw.port));
        p.frames[i].check_order = sw.enabled && sw.workload->numbers_frames();
        p.frames[i].preloaded = platform.nics()[sw.nic]->preloaded_frames();
        p.answering.push_back(sw.workload->answers_frames() ? sw.workload.get() : nullptr);
        sw.workload->on_xmit([this, i](Picos xmit) { parts_->frames[i].queued(xmit); });
    }
    // Frames of NIC n's port p go to the n-th NIC's ports' checks, which start at `first`.
    for (unsigned n = 0, first = 0; n < platform.nics().size(); ++n) {
        unsigned ports = platform.config().topology.nics[n].ports;
        platform.nics()[n]->set_frame_timeline_observer(
            [this, first, ports](unsigned port, const std::uint8_t* frame, unsigned len,
                                 const FrameTimeline& times) {
                if (port >= ports) return;
                parts_->frames[first + port].seen(frame, len, times);
                if (parts_->wire_frame)
                    parts_->wire_frame(
                        {parts_->interfaces[first + port], false, frame, len, times.wire_start});
                if (Workload* far_end = parts_->answering[first + port])
                    far_end->frame_left(frame, len, times.wire_end);
            });
        first += ports;
    }

    RunMonitor::Config watch;
    watch.watchdog = platform.nics().empty()
                         ? 0
                         : ns_to_ps(watchdog_us(config_, platform.config()) * 1000);
    watch.max_wall_s = config_.max_wall_s;
    watch.crash_at = config_.crash_at_ps;
    RunMonitor::Probe probe;
    probe.watches.push_back({[this] {
                                 catch_up(*parts_->platform);
                                 return frames_since_start(parts_->frames);
                             },
                             [this] {
                                 for (const auto& sw : parts_->platform->ports())
                                     if (packets_owed(*sw)) return true;
                                 return false;
                             },
                             "packets wait to be sent (or a TCP stream's to be acknowledged)"});
    // Each receiving port on its own: frames written back to host memory while the wire still
    // sends (frames a NIC cannot take are missed, which is no progress either).
    for (std::size_t k = 0; k < platform.wire_sources().size(); ++k) {
        const WireSource& wire = *platform.wire_sources()[k];
        probe.watches.push_back({[&wire] { return wire.nic().receive_state(wire.port()).delivered; },
                                 [&wire] { return wire.sending(); },
                                 "frames arrive to be received"});
    }
    probe.diagnose = [this] {
        const Platform& platform = *parts_->platform;
        catch_up(platform);
        std::string d;
        const auto& ports = platform.ports();
        for (unsigned i = 0; i < ports.size(); ++i) {
            const PortSoftware& sw = *ports[i];
            if (sw.enabled || !sw.rx) d += (d.empty() ? "" : "; ") + port_state(platform, sw);
            if (sw.rx) d += (d.empty() ? "" : "; ") + receive_state(platform, sw);
        }
        return d.empty() ? std::string("no NIC") : d;
    };
    p.monitor = std::make_unique<RunMonitor>("watchdog", watch, std::move(probe));
}

Simulation::~Simulation() = default;

void Simulation::attach_recorder(Recording& recording) {
    Platform& platform = *parts_->platform;
    PciBus* segment = &platform.bus();
    const auto& ports = platform.ports();
    if (!ports.empty()) {  // the first transmitting port, on its NIC's segment
        // A port that only receives (wire_source.receive_only) has no frames to follow.
        auto sends =
            std::find_if(ports.begin(), ports.end(), [](const auto& p) { return p->enabled; });
        const PortSoftware& first = sends == ports.end() ? *ports.front() : **sends;
        recording.follow(recorded_port(*platform.nics()[first.nic], first.port, first.cpu.basename(), ""));
        segment = &platform.nic_segment(first.nic);
        // The first receiving port on that segment, with the wire source that feeds it.
        for (const auto& wire : platform.wire_sources()) {
            auto on = std::find_if(ports.begin(), ports.end(), [&](const auto& p) {
                return platform.nics()[p->nic].get() == &wire->nic() && p->port == wire->port();
            });
            if (on == ports.end() || &platform.nic_segment((*on)->nic) != segment) continue;
            const PortSoftware& rx = **on;
            recording.follow_receive(
                recorded_port(*platform.nics()[rx.nic], rx.port, rx.cpu.basename(), wire->name()));
            break;
        }
    }
    parts_->recorder = std::make_unique<RecorderWindow>("recorder", recording, *segment);
    parts_->record_until = recording.window().to;
}

void Simulation::on_wire_frame(std::function<void(const WireFrame&)> fn) {
    Parts& p = *parts_;
    p.wire_frame = std::move(fn);
    for (const auto& wire : p.platform->wire_sources()) {
        std::string interface =
            std::string(wire->nic().module_name()) + ".port" + std::to_string(wire->port());
        wire->on_frame([this, interface](const std::uint8_t* frame, unsigned len, Picos start) {
            parts_->wire_frame({interface, true, frame, len, start});
        });
    }
}

double Simulation::measured_rate() const {
    const Parts& p = *parts_;
    Picos window = now_ps() - p.window_start;
    if (window == 0) return 0;
    double window_s = static_cast<double>(window) * 1e-12;
    if (!p.platform->nics().empty()) {
        double rate = window_frame_rate(p.frames, window_s);
        // Received frames count too: a receive-only run is steady when its receive rate is.
        for (const RxPortWindow& w : receive_window())
            rate += static_cast<double>(w.delivered) / window_s;
        return rate;
    }
    std::uint64_t bytes = 0;  // without a NIC, what the synthetic masters moved
    for (const auto& m : p.platform->masters()) bytes += m->totals().bytes;
    return static_cast<double>(bytes) / window_s;
}

bool Simulation::ring_filled() const {
    for (const auto& sw : parts_->platform->ports())
        if (sw->enabled && sw->workload->fills_ring() && sw->driver->counters().stops == 0)
            return false;
    return true;
}

void Simulation::rates_only() {
    for (auto& f : parts_->frames) f.packet_times = false;
}

void Simulation::open_window() {
    Parts& p = *parts_;
    Platform& platform = *p.platform;
    p.window_start = now_ps();
    platform.bus().reset_counters();
    for (auto& card : platform.cards()) card->bus.reset_counters();
    for (auto& m : platform.masters()) m->reset_totals();
    for (auto& nic : platform.nics()) nic->reset_stats();
    for (auto& cpu : platform.cpus()) cpu->reset_totals();
    platform.host().reset_snoop_hits();
    if (platform.caches()) platform.caches()->reset_counters();
    for (auto& sw : platform.ports()) {
        sw->driver->reset_counters();
        sw->workload->reset_counters();
    }
    p.rx_at_open.clear();
    for (auto& sw : platform.ports()) {
        if (!sw->rx) continue;
        sw->rx->reset_counters();
        p.rx_at_open.push_back(receive_counts(platform, *sw));
    }
    for (auto& f : p.frames) f.open_window();
}

std::vector<RxPortWindow> Simulation::receive_window() const {
    const Platform& platform = *parts_->platform;
    std::vector<RxPortWindow> out;
    for (const auto& sw : platform.ports()) {
        if (!sw->rx) continue;
        const RxPortWindow now = receive_counts(platform, *sw);
        const RxPortWindow& open = parts_->rx_at_open.at(out.size());
        const std::uint64_t arrived = now.arrived - open.arrived, missed = now.missed - open.missed;
        // Frames written back in the window, but no more than the wire brought in it and the
        // NIC kept: a frame held in the NIC when the window opened (written back in it) stands
        // for one that arrived in it and is still held when it closes.
        const std::uint64_t written_back = now.delivered - open.delivered;
        out.push_back({arrived, std::min(written_back, arrived - missed), missed});
    }
    return out;
}

// Every frame a wire source sent reached its port while the receiver was off (before the driver
// turned it on), or was missed, delivered to host memory, or is still in the NIC.
void Simulation::check_receive_conservation() const {
    const Platform& platform = *parts_->platform;
    for (const auto& wire : platform.wire_sources()) {
        const NicReceiveState rx = wire->nic().receive_state(wire->port());
        if (wire->frames_sent() != rx.arrived + rx.while_off)
            throw InvariantViolation(wire->name(),
                                     "frames on the wire not conserved: " +
                                         std::to_string(wire->frames_sent()) + " sent, " +
                                         std::to_string(rx.arrived) + " arrived, " +
                                         std::to_string(rx.while_off) +
                                         " while the receiver was off");
    }
    for (const auto& sw : platform.ports()) {
        if (!sw->rx) continue;
        const NicReceiveState rx = platform.nics()[sw->nic]->receive_state(sw->port);
        std::uint64_t accounted = rx.delivered + rx.missed + rx.in_nic;
        if (rx.arrived != accounted)
            throw InvariantViolation(port_name(platform, *sw),
                                     "received frames not conserved: " +
                                         std::to_string(rx.arrived) + " arrived, " +
                                         std::to_string(rx.delivered) + " delivered, " +
                                         std::to_string(rx.missed) + " missed, " +
                                         std::to_string(rx.in_nic) + " in the NIC");
    }
}

namespace {

// The frames per second a wire source offers its port (results' rx.offered_pps).
double offered_pps(const WireSourceConfig& config, const WireSource& wire) {
    return config.rate_pps > 0 ? config.rate_pps : 1e12 / static_cast<double>(wire.frame_interval());
}

// Frames the receive halves forwarded to `sw`'s transmit half (driver.rx_mode forward).
std::uint64_t frames_forwarded_to(const Platform& platform, const PortSoftware& sw) {
    std::uint64_t n = 0;
    for (const auto& from : platform.ports())
        if (from->rx && from->rx->forward_target() == sw.driver.get())
            n += from->rx->forwarded_since_start();
    return n;
}
}  // namespace

// Every packet pktgen queued (or the driver forwarded) is on the wire or still in flight: its
// descriptors not yet cleaned by the driver, or its frame holding FIFO room (cleaned after DD,
// not yet sent).
void Simulation::check_conservation() const {
    const Platform& platform = *parts_->platform;
    for (const auto& port_software : platform.ports()) {
        const PortSoftware& sw = *port_software;
        const Nic& nic = *platform.nics()[sw.nic];
        const std::uint64_t forwarded = frames_forwarded_to(platform, sw);
        std::uint64_t queued = sw.workload->frames_queued() + forwarded,
                      sent = frames_from_pktgen(nic, sw.port);
        std::uint64_t frame_bytes = std::max<std::uint64_t>(1, sw.workload->frame_bytes());
        if (forwarded) frame_bytes = std::min<std::uint64_t>(frame_bytes, platform.config().wire.size);
        std::uint64_t in_flight_max =
            std::uint64_t(sw.driver->descriptors_in_use()) * sw.workload->frames_per_packet() +
            nic.transmit_state(sw.port).fifo_used / frame_bytes;
        if (sent > queued || queued - sent > in_flight_max)
            throw InvariantViolation(
                port_name(platform, sw),
                "packets not conserved: " + std::to_string(queued) + " queued, " +
                    std::to_string(sent) + " sent, at most " + std::to_string(in_flight_max) +
                    " can be in flight; " + port_state(platform, sw));
    }
}

// What may be kept lazily or run ahead of the kernel's time, while no recording wants every step
// as it happens: the MAC's frame ends are counted when they are read (after each step, by the
// watchdog), and a CPU runs ahead when it is the only one (two CPUs running ahead would hand
// their register accesses to the host bridge out of their order of arrival).
void Simulation::take_shortcuts() {
    Parts& p = *parts_;
    if (p.recorder) return;
    // A TCP stream's receiver must see each frame when it leaves, to ACK in time, and its
    // ACKs reach the CPU without the NIC's promise of a quiet line.
    bool tcp = false;
    for (const auto& sw : p.platform->ports()) tcp = tcp || sw->workload->answers_frames();
    if (!tcp)
        for (auto& nic : p.platform->nics()) nic->set_lazy_wire(true);
    const auto& cpus = p.platform->cpus();
    // A CPU cache is snooped at the bus's time: the CPU's touches must come in time order, and
    // a bus's steps that snoop or write back run ahead only while no CPU can touch the caches
    // (each CPU waiting out its cycles: Cpu::idle_until); a CPU going on first has the bus run
    // what it held back before then.  With cards, two buses snoop and write back: each would
    // have to wait for the other's steps as well, so theirs keep every retry.
    const bool cached = p.platform->caches() != nullptr;
    for (auto& cpu : cpus) cpu->allow_run_ahead(cpus.size() == 1 && !cached && !tcp);
    // The kernel time before which no CPU but `except` runs (each waiting out its cycles says
    // when it goes on next: Cpu::idle_until).
    auto quiet_until = [&cpus](const Cpu* except) {
        Picos quiet = kNever;
        for (const auto& cpu : cpus)
            if (cpu.get() != except) quiet = std::min(quiet, cpu->idle_until());
        return quiet;
    };
    std::function<Picos()> caches_quiet_until;
    if (cached) caches_quiet_until = [quiet_until] { return quiet_until(nullptr); };
    const bool one_bus = p.platform->cards().empty();
    p.platform->bus().allow_retry_run_ahead(!cached || one_bus, caches_quiet_until);
    if (cached && one_bus) {
        PciBus& bus = p.platform->bus();
        for (auto& cpu : cpus) cpu->set_before_running([&bus] { bus.settle(); });
    }
    for (auto& card : p.platform->cards()) card->bus.allow_retry_run_ahead(!cached);
    // A CPU spinning on a lock another CPU holds waits out at once the turns that end before
    // any other CPU can run (Cpu::fold_spin_turns).
    if (cpus.size() > 1)
        for (auto& cpu : cpus)
            cpu->fold_spin_turns([quiet_until, self = cpu.get()] { return quiet_until(self); });
}

// Simulates `duration` more and brings what is kept lazily up to the new time, so that every
// counter can be read; no CPU runs ahead past that time.
void Simulation::step(Picos duration) {
    for (auto& cpu : parts_->platform->cpus()) cpu->set_horizon(now_ps() + duration);
    advance(duration);
    catch_up(*parts_->platform);
}

// A batch in which no frame left while pktgen owed packets is no steady state, whatever the
// rate says: the ring may have deadlocked after the window opened (the rate over the frames
// before it looks fine).  The run goes on, and the watchdog decides.
bool Simulation::stalled_in_batch(std::uint64_t frames_before) const {
    if (parts_->platform->nics().empty() || frames_since_start(parts_->frames) != frames_before)
        return false;
    for (const auto& sw : parts_->platform->ports())
        if (packets_owed(*sw)) return true;
    return false;
}

// Every transmitting port has enough frames in the window to measure its rate.
bool Simulation::enough_frames() const {
    const auto& ports = parts_->platform->ports();
    for (const FrameCheck& f : parts_->frames)
        if (ports[f.port]->enabled && f.window_frames < kMinWindowFrames) return false;
    return true;
}

// Why the window does not yet measure the rates the ports sustain, port by port ("" when it
// does): frames in bursts (sustained_rate.h), a receiving port with too few frames or more than
// the wire offered in the window, a TCP stream above what the wire can carry of payload.  Each
// is the window's edges showing through: a longer window measures the rate.
std::vector<std::string> Simulation::unmeasured_rates() const {
    const Parts& p = *parts_;
    const Platform& platform = *p.platform;
    std::vector<std::string> why;
    const Picos now = now_ps();
    const double window_s = ps_to_us(now - p.window_start) * 1e-6;
    for (const FrameCheck& f : p.frames) {
        const PortSoftware& sw = *platform.ports()[f.port];
        if (!sw.enabled) continue;
        const bool finished = sw.workload->finishes() && !packets_owed(sw);
        std::string bursts = unsteady_frames(f, p.window_start, now, finished);
        if (!bursts.empty()) why.push_back(port_name(platform, sw) + ": " + bursts);
        const std::string far_end = sw.workload->unmeasured(
            window_s, platform.nics()[sw.nic]->wire_limit_pps(sw.port, sw.workload->frame_bytes()));
        if (!far_end.empty()) why.push_back(port_name(platform, sw) + ": " + far_end);
    }
    const std::vector<RxPortWindow> rx = receive_window();
    for (std::size_t k = 0, r = 0; k < platform.ports().size(); ++k) {
        const PortSoftware& sw = *platform.ports()[k];
        if (!sw.rx) continue;
        const RxPortWindow& w = rx.at(r);
        const WireSource& wire = *platform.wire_sources().at(r++);
        const double offered = offered_pps(platform.config().wire, wire);
        std::ostringstream o;
        o.setf(std::ios::fixed);
        o.precision(1);
        // Frames of the window's arrivals neither delivered nor missed wait in the NIC: when
        // they are more than 5 % of the arrivals the receive FIFO is still filling and the
        // rate delivered is not yet the one the port sustains.
        const std::uint64_t backlog = w.arrived - w.missed - w.delivered;
        if (w.delivered < kMinWindowFrames && wire.sending())
            o << port_name(platform, sw) << ": only " << w.delivered << " frames received in the "
              << window_s * 1e6 << " us window, too few to measure a rate (at least "
              << kMinWindowFrames << ")";
        else if (static_cast<double>(w.delivered) > offered * window_s * (1 + 1e-9))
            o << port_name(platform, sw) << ": " << w.delivered << " frames received in the "
              << window_s * 1e6 << " us window, more than the " << offered * window_s
              << " the wire offered in it at " << offered << " pps";
        else if (static_cast<double>(backlog) >
                 std::max(SustainedRule::kBoundaryFrames,
                          SustainedRule::kAgreement * static_cast<double>(w.arrived)))
            o << port_name(platform, sw) << ": " << backlog << " of the " << w.arrived
              << " frames that arrived in the " << window_s * 1e6 << " us window are neither "
              << "delivered nor missed: the receive FIFO is still filling (" << w.delivered
              << " delivered, " << w.missed << " missed)";
        if (!o.str().empty()) why.push_back(o.str());
    }
    return why;
}

// The results check themselves before anyone reads a rate: every packet conserved, each port at
// most at its wire limit, and enough frames in the window to measure a rate at all.
void Simulation::check_results(double window_us) const {
    const Platform& platform = *parts_->platform;
    if (platform.nics().empty()) return;
    check_conservation();
    check_receive_conservation();
    double window_s = window_us * 1e-6;
    for (const FrameCheck& f : parts_->frames) {
        const PortSoftware& sw = *platform.ports()[f.port];
        std::string where = port_name(platform, sw);
        double pps = port_frame_rate(f, window_s);
        // Frames of several sizes (a TCP sender's, forwarded ones): the smallest bounds the rate.
        const unsigned frame = f.window_frames ? f.window_min_bytes : sw.workload->frame_bytes();
        double limit = platform.nics()[sw.nic]->wire_limit_pps(sw.port, frame);
        std::ostringstream o;
        o.setf(std::ios::fixed);
        o.precision(1);
        if (pps > limit * (1 + 1e-9)) {
            o << "measured " << pps << " pps, above the port's wire limit of " << limit << " pps";
            throw InvariantViolation(where, o.str());
        }
        if (platform.ports()[f.port]->enabled && f.window_frames < kMinWindowFrames) {
            o << "only " << f.window_frames << " frames in the " << window_us
              << " us window, too few to measure a rate (at least " << kMinWindowFrames
              << "); pktgen.count or simulation.max_window_us may be too small";
            throw InvariantViolation(where, o.str());
        }
    }
    // The window reached simulation.max_window_us without measuring what the ports sustain.
    const std::vector<std::string> why = unmeasured_rates();
    if (!why.empty()) {
        std::ostringstream o;
        o << why.front() << "; no rate the port sustains can be read from this window: raise "
             "simulation.max_window_us (" << config_.max_window_us
          << " us) for a longer one, or remove what makes the bursts";
        throw InvariantViolation("measurement", o.str());
    }
}

json Simulation::run() {
    take_shortcuts();
    step(config_.warmup_ps);
    // pktgen's steady state has a full TX ring (the queue has stopped at least once); until
    // then the CPU is still filling it and the NIC sees a different regime.
    while (!ring_filled() && now_ps() < config_.max_warmup_ps) step(config_.batch_ps);
    warmup_us_ = ps_to_us(now_ps());
    open_window();
    double previous = -1, change = 1;
    for (;;) {
        std::uint64_t frames_before = frames_since_start(parts_->frames);
        step(config_.batch_ps);
        bool steady =
            !stalled_in_batch(frames_before) && enough_frames() && unmeasured_rates().empty();
        double window_us = ps_to_us(now_ps() - parts_->window_start);
        double rate = measured_rate();
        // No previous batch: stability not measured yet (NaN, null in the results).
        change = previous > 0 ? std::fabs(rate - previous) / previous
                              : (rate == 0 && previous == 0 ? 0 : std::nan(""));
        previous = rate;
        bool recorded = now_ps() > parts_->record_until;
        if (((window_us >= config_.min_window_us && change < config_.stability && steady) ||
             window_us >= config_.max_window_us) &&
            recorded) {
            check_results(window_us);
            return results_document(scenario_.resolved(), *parts_->platform, parts_->frames,
                                    RunWindow{warmup_us_, window_us, change, receive_window()});
        }
    }
}

std::uint64_t Simulation::run_frames(std::uint64_t frames) {
    if (parts_->platform->nics().empty())
        throw std::logic_error("run_frames: the scenario has no NIC (nic.enabled)");
    take_shortcuts();
    while (frames_since_start(parts_->frames) < frames) step(config_.batch_ps);
    return frames_since_start(parts_->frames);
}

}  // namespace pcisim
