// Register offsets and bit fields of the 8254x used by the transmit and receive paths, shared by
// the device model and the driver.  Offsets and bits: Intel PCI/PCI-X Family of Gigabit Ethernet
// Controllers Software Developer's Manual (8254x SDM), section 13 (registers), 3.2 (receive
// descriptors) and 3.3 (transmit descriptors).
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
constexpr std::uint32_t kRctl = 0x0100;   // receive control
constexpr std::uint32_t kTctl = 0x0400;
constexpr std::uint32_t kTipg = 0x0410;
constexpr std::uint32_t kPba = 0x1000;    // packet buffer allocation, KB (RX in low 16 bits)
constexpr std::uint32_t kRdbal = 0x2800;
constexpr std::uint32_t kRdbah = 0x2804;
constexpr std::uint32_t kRdlen = 0x2808;
constexpr std::uint32_t kRdh = 0x2810;
constexpr std::uint32_t kRdt = 0x2818;
constexpr std::uint32_t kRdtr = 0x2820;   // RX delay timer (packet timer), 1.024 us units
constexpr std::uint32_t kRxdctl = 0x2828;
constexpr std::uint32_t kRadv = 0x282C;   // RX absolute interrupt delay, 1.024 us units
constexpr std::uint32_t kTxdmac = 0x3000; // TX DMA control: bit 0 DPP (disable packet prefetch)
constexpr std::uint32_t kTdbal = 0x3800;
constexpr std::uint32_t kTdbah = 0x3804;
constexpr std::uint32_t kTdlen = 0x3808;
constexpr std::uint32_t kTdh = 0x3810;
constexpr std::uint32_t kTdt = 0x3818;
constexpr std::uint32_t kTidv = 0x3820;   // TX interrupt delay, 1.024 us units
constexpr std::uint32_t kTxdctl = 0x3828;
constexpr std::uint32_t kTadv = 0x382C;   // TX absolute interrupt delay, 1.024 us units
// Statistics (13.7, clear on read): missed packets (RX FIFO full), good packets received,
// receive no buffers (a frame arrived with no receive descriptor on chip or in host memory).
constexpr std::uint32_t kMpc = 0x4010;
constexpr std::uint32_t kGprc = 0x4074;
constexpr std::uint32_t kRnbc = 0x40A0;

// Bits software composes register values from (the driver shares them).
constexpr std::uint32_t kIcrTxdw = 1u << 0;   // transmit descriptor written back
constexpr std::uint32_t kIcrTxqe = 1u << 1;   // transmit queue empty
constexpr std::uint32_t kIcrLsc = 1u << 2;
constexpr std::uint32_t kIcrRxdmt0 = 1u << 4; // receive descriptors minimum threshold hit
constexpr std::uint32_t kIcrRxo = 1u << 6;    // receiver overrun (a frame missed: FIFO full)
constexpr std::uint32_t kIcrRxt0 = 1u << 7;   // receiver timer (RDTR/RADV) expired
constexpr std::uint32_t kIcrInt = 1u << 31;   // 82547+: some cause asserted (informational)
constexpr std::uint32_t kTctlEn = 1u << 1;
constexpr std::uint32_t kRctlEn = 1u << 1;
constexpr std::uint32_t kRctlSecrc = 1u << 26;  // strip the Ethernet CRC before the host
constexpr std::uint32_t kTxdmacDpp = 1u << 0;

// `width` bits of a register value from bit `lsb` up.
constexpr std::uint32_t field(std::uint32_t value, unsigned lsb, unsigned width) {
    return (value >> lsb) & ((1u << width) - 1u);
}

// Register values with accessors for the fields the model acts on.  Bit positions: 8254x SDM
// section 13.4 (the register's subsection or bit-description table is named with each).

// STATUS (13.4.2, read only): FD bit 0, LU bit 1, FUNCTION ID 3:2, SPEED 7:6 (10b: 1000 Mb/s).
struct Status {
    std::uint32_t value = 0;
    // What the model reports: link up, full duplex, 1000 Mb/s, on PCI function `function`.
    static constexpr Status link_up_1000(unsigned function) {
        return {1u << 0 | 1u << 1 | (function & 3u) << 2 | 2u << 6};
    }
    constexpr bool fd() const { return field(value, 0, 1); }
    constexpr bool lu() const { return field(value, 1, 1); }
    constexpr unsigned function_id() const { return field(value, 2, 2); }
    constexpr unsigned speed() const { return field(value, 6, 2); }
};

