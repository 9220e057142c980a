#include "run/topology.h"

#include <algorithm>

#include "run/nic_families.h"
#include "platform/pci_bridge.h"
#include "platform/cpu.h"
#include "platform/pci_bus.h"
#include "run/scenario.h"
#include "run/schema.h"
#include "software/pktgen.h"

namespace pcisim {

using nlohmann::json;

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// More NICs than this would not leave each port's descriptor ring its room below the socket
// buffers (Platform::ring_spacing), and no 2004 machine had more on one segment.
constexpr std::size_t kMaxNics = 16;

// A spec of another table under `prefix` instead of `from` ("bus." -> "card_bridges[].bus.").
ParamSpec moved(ParamSpec p, const std::string& from, const std::string& prefix,
                const std::string& meaning_prefix) {
    p.path = prefix + p.path.substr(from.size());
    p.meaning = meaning_prefix + p.meaning;
    return p;
}

const json& items(const json& doc, const char* key) {
    static const json none = json::array();
    auto it = doc.find(key);
    return it == doc.end() ? none : *it;
}

// nic.* with the item's own values over it: the NIC's keys as the run reads them.
json nic_keys(const json& doc, const json& item) {
    json keys = doc["nic"];
    for (auto it = item.begin(); it != item.end(); ++it)
        if (keys.contains(it.key())) keys[it.key()] = it.value();
    return keys;
}

unsigned ports_of(const json& doc, const json& item) {
    return item.contains("ports") ? item["ports"].get<unsigned>()
                                  : doc["pktgen"]["ports"].get<unsigned>();
}

int card_index(const json& cards, const std::string& name) {
    for (std::size_t c = 0; c < cards.size(); ++c)
        if (cards[c]["name"].get<std::string>() == name) return static_cast<int>(c);
    return -1;
}

// The CPU of each transmitting port: its NIC's nics[].cpu, else dealt in turn over pktgen.cpus
// (or one each when that is 0).
std::vector<unsigned> deal_ports(const std::vector<unsigned>& ports, const std::vector<int>& bound,
                                 unsigned cpus) {
    std::vector<unsigned> cpu_of;
    for (std::size_t n = 0; n < ports.size(); ++n)
        for (unsigned p = 0; p < ports[n]; ++p) {
            unsigned k = static_cast<unsigned>(cpu_of.size());
            cpu_of.push_back(bound[n] >= 0 ? static_cast<unsigned>(bound[n])
                                           : cpus ? k % cpus : k);
        }
    return cpu_of;
}

// Every CPU the keys name must be one the kernel runs on (cpu.count, kernel.smp, kernel.maxcpus).
void check_online_cpus(const json& doc, std::vector<std::string>& problems) {
    KernelConfig k;
    k.smp = doc["kernel"]["smp"].get<bool>();
    k.maxcpus = doc["kernel"]["maxcpus"].get<unsigned>();
    k.cpus = doc["cpu"]["count"].get<unsigned>();
    const unsigned online = k.online();
    if (online == 0) return;
    const std::string why = k.smp ? " online CPUs (cpu.count " + std::to_string(k.cpus) +
                                        ", kernel.maxcpus " + std::to_string(k.maxcpus) + ")"
                                  : " CPU of a UP kernel (kernel.smp false)";
    auto need = [&](const std::string& key, unsigned cpu) {
        if (cpu >= online)
            problems.push_back(key + ": CPU " + std::to_string(cpu) + " is not one of the " +
                               std::to_string(online) + why + "; expected 0 .. " +
                               std::to_string(online - 1));
    };
    const auto cpus = doc["pktgen"]["cpus"].get<unsigned>();
    if (cpus) need("pktgen.cpus", cpus - 1);
    else if (transmitting_ports(doc) > online && doc["placement"]["seed"].get<std::uint64_t>() == 0)
        problems.push_back("pktgen.cpus: 0 gives each of the " +
                           std::to_string(transmitting_ports(doc)) +
                           " transmitting ports a CPU of its own, more than the " +
                           std::to_string(online) + why + "; expected pktgen.cpus at most " +
                           std::to_string(online));
    auto mask = [&](const std::string& key, unsigned m) {
        for (unsigned c = 0; c < 16; ++c)
            if (m & (1u << c)) need(key, c);
    };
    mask("irq.affinity", doc["irq"]["affinity"].get<unsigned>());
    // nics[].cpu is checked against pktgen.cpus, and pktgen.cpus against the online CPUs above.
    const json& nics = items(doc, "nics");
    for (std::size_t n = 0; n < nics.size(); ++n) {
        const std::string at = "nics[" + std::to_string(n) + "]";
        if (nics[n].contains("irq_affinity"))
            mask(at + ".irq_affinity", nics[n]["irq_affinity"].get<unsigned>());
    }
    const int timer = doc["driver"]["cleanup_timer_cpu"].get<int>();
    if (timer >= 0) need("driver.cleanup_timer_cpu", static_cast<unsigned>(timer));
}

}  // namespace

