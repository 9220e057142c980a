// Register offsets and bit fields of the 8254x used by the transmit path, shared by the device
// model and the driver.  Offsets and bits: Intel PCI/PCI-X Family of Gigabit Ethernet
// Controllers Software Developer's Manual (8254x SDM), section 13 (registers) and 3.3 (transmit
// descriptors).
#pragma once

#include <cstdint>

namespace pcisim::e1000 {

// Registers (byte offsets in the memory BAR).
constexpr std::uint32_t kCtrl = 0x0000;
constexpr std::uint32_t kStatus = 0x0008;
constexpr std::uint32_t kIcr = 0x00C0;    // interrupt cause read (clear on read)
constexpr std::uint32_t kItr = 0x00C4;    // interrupt throttling, 256 ns units
constexpr std::uint32_t kIcs = 0x00C8;
constexpr std::uint32_t kIms = 0x00D0;    // interrupt mask set/read
constexpr std::uint32_t kImc = 0x00D8;    // interrupt mask clear
constexpr std::uint32_t kTctl = 0x0400;
constexpr std::uint32_t kTipg = 0x0410;
constexpr std::uint32_t kPba = 0x1000;    // packet buffer allocation, KB (RX in low 16 bits)
constexpr std::uint32_t kTxdmac = 0x3000; // TX DMA control: bit 0 DPP (disable packet prefetch)
constexpr std::uint32_t kTdbal = 0x3800;
constexpr std::uint32_t kTdbah = 0x3804;
constexpr std::uint32_t kTdlen = 0x3808;
constexpr std::uint32_t kTdh = 0x3810;
constexpr std::uint32_t kTdt = 0x3818;
constexpr std::uint32_t kTidv = 0x3820;   // TX interrupt delay, 1.024 us units
constexpr std::uint32_t kTxdctl = 0x3828;
constexpr std::uint32_t kTadv = 0x382C;   // TX absolute interrupt delay, 1.024 us units

// Interrupt causes (ICR/IMS/IMC bits).
constexpr std::uint32_t kIcrTxdw = 1u << 0;   // transmit descriptor written back
constexpr std::uint32_t kIcrTxqe = 1u << 1;   // transmit queue empty
constexpr std::uint32_t kIcrLsc = 1u << 2;
constexpr std::uint32_t kIcrInt = 1u << 31;   // 82547+: some cause asserted (informational)

constexpr std::uint32_t kTctlEn = 1u << 1;
constexpr std::uint32_t kTxdmacDpp = 1u << 0;

// TXDCTL fields: PTHRESH 5:0, HTHRESH 13:8, WTHRESH 21:16, GRAN bit 24 (1 = descriptors).
constexpr std::uint32_t txdctl_pthresh(std::uint32_t v) { return v & 0x3F; }
constexpr std::uint32_t txdctl_hthresh(std::uint32_t v) { return (v >> 8) & 0x3F; }
constexpr std::uint32_t txdctl_wthresh(std::uint32_t v) { return (v >> 16) & 0x3F; }
constexpr bool txdctl_gran_descriptors(std::uint32_t v) { return (v >> 24) & 1; }

// Legacy transmit descriptor (16 bytes, SDM 3.3.3):
//   0: buffer address (64)   8: length (16)   10: CSO (8)   11: CMD (8)
//  12: STA (8, low nibble)   13: CSS (8)     14: special (16)
constexpr unsigned kDescriptorBytes = 16;
constexpr std::uint8_t kCmdEop = 1u << 0;   // end of packet
constexpr std::uint8_t kCmdIfcs = 1u << 1;  // insert FCS
constexpr std::uint8_t kCmdIc = 1u << 2;    // insert checksum
constexpr std::uint8_t kCmdRs = 1u << 3;    // report status (write back DD)
constexpr std::uint8_t kCmdRps = 1u << 4;   // report packet sent (82544 only)
constexpr std::uint8_t kCmdDext = 1u << 5;  // extended descriptor (0 = legacy)
constexpr std::uint8_t kCmdVle = 1u << 6;
constexpr std::uint8_t kCmdIde = 1u << 7;   // interrupt delay enable (TIDV applies)
constexpr std::uint8_t kStaDd = 1u << 0;    // descriptor done

struct TxDescriptor {
    std::uint64_t buffer_addr;
    std::uint16_t length;
    std::uint8_t cso;
    std::uint8_t cmd;
    std::uint8_t status;
    std::uint8_t css;
    std::uint16_t special;
};
static_assert(sizeof(TxDescriptor) == kDescriptorBytes, "legacy descriptor is 16 bytes");

}  // namespace pcisim::e1000
