// Offsets and bits of the 8254x registers a guest driver uses to identify, reset and configure the
// part, beyond the transmit and receive paths of e1000_regs.h: device control and status, the
// EEPROM and PHY interfaces, the statistics, the receive address filters, and the registers whose
// mechanism the model does not have (flow control, wake-up, management, LEDs).  Offsets and bits:
// 8254x SDM section 13 (the register's subsection is named with each group); the names are the
// SDM's (and the Linux driver's, e1000_hw.h).
#pragma once

#include <cstdint>

namespace pcisim::e1000 {

// Device control (13.4.1), control duplicate (82546 rev 3; a reserved offset on the parts here),
// EEPROM/flash control (13.4.3), EEPROM read (13.4.4), extended control (13.4.6), MDI control
// (13.4.7).
constexpr std::uint32_t kEecd = 0x0010;
constexpr std::uint32_t kEerd = 0x0014;
constexpr std::uint32_t kCtrlExt = 0x0018;
constexpr std::uint32_t kMdic = 0x0020;

// CTRL bits (Table 13-3).
constexpr std::uint32_t kCtrlFd = 1u << 0;
constexpr std::uint32_t kCtrlSlu = 1u << 6;       // set link up
constexpr std::uint32_t kCtrlFrcspd = 1u << 11;
constexpr std::uint32_t kCtrlFrcdpx = 1u << 12;
constexpr std::uint32_t kCtrlRst = 1u << 26;      // device reset, self-clearing
constexpr std::uint32_t kCtrlVme = 1u << 30;      // VLAN mode (tag stripping/insertion)
constexpr std::uint32_t kCtrlPhyRst = 1u << 31;   // PHY reset, held while set
constexpr std::uint32_t kCtrlExtEeRst = 1u << 13; // reload from the EEPROM, self-clearing

// STATUS bits (Table 13-5) beyond e1000_regs.h's Status.
constexpr std::uint32_t kStatusFd = 1u << 0;
constexpr std::uint32_t kStatusLu = 1u << 1;
constexpr std::uint32_t kStatusPci66 = 1u << 11;
constexpr std::uint32_t kStatusBus64 = 1u << 12;
constexpr std::uint32_t kStatusPcixMode = 1u << 13;
constexpr unsigned kStatusSpeedShift = 6;       // 00 10 Mb/s, 01 100 Mb/s, 10 1000 Mb/s
constexpr unsigned kStatusPcixSpeedShift = 14;  // 00 66 MHz, 01 100 MHz, 10 133 MHz

// EECD bits (Table 13-6): the four wires of the EEPROM, flash write enable, the request/grant
// handshake (parts after the 82544), EEPROM present and its size or type.
constexpr std::uint32_t kEecdSk = 1u << 0;
constexpr std::uint32_t kEecdCs = 1u << 1;
constexpr std::uint32_t kEecdDi = 1u << 2;
constexpr std::uint32_t kEecdDo = 1u << 3;
constexpr std::uint32_t kEecdFweMask = 3u << 4;
constexpr std::uint32_t kEecdFweDisabled = 1u << 4;
constexpr std::uint32_t kEecdReq = 1u << 6;
constexpr std::uint32_t kEecdGnt = 1u << 7;
constexpr std::uint32_t kEecdPres = 1u << 8;

// MDIC fields (Table 13-8): DATA 15:0, REGADD 20:16, PHYADD 25:21, OP 27:26 (01 write, 10 read),
// R (ready) 28, I (interrupt at the end) 29, E (error) 30.
constexpr std::uint32_t kMdicOpWrite = 1u << 26;
constexpr std::uint32_t kMdicOpRead = 2u << 26;
constexpr std::uint32_t kMdicReady = 1u << 28;
constexpr std::uint32_t kMdicInterrupt = 1u << 29;
constexpr std::uint32_t kMdicError = 1u << 30;
constexpr std::uint32_t kIcrMdac = 1u << 9;  // MDI/O access complete

// I/O mapped access (SDM 13.2): the I/O BAR's IOADDR at 0 selects the register that IODATA at 4
// reads and writes.
constexpr std::uint32_t kIoAddr = 0x0;
constexpr std::uint32_t kIoData = 0x4;

// RCTL filter bits (Table 13-44).
constexpr std::uint32_t kRctlUpe = 1u << 3;   // unicast promiscuous
constexpr std::uint32_t kRctlMpe = 1u << 4;   // multicast promiscuous
constexpr unsigned kRctlMoShift = 12;         // multicast offset 13:12
constexpr std::uint32_t kRctlBam = 1u << 15;  // accept broadcast
constexpr std::uint32_t kRctlVfe = 1u << 18;  // VLAN filter enable

// Receive filters (13.5): multicast table array (128 dwords), receive addresses (16 pairs of
// RAL/RAH; RAH bit 31 address valid), VLAN filter table array (128 dwords), VLAN ether type.
constexpr std::uint32_t kMta = 0x5200;
constexpr unsigned kMtaEntries = 128;
constexpr std::uint32_t kRa = 0x5400;
constexpr unsigned kRaEntries = 16;
constexpr std::uint32_t kRahAv = 1u << 31;
constexpr std::uint32_t kVfta = 0x5600;
constexpr unsigned kVftaEntries = 128;
constexpr std::uint32_t kVet = 0x0038;

// Statistics (13.7): 64 dwords from CRCERRS; the 64-bit octet counters are low/high pairs.
constexpr std::uint32_t kStatisticsFirst = 0x4000;
constexpr std::uint32_t kStatisticsLast = 0x40FC;
constexpr std::uint32_t kCrcerrs = 0x4000, kAlgnerrc = 0x4004, kSymerrs = 0x4008,
                        kRxerrc = 0x400C, kScc = 0x4014, kEcol = 0x4018, kMcc = 0x401C,
                        kLatecol = 0x4020, kColc = 0x4028, kDc = 0x4030, kTncrs = 0x4034,
                        kSec = 0x4038, kCexterr = 0x403C, kRlec = 0x4040, kXonrxc = 0x4048,
                        kXontxc = 0x404C, kXoffrxc = 0x4050, kXofftxc = 0x4054, kFcruc = 0x4058,
                        kPrc64 = 0x405C, kBprc = 0x4078, kMprc = 0x407C, kGptc = 0x4080,
                        kGorcl = 0x4088, kGorch = 0x408C, kGotcl = 0x4090, kGotch = 0x4094,
                        kRuc = 0x40A4, kRfc = 0x40A8, kRoc = 0x40AC, kRjc = 0x40B0,
                        kMgtprc = 0x40B4, kMgtpdc = 0x40B8, kMgtptc = 0x40BC, kTorl = 0x40C0,
                        kTorh = 0x40C4, kTotl = 0x40C8, kToth = 0x40CC, kTpr = 0x40D0,
                        kTpt = 0x40D4, kPtc64 = 0x40D8, kMptc = 0x40F0, kBptc = 0x40F4,
                        kTsctc = 0x40F8, kTsctfc = 0x40FC;

}  // namespace pcisim::e1000
