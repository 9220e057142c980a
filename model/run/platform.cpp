#include "run/platform.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "run/nic_families.h"
#include "run/scenario.h"
#include "core/sim_time.h"

namespace pcisim {

PlatformConfig PlatformConfig::from(const Scenario& s) {
    PlatformConfig c;
    c.host = HostConfig::from(s);
    for (std::size_t i = 0; i < s.count("bridges"); ++i)
        c.bridges.push_back(
            BridgeConfig::from(s, "bridges." + std::to_string(i), c.host.cache_line_bytes));
    c.bus = BusConfig::from(s, "bus");
    for (std::size_t i = 0; i < s.count("masters"); ++i) {
        std::string prefix = "masters." + std::to_string(i);
        if (s.boolean(prefix + ".enabled")) c.masters.push_back(DmaMaster::Config::from(s, prefix));
    }
    c.topology = Topology::from(s, c.host.cache_line_bytes);
    c.cpu = CpuCosts::from(s);
    c.cache = CpuCacheConfig::from(s);
    c.kernel = KernelConfig::from(s);
    c.driver = DriverOptions::from(s);
    c.rx_driver = RxDriverOptions::from(s);
    c.pktgen = PktgenOptions::from(s);
    c.tcp = TcpStreamOptions::from(s);
    c.wire = WireSourceConfig::from(s);
    return c;
}

const FaceConfig& PlatformConfig::segment_face() const {
    return bridges.empty() ? host.face : bridges.back().face;
}

DriverOptions PlatformConfig::driver_for(std::size_t nic) const {
    const NicPlacement& placement = topology.nics.at(nic);
    const BusKind segment =
        placement.card < 0 ? bus.kind : topology.cards[static_cast<std::size_t>(placement.card)].bus.kind;
    return drivers_of(*placement.spec)
        .options_for(driver, *placement.spec, segment == BusKind::PciX,
                     SkbPool::buffer_bytes(pktgen.size + kPktgenAllocSlack, host.cache_line_bytes));
}

// The block diagram, top down: host bridge -> bridges[0] -> ... -> the devices' segment with
// the face of the last bridge above it, the synthetic masters on it, the card bridges with
// their segments below it, and the NICs.
Platform::Platform(const PlatformConfig& config) : config_(config) {
    memory_ = std::make_unique<HostMemory>(config_.host.memory_bytes);
    host_ = std::make_unique<HostBridge>("host", config_.host);
    MemoryPath* up = host_.get();
    Picos mmio_down = config_.host.mmio_down_ps, mmio_up = config_.host.mmio_up_ps;
    for (const BridgeConfig& b : config_.bridges) {
        bridges_.push_back(std::make_unique<PciBridge>(b.name.c_str(), b, *up));
        up = bridges_.back().get();
        mmio_down += b.downstream_latency_ps;
        mmio_up += b.upstream_latency_ps;
    }
    bus_ = std::make_unique<PciBus>("bus", config_.bus);
    face_ = std::make_unique<BridgeFace>("face", config_.segment_face(), *bus_, *up);
    for (const CardBridgeConfig& card : config_.topology.cards)
        cards_.push_back(std::make_unique<CardSegment>(card.bridge.name.c_str(), card, *up));
    if (cards_.empty()) {
        host_->bind_mmio(*face_, mmio_down, mmio_up);
    } else {
        mmio_router_ = std::make_unique<MmioRouter>(*face_);
        host_->bind_mmio(*mmio_router_, mmio_down, mmio_up);
    }
    for (const DmaMaster::Config& m : config_.masters)
        masters_.push_back(std::make_unique<DmaMaster>(m.name.c_str(), m, *bus_));
    if (!config_.topology.nics.empty()) add_transmitters();
}

// The CPUs, the NICs on their segments, and per transmitting port a driver and pktgen on the
// port's CPU, the port's interrupt line wired to that CPU (through its scheduler when the CPU
// drives more than one port).
void Platform::add_transmitters() {
    const Topology& topology = config_.topology;
    const PktgenOptions& traffic = config_.pktgen;
    skbs_ = std::make_unique<SkbPool>(kSkbBase, memory_->size() - kSkbBase,
                                      config_.host.cache_line_bytes);
    if (config_.host.numa_nodes > 1)
        skbs_->use_nodes(config_.host.numa_nodes, memory_->size() / config_.host.numa_nodes);
    // The slab's shared arrays pass objects between the CPUs of an SMP kernel.
    skbs_->use_shared_arrays(config_.kernel.smp && topology.cpus > 1);
    for (unsigned c = 0; c < topology.cpus; ++c) {
        cpus_.push_back(std::make_unique<Cpu>(("cpu" + std::to_string(c)).c_str(), config_.cpu,
                                              *host_, *memory_));
        cpus_[c]->set_kernel(config_.kernel);
        cpus_[c]->set_other_cpus(topology.cpus > 1);
        cpus_[c]->set_node(c % config_.host.numa_nodes);
        schedulers_.push_back(std::make_unique<CpuScheduler>(*cpus_[c]));
    }
    // The CPU caches, kept coherent between the CPUs and snooped by the host bridge for
    // coherent DMA.
    if (config_.cache.enabled()) {
        caches_ = std::make_unique<CacheCoherence>(config_.cache, topology.cpus);
        for (const auto& cache : caches_->caches()) host_->snoop(*cache);
        for (unsigned c = 0; c < topology.cpus; ++c) cpus_[c]->use_caches(*caches_, c);
        if (config_.host.numa_nodes > 1) {
            const HostConfig host = config_.host;
            caches_->use_numa([host](std::uint64_t a) { return host.node_of(a); }, host.numa_nodes,
                              host.numa_hop_ps);
        }
    }
    const std::uint64_t ring_spacing = Platform::ring_spacing(topology.port_cpu.size());
    for (unsigned n = 0; n < topology.nics.size(); ++n) {
        const NicPlacement& placement = topology.nics[n];
        std::vector<InterruptSink*> irqs;
        std::size_t first_port = ports_.size();
        for (unsigned p = 0; p < placement.ports; ++p) {
            const std::size_t k = ports_.size();
            auto sw = std::make_unique<PortSoftware>(n, p, *cpus_[topology.port_cpu[k]]);
            schedulers_[topology.port_cpu[k]]->add_thread(*sw);
            // The port's line through the I/O APIC to the CPUs of its affinity.
            std::vector<CpuScheduler*> targets;
            for (unsigned c : topology.port_irq_cpus[k]) targets.push_back(schedulers_[c].get());
            sw->irq = std::make_unique<IrqLine>(targets, topology.irq_delivery, *sw);
            for (CpuScheduler* target : targets) target->add_line(*sw->irq);
            InterruptSink* line = sw->irq.get();
            if (config_.tcp.enabled) {  // the ACKs raise the port's line too
                std::string peer = "tcp_peer" + std::to_string(k);
                sw->peer = std::make_unique<TcpReceiver>(peer.c_str(), config_.tcp, *line);
                line = sw->peer.get();
            }
            irqs.push_back(line);
            ports_.push_back(std::move(sw));
        }
        const std::uint64_t bar = nic_bar(n);
        PciBus& segment = nic_segment(n);
        const NicSpec& spec = *placement.spec;
        nics_.push_back(spec.make(placement.name, segment, *memory_, bar, irqs));
        if (placement.card >= 0) {
            const BridgeConfig& b = topology.cards[placement.card].bridge;
            mmio_router_->add_window(bar, spec.bar_bytes(), cards_[placement.card]->face,
                                     b.downstream_latency_ps, b.upstream_latency_ps);
        }
        const DriverOptions driver = config_.driver_for(n);
        const PortDrivers& drivers = drivers_of(spec);
        for (std::size_t k = first_port; k < ports_.size(); ++k) {
            PortSoftware& sw = *ports_[k];
            sw.driver = drivers.make_tx(
                driver, bar + sw.port * spec.port_register_bytes(), kRingBase + k * ring_spacing,
                [&sw](const Skb& skb) { sw.workload->free_skb(skb); },
                [this](std::uint32_t bytes) { return skbs_->carve(bytes, bytes); });
            sw.workload = make_workload(sw);
            const bool receives = config_.wire.receives(sw.port);
            sw.enabled = traffic.enabled && !(receives && config_.wire.receive_only);
            if (receives) add_receiver(sw, k, ring_spacing);
            // A queue woken on another CPU: the thread spinning on it there sees it.
            sw.driver->on_wake([&sw] {
                if (&Cpu::current() != &sw.cpu) sw.cpu.work_arrives(Cpu::current().now());
            });
            // The poll list of the CPU that took the interrupt.
            if (receives)
                sw.driver->share_poll_list([this, &sw] { scheduler_of(Cpu::current()).serve_others(sw); });
            if (config_.driver.needs_cleanup_timer()) {
                sw.cleanup_timer = std::make_unique<KernelTimer>(sw, *cpus_[topology.port_timer_cpu[k]]);
                for (auto& scheduler : schedulers_) scheduler->add_timer(*sw.cleanup_timer);
                sw.driver->use_timer(*sw.cleanup_timer);
            }
        }
        // driver.rx_mode forward: port p's frames go out of port p ^ 1 (check_wire_source has
        // made sure that port has a driver).
        for (std::size_t k = first_port; k < ports_.size(); ++k)
            if (ports_[k]->rx && config_.rx_driver.mode == RxMode::Forward)
                ports_[k]->rx->forward_to(ports_[first_port + (ports_[k]->port ^ 1)]->driver.get());
    }
    Picos timer = config_.driver.needs_cleanup_timer()
                      ? ns_to_ps(config_.driver.cleanup_timer_us * 1000)
                      : 0;
    for (unsigned c = 0; c < topology.cpus; ++c) cpus_[c]->run(schedulers_[c].get(), timer);
}

CpuScheduler& Platform::scheduler_of(const Cpu& cpu) {
    for (auto& s : schedulers_)
        if (&s->cpu() == &cpu) return *s;
    throw std::logic_error("a CPU without a scheduler");
}

// The port's workload (software/workload.h), by workload.kind: a TCP stream to the port's far
// end, or pktgen.
std::unique_ptr<Workload> Platform::make_workload(PortSoftware& sw) {
    if (config_.tcp.enabled) {
        auto tcp = std::make_unique<TcpSender>(*sw.driver, *skbs_, *sw.peer, config_.tcp,
                                               [this](std::uint32_t bytes) { return skbs_->carve(bytes); });
        sw.tcp = tcp.get();
        return tcp;
    }
    return std::make_unique<Pktgen>(*sw.driver, *skbs_, config_.pktgen);
}

// A receiving port: the driver's receive half (its ring in the second half of the port's ring
// space) and the link partner sending to it.
void Platform::add_receiver(PortSoftware& sw, std::size_t k, std::uint64_t ring_spacing) {
    Nic& nic = *nics_[sw.nic];
    const NicSpec& spec = *config_.topology.nics[sw.nic].spec;
    const std::uint64_t bar = nic_bar(sw.nic) + sw.port * spec.port_register_bytes();
    sw.rx = drivers_of(spec).make_rx(*sw.driver, config_.rx_driver, bar,
                                     kRingBase + k * ring_spacing + ring_spacing / 2, *skbs_);
    std::string name = "wire" + std::to_string(wires_.size());
    wires_.push_back(std::make_unique<WireSource>(name.c_str(), config_.wire, nic, sw.port,
                                                  spec.byte_time_ps()));
}

Platform::~Platform() = default;

PciBus& Platform::nic_segment(std::size_t nic) {
    int card = config_.topology.nics.at(nic).card;
    return card < 0 ? *bus_ : cards_[static_cast<std::size_t>(card)]->bus;
}

}  // namespace pcisim
