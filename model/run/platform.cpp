#include "run/platform.h"

#include <string>

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
    c.nic_enabled = s.boolean("nic.enabled");
    c.nic = e1000::E1000Params::from(s);
    c.cpu = CpuCosts::from(s);
    c.driver = DriverOptions::from(s);
    c.driver.pcix_82544 = c.nic.model == "82544" && c.bus.kind == BusKind::PciX;
    c.pktgen = PktgenOptions::from(s);
    return c;
}

const FaceConfig& PlatformConfig::segment_face() const {
    return bridges.empty() ? host.face : bridges.back().face;
}

// The block diagram, top down: host bridge -> bridges[0] -> ... -> the devices' segment with
// the face of the last bridge above it, the synthetic masters and the NIC on it.
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
    host_->bind_mmio(*face_, mmio_down, mmio_up);
    for (const DmaMaster::Config& m : config_.masters)
        masters_.push_back(std::make_unique<DmaMaster>(m.name.c_str(), m, *bus_));
    if (config_.nic_enabled) add_transmitter();
}

// The NIC on the segment, and per transmitting port a CPU running pktgen and the driver, the
// port's interrupt line wired to its CPU.
void Platform::add_transmitter() {
    const PktgenOptions& traffic = config_.pktgen;
    skbs_ = std::make_unique<SkbPool>(kSkbBase, memory_->size() - kSkbBase,
                                      config_.host.cache_line_bytes);
    std::vector<InterruptSink*> irqs;
    for (unsigned i = 0; i < traffic.ports; ++i) {
        auto sw = std::make_unique<PortSoftware>();
        sw->cpu = std::make_unique<Cpu>(("cpu" + std::to_string(i)).c_str(), config_.cpu, *host_,
                                        *memory_);
        irqs.push_back(sw->cpu.get());
        ports_.push_back(std::move(sw));
    }
    nic_ = std::make_unique<E1000>("nic", config_.nic, *bus_, *memory_, kNicBar, irqs);
    for (unsigned i = 0; i < traffic.ports; ++i) {
        PortSoftware& sw = *ports_[i];
        sw.driver = std::make_unique<E1000Driver>(
            *sw.cpu, config_.driver, kNicBar + i * E1000::kBarBytes, kRingBase + i * kRingSpacing,
            [&sw](const Skb& skb) { sw.pktgen->free_skb(skb); });
        sw.pktgen = std::make_unique<Pktgen>(*sw.cpu, *sw.driver, *skbs_, traffic);
        sw.enabled = traffic.enabled;
        Picos timer = config_.driver.needs_cleanup_timer()
                          ? ns_to_ps(config_.driver.cleanup_timer_us * 1000)
                          : 0;
        sw.cpu->run(&sw, timer);
    }
}

Platform::~Platform() = default;

}  // namespace pcisim