// ICR, ICS, IMS, IMC (13.4.17-21): one bit per cause, the same in all four.
struct InterruptCauses {
    std::uint32_t value = 0;
    constexpr bool txdw() const { return value & kIcrTxdw; }
    constexpr bool txqe() const { return value & kIcrTxqe; }
    constexpr bool lsc() const { return value & kIcrLsc; }
};

// ITR (13.4.18): INTERVAL 15:0, in 256 ns units (0: no throttling).
struct Itr {
    std::uint32_t value = 0;
    constexpr unsigned interval() const { return field(value, 0, 16); }
};

// TIDV (13.4.41) and TADV (13.4.44): IDV 15:0, in 1.024 us units.
struct InterruptDelay {
    std::uint32_t value = 0;
    constexpr unsigned idv() const { return field(value, 0, 16); }
};

// TCTL (Table 13-76): EN bit 1.  PSP, CT, COLD and the rest are stored, not acted on (full
// duplex: no collisions; frames are padded to 60 bytes on the wire in any case).
struct Tctl {
    std::uint32_t value = 0;
    constexpr bool en() const { return value & kTctlEn; }
};

// RCTL (13.4.22): EN bit 1, RDMTS 9:8 (RXDMT0 when the free descriptors the NIC holds fall
// to 1/2, 1/4 or 1/8 of the ring), SECRC bit 26.  Filtering (UPE, MPE, BAM, VFE), BSIZE and
// LPE are stored, not acted on: every frame of the wire source is accepted, and fits a buffer.
struct Rctl {
    std::uint32_t value = 0;
    constexpr bool en() const { return value & kRctlEn; }
    constexpr unsigned rdmts() const { return field(value, 8, 2); }
    constexpr bool secrc() const { return value & kRctlSecrc; }
};

// TIPG (13.4.34): IPGT 9:0, IPGR1 19:10, IPGR2 29:20; only IPGT applies to full-duplex transmit.
struct Tipg {
    std::uint32_t value = 0;
    constexpr unsigned ipgt() const { return field(value, 0, 10); }
};

// PBA (13.4.26): RXA 15:0, the receive share of the packet buffer in KB; transmit gets the rest.
struct Pba {
    std::uint32_t value = 0;
    constexpr unsigned rx_kb() const { return field(value, 0, 16); }
};

// TXDMAC (13.4, transmit DMA control): DPP bit 0, 1 (the reset value) disables packet prefetch.
struct Txdmac {
    std::uint32_t value = kTxdmacDpp;
    constexpr bool dpp() const { return value & kTxdmacDpp; }
};

// TDBAL (13.4.36): base address 31:4, bits 3:0 read as 0.  TDLEN (13.4.38): LEN 19:7, a multiple
// of 128 bytes, bits 6:0 read as 0.
struct Tdbal {
    std::uint32_t value = 0;
    constexpr std::uint32_t address_low() const { return value & ~0xFu; }
};
struct Tdlen {
    std::uint32_t value = 0;
    constexpr std::uint32_t length_bytes() const { return value & 0xFFF80u; }
};

// TXDCTL (13.4.42, Table 13-86): PTHRESH 5:0, HTHRESH 13:8, WTHRESH 21:16, GRAN bit 24 (1: the
// thresholds count descriptors, 0: cache lines).
struct Txdctl {
    std::uint32_t value = 0;
    constexpr unsigned pthresh() const { return field(value, 0, 6); }
    constexpr unsigned hthresh() const { return field(value, 8, 6); }
    constexpr unsigned wthresh() const { return field(value, 16, 6); }
    constexpr bool gran_descriptors() const { return field(value, 24, 1); }
};
constexpr std::uint32_t kTxdctlWthreshMask = 0x3Fu << 16;
constexpr std::uint32_t kTxdctlFullDescWriteBack = 1u << 24 | 1u << 16;  // GRAN 1, WTHRESH 1

