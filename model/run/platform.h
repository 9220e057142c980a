// The machine a scenario describes, wired in one place: the block diagram of docs/architecture.md
// as code.  PlatformConfig holds every module's typed config (each made by its module's `from`
// next to its parameter table, so every scenario key is read in exactly one place); Platform
// builds the modules from it and connects them.  Adding a module: its file pair, its config
// here, and one line in Platform's constructor.
#pragma once

#include <memory>
#include <vector>

#include "e1000/e1000.h"
#include "platform/bridge_face.h"
#include "platform/cpu.h"
#include "platform/dma_master.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "software/e1000_driver.h"
#include "software/pktgen.h"
#include "software/skb_pool.h"

namespace pcisim {

class Scenario;

struct PlatformConfig {
    HostConfig host;
    std::vector<BridgeConfig> bridges;         // host side first
    BusConfig bus;                             // the devices' segment
    std::vector<DmaMaster::Config> masters;    // the enabled synthetic masters
    bool nic_enabled = true;
    e1000::E1000Params nic;
    CpuCosts cpu;
    DriverOptions driver;
    PktgenOptions pktgen;

    static PlatformConfig from(const Scenario& s);
    // The face on the devices' segment: the last bridge's, or the host bridge's.
    const FaceConfig& segment_face() const;
};

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

class Platform {
public:
    explicit Platform(const PlatformConfig& config);
    ~Platform();

    const PlatformConfig& config() const { return config_; }
    HostMemory& memory() { return *memory_; }
    PciBus& bus() { return *bus_; }
    const PciBus& bus() const { return *bus_; }
    const std::vector<std::unique_ptr<DmaMaster>>& masters() const { return masters_; }
    E1000* nic() { return nic_.get(); }  // null without a NIC
    const E1000* nic() const { return nic_.get(); }
    // One per transmitting port (pktgen.ports), port i driving the NIC's port i.
    const std::vector<std::unique_ptr<PortSoftware>>& ports() const { return ports_; }

    // Where things live: the NIC's memory BAR (as a BIOS would assign it), each port's
    // descriptor ring, and the socket buffers.  Addresses carry no timing beyond cache-line
    // alignment.
    static constexpr std::uint64_t kNicBar = 0xf0000000;
    static constexpr std::uint64_t kRingBase = 0x100000;
    static constexpr std::uint64_t kRingSpacing = 0x100000;
    static constexpr std::uint64_t kSkbBase = 0x400000;

private:
    void add_transmitter();  // the NIC, and a CPU + driver + pktgen per port

    PlatformConfig config_;
    std::unique_ptr<HostMemory> memory_;
    std::unique_ptr<HostBridge> host_;
    std::vector<std::unique_ptr<PciBridge>> bridges_;
    std::unique_ptr<PciBus> bus_;
    std::unique_ptr<BridgeFace> face_;
    std::vector<std::unique_ptr<DmaMaster>> masters_;
    std::unique_ptr<SkbPool> skbs_;
    std::unique_ptr<E1000> nic_;
    std::vector<std::unique_ptr<PortSoftware>> ports_;
};

}  // namespace pcisim
