#include "tlm/example_platform.h"

#include <string>

#include "run/scenario.h"
#include "core/sim_time.h"

namespace pcisim {

TlmExampleConfig TlmExampleConfig::from(const Scenario& s) {
    TlmExampleConfig c;
    c.platform = PlatformConfig::from(s);
    if (c.platform.pktgen.ports != 1)
        throw ScenarioError({"pktgen.ports: " + std::to_string(c.platform.pktgen.ports) +
                             ": the TLM example drives one port, expected 1"});
    if (c.platform.topology.nics.size() != 1)
        throw ScenarioError({"nics: " + std::to_string(c.platform.topology.nics.size()) +
                             " NICs: the TLM example has one NIC (nic.*), expected 1"});
    // It has pktgen and the transmit path only: a scenario that receives (wire_source.*), sends
    // nothing or streams TCP would run as something else, or not at all.
    if (s.boolean("wire_source.enabled"))
        throw ScenarioError({"wire_source.enabled: true: the TLM example has no wire source and no "
                             "receive path, it transmits only; expected false (use pcisim run)"});
    if (!c.platform.pktgen.enabled)
        throw ScenarioError({"pktgen.enabled: false: the TLM example transmits with pktgen and "
                             "has nothing else to run; expected true"});
    if (s.text("workload.kind") != "pktgen")
        throw ScenarioError({"workload.kind: \"" + s.text("workload.kind") + "\": the TLM example "
                             "runs pktgen only; expected \"pktgen\" (use pcisim run)"});
    // The 82544's PCI-X workaround depends on pcisim's bus, which this platform does not have.
    c.platform.driver.pcix_82544 = false;
    return c;
}

TlmExamplePlatform::TlmExamplePlatform(sc_core::sc_module_name name,
                                       const TlmExampleConfig& config)
    : sc_module(name),
      config_(config),
      memory_(config_.platform.host.memory_bytes),
      ram_("ram", memory_,
           {config_.platform.host.memory_latency_ps, config_.platform.host.line_transfer_ps,
            config_.platform.host.cache_line_bytes}),
      router_("router", config_.router_hop_ps),
      nic_("nic", config_.platform.topology.nics.front().params, config_.nic),
      irq_("irq", nic_.nic().ports()),
      host_("host", config_.platform.host),
      mmio_("mmio"),
      skbs_(Platform::kSkbBase, memory_.size() - Platform::kSkbBase,
            config_.platform.host.cache_line_bytes) {
    mmio_.socket.bind(router_.in);
    nic_.dma.bind(router_.in);
    router_.add_target(ram_.socket, 0, memory_.size());
    router_.add_target(nic_.regs, Platform::kNicBar, nic_.register_bytes());
    host_.bind_mmio(mmio_, config_.platform.host.mmio_down_ps, config_.platform.host.mmio_up_ps);
    for (unsigned p = 0; p < nic_.nic().ports(); ++p) nic_.irq[p].bind(irq_[p]);
    SC_METHOD(deliver_interrupt);
    sensitive << irq_[0];
    dont_initialize();

    cpu_ = std::make_unique<Cpu>("cpu0", config_.platform.cpu, host_, memory_);
    software_ = std::make_unique<PortSoftware>(0, 0, *cpu_);
    PortSoftware& sw = *software_;
    sw.driver = std::make_unique<E1000Driver>(sw.cpu, config_.platform.driver, Platform::kNicBar,
                                              Platform::kRingBase,
                                              [&sw](const Skb& skb) { sw.workload->free_skb(skb); });
    sw.workload = std::make_unique<Pktgen>(sw.cpu, *sw.driver, skbs_, config_.platform.pktgen);
    sw.enabled = config_.platform.pktgen.enabled;
    const DriverOptions& driver = config_.platform.driver;
    sw.cpu.run(&sw, driver.needs_cleanup_timer() ? ns_to_ps(driver.cleanup_timer_us * 1000) : 0);
}

TlmExamplePlatform::~TlmExamplePlatform() = default;

void TlmExamplePlatform::deliver_interrupt() { cpu_->set_interrupt(irq_[0].read()); }

}  // namespace pcisim
