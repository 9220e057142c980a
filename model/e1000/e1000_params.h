// Parameters of the 8254x transmit model: the per-model facts from the 8254x SDM and the nic.*
// scenario keys (listed with units and defaults in e1000_params.cpp, nic_params()).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/pci_types.h"
#include "e1000/e1000_eeprom.h"
#include "e1000/e1000_identity.h"

#include <nlohmann/json_fwd.hpp>

namespace pcisim {
class ScenarioView;
struct ParamSpec;

struct NicCheck;

// The nic.* keys (unit, default, range, meaning), collected by run/schema.cpp through the
// family (e1000_family.h).
std::vector<ParamSpec> nic_params();
// Checks between one NIC's keys and the rest of the scenario (nic/nic_family.h's NicCheck):
// packet buffer split, packet size against the TX FIFO, ports of the model, a PCI-only part on
// PCI-X, preloaded frames.
void check_nic(const NicCheck& nic, const nlohmann::json& doc, std::vector<std::string>& problems);
}

namespace pcisim::e1000 {

// A packet must fit the TX FIFO less this headroom (checked with the scenario).
constexpr unsigned kFifoMarginBytes = 80;

// What differs between the supported parts, one row each (as QEMU's E1000Info): what matters
// for transmit timing (8254x SDM section 1.3 "Product features" and section 5 "PCI local bus
// interface"), what the driver learns from the device ID, and what identifies the part to a
// guest (e1000_identity.h).  Nothing outside e1000/ compares model names: it asks the part's
// traits.
struct ModelTraits {
    const char* model;         // nic.model
    unsigned bus_width_bits;   // 32: 82540/82541 (PCI only); 64: 82544/82546 (PCI/PCI-X)
    bool pci_x;                // PCI-X capable (split transactions, MMRBC apply)
    unsigned ports;            // 82546: two functions (ports) behind one bus interface
    unsigned packet_buffer_kb; // on-chip packet buffer per port, shared RX/TX through PBA
    // The 82544's PCI-X erratum: on a PCI-X bus the driver splits buffers that end on an
    // unaligned dword (e1000_tx_map's workaround).
    bool pcix_dword_erratum;
    // e1000_init_hw sets TXDCTL to full descriptor write-back (WTHRESH = 1, GRAN = 1) on mac
    // types after the 82544.
    bool full_tx_desc_writeback;
    ModelIdentity identity;

    static const ModelTraits& of(const std::string& model);  // throws std::invalid_argument
    // The part with this PCI device ID (as a driver's probe finds it); throws
    // std::invalid_argument.
    static const ModelTraits& of_device(std::uint16_t device_id);
};

// Packet buffer: 64 KB per port on all four parts (SDM 13.4.26, PBA default 0x0030).  The PHYs
// (e1000_hw.h): M88E1011_I_PHY_ID 0x01410C20 on the 82540 and 82546, M88E1000_I_PHY_ID
// 0x01410C30 on the 82544; IGP01E1000_I_PHY_ID 0x02A80380 on the 82541.  Revision 2 of each (a
// revision below M88E1011_I_REV_4: the driver sets the downshift counters).
inline constexpr ModelTraits kModels[] = {
    {"82540", 32, false, 1, 64, false, true,
     {0x100E, 0x001E, 0x02, 0x01410C22, false, false, true, true, EerdLayout::Done4Addr8}},
    {"82541", 32, false, 1, 64, false, true,
     {0x1013, 0x0013, 0x00, 0x02A80382, true, false, false, true, EerdLayout::Done1Addr2}},
    {"82544", 64, true, 1, 64, true, false,
     {0x1008, 0x1107, 0x02, 0x01410C32, false, true, true, false, EerdLayout::Done4Addr8}},
    {"82546", 64, true, 2, 64, false, true,
     {0x1010, 0x1011, 0x01, 0x01410C22, false, true, true, true, EerdLayout::Done4Addr8}},
};

// The bus the part sits on, as its STATUS register reports it (SDM 13.4.2: PCI66, BUS64,
// PCIX_MODE, PCIXSPD); the platform that places the NIC fills it in.
struct BusSlot {
    bool pcix = false;
    unsigned width_bits = 32;
    double clock_mhz = 33;
};

// The NIC's typed configuration.  The defaults are those of the nic.* table (nic_params());
// a test builds a NIC from this struct, a simulation from the scenario (from()), which reads
// each nic.* key here and nowhere else.
struct E1000Params {
    std::string model = "82540";
    ModelTraits traits = ModelTraits::of(model);
    unsigned mmrbc_bytes = 512;
    unsigned descriptor_cache_entries = 64;
    unsigned cache_line_bytes = 64;
    Picos packet_processing_ps = 100 * kPicosPerNs;  // DMA engine time, last data to commit
    Devsel devsel = Devsel::Medium;
    unsigned mmio_read_wait_clocks = 8;
    unsigned mmio_write_wait_clocks = 1;
    unsigned pba_rx_kb = 48;
    unsigned preload_packets = 0;
    unsigned preload_bytes = 0;
    unsigned ipg_extra_bytes = 4;
    Picos byte_time_ps = 8000;  // one byte on the wire: 8 bit times at nic.link_mbps 1000
    bool writeback_batch_all = false;  // WTHRESH > 0 batches every descriptor, not only RS ones
    bool one_read_per_device = false;  // one outstanding read for all the ports, not one each
    // TSPMT's reset value (SDM 13.4.45): TSMT 15:0, TSPBP 31:16 (nic.tso_min_transfer_bytes,
    // nic.tso_padding_bytes).
    std::uint32_t tspmt = 256u << 16 | 1024u;
    bool tso_fetch_whole_descriptor = true;  // nic.tso_fetch "descriptor" (else "segment")
    bool drop_writebacks = false;  // testing.nic_drop_writebacks: fault injection
    MacAddress mac_address{0x00, 0x02, 0xB3, 0x00, 0x00, 0x01};  // nic.mac_address, in the EEPROM
    BusSlot slot;

    unsigned link_mbps() const { return static_cast<unsigned>(8000000 / byte_time_ps); }

    // The defaults for another part (traits follow the model); throws std::invalid_argument.
    static E1000Params for_model(const std::string& model);
    // The scenario was checked at load, check_nic included.
    static E1000Params from(const ScenarioView& s);
    // The NIC of the array item `prefix` ("nics.1"): its own keys, and nic.*'s where it has none.
    static E1000Params from(const ScenarioView& s, const std::string& prefix);
    // TX share of the packet buffer when PBA.RXA gives receive `rx_kb` (SDM 13.4.26).
    unsigned tx_fifo_bytes(unsigned rx_kb) const;
};

}  // namespace pcisim::e1000
