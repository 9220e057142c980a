#include "tlm/example_platform.h"

#include <string>

#include <nlohmann/json.hpp>

#include "e1000/e1000_family.h"
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
    if (auto problems = unhandled_keys(s); !problems.empty()) throw ScenarioError(problems);
    // The 82544's PCI-X workaround depends on pcisim's bus, which this platform does not have.
    c.platform.driver.pcix_82544 = false;
    return c;
}

// What the scenario asks for that this platform would silently not do.  The machine around the
// NIC (bus.*, bridges[], card_bridges[], the host bridge's face) is what the TLM router and PCI
// host bridge replace, and keys no transmitting pktgen run reads (tcp.*, the receive driver's)
// change nothing here either; these do, in pcisim run, and would not here.
std::vector<std::string> TlmExampleConfig::unhandled_keys(const Scenario& s) {
    const nlohmann::json& given = s.resolved();
    const nlohmann::json defaults = Scenario::from_json(nlohmann::json::object(), "defaults").resolved();
    std::vector<std::string> problems;
    auto differs = [&](const std::string& section, const std::string& key) {
        return given.at(section).at(key) != defaults.at(section).at(key);
    };
    const std::string use_run = "; expected the default, or pcisim run";
    const nlohmann::json masters = given.value("masters", nlohmann::json::array());
    for (std::size_t i = 0; i < masters.size(); ++i)
        if (masters[i].value("enabled", true))
            problems.push_back("masters[" + std::to_string(i) + "]: a bus master's load: the TLM "
                               "example has no PCI bus to put it on" + use_run);
    // The CPU's cache is modelled (its misses cost the CPU as in pcisim run), but the TLM memory
    // does not snoop it: a DMA read of a line modified in the cache takes the memory latency, so
    // a snoop priced otherwise would silently not be.
    const nlohmann::json& host = given.at("host");
    if (given["cpu"]["cache"]["kib"].get<double>() > 0 &&
        (host.at("snoop_hit_ns") != host.at("memory_latency_ns") ||
         host.at("snoop_line_ns").get<double>() != 0))
        problems.push_back("host.snoop_hit_ns: " + host.at("snoop_hit_ns").dump() +
                           ": the TLM example's memory does not snoop the CPU's cache (a DMA read "
                           "of a modified line takes host.memory_latency_ns " +
                           host.at("memory_latency_ns").dump() + ", and no host.snoop_line_ns)" +
                           use_run);
    if (differs("pktgen", "cpus"))
        problems.push_back("pktgen.cpus: " + given["pktgen"]["cpus"].dump() +
                           ": the TLM example runs one CPU" + use_run);
    for (auto it = given.at("simulation").begin(); it != given.at("simulation").end(); ++it)
        if (differs("simulation", it.key()))
            problems.push_back("simulation." + it.key() + ": " + it.value().dump() +
                               ": the TLM example measures --time-us after --warmup-us and has "
                               "no watchdog" + use_run + " (or its --warmup-us, --time-us)");
    for (const char* key : {"crash_at_us", "rx_driver_no_refill"})
        if (differs("testing", key))
            problems.push_back(std::string("testing.") + key + ": " + given["testing"][key].dump() +
                               ": a fault the TLM example does not inject" + use_run);
    return problems;
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
      pci_("pci", config_.pci_host_hop_ps, kPciMemoryBase, 0),
      firmware_("firmware"),
      nic_("nic", e1000::params_of(*config_.platform.topology.nics.front().spec), config_.nic),
      irq_("irq", nic_.nic().ports()),
      host_("host", config_.platform.host),
      mmio_("mmio", config_.nic.timing, config_.nic.quantum_ps),
      skbs_(Platform::kSkbBase, memory_.size() - Platform::kSkbBase,
            config_.platform.host.cache_line_bytes) {
    mmio_.socket.bind(router_.in);
    nic_.dma.bind(router_.in);
    firmware_.bind(router_.in);
    router_.add_target(ram_.socket, 0, memory_.size());
    router_.add_target(pci_.memory, kPciMemoryBase, kPciMemoryBytes);
    router_.add_target(pci_.config, kPciConfigBase, kPciConfigBytes);
    router_.add_target(pci_.io, kPciIoBase, kPciIoBytes);
    pci_.add_device({kNicSlot, nic_.functions(), &nic_.config, E1000Tlm::kConfigBytesPerFunction,
                     &nic_.regs, E1000::kBarBytes, &nic_.io, E1000Tlm::kIoBytesPerFunction});
    host_.bind_mmio(mmio_, config_.platform.host.mmio_down_ps, config_.platform.host.mmio_up_ps);
    for (unsigned p = 0; p < nic_.nic().ports(); ++p) nic_.irq[p].bind(irq_[p]);
    SC_METHOD(deliver_interrupt);
    sensitive << irq_[0];
    dont_initialize();

    cpu_ = std::make_unique<Cpu>("cpu0", config_.platform.cpu, host_, memory_);
    cpu_->set_kernel(config_.platform.kernel);
    // The CPU's own misses as in pcisim run; the memory does not snoop it (unhandled_keys).
    if (config_.platform.cache.enabled()) {
        caches_ = std::make_unique<CacheCoherence>(config_.platform.cache, 1);
        cpu_->use_caches(*caches_, 0);
    }
    software_ = std::make_unique<PortSoftware>(0, 0, *cpu_);
    PortSoftware& sw = *software_;
    sw.driver = std::make_unique<E1000Driver>(config_.platform.driver, Platform::kNicBar,
                                              Platform::kRingBase,
                                              [&sw](const Skb& skb) { sw.workload->free_skb(skb); });
    sw.workload = std::make_unique<Pktgen>(*sw.driver, skbs_, config_.platform.pktgen);
    sw.enabled = config_.platform.pktgen.enabled;
    const DriverOptions& driver = config_.platform.driver;
    sw.cpu.run(&sw, driver.needs_cleanup_timer() ? ns_to_ps(driver.cleanup_timer_us * 1000) : 0);
}

TlmExamplePlatform::~TlmExamplePlatform() = default;

// What a BIOS does before the driver loads: each function's BARs assigned (the register BAR at
// the NIC's place in pcisim's platform, the I/O BAR in I/O space), then memory and I/O decoding
// and bus mastering turned on (PCI 2.3 6.2.2).
void TlmExamplePlatform::start_of_simulation() {
    auto write = [this](unsigned function, unsigned reg, std::uint32_t value) {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(kPciConfigBase + TlmPciHost::config_address(kNicSlot, function, reg));
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
        t.set_data_length(4);
        firmware_->transport_dbg(t);
    };
    for (unsigned f = 0; f < nic_.functions(); ++f) {
        const e1000::ConfigSpace& cs = nic_.nic().config_space(f);
        write(f, 0x10 + 4 * cs.register_bar(), static_cast<std::uint32_t>(Platform::kNicBar + f * E1000::kBarBytes));
        write(f, 0x10 + 4 * cs.io_bar(), kNicIoBar + f * E1000Tlm::kIoBytesPerFunction * 2);
        write(f, 0x04, e1000::ConfigSpace::kIoEnable | e1000::ConfigSpace::kMemoryEnable |
                           e1000::ConfigSpace::kBusMaster);
    }
}

void TlmExamplePlatform::deliver_interrupt() { cpu_->set_interrupt(irq_[0].read()); }

}  // namespace pcisim
