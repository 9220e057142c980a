// Where the NICs sit and which CPU drives which port.
//
// Without nics[] the machine has the one NIC of nic.* on the devices' segment, pktgen.ports of
// its ports transmitting, one CPU each (or pktgen.cpus).  nics[] puts several NICs there, each
// with its own BAR, rings and buffers, and each item takes nic.*'s value for any key it leaves
// out; an item may sit behind an on-card bridge (card_bridges[]: a quad-port card is two 82546
// behind one bridge on the card, whose secondary segment is the card's own bus).  pktgen.cpus
// and nics[].cpu say which CPU runs each port's pktgen thread and driver.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nic/nic_family.h"
#include "platform/irq_line.h"
#include "platform/pci_bridge.h"
#include "platform/pci_bus.h"

namespace pcisim {

class Scenario;

// card_bridges[i]: the bridge on a card and the card's segment below it (its own bus.* keys).
struct CardBridgeConfig {
    BridgeConfig bridge;
    BusConfig bus;
};

struct NicPlacement {
    std::string name;           // its module: "nic" for the single NIC, else "nic0", "nic1", ...
    std::shared_ptr<const NicSpec> spec;  // its family's parameters (run/nic_families.h)
    unsigned ports = 1;         // transmitting ports, from port 0
    int card = -1;              // index into Topology::cards; -1: on the devices' segment
};

struct Topology {
    std::vector<NicPlacement> nics;   // empty without a NIC (nic.enabled false)
    std::vector<CardBridgeConfig> cards;
    // The CPU of each transmitting port's pktgen thread, in the order of the NICs and their
    // ports; the CPUs its interrupt line may go to (lowest first); the CPU its driver's
    // cleanup timer is first armed on.
    std::vector<unsigned> port_cpu;
    std::vector<std::vector<unsigned>> port_irq_cpus;
    std::vector<unsigned> port_timer_cpu;
    IrqDelivery irq_delivery = IrqDelivery::Lowest;
    unsigned cpus = 0;  // CPUs anything runs on: 0 .. cpus - 1

    // The line size is the host's (the card bridge's buffers hold lines).
    static Topology from(const Scenario& s, unsigned cache_line_bytes);
};

// The transmitting ports of all NICs (what the rings and buffers in host memory are for).
unsigned transmitting_ports(const nlohmann::json& doc);
// Checks between the topology keys and the NICs' own (every NIC's family's check): card bridges
// named by NICs and used by one, CPUs of the ports, the NIC count.
void check_topology(const nlohmann::json& doc, std::vector<std::string>& problems);

}  // namespace pcisim
