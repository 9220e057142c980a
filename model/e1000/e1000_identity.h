// What identifies a part to a guest: its PCI IDs, the capabilities and BARs of its
// configuration space, its PHY and the way software reaches its EEPROM.  Sources: the PCI IDs
// of the Linux 2.6.9 driver's table (e1000_hw.h, E1000_DEV_ID_*) for the copper parts, with the
// subsystem IDs of Intel's own adapters with that controller (the PCI ID repository: 8086:001E
// PRO/1000 MT Desktop, 8086:1107 PRO/1000 XT Server, 8086:1011 PRO/1000 MT Dual Port Server,
// 8086:0013 PRO/1000 MT Network Connection); the PHY IDs the driver expects of each MAC
// (e1000_detect_gig_phy); the capability list of 8254x SDM 4.1 (PCI-X not on the 82540 and
// 82541, MSI not on the 82541).  Each part's row is in the table of parts (kModels,
// e1000_params.h).
#pragma once

#include <cstdint>

namespace pcisim::e1000 {

constexpr std::uint16_t kIntelVendorId = 0x8086;

// How EERD (SDM 13.4.4) lays out its fields: START bit 0, DONE bit 4, ADDR 15:8 (82540, 82544,
// 82546); START bit 0, DONE bit 1, ADDR 15:2 (82541xx).  DATA is 31:16 on both.
enum class EerdLayout { Done4Addr8, Done1Addr2 };

struct ModelIdentity {
    std::uint16_t device_id;
    std::uint16_t subsystem_id;  // subsystem vendor: Intel
    std::uint8_t revision_id;
    std::uint32_t phy_id;        // PHY_ID1 << 16 | PHY_ID2 (the PHY revision in bits 3:0)
    bool igp_phy;                // the 82541's IGP01E1000, else a Marvell 88E10x1
    bool memory_bar_64;          // the register BAR is 64-bit (BAR0/1) and the I/O BAR is BAR4
    bool msi;                    // MSI capability (SDM 4.1.3)
    bool eeprom_grant;           // EECD.EE_REQ/EE_GNT exist (parts after the 82544)
    EerdLayout eerd;
};

}  // namespace pcisim::e1000
