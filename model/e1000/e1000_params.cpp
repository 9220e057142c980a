#include "e1000/e1000_params.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "config/scenario_view.h"
#include "config/param_spec.h"
#include "core/sim_time.h"
#include "nic/nic_family.h"

namespace pcisim {

namespace {

std::vector<std::string> model_names() {
    std::vector<std::string> names;
    for (const e1000::ModelTraits& t : e1000::kModels) names.push_back(t.model);
    return names;
}

}  // namespace

std::vector<ParamSpec> nic_params() {
    return {
        choice("nic.model", "82540", model_names(),
               "8254x part; bus width, PCI-X capability, ports and packet buffer follow from it."),
        one_of_integers("nic.mmrbc_bytes", "B", 512, {512, 1024, 2048, 4096},
                        "PCI-X maximum memory read byte count (PCI-X command register)."),
        integer("nic.descriptor_cache_entries", "descriptors", 64, 4, 256,
                "On-chip transmit descriptor cache per port."),
        one_of_integers("nic.cache_line_bytes", "B", 64, {16, 32, 64, 128},
                        "Host cache line: descriptor fetches are cut at line boundaries."),
        number("nic.packet_processing_ns", "ns", 100, 0, 100000,
               "Per-packet DMA engine time between a packet's last data and its FIFO commit."),
        choice("nic.devsel", "medium", {"fast", "medium", "slow"},
               "DEVSEL# timing of the NIC's register BAR."),
        integer("nic.mmio_read_wait_clocks", "clocks", 8, 0, 64,
                "Target wait states before the data phase of a register read."),
        integer("nic.mmio_write_wait_clocks", "clocks", 1, 0, 64,
                "Target wait states before the data phase of a register write."),
        integer("nic.pba_rx_kb", "KB", 48, 0, 64,
                "Reset value of PBA: receive share of the packet buffer; TX gets the rest."),
        integer("nic.preload_packets", "packets", 0, 0, 1000000,
                "Frames already in the TX FIFO at time zero, sent when TCTL.EN is set."),
        integer("nic.preload_bytes", "B", 0, 0, 16384, "Size of each preloaded frame (no FCS)."),
        integer("nic.ipg_extra_bytes", "byte times", 4, 0, 64,
                "Byte times the MAC adds to TIPG.IPGT (IPGT 8 + 4 = 12 = 96 bit times)."),
        one_of_integers("nic.link_mbps", "Mb/s", 1000, {10, 100, 1000}, "Link speed."),
        choice("nic.writeback_batch", "rs", {"rs", "all"},
               "Which processed descriptors count towards TXDCTL.WTHRESH > 0 and are written "
               "back: rs, those with RS set (as with WTHRESH 0); all, every one. The SDM does "
               "not say; the notxints overheads on phi need rs (docs/e1000.md)."),
        choice("nic.outstanding_read_scope", "function", {"function", "device"},
               "What the SDM's one outstanding memory read (4.3.2.1) applies to on a part with "
               "two LAN functions: function, one read per port; device, one for the whole "
               "controller. The SDM does not say; no measurement here pins it (docs/e1000.md)."),
        integer("nic.tso_min_transfer_bytes", "B", 1024, 0, 65535,
                "TSPMT.TSMT at reset (SDM 13.4.45): a TSO data read shorter than this (and than "
                "the rest of its buffer) waits for FIFO room while frames that will leave hold "
                "some. The SDM gives the field, not the rule; docs/tso-engine.md."),
        integer("nic.tso_padding_bytes", "B", 256, 0, 65535,
                "TSPMT.TSPBP at reset (SDM 13.4.45): FIFO room a TSO segment needs beyond its "
                "frame before its data is fetched (a margin, not kept once it is fetched)."),
        text("nic.mac_address", "00:02:b3:00:00:01",
             "The station address in the NIC's EEPROM (words 0-2), which a guest driver reads "
             "and RA[0] holds after a reset; an 82546's second port has its last bit flipped. "
             "Six hex bytes separated by ':', a unicast address (docs/e1000.md)."),
        choice("nic.tso_fetch", "descriptor", {"descriptor", "segment"},
               "How much one TSO data read asks for: descriptor, the rest of the descriptor's "
               "buffer (the SDM: as much data from a descriptor as possible), cut where the "
               "segments with FIFO room end; segment, at most to the end of the current "
               "segment. A segment leaves only when all its bytes are in."),
    };
}

// What the per-key ranges cannot say: the packet buffer split, a packet that must fit the TX
// FIFO, the ports of the model.  Sizes come from ModelTraits and tx_fifo_bytes(), as in the run.
void check_nic(const NicCheck& v, const nlohmann::json& doc, std::vector<std::string>& problems) {
    const nlohmann::json& nic = v.keys;
    const std::string& at = v.path;
    const auto p = e1000::E1000Params::for_model(nic["model"].get<std::string>());
    const unsigned buffer_kb = p.traits.packet_buffer_kb;
    const auto rx_kb = nic["pba_rx_kb"].get<unsigned>();
    if (rx_kb >= buffer_kb) {
        problems.push_back(at + ".pba_rx_kb: " + std::to_string(rx_kb) +
                           " leaves no transmit FIFO (RX + TX would exceed the " +
                           std::to_string(buffer_kb) + " KB packet buffer of an " + p.model +
                           "); expected at most " + std::to_string(buffer_kb - 1));
        return;
    }
    const auto mac = nic["mac_address"].get<std::string>();
    e1000::MacAddress address{};
    if (!e1000::parse_mac_address(mac, address))
        problems.push_back(at + ".mac_address: \"" + mac + "\" is not a MAC address; expected six "
                           "hex bytes separated by ':', e.g. \"00:02:b3:00:00:01\"");
    else if ((address[0] & 1) || address == e1000::MacAddress{})
        problems.push_back(at + ".mac_address: \"" + mac + "\" is a " +
                           ((address[0] & 1) ? "multicast" : "zero") +
                           " address, which a driver refuses as its station address; expected a "
                           "unicast address (first byte even), e.g. \"00:02:b3:00:00:01\"");
    const unsigned fifo = p.tx_fifo_bytes(rx_kb);
    // The 82540 and 82541 have no PCI-X mode (8254x SDM section 1.3: PCI-X only on the 82544
    // and 82545/6); a PCI-X bus with one of them would run as conventional PCI.
    const bool enabled = doc["nic"]["enabled"].get<bool>();
    if (enabled && !p.traits.pci_x && v.bus_kind == "pcix")
        problems.push_back(at + ".model: \"" + p.model + "\" is a PCI-only part, on a " +
                           v.bus_key + " \"pcix\"; expected \"82544\" or \"82546\" on PCI-X "
                           "(or " + v.bus_key + " \"pci\")");
    if (v.ports > p.traits.ports)
        problems.push_back(v.ports_key + ": " + std::to_string(v.ports) + " is more than the " +
                           std::to_string(p.traits.ports) + " port(s) of " + at +
                           ".model \"" + p.model + "\"; expected at most " +
                           std::to_string(p.traits.ports) + " (or " + at + ".model \"82546\")");
    // The NIC fetches a packet only when the FIFO can take all of it, so a larger packet would
    // wait forever; the margin is headroom, a conservative bound rather than a datasheet figure.
    const auto size = doc["packet"]["size"].get<unsigned>();
    if (enabled && size + e1000::kFifoMarginBytes > fifo)
        problems.push_back("packet.size: " + std::to_string(size) + " does not fit the " +
                           std::to_string(fifo) + " B transmit FIFO (" + at + ".pba_rx_kb " +
                           std::to_string(rx_kb) + " of " + std::to_string(buffer_kb) +
                           " KB) less " + std::to_string(e1000::kFifoMarginBytes) +
                           " B; expected at most " +
                           std::to_string(fifo - e1000::kFifoMarginBytes));
    const auto preload = nic["preload_packets"].get<std::uint64_t>();
    const auto preload_bytes = nic["preload_bytes"].get<std::uint64_t>();
    if (preload > 0 && preload_bytes == 0)
        problems.push_back(at + ".preload_bytes: 0 with " + at + ".preload_packets " +
                           std::to_string(preload) + "; expected the size of each preloaded frame");
    // With a fresh skb per packet the run checks that every frame is pktgen's next in order
    // (model/run/simulation.cpp), which the zero-filled preloaded frames ahead of them are not.
    if (enabled && preload > 0 && doc["pktgen"]["enabled"].get<bool>() &&
        doc["pktgen"]["clone_skb"].get<std::uint64_t>() == 0)
        problems.push_back(at + ".preload_packets: " + std::to_string(preload) +
                           " with pktgen.enabled true and pktgen.clone_skb 0; expected "
                           "pktgen.enabled false (a preloaded FIFO measured on its own)");
    if (preload * preload_bytes > fifo)
        problems.push_back(at + ".preload_packets: " + std::to_string(preload) + " frames of " +
                           std::to_string(preload_bytes) + " B do not fit the " +
                           std::to_string(fifo) + " B transmit FIFO; expected at most " +
                           std::to_string(preload_bytes ? fifo / preload_bytes : 0));
}

namespace e1000 {

const ModelTraits& ModelTraits::of(const std::string& model) {
    std::string names;
    for (const ModelTraits& t : kModels) {
        if (model == t.model) return t;
        names += (names.empty() ? "" : " ") + std::string(t.model);
    }
    throw std::invalid_argument("nic.model: \"" + model + "\" is not one of " + names);
}

const ModelTraits& ModelTraits::of_device(std::uint16_t device_id) {
    for (const ModelTraits& t : kModels)
        if (t.identity.device_id == device_id) return t;
    throw std::invalid_argument("PCI device ID " + std::to_string(device_id) +
                                " is no part of the e1000 family");
}

E1000Params E1000Params::for_model(const std::string& model) {
    E1000Params p;
    p.model = model;
    p.traits = ModelTraits::of(model);
    return p;
}

E1000Params E1000Params::from(const ScenarioView& s) { return from(s, "nic"); }

E1000Params E1000Params::from(const ScenarioView& s, const std::string& prefix) {
    auto key = [&](const char* name) {
        std::string own = prefix + "." + name;
        return s.has(own) ? own : std::string("nic.") + name;
    };
    E1000Params p = for_model(s.text(key("model")));
    p.mmrbc_bytes = static_cast<unsigned>(s.integer(key("mmrbc_bytes")));
    p.descriptor_cache_entries = static_cast<unsigned>(s.integer(key("descriptor_cache_entries")));
    p.cache_line_bytes = static_cast<unsigned>(s.integer(key("cache_line_bytes")));
    p.packet_processing_ps = ns_to_ps(s.number(key("packet_processing_ns")));
    std::string devsel = s.text(key("devsel"));
    p.devsel = devsel == "fast" ? Devsel::Fast : devsel == "slow" ? Devsel::Slow : Devsel::Medium;
    p.mmio_read_wait_clocks = static_cast<unsigned>(s.integer(key("mmio_read_wait_clocks")));
    p.mmio_write_wait_clocks = static_cast<unsigned>(s.integer(key("mmio_write_wait_clocks")));
    p.pba_rx_kb = static_cast<unsigned>(s.integer(key("pba_rx_kb")));
    p.preload_packets = static_cast<unsigned>(s.integer(key("preload_packets")));
    p.preload_bytes = static_cast<unsigned>(s.integer(key("preload_bytes")));
    p.ipg_extra_bytes = static_cast<unsigned>(s.integer(key("ipg_extra_bytes")));
    p.byte_time_ps = 8 * kPicosPerUs / static_cast<Picos>(s.integer(key("link_mbps")));
    p.writeback_batch_all = s.text(key("writeback_batch")) == "all";
    p.one_read_per_device = s.text(key("outstanding_read_scope")) == "device";
    p.tspmt = static_cast<std::uint32_t>(s.integer(key("tso_padding_bytes"))) << 16 |
              static_cast<std::uint32_t>(s.integer(key("tso_min_transfer_bytes")));
    p.tso_fetch_whole_descriptor = s.text(key("tso_fetch")) == "descriptor";
    p.drop_writebacks = s.boolean("testing.nic_drop_writebacks");
    e1000::parse_mac_address(s.text(key("mac_address")), p.mac_address);  // checked at load
    return p;
}

unsigned E1000Params::tx_fifo_bytes(unsigned rx_kb) const {
    return rx_kb >= traits.packet_buffer_kb ? 0 : (traits.packet_buffer_kb - rx_kb) * 1024;
}

}  // namespace e1000
}  // namespace pcisim