std::vector<ParamSpec> topology_params() {
    std::vector<ParamSpec> p;
    for (const ParamSpec& k : nic_family_params())
        p.push_back(inherited(k, "nics[]." + k.path.substr(4), "This NIC's " + k.path + "."));
    for (const ParamSpec& k : pktgen_params())
        if (k.path == "pktgen.ports")
            p.push_back(inherited(k, "nics[].ports", "Ports of this NIC transmitting at once."));
    p.push_back(text("nics[].card_bridge", "",
                     "Name of the card_bridges[] entry this NIC sits behind (on a multi-port "
                     "card); empty: directly on the devices' segment (bus.*)."));
    p.push_back(integer("nics[].cpu", "", -1, -1, 15,
                        "CPU (0 .. pktgen.cpus - 1) running the pktgen thread and driver of "
                        "every port of this NIC; -1: its ports are dealt to the CPUs in turn."));
    const ParamSpec affinity = integer(
        "irq.affinity", "CPU mask", 0, 0, 0xFFFF,
        "The CPUs a NIC's interrupt lines may be delivered to (/proc/irq/N/smp_affinity: bit n "
        "= CPU n); the port's NAPI poll and TX cleanup run where its interrupt is taken. 0: the "
        "CPU of each port's pktgen thread (what pktgen's author advised: bind the NIC's IRQ to "
        "its thread's CPU). 2.6.9 without irqbalance sends every line to every online CPU and "
        "lets the APIC choose (irq.delivery; docs/smp.md says what each platform did).");
    p.push_back(affinity);
    p.push_back(inherited(affinity, "nics[].irq_affinity", "This NIC's irq.affinity."));
    p.push_back(choice("irq.delivery", "lowest", {"lowest", "rotate"},
                       "How the I/O APIC picks among the CPUs of an affinity mask, all at the "
                       "same priority under 2.6.9: lowest (always the lowest-numbered CPU, as "
                       "the Xeon's chipset does) or rotate (the next CPU of the mask at each "
                       "interrupt, as an APIC bus that rotates its arbitration priority does)."));
    p.push_back(integer("driver.cleanup_timer_cpu", "", -1, -1, 15,
                        "CPU on which the driver's cleanup timer (driver.notxints, "
                        "driver.tdt_from_timer) is first armed: where the interface was brought "
                        "up. The timer stays on the CPU that last armed it (mod_timer). -1: the "
                        "CPU of the port's pktgen thread."));
    p.push_back(integer("placement.seed", "", 0, 0, 1LL << 40,
                        "0: the software runs where the keys say. Otherwise the CPUs the keys "
                        "leave open are drawn from the online CPUs (cpu.count, kernel.*) with this "
                        "seed: each port's pktgen thread (its NIC without nics[].cpu, pktgen.cpus 0) "
                        "as the scheduler places the process that starts it, and its cleanup timer "
                        "(driver.cleanup_timer_cpu -1) as the CPU the interface was brought up on. "
                        "A sweep over seeds shows the modes and how often each occurs."));
    for (const ParamSpec& k : bridge_params()) {
        ParamSpec c = moved(k, "bridges[]", "card_bridges[]", "");
        if (c.path == "card_bridges[].name") c.default_value = "card_bridge";
        p.push_back(c);
    }
    for (const ParamSpec& k : bus_params())
        p.push_back(moved(k, "bus", "card_bridges[].bus",
                          "The card's segment, below its bridge: "));
    return p;
}