// RXDCTL (13.4.30) has TXDCTL's layout (PTHRESH 5:0, HTHRESH 13:8, WTHRESH 21:16, GRAN bit 24)
// and is held as a Txdctl.  Reset value 0x00010000: WTHRESH 1, a descriptor is written back as
// soon as it is done.
constexpr std::uint32_t kRxdctlReset = 1u << 16;

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

// Extended transmit descriptors (SDM 3.3.5-3.3.7) share the legacy layout's 16 bytes: DEXT
// (bit 5 of byte 11) set, and DTYP in bits 7:4 of byte 10 (TxDescriptor::cso).
//   TCP/IP context (DTYP 0000b, 3.3.6): 0: IPCSS (8), IPCSO (8), IPCSE (16)
//     4: TUCSS (8), TUCSO (8), TUCSE (16)   8: PAYLEN (20), DTYP (4), TUCMD (8)
//    12: STA (4), RSV (4), HDRLEN (8), MSS (16)
//   TCP/IP data (DTYP 0001b, 3.3.7): 0: buffer address (64)   8: DTALEN (20), DTYP (4), DCMD (8)
//    12: STA (4), RSV (4), POPTS (8), special (16)
// DCMD keeps the legacy CMD bits (EOP, IFCS, RS, DEXT, VLE, IDE) with TSE in bit 2.
constexpr std::uint8_t kDtypContext = 0x0;
constexpr std::uint8_t kDtypData = 0x1;
constexpr std::uint8_t kCmdTse = 1u << 2;    // DCMD/TUCMD: TCP segmentation enable
constexpr std::uint8_t kTucmdTcp = 1u << 0;  // TUCMD: the layer-4 protocol is TCP (else UDP)
constexpr std::uint8_t kTucmdIp = 1u << 1;   // TUCMD: IPv4 (else IPv6)
constexpr std::uint8_t kPoptsIxsm = 1u << 0; // POPTS: insert the IP checksum
constexpr std::uint8_t kPoptsTxsm = 1u << 1; // POPTS: insert the TCP/UDP checksum
// TSPMT (13.4.45): TSMT 15:0, TCP segmentation minimum transfer; TSPBP 31:16, packet buffer
// padding per segment.
constexpr std::uint32_t kTspmt = 0x3830;

struct TxContextDescriptor {
    std::uint8_t ipcss, ipcso;
    std::uint16_t ipcse;
    std::uint8_t tucss, tucso;
    std::uint16_t tucse;
    std::uint32_t paylen_dtyp_tucmd;  // PAYLEN 19:0, DTYP 23:20, TUCMD 31:24
    std::uint8_t status;
    std::uint8_t hdrlen;
    std::uint16_t mss;
};
static_assert(sizeof(TxContextDescriptor) == kDescriptorBytes, "context descriptor is 16 bytes");

constexpr bool is_extended(const TxDescriptor& d) { return d.cmd & kCmdDext; }
constexpr unsigned descriptor_type(const TxDescriptor& d) { return d.cso >> 4; }
constexpr bool is_context(const TxDescriptor& d) {
    return is_extended(d) && descriptor_type(d) == kDtypContext;
}
// Bytes of packet data a descriptor points at: a legacy descriptor's length, an extended data
// descriptor's 20-bit DTALEN, none for a context descriptor.
constexpr std::uint32_t data_length(const TxDescriptor& d) {
    if (!is_extended(d)) return d.length;
    if (descriptor_type(d) == kDtypContext) return 0;
    return d.length | std::uint32_t(d.cso & 0xFu) << 16;
}

// Receive descriptor (16 bytes, SDM 3.2.3): software writes the buffer address, the NIC writes
// back length, status and errors.
//   0: buffer address (64)   8: length (16)   10: checksum (16)   12: status (8)
//  13: errors (8)           14: special (16)
constexpr std::uint8_t kRxStaDd = 1u << 0;   // descriptor done
constexpr std::uint8_t kRxStaEop = 1u << 1;  // end of packet

struct RxDescriptor {
    std::uint64_t buffer_addr;
    std::uint16_t length;
    std::uint16_t checksum;
    std::uint8_t status;
    std::uint8_t errors;
    std::uint16_t special;
};
static_assert(sizeof(RxDescriptor) == kDescriptorBytes, "receive descriptor is 16 bytes");

}  // namespace pcisim::e1000
