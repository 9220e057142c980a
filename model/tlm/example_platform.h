// The TLM-2.0 example platform (docs/tlm.md): pcisim's CPU, driver and pktgen, and the e1000
// behind its TLM-2.0 sockets, around a plain memory and a simple router instead of pcisim's
// cycle-level PCI bus.
//
//   Cpu (pktgen + e1000 driver) ── HostBridge register route ── TlmMmioInitiator ─┐
//     │ software reaches memory directly (as through DMI)                        ▼
//   HostMemory ◄── TlmMemory ◄──────────────────────────────────────────────── TlmRouter
//                                                  E1000Tlm.dma ──────────────────┘ │
//   Cpu ◄── irq (sc_signal<bool>) ◄── E1000Tlm.irq[0]     E1000Tlm.regs ◄───────────┘
//
// Addresses as in pcisim's own platform: memory from 0, the NIC's BAR at Platform::kNicBar.
#pragma once

#include <memory>

#include <systemc>

#include "platform/cpu.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "run/platform.h"
#include "software/skb_pool.h"
#include "tlm/e1000_tlm.h"
#include "tlm/tlm_memory.h"
#include "tlm/tlm_mmio_initiator.h"
#include "tlm/tlm_router.h"

namespace pcisim {

class Scenario;

struct TlmExampleConfig {
    // From a scenario: host.* (memory size and timing, the register route's mmio_down/up), nic.*,
    // cpu.*, driver.*, pktgen.* (one port).  The bus and bridge keys have nothing to act on.
    PlatformConfig platform;
    Picos router_hop_ps = 10000;  // each pass through the router
    E1000TlmConfig nic;
    // Throws ScenarioError unless the scenario has exactly one NIC driven on one port by pktgen,
    // with nothing to receive.
    static TlmExampleConfig from(const Scenario& s);
};

class TlmExamplePlatform : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(TlmExamplePlatform);
    TlmExamplePlatform(sc_core::sc_module_name name, const TlmExampleConfig& config);
    ~TlmExamplePlatform() override;

    HostMemory& memory() { return memory_; }
    TlmRouter& router() { return router_; }
    E1000Tlm& nic() { return nic_; }
    const PortSoftware& software() const { return *software_; }

private:
    void deliver_interrupt();  // SC_METHOD: the NIC's line to the CPU

    TlmExampleConfig config_;
    HostMemory memory_;
    TlmMemory ram_;
    TlmRouter router_;
    E1000Tlm nic_;
    sc_core::sc_vector<sc_core::sc_signal<bool>> irq_;  // one per port; port 0's goes to the CPU
    HostBridge host_;
    TlmMmioInitiator mmio_;
    SkbPool skbs_;
    std::unique_ptr<Cpu> cpu_;
    std::unique_ptr<PortSoftware> software_;
};

}  // namespace pcisim