Topology Topology::from(const Scenario& s, unsigned cache_line_bytes) {
    Topology t;
    if (!s.boolean("nic.enabled")) return t;
    for (std::size_t c = 0; c < s.count("card_bridges"); ++c) {
        std::string prefix = "card_bridges." + std::to_string(c);
        t.cards.push_back({BridgeConfig::from(s, prefix, cache_line_bytes),
                           BusConfig::from(s, prefix + ".bus")});
    }
    const auto ports = static_cast<unsigned>(s.integer("pktgen.ports"));
    std::vector<int> bound;
    if (s.count("nics") == 0) {
        t.nics.push_back({"nic", read_nic(s, "nic"), ports, -1});
        bound.push_back(-1);
    }
    for (std::size_t n = 0; n < s.count("nics"); ++n) {
        std::string prefix = "nics." + std::to_string(n);
        NicPlacement nic{"nic" + std::to_string(n), read_nic(s, prefix), ports, -1};
        if (s.has(prefix + ".ports"))
            nic.ports = static_cast<unsigned>(s.integer(prefix + ".ports"));
        std::string card = s.text(prefix + ".card_bridge");
        for (std::size_t c = 0; c < t.cards.size(); ++c)
            if (t.cards[c].bridge.name == card) nic.card = static_cast<int>(c);
        t.nics.push_back(nic);
        bound.push_back(static_cast<int>(s.integer(prefix + ".cpu")));
    }
    std::vector<unsigned> nic_ports;
    for (const NicPlacement& n : t.nics) nic_ports.push_back(n.ports);
    const auto cpus = static_cast<unsigned>(s.integer("pktgen.cpus"));
    t.port_cpu = deal_ports(nic_ports, bound, cpus);
    t.cpus = cpus ? cpus : static_cast<unsigned>(t.port_cpu.size());
    const KernelConfig kernel = KernelConfig::from(s);
    const auto seed = static_cast<std::uint64_t>(s.integer("placement.seed"));
    const unsigned online = kernel.online();
    // The seeded scheduler: a draw per port and per thing placed, the same for the same seed.
    auto draw = [&](std::uint64_t k, std::uint64_t what) {
        return static_cast<unsigned>(splitmix64(splitmix64(seed) + 2 * k + what) % online);
    };
    t.irq_delivery = s.text("irq.delivery") == "rotate" ? IrqDelivery::Rotate : IrqDelivery::Lowest;
    const int timer_cpu = static_cast<int>(s.integer("driver.cleanup_timer_cpu"));
    std::size_t k = 0;
    for (std::size_t n = 0; n < t.nics.size(); ++n) {
        const bool thread_free = bound[n] < 0 && cpus == 0;
        const std::string key = s.count("nics") ? "nics." + std::to_string(n) + ".irq_affinity"
                                                : "irq.affinity";
        const auto mask = static_cast<unsigned>(s.integer(s.has(key) ? key : "irq.affinity"));
        for (unsigned p = 0; p < t.nics[n].ports; ++p, ++k) {
            if (seed && online > 1 && thread_free) t.port_cpu[k] = draw(k, 0);
            std::vector<unsigned> targets;
            for (unsigned c = 0; c < 16; ++c)
                if (mask & (1u << c)) targets.push_back(c);
            if (targets.empty()) targets.push_back(t.port_cpu[k]);
            t.port_irq_cpus.push_back(targets);
            unsigned timer = t.port_cpu[k];
            if (timer_cpu >= 0) timer = static_cast<unsigned>(timer_cpu);
            else if (seed && online > 1) timer = draw(k, 1);
            t.port_timer_cpu.push_back(timer);
            t.cpus = std::max(t.cpus, t.port_cpu[k] + 1);
            for (unsigned c : targets) t.cpus = std::max(t.cpus, c + 1);
            t.cpus = std::max(t.cpus, t.port_timer_cpu.back() + 1);
        }
    }
    return t;
}

unsigned transmitting_ports(const json& doc) {
    if (!doc["nic"]["enabled"].get<bool>()) return 0;
    const json& nics = items(doc, "nics");
    if (nics.empty()) return doc["pktgen"]["ports"].get<unsigned>();
    unsigned n = 0;
    for (const json& item : nics) n += ports_of(doc, item);
    return n;
}

