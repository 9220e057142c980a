// Parameters of the 8254x transmit model: the per-model facts from the 8254x SDM and the nic.*
// scenario keys (listed with units and defaults in e1000_params.cpp, nic_params()).
#pragma once

#include <cstdint>
#include <string>

#include "core/pci_types.h"
#include "e1000/e1000_eeprom.h"

namespace pcisim {
class Scenario;
}

namespace pcisim::e1000 {

// What differs between the supported parts and matters for transmit timing (8254x SDM
// section 1.3 "Product features" and section 5 "PCI local bus interface").
// A packet must fit the TX FIFO less this headroom (checked with the scenario).
constexpr unsigned kFifoMarginBytes = 80;

struct ModelTraits {
    unsigned bus_width_bits;   // 32: 82540/82541 (PCI only); 64: 82544/82546 (PCI/PCI-X)
    bool pci_x;                // PCI-X capable (split transactions, MMRBC apply)
    unsigned ports;            // 82546: two functions (ports) behind one bus interface
    unsigned packet_buffer_kb; // on-chip packet buffer per port, shared RX/TX through PBA

    static ModelTraits of(const std::string& model);  // throws std::invalid_argument
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
    // Scenario::from_json has checked the combinations (check_nic_combinations).
    static E1000Params from(const Scenario& s);
    // The NIC of the array item `prefix` ("nics.1"): its own keys, and nic.*'s where it has none.
    static E1000Params from(const Scenario& s, const std::string& prefix);
    // TX share of the packet buffer when PBA.RXA gives receive `rx_kb` (SDM 13.4.26).
    unsigned tx_fifo_bytes(unsigned rx_kb) const;
};

}  // namespace pcisim::e1000
