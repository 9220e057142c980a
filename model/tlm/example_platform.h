// The TLM-2.0 example platform (docs/tlm.md): pcisim's CPU, driver and pktgen, and the e1000
// behind its TLM-2.0 sockets, around a plain memory, a simple router and a PCI host bridge (the
// configuration-space router and BAR decoder) instead of pcisim's cycle-level PCI bus.
//
//   Cpu (pktgen + e1000 driver) ── HostBridge register route ── TlmMmioInitiator ─┐
//     │ software reaches memory directly (as through DMI)   firmware (config) ─┐  ▼
//   HostMemory ◄── TlmMemory ◄──────────────────────────────────────────────── TlmRouter
//                                                  E1000Tlm.dma ──────────────────┘ │
//   Cpu ◄── irq (sc_signal<bool>) ◄── E1000Tlm.irq[0]   TlmPciHost (config, memory, io)
//                                       E1000Tlm.regs, io, config ◄──────────────┘
//
// Addresses: memory from 0; the PCI memory window from kPciMemoryBase (PCI addresses equal to the
// CPU's), where the firmware puts the NIC's BAR at Platform::kNicBar as in pcisim's own
// platform; the configuration space (ECAM, bus 0) at kPciConfigBase; PCI I/O space at kPciIoBase.
// The NIC is device kNicSlot.  At the start of the simulation the firmware sizes nothing (the host
// bridge has) and assigns the NIC's BARs and turns on its memory and I/O decoding and bus
// mastering, through the configuration space, as a BIOS would before the driver runs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "platform/cache_coherence.h"
#include "platform/cpu.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "run/platform.h"
#include "software/skb_pool.h"
#include "tlm/e1000_tlm.h"
#include "tlm/tlm_memory.h"
#include "tlm/tlm_mmio_initiator.h"
#include "tlm/tlm_pci_host.h"
#include "tlm/tlm_router.h"

namespace pcisim {

class Scenario;

struct TlmExampleConfig {
    // From a scenario: host.* (memory size and timing, the register route's mmio_down/up), nic.*,
    // cpu.*, driver.*, pktgen.* (one port).  The bus and bridge keys have nothing to act on.
    PlatformConfig platform;
    Picos router_hop_ps = 10000;  // each pass through the router
    Picos pci_host_hop_ps = 0;    // each pass through the PCI host bridge
    E1000TlmConfig nic;
    // Throws ScenarioError unless the scenario has exactly one NIC driven on one port by pktgen,
    // with nothing to receive, and asks for nothing the platform would not do (unhandled_keys).
    static TlmExampleConfig from(const Scenario& s);
    // The keys set to other than their defaults whose behaviour this platform does not have
    // (background bus masters, a snoop priced apart from memory, more CPUs, simulation.*, some
    // testing.* faults), one problem each.
    static std::vector<std::string> unhandled_keys(const Scenario& s);
};

class TlmExamplePlatform : public sc_core::sc_module {
public:
    static constexpr std::uint64_t kPciMemoryBase = 0xE0000000, kPciMemoryBytes = 0x18000000;
    static constexpr std::uint64_t kPciConfigBase = 0xF8000000, kPciConfigBytes = 0x100000;
    static constexpr std::uint64_t kPciIoBase = 0xF9000000, kPciIoBytes = 0x10000;
    static constexpr std::uint32_t kNicIoBar = 0x1000;  // the NIC's I/O BAR in PCI I/O space
    static constexpr unsigned kNicSlot = 1;

    SC_HAS_PROCESS(TlmExamplePlatform);
    TlmExamplePlatform(sc_core::sc_module_name name, const TlmExampleConfig& config);
    ~TlmExamplePlatform() override;

    HostMemory& memory() { return memory_; }
    TlmRouter& router() { return router_; }
    TlmPciHost& pci_host() { return pci_; }
    E1000Tlm& nic() { return nic_; }
    const PortSoftware& software() const { return *software_; }

private:
    void deliver_interrupt();  // SC_METHOD: the NIC's line to the CPU
    void start_of_simulation() override;  // the firmware's configuration writes

    TlmExampleConfig config_;
    HostMemory memory_;
    TlmMemory ram_;
    TlmRouter router_;
    TlmPciHost pci_;
    tlm_utils::simple_initiator_socket<TlmExamplePlatform> firmware_;
    E1000Tlm nic_;
    sc_core::sc_vector<sc_core::sc_signal<bool>> irq_;  // one per port; port 0's goes to the CPU
    HostBridge host_;
    TlmMmioInitiator mmio_;
    SkbPool skbs_;
    std::unique_ptr<CacheCoherence> caches_;  // the CPU's cache (cpu.cache.*), when it has one
    std::unique_ptr<Cpu> cpu_;
    std::unique_ptr<PortSoftware> software_;
};

}  // namespace pcisim
