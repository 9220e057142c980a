// A replay of what Linux 2.6.9's e1000 driver (5.3.19-k2) and PCI core do to an 8254x from
// enumeration to a running interface: the configuration space accesses of the PCI core
// (drivers/pci/probe.c pci_setup_device, pci_read_bases; drivers/pci/pci.c pci_set_master;
// arch/i386/pci/i386.c pcibios_enable_resources, pcibios_set_master), then e1000_probe and
// e1000_open (drivers/net/e1000/e1000_main.c) with the shared code they call
// (drivers/net/e1000/e1000_hw.c), register access by register access, in the driver's order and
// with its delays, for the copper parts 82540, 82544 and 82546.  Each function names the driver
// function it follows.  Where the driver takes a decision on a value it read, the replay does the
// same, and where the driver would fail (a return code, a DEBUGOUT of an error, a value it does
// not accept), the replay records a problem: a device that passes runs the real driver's path.
//
// The replay runs in a SystemC thread and reaches the device through a TLM-2.0 initiator socket:
// memory-mapped registers at the register BAR, I/O through the I/O BAR, configuration space in
// ECAM layout at `config_base`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace pcisim::test {

// The Linux driver's mac_type for the parts replayed (e1000_hw.h, enum e1000_mac_type order).
enum class MacType { e82540, e82541, e82544, e82546, unknown };

class Linux269E1000 {
public:
    struct Bus {  // how the replay reaches the device
        tlm_utils::simple_initiator_socket<sc_core::sc_module>* socket;
        std::uint64_t config_base;  // ECAM window of bus 0
        unsigned device, function;
        std::uint64_t register_bar;  // what the "BIOS" assigns
        std::uint32_t io_bar;
        std::uint64_t io_window;     // where the CPU reaches PCI I/O space
    };
    explicit Linux269E1000(const Bus& bus) : bus_(bus) {}

    // PCI core: enumeration and BAR sizing, then the BIOS's assignment (the BARs above).
    void pci_scan_and_assign();
    // e1000_probe with e1000_sw_init, e1000_reset_hw, the EEPROM checks, e1000_reset.
    void e1000_probe();
    // e1000_open: e1000_up with the rings at these addresses (each `count` descriptors).
    void e1000_open(std::uint64_t tx_ring, std::uint64_t rx_ring, unsigned count,
                    const std::vector<std::uint64_t>& rx_buffers);
    // The watchdog timer's first run after open (e1000_watchdog).
    void e1000_watchdog();
    // e1000_intr's read of ICR.
    std::uint32_t read_icr() { return rd(0x00C0); }
    // E1000_READ_REG / E1000_WRITE_REG, as the driver's transmit path and e1000_mta_set use them.
    std::uint32_t read_register(std::uint32_t reg) { return rd(reg); }
    void write_register(std::uint32_t reg, std::uint32_t value) { wr(reg, value); }

    // What the driver found.
    std::vector<std::string> problems;
    MacType mac_type = MacType::unknown;
    std::uint16_t vendor_id = 0, device_id = 0, subsystem_vendor_id = 0, subsystem_id = 0;
    std::uint8_t revision_id = 0, header_type = 0, interrupt_pin = 0;
    std::uint32_t class_code = 0;
    std::array<std::uint64_t, 6> bar_size{};  // as the PCI core sized them (0: none)
    std::array<bool, 6> bar_io{}, bar_64{};
    std::uint64_t rom_size = 0;
    unsigned eeprom_words = 0;
    std::uint16_t eeprom_checksum = 0;
    std::array<std::uint8_t, 6> mac_addr{};
    std::uint32_t part_num = 0;
    std::uint32_t phy_id = 0, phy_revision = 0;
    bool pcix = false;
    unsigned bus_speed = 0, bus_width = 0;
    bool link_up = false;
    unsigned link_speed = 0;
    bool full_duplex = false;
    std::uint64_t register_accesses = 0, config_accesses = 0, io_accesses = 0;
    std::uint32_t icr_after_reset = 0;  // what e1000_reset_hw's ICR read cleared

private:
    // Accesses.
    std::uint32_t cfg_read(unsigned reg, unsigned bytes);
    void cfg_write(unsigned reg, unsigned bytes, std::uint32_t value);
    std::uint32_t rd(std::uint32_t reg);
    void wr(std::uint32_t reg, std::uint32_t value);
    void flush() { rd(0x0008); }  // E1000_WRITE_FLUSH: a read of STATUS (e1000_osdep.h)
    void write_reg_io(std::uint32_t reg, std::uint32_t value);
    void io_write(std::uint32_t port, std::uint32_t value);
    std::uint32_t transport(tlm::tlm_command cmd, std::uint64_t addr, std::uint32_t value,
                            unsigned bytes);
    static void udelay(unsigned us) { sc_core::wait(sc_core::sc_time(us, sc_core::SC_US)); }
    static void msec_delay(unsigned ms) { sc_core::wait(sc_core::sc_time(ms, sc_core::SC_MS)); }
    void problem(const std::string& what) { problems.push_back(what); }
    bool after_82544() const { return mac_type == MacType::e82540 || mac_type == MacType::e82546; }

    // e1000_hw.c
    void set_mac_type();
    void init_eeprom_params();
    void set_media_type();
    void reset_hw();
    void acquire_eeprom();
    void release_eeprom();
    void standby_eeprom();
    void raise_ee_clk(std::uint32_t& eecd);
    void lower_ee_clk(std::uint32_t& eecd);
    void shift_out_ee_bits(std::uint16_t data, unsigned count);
    std::uint16_t shift_in_ee_bits(unsigned count);
    std::uint16_t read_eeprom(unsigned offset);
    void validate_eeprom_checksum();
    void read_mac_addr();
    void read_part_num();
    void get_bus_info();
    void init_hw();
    void id_led_init();
    void clear_vfta();
    void init_rx_addrs();
    void rar_set(const std::array<std::uint8_t, 6>& addr, unsigned index);
    void setup_link();
    void setup_copper_link();
    void detect_gig_phy();
    void phy_reset();
    void phy_setup_autoneg();
    void config_collision_dist();
    void config_fc_after_link_up();
    void get_speed_and_duplex(unsigned& speed, bool& full);
    void force_mac_fc();
    void clear_hw_cntrs();
    void phy_get_info();
    void check_for_link();
    std::uint16_t read_phy_reg(unsigned reg);
    void write_phy_reg(unsigned reg, std::uint16_t data);
    // e1000_main.c
    void e1000_reset();
    void set_multi();
    void vlan_rx_register();
    void configure_tx(std::uint64_t ring, unsigned count);
    void setup_rctl();
    void configure_rx(std::uint64_t ring, unsigned count);
    void update_stats();

    Bus bus_;
    unsigned eeprom_address_bits_ = 0, eeprom_delay_us_ = 0;
    bool get_link_status_ = false;
    enum class FlowControl { none, rx_pause, tx_pause, full, fallback } fc_ = FlowControl::fallback;
    FlowControl original_fc_ = FlowControl::none;
};

}  // namespace pcisim::test
