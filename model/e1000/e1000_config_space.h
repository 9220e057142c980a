// The PCI configuration space of one function of an 8254x (SDM 4.1; PCI 2.3 6.2; PCI Power
// Management 1.1; PCI-X 1.0 7.2; MSI, PCI 2.3 6.8): 256 bytes, with per byte the bits software may
// write and the bits it clears by writing 1.  BAR sizing falls out of the write masks: a BAR
// written with all ones reads back its size.  Nothing here has a side effect on a read; the
// platform reads the command register and the BARs to decode the function's spaces, and the NIC
// reads the interrupt disable and MSI fields.
//
// Layout: vendor 8086h and the part's device, revision and subsystem IDs (e1000_identity.h);
// class 020000h (Ethernet); header type 80h on the two-function 82546.  BARs: the 128 KB register
// space (32-bit at BAR0, or 64-bit at BAR0/1 on the 82544 and 82546), no flash (the flash BAR
// reads 0, as with no flash on the board), the 8-byte I/O space at BAR2 (BAR4 with the 64-bit
// register BAR).  Interrupt pin INTA# (INTB# for the 82546's second function), Min_Gnt FFh,
// Max_Lat 00h.  Capabilities from DCh: power management (D0 and D3, PME from D0/D3hot/D3cold),
// then PCI-X at E4h on the 82544 and 82546 (its command register's MMRBC as nic.mmrbc_bytes),
// then MSI at F0h (one 64-bit message) where the part has it.
#pragma once

#include <array>
#include <cstdint>

#include "core/pci_types.h"
#include "e1000/e1000_identity.h"

namespace pcisim::e1000 {

struct ModelTraits;

class ConfigSpace {
public:
    static constexpr unsigned kBytes = 256;
    static constexpr std::uint64_t kRegisterBarBytes = 0x20000;  // E1000::kBarBytes
    static constexpr std::uint64_t kIoBarBytes = 8;
    // Command register bits.
    static constexpr std::uint16_t kIoEnable = 1u << 0, kMemoryEnable = 1u << 1,
                                   kBusMaster = 1u << 2, kInterruptDisable = 1u << 10;

    // `traits` is the part's row (kModels), its identity included.
    ConfigSpace(const ModelTraits& traits, unsigned function, Devsel devsel, unsigned mmrbc_bytes);

    // `bytes` of 1, 2 or 4 within one dword (the caller checks): little-endian, no side effects.
    std::uint32_t read(unsigned offset, unsigned bytes) const;
    void write(unsigned offset, unsigned bytes, std::uint32_t value);

    std::uint16_t command() const { return read(0x04, 2); }
    bool memory_enabled() const { return command() & kMemoryEnable; }
    bool io_enabled() const { return command() & kIoEnable; }
    bool bus_master() const { return command() & kBusMaster; }
    bool interrupt_disabled() const { return command() & kInterruptDisable; }
    std::uint64_t register_base() const;  // the register BAR's address (type bits cleared)
    std::uint32_t io_base() const;
    unsigned register_bar() const { return 0; }
    unsigned io_bar() const { return io_bar_; }
    bool msi_enabled() const;
    std::uint64_t msi_address() const;
    std::uint16_t msi_data() const;
    // Status bit 3, the function's INTx# state (PCI 2.3), whatever the interrupt disable bit says.
    void set_interrupt_status(bool asserted);
    // PCI-X: the bus and device number a configuration write captured (PCI-X 1.0 7.2.3).
    void set_location(unsigned bus, unsigned device);

private:
    void put(unsigned offset, unsigned bytes, std::uint32_t value, std::uint32_t writable = 0,
             std::uint32_t write_one_to_clear = 0);

    std::array<std::uint8_t, kBytes> bytes_{};
    std::array<std::uint8_t, kBytes> writable_{};
    std::array<std::uint8_t, kBytes> clear_on_one_{};
    unsigned io_bar_ = 2;
    unsigned msi_at_ = 0;  // 0: no MSI capability
    unsigned pcix_at_ = 0;
};

}  // namespace pcisim::e1000