void check_topology(const json& doc, std::vector<std::string>& problems) {
    const json& nics = items(doc, "nics");
    const json& cards = items(doc, "card_bridges");
    const bool enabled = doc["nic"]["enabled"].get<bool>();
    for (std::size_t c = 0; c < cards.size(); ++c)
        check_bus_clock(cards[c]["bus"], "card_bridges[" + std::to_string(c) + "].bus", problems);
    if (nics.empty()) {
        check_nic_keys({doc["nic"], "nic", doc["pktgen"]["ports"].get<unsigned>(), "pktgen.ports",
                        doc["bus"]["kind"].get<std::string>(), "bus.kind"},
                       doc, problems);
        if (!cards.empty())
            problems.push_back("card_bridges: " + std::to_string(cards.size()) +
                               " card bridge(s) and no nics[]; expected nics[] entries whose "
                               "card_bridge names them (or no card_bridges)");
    } else if (!enabled) {
        problems.push_back("nics: " + std::to_string(nics.size()) +
                           " NICs with nic.enabled false; expected nic.enabled true (or no nics)");
        return;
    }
    if (nics.size() > kMaxNics)
        problems.push_back("nics: " + std::to_string(nics.size()) +
                           " NICs; expected at most " + std::to_string(kMaxNics));
    std::vector<bool> card_used(cards.size(), false);
    std::vector<unsigned> ports;
    std::vector<int> bound;
    const auto cpus = doc["pktgen"]["cpus"].get<unsigned>();
    for (std::size_t n = 0; n < nics.size(); ++n) {
        const json& item = nics[n];
        const std::string at = "nics[" + std::to_string(n) + "]";
        std::string bus_kind = doc["bus"]["kind"].get<std::string>(), bus_key = "bus.kind";
        const std::string card = item["card_bridge"].get<std::string>();
        if (!card.empty()) {
            int c = card_index(cards, card);
            if (c < 0) {
                std::string names;
                for (const json& b : cards) names += " \"" + b["name"].get<std::string>() + "\"";
                problems.push_back(at + ".card_bridge: \"" + card +
                                   "\" names no card_bridges[] entry; expected " +
                                   (names.empty() ? "\"\" (no card bridge is given)"
                                                  : "\"\" or one of" + names));
                continue;
            }
            card_used[c] = true;
            bus_kind = cards[c]["bus"]["kind"].get<std::string>();
            bus_key = "card_bridges[" + std::to_string(c) + "].bus.kind";
        }
        const json keys = nic_keys(doc, item);
        ports.push_back(ports_of(doc, item));
        check_nic_keys({keys, at, ports.back(),
                   item.contains("ports") ? at + ".ports" : "pktgen.ports", bus_kind, bus_key},
                  doc, problems);
        const int cpu = item["cpu"].get<int>();
        bound.push_back(cpu);
        if (cpu >= 0 && cpus == 0)
            problems.push_back(at + ".cpu: " + std::to_string(cpu) +
                               " with pktgen.cpus 0 (one CPU per port); expected -1, or "
                               "pktgen.cpus giving the CPUs");
        else if (cpu >= 0 && static_cast<unsigned>(cpu) >= cpus)
            problems.push_back(at + ".cpu: " + std::to_string(cpu) + " is not one of the " +
                               std::to_string(cpus) + " CPUs of pktgen.cpus; expected -1 .. " +
                               std::to_string(cpus - 1));
    }
    for (std::size_t c = 0; c < cards.size(); ++c)
        if (!nics.empty() && !card_used[c])
            problems.push_back("card_bridges[" + std::to_string(c) + "]: no NIC sits behind \"" +
                               cards[c]["name"].get<std::string>() +
                               "\"; expected a nics[] entry whose card_bridge names it");
    check_online_cpus(doc, problems);
    if (!enabled || cpus == 0 || !problems.empty()) return;
    if (nics.empty()) {
        ports.push_back(doc["pktgen"]["ports"].get<unsigned>());
        bound.push_back(-1);
    }
    std::vector<unsigned> ports_on(cpus, 0);
    for (unsigned c : deal_ports(ports, bound, cpus)) ++ports_on[c];
    for (unsigned c = 0; c < cpus; ++c)
        if (ports_on[c] == 0) {
            problems.push_back("pktgen.cpus: " + std::to_string(cpus) + " leaves cpu" +
                               std::to_string(c) + " without a port to drive (" +
                               std::to_string(transmitting_ports(doc)) +
                               " transmitting); expected at most as many CPUs as ports, each "
                               "given one (nics[].cpu)");
            return;
        }
}

}  // namespace pcisim
