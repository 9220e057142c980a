// The machine a scenario describes, wired in one place: the block diagram of docs/architecture.md
// as code.  PlatformConfig holds every module's typed config (each made by its module's `from`
// next to its parameter table, so every scenario key is read in exactly one place); Platform
// builds the modules from it and connects them.  Adding a module: its file pair, its config
// here, and one line in Platform's constructor.
#pragma once

#include <memory>
#include <vector>

#include "nic/nic.h"
#include "nic/wire_source.h"
#include "platform/bridge_face.h"
#include "platform/cpu.h"
#include "platform/cpu_scheduler.h"
#include "platform/dma_master.h"
#include "platform/host_bridge.h"
#include "platform/host_memory.h"
#include "platform/irq_line.h"
#include "platform/kernel_timer.h"
#include "platform/mmio_router.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"
#include "software/e1000_driver.h"
#include "software/e1000_rx_driver.h"
#include "software/port_driver.h"
#include "software/pktgen.h"
#include "software/skb_pool.h"
#include "software/tcp_receiver.h"
#include "software/tcp_sender.h"
#include "software/workload.h"
#include "run/topology.h"

namespace pcisim {

class Scenario;

struct PlatformConfig {
    HostConfig host;
    std::vector<BridgeConfig> bridges;         // host side first
    BusConfig bus;                             // the devices' segment
    std::vector<DmaMaster::Config> masters;    // the enabled synthetic masters
    Topology topology;                         // the NICs, card bridges, CPUs of the ports
    CpuCosts cpu;
    CpuCacheConfig cache;
    KernelConfig kernel;
    DriverOptions driver;
    RxDriverOptions rx_driver;
    PktgenOptions pktgen;
    TcpStreamOptions tcp;                      // workload.kind tcp_stream: instead of pktgen
    WireSourceConfig wire;

    static PlatformConfig from(const Scenario& s);
    // The face on the devices' segment: the last bridge's, or the host bridge's.
    const FaceConfig& segment_face() const;
    // The driver's options for the ports of `nic` (topology.nics[nic]): the 82544's PCI-X
    // workaround on a PCI-X segment, its write-back format, the copy buffers' size.
    DriverOptions driver_for(std::size_t nic) const;
};

// The software of one transmitting port: its driver and its workload (software/workload.h:
// pktgen, or a TCP sender with its receiver at the far end of the wire).  Its thread runs on
// `cpu`; its interrupt handler (and NAPI poll) wherever the I/O APIC delivers its line, its
// cleanup timer on the CPU that last armed it.
struct PortSoftware : CpuSoftware {
    PortSoftware(unsigned nic_index, unsigned port_index, Cpu& runs_on)
        : nic(nic_index), port(port_index), cpu(runs_on) {}
    unsigned nic, port;  // Platform::nics()[nic]'s port `port`
    Cpu& cpu;
    std::unique_ptr<IrqLine> irq;        // its NIC's line for this port
    std::unique_ptr<KernelTimer> cleanup_timer;  // the driver's, when it has one
    std::unique_ptr<TxDriver> driver;
    std::unique_ptr<RxDriver> rx;  // only when the port receives (wire_source.*)
    std::unique_ptr<Workload> workload;
    std::unique_ptr<TcpReceiver> peer;  // with a TCP stream: the far end, and the ACKs' interrupt
    TcpSender* tcp = nullptr;           // the workload, when it is a TCP stream (its report)
    bool enabled = true;
    bool has_work() const override { return enabled && workload->has_work(); }
    bool quiet() const override { return workload->quiet(); }
    void start() override {
        driver->configure_tx();
        if (rx) rx->configure_rx();
    }
    void run_once() override { workload->run_once(); }
    void interrupt() override { workload->interrupt(); }
    void timer() override { workload->timer(); }
};

// An on-card bridge and the card's segment below it, named by the bridge (its bus and face are
// "NAME.bus" and "NAME.face").
struct CardSegment : sc_core::sc_module {
    PciBridge bridge;
    PciBus bus;
    BridgeFace face;
    CardSegment(sc_core::sc_module_name name, const CardBridgeConfig& config,
                MemoryPath& up)
        : sc_core::sc_module(name),
          bridge("bridge", config.bridge, up),
          bus("bus", config.bus),
          face("face", config.bridge.face, bus, bridge) {}
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
    // In the order of config().topology.nics; empty without a NIC.
    const std::vector<std::unique_ptr<Nic>>& nics() const { return nics_; }
    const std::vector<std::unique_ptr<CardSegment>>& cards() const { return cards_; }
    // The segment NIC `nic` sits on: the platform's bus, or its card's.
    PciBus& nic_segment(std::size_t nic);
    const std::vector<std::unique_ptr<Cpu>>& cpus() const { return cpus_; }
    CacheCoherence* caches() const { return caches_.get(); }  // null without a cache model
    const HostBridge& host() const { return *host_; }
    HostBridge& host() { return *host_; }
    const SkbPool* skbs() const { return skbs_.get(); }
    // One per transmitting port, in the order of the NICs and their ports.
    const std::vector<std::unique_ptr<PortSoftware>>& ports() const { return ports_; }
    // One per receiving port, in the order of ports() (empty without wire_source.enabled).
    const std::vector<std::unique_ptr<WireSource>>& wire_sources() const { return wires_; }

    // Where things live: each NIC's memory BAR (as a BIOS would assign them), each port's
    // descriptor ring, and the socket buffers.  Addresses carry no timing beyond cache-line
    // alignment.
    static constexpr std::uint64_t kNicBar = 0xf0000000;
    static constexpr std::uint64_t kNicBarSpacing = 0x100000;
    static constexpr std::uint64_t kRingBase = 0x100000;
    static constexpr std::uint64_t kRingSpacing = 0x100000;
    static constexpr std::uint64_t kSkbBase = 0x400000;
    static std::uint64_t nic_bar(unsigned nic) { return kNicBar + nic * kNicBarSpacing; }
    // The rings sit between kRingBase and kSkbBase: kRingSpacing apart while that many fit,
    // closer (on 4 KiB boundaries) for more ports.
    static std::uint64_t ring_spacing(std::uint64_t ports) {
        std::uint64_t room = kSkbBase - kRingBase;
        return ports * kRingSpacing <= room ? kRingSpacing : room / ports / 0x1000 * 0x1000;
    }

private:
    void add_transmitters();  // the NICs, the CPUs, a driver + pktgen per port
    std::unique_ptr<Workload> make_workload(PortSoftware& sw);
    void add_receiver(PortSoftware& sw, std::size_t k, std::uint64_t ring_spacing);
    CpuScheduler& scheduler_of(const Cpu& cpu);

    PlatformConfig config_;
    std::unique_ptr<HostMemory> memory_;
    std::unique_ptr<HostBridge> host_;
    std::vector<std::unique_ptr<PciBridge>> bridges_;
    std::unique_ptr<PciBus> bus_;
    std::unique_ptr<BridgeFace> face_;
    std::vector<std::unique_ptr<DmaMaster>> masters_;
    std::vector<std::unique_ptr<CardSegment>> cards_;
    std::unique_ptr<MmioRouter> mmio_router_;  // only with card bridges
    std::unique_ptr<SkbPool> skbs_;
    std::vector<std::unique_ptr<Cpu>> cpus_;
    std::unique_ptr<CacheCoherence> caches_;  // the CPUs' caches; none if off
    std::vector<std::unique_ptr<CpuScheduler>> schedulers_;  // what each CPU runs
    std::vector<std::unique_ptr<Nic>> nics_;
    std::vector<std::unique_ptr<PortSoftware>> ports_;
    std::vector<std::unique_ptr<WireSource>> wires_;
};

}  // namespace pcisim
