#include "guest_linux269.h"

#include <cstring>
#include <sstream>

namespace pcisim::test {

namespace {
// Register offsets (e1000_hw.h).
constexpr std::uint32_t CTRL = 0x0000, STATUS = 0x0008, EECD = 0x0010, CTRL_EXT = 0x0018,
                        MDIC = 0x0020, FCAL = 0x0028, FCAH = 0x002C, FCT = 0x0030, VET = 0x0038,
                        ICR = 0x00C0, ITR = 0x00C4, ICS = 0x00C8, IMS = 0x00D0, IMC = 0x00D8,
                        RCTL = 0x0100, FCTTV = 0x0170, TCTL = 0x0400, TIPG = 0x0410, AIT = 0x0458,
                        LEDCTL = 0x0E00, PBA = 0x1000, FCRTL = 0x2160, FCRTH = 0x2168,
                        RDBAL = 0x2800, RDBAH = 0x2804, RDLEN = 0x2808, RDH = 0x2810, RDT = 0x2818,
                        RDTR = 0x2820, RADV = 0x282C, TDBAL = 0x3800, TDBAH = 0x3804,
                        TDLEN = 0x3808, TDH = 0x3810, TDT = 0x3818, TIDV = 0x3820, TXDCTL = 0x3828,
                        TADV = 0x382C, RXCSUM = 0x5000, MTA = 0x5200, RA = 0x5400, VFTA = 0x5600,
                        WUC = 0x5800, MANC = 0x5820;
// Bits.
constexpr std::uint32_t CTRL_SLU = 0x40, CTRL_FRCSPD = 0x800, CTRL_FRCDPX = 0x1000,
                        CTRL_RST = 0x04000000, CTRL_RFCE = 0x08000000, CTRL_TFCE = 0x10000000,
                        CTRL_VME = 0x40000000, CTRL_EXT_EE_RST = 0x2000;
constexpr std::uint32_t STATUS_FD = 0x1, STATUS_LU = 0x2, STATUS_FUNC_1 = 0x4,
                        STATUS_TBIMODE = 0x20, STATUS_SPEED_100 = 0x40, STATUS_SPEED_1000 = 0x80,
                        STATUS_PCI66 = 0x800, STATUS_BUS64 = 0x1000, STATUS_PCIX_MODE = 0x2000,
                        STATUS_PCIX_SPEED = 0xC000;
constexpr std::uint32_t EECD_SK = 0x1, EECD_CS = 0x2, EECD_DI = 0x4, EECD_DO = 0x8,
                        EECD_REQ = 0x40, EECD_GNT = 0x80, EECD_SIZE = 0x200;
constexpr std::uint32_t MDIC_OP_WRITE = 0x04000000, MDIC_OP_READ = 0x08000000,
                        MDIC_READY = 0x10000000, MDIC_ERROR = 0x40000000;
constexpr std::uint32_t RCTL_EN = 0x2, RCTL_UPE = 0x8, RCTL_MPE = 0x10, RCTL_BAM = 0x8000,
                        RCTL_VFE = 0x40000, RCTL_SZ_4096 = 0x30000, RCTL_BSEX = 0x2000000,
                        RCTL_LPE = 0x20, RCTL_SBP = 0x4;
constexpr std::uint32_t TCTL_EN = 0x2, TCTL_PSP = 0x8, TCTL_CT = 0xFF0, TCTL_COLD = 0x3FF000;
constexpr std::uint32_t MANC_ARP_EN = 0x2000, RXCSUM_TUOFL = 0x200;
constexpr std::uint32_t IMS_ENABLE_MASK = 0x80 | 0x1 | 0x10 | 0x8 | 0x4;  // RXT0 TXDW RXDMT0 RXSEQ LSC
// PHY registers and bits.
constexpr unsigned PHY_CTRL = 0, PHY_STATUS = 1, PHY_ID1 = 2, PHY_ID2 = 3, PHY_AUTONEG_ADV = 4,
                   PHY_LP_ABILITY = 5, PHY_1000T_CTRL = 9, PHY_1000T_STATUS = 10,
                   M88_PHY_SPEC_CTRL = 0x10, M88_PHY_SPEC_STATUS = 0x11,
                   M88_EXT_PHY_SPEC_CTRL = 0x14, M88_RX_ERR_CNTR = 0x15;
constexpr std::uint16_t MII_CR_RESET = 0x8000, MII_CR_AUTO_NEG_EN = 0x1000,
                        MII_CR_POWER_DOWN = 0x0800, MII_CR_RESTART_AUTO_NEG = 0x0200,
                        MII_SR_LINK_STATUS = 0x4, MII_SR_AUTONEG_COMPLETE = 0x20,
                        NWAY_AR_PAUSE = 0x400, NWAY_AR_ASM_DIR = 0x800, NWAY_LPAR_PAUSE = 0x400,
                        REG4_SPEED_MASK = 0x01E0, REG9_SPEED_MASK = 0x0300,
                        CR_1000T_FD_CAPS = 0x200, M88_PSCR_ASSERT_CRS_ON_TX = 0x800,
                        M88_PSCR_AUTO_X_MODE = 0x60, M88_PSCR_POLARITY_REVERSAL = 0x2,
                        M88_EPSCR_TX_CLK_25 = 0x70, M88_EPSCR_DOWNSHIFT_MASK = 0x0F00,
                        M88_EPSCR_DOWNSHIFT_1X = 0x0100;
constexpr std::uint32_t M88E1000_I_PHY_ID = 0x01410C30, M88E1011_I_PHY_ID = 0x01410C20;
// EEPROM words.
constexpr unsigned EEPROM_ID_LED_SETTINGS = 4, EEPROM_INIT_CONTROL2_REG = 0x0F,
                   EEPROM_INIT_CONTROL3_PORT_B = 0x14, EEPROM_INIT_CONTROL3_PORT_A = 0x24,
                   EEPROM_PBA_BYTE_1 = 8, EEPROM_CHECKSUM_REG = 0x3F;
constexpr std::uint16_t EEPROM_SUM = 0xBABA, EEPROM_READ_OPCODE_MICROWIRE = 0x6;
constexpr unsigned E1000_RAR_ENTRIES = 15, E1000_MC_TBL_SIZE = 128, E1000_VLAN_FILTER_TBL_SIZE = 128;

std::string hex(std::uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}
}  // namespace

std::uint32_t Linux269E1000::transport(tlm::tlm_command cmd, std::uint64_t addr,
                                       std::uint32_t value, unsigned bytes) {
    tlm::tlm_generic_payload t;
    unsigned char data[4];
    std::memcpy(data, &value, 4);
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(data);
    t.set_data_length(bytes);
    t.set_streaming_width(bytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*bus_.socket)->b_transport(t, delay);
    sc_core::wait(delay);
    if (t.is_response_error())
        problem("access at " + hex(addr) + " failed: " + t.get_response_string());
    std::uint32_t out = 0;
    std::memcpy(&out, data, bytes);
    return out;
}

std::uint32_t Linux269E1000::cfg_read(unsigned reg, unsigned bytes) {
    ++config_accesses;
    return transport(tlm::TLM_READ_COMMAND,
                     bus_.config_base + (bus_.device << 15 | bus_.function << 12 | reg), 0, bytes);
}

void Linux269E1000::cfg_write(unsigned reg, unsigned bytes, std::uint32_t value) {
    ++config_accesses;
    transport(tlm::TLM_WRITE_COMMAND,
              bus_.config_base + (bus_.device << 15 | bus_.function << 12 | reg), value, bytes);
}

std::uint32_t Linux269E1000::rd(std::uint32_t reg) {
    ++register_accesses;
    return transport(tlm::TLM_READ_COMMAND, bus_.register_bar + reg, 0, 4);
}

void Linux269E1000::wr(std::uint32_t reg, std::uint32_t value) {
    ++register_accesses;
    transport(tlm::TLM_WRITE_COMMAND, bus_.register_bar + reg, value, 4);
}

void Linux269E1000::io_write(std::uint32_t port, std::uint32_t value) {
    ++io_accesses;
    transport(tlm::TLM_WRITE_COMMAND, bus_.io_window + port, value, 4);
}

// e1000_write_reg_io (e1000_hw.c): IOADDR selects the register, IODATA writes it.
void Linux269E1000::write_reg_io(std::uint32_t reg, std::uint32_t value) {
    io_write(bus_.io_bar, reg);
    io_write(bus_.io_bar + 4, value);
}

// pci_setup_device and pci_read_bases (probe.c): IDs, class, header type, each BAR sized by
// writing all ones and restoring it, the ROM BAR likewise, then pci_read_irq's pin.  The BIOS
// (here) has assigned the register and I/O BARs.
void Linux269E1000::pci_scan_and_assign() {
    const std::uint32_t id = cfg_read(0x00, 4);
    vendor_id = static_cast<std::uint16_t>(id), device_id = static_cast<std::uint16_t>(id >> 16);
    if (vendor_id == 0xFFFF) return problem("no device in the slot (vendor ID FFFFh)");
    const std::uint32_t class_rev = cfg_read(0x08, 4);
    class_code = class_rev >> 8;
    revision_id = static_cast<std::uint8_t>(class_rev);
    header_type = static_cast<std::uint8_t>(cfg_read(0x0E, 1));
    if ((header_type & 0x7F) != 0) problem("header type " + hex(header_type) + " is not a normal device's");
    for (unsigned b = 0; b < 6; ++b) {
        const unsigned reg = 0x10 + 4 * b;
        const std::uint32_t l = cfg_read(reg, 4);
        cfg_write(reg, 4, 0xFFFFFFFF);
        const std::uint32_t sz = cfg_read(reg, 4);
        cfg_write(reg, 4, l);
        if (!sz || sz == 0xFFFFFFFF) continue;
        bar_io[b] = sz & 1;
        const std::uint32_t mask = sz & (bar_io[b] ? ~0x3u : ~0xFu);
        bar_size[b] = (~std::uint64_t(mask) + 1) & 0xFFFFFFFFull;
        if (!bar_io[b] && (sz & 0x6) == 0x4) {  // 64-bit memory BAR: its upper half is BAR b+1
            bar_64[b] = true;
            const std::uint32_t hi = cfg_read(reg + 4, 4);
            cfg_write(reg + 4, 4, 0xFFFFFFFF);
            if (cfg_read(reg + 4, 4) != 0xFFFFFFFF) problem("64-bit BAR's upper half is not all writable");
            cfg_write(reg + 4, 4, hi);
            ++b;
        }
    }
    const std::uint32_t rom = cfg_read(0x30, 4);
    cfg_write(0x30, 4, 0xFFFFFFFE);  // ~PCI_ROM_ADDRESS_ENABLE
    const std::uint32_t rom_sz = cfg_read(0x30, 4) & ~0x7FFu;
    cfg_write(0x30, 4, rom);
    rom_size = rom_sz ? (~std::uint64_t(rom_sz) + 1) & 0xFFFFFFFFull : 0;
    const std::uint32_t sub = cfg_read(0x2C, 4);
    subsystem_vendor_id = static_cast<std::uint16_t>(sub), subsystem_id = static_cast<std::uint16_t>(sub >> 16);
    interrupt_pin = static_cast<std::uint8_t>(cfg_read(0x3D, 1));
    // The BIOS: the register BAR (BAR0) and the first I/O BAR, and the interrupt line.
    cfg_write(0x10, 4, static_cast<std::uint32_t>(bus_.register_bar));
    for (unsigned b = 1; b < 6; ++b)
        if (bar_io[b]) {
            cfg_write(0x10 + 4 * b, 4, bus_.io_bar);
            break;
        }
    cfg_write(0x3C, 1, 11);
}

// e1000_probe (e1000_main.c)
void Linux269E1000::e1000_probe() {
    // pci_enable_device -> pcibios_enable_resources: I/O and memory decoding for the BARs.
    std::uint16_t cmd = static_cast<std::uint16_t>(cfg_read(0x04, 2));
    const std::uint16_t old_cmd = cmd;
    for (unsigned b = 0; b < 6; ++b)
        if (bar_size[b]) cmd |= bar_io[b] ? 0x1 : 0x2;
    if (cmd != old_cmd) cfg_write(0x04, 2, cmd);
    // pci_set_master and pcibios_set_master (latency timer below 16 set to 64).
    cmd = static_cast<std::uint16_t>(cfg_read(0x04, 2));
    if (!(cmd & 0x4)) cfg_write(0x04, 2, cmd | 0x4);
    const std::uint8_t lat = static_cast<std::uint8_t>(cfg_read(0x0D, 1));
    if (lat < 16) cfg_write(0x0D, 1, 64);
    // The I/O BAR: the first of BAR1-5 with IORESOURCE_IO.
    bool have_io = false;
    for (unsigned b = 1; b < 6; ++b) have_io = have_io || bar_io[b];
    if (!have_io) problem("no I/O BAR: e1000_reset_hw could not reset the MAC");
    // e1000_sw_init
    revision_id = static_cast<std::uint8_t>(cfg_read(0x08, 1));
    cfg_read(0x04, 2);  // hw->pci_cmd_word
    set_mac_type();
    if (mac_type == MacType::unknown) return problem("Unknown MAC Type " + hex(device_id));
    init_eeprom_params();
    set_media_type();
    // e1000_enable_mng_pass_thru reads MANC only with ASF firmware (the 82541/82547).
    reset_hw();
    validate_eeprom_checksum();
    read_mac_addr();
    const bool multicast = mac_addr[0] & 1;
    bool zero = true;
    for (auto b : mac_addr) zero = zero && b == 0;
    if (multicast || zero) problem("Invalid MAC Address");
    read_part_num();
    get_bus_info();
    // Wake on LAN from the EEPROM's APM enable (probe's switch on mac_type).
    std::uint16_t eeprom_data = 0;
    if (mac_type == MacType::e82546 && (rd(STATUS) & STATUS_FUNC_1))
        eeprom_data = read_eeprom(EEPROM_INIT_CONTROL3_PORT_B);
    else
        eeprom_data = read_eeprom(EEPROM_INIT_CONTROL3_PORT_A);
    (void)eeprom_data;
    e1000_reset();
}

// e1000_set_mac_type: the parts and device IDs of 2.6.9 that pcisim models.
void Linux269E1000::set_mac_type() {
    switch (device_id) {
    case 0x1008: case 0x1009: case 0x100C: case 0x100D: mac_type = MacType::e82544; break;
    case 0x100E: case 0x1015: case 0x1016: case 0x1017: case 0x101E: mac_type = MacType::e82540; break;
    case 0x1010: case 0x1012: case 0x101D: mac_type = MacType::e82546; break;
    case 0x1013: case 0x1018: mac_type = MacType::e82541; break;
    default: mac_type = MacType::unknown;
    }
}

// e1000_init_eeprom_params: Microwire on these parts; the 82544 has 64 words, the 82540 and 82546
// say in EECD.EE_SIZE.
void Linux269E1000::init_eeprom_params() {
    const std::uint32_t eecd = rd(EECD);
    eeprom_delay_us_ = 50;
    if (mac_type == MacType::e82544 || !(eecd & EECD_SIZE)) eeprom_words = 64, eeprom_address_bits_ = 6;
    else eeprom_words = 256, eeprom_address_bits_ = 8;
}

void Linux269E1000::set_media_type() {
    if (rd(STATUS) & STATUS_TBIMODE) problem("STATUS.TBIMODE: a fiber part, not the copper one");
}

// e1000_reset_hw
void Linux269E1000::reset_hw() {
    wr(IMC, 0xFFFFFFFF);
    wr(RCTL, 0);
    wr(TCTL, TCTL_PSP);
    flush();
    msec_delay(10);
    const std::uint32_t ctrl = rd(CTRL);
    // These controllers cannot ack the 64-bit write of the reset: it goes through I/O.
    write_reg_io(CTRL, ctrl | CTRL_RST);
    if (mac_type == MacType::e82544) {
        udelay(10);
        const std::uint32_t ctrl_ext = rd(CTRL_EXT) | CTRL_EXT_EE_RST;
        wr(CTRL_EXT, ctrl_ext);
        flush();
        msec_delay(2);
    } else {
        msec_delay(5);  // the EEPROM reloads by itself
    }
    if (mac_type != MacType::e82544) {  // mac_type >= e1000_82540: no hardware ARP
        const std::uint32_t manc = rd(MANC);
        wr(MANC, manc & ~MANC_ARP_EN);
    }
    wr(IMC, 0xFFFFFFFF);
    icr_after_reset = rd(ICR);
}

// e1000_acquire_eeprom, e1000_standby_eeprom, e1000_release_eeprom, the clock and shift helpers
// (Microwire).
void Linux269E1000::acquire_eeprom() {
    std::uint32_t eecd = rd(EECD);
    if (after_82544()) {
        eecd |= EECD_REQ;
        wr(EECD, eecd);
        eecd = rd(EECD);
        unsigned i = 0;
        while (!(eecd & EECD_GNT) && i < 1000) {
            ++i;
            udelay(5);
            eecd = rd(EECD);
        }
        if (!(eecd & EECD_GNT)) {
            wr(EECD, eecd & ~EECD_REQ);
            return problem("EEPROM grant never came (EECD.EE_GNT)");
        }
    }
    eecd &= ~(EECD_DI | EECD_SK);
    wr(EECD, eecd);
    eecd |= EECD_CS;
    wr(EECD, eecd);
}

void Linux269E1000::raise_ee_clk(std::uint32_t& eecd) {
    eecd |= EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
}

void Linux269E1000::lower_ee_clk(std::uint32_t& eecd) {
    eecd &= ~EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
}

void Linux269E1000::shift_out_ee_bits(std::uint16_t data, unsigned count) {
    std::uint32_t mask = 1u << (count - 1);
    std::uint32_t eecd = rd(EECD) & ~EECD_DO;
    do {
        eecd &= ~EECD_DI;
        if (data & mask) eecd |= EECD_DI;
        wr(EECD, eecd);
        flush();
        udelay(eeprom_delay_us_);
        raise_ee_clk(eecd);
        lower_ee_clk(eecd);
        mask >>= 1;
    } while (mask);
    eecd &= ~EECD_DI;
    wr(EECD, eecd);
}

std::uint16_t Linux269E1000::shift_in_ee_bits(unsigned count) {
    std::uint32_t eecd = rd(EECD) & ~(EECD_DO | EECD_DI);
    std::uint16_t data = 0;
    for (unsigned i = 0; i < count; ++i) {
        data = static_cast<std::uint16_t>(data << 1);
        raise_ee_clk(eecd);
        eecd = rd(EECD) & ~EECD_DI;
        if (eecd & EECD_DO) data |= 1;
        lower_ee_clk(eecd);
    }
    return data;
}

void Linux269E1000::standby_eeprom() {
    std::uint32_t eecd = rd(EECD);
    eecd &= ~(EECD_CS | EECD_SK);
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
    eecd |= EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
    eecd |= EECD_CS;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
    eecd &= ~EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
}

void Linux269E1000::release_eeprom() {
    std::uint32_t eecd = rd(EECD);
    eecd &= ~(EECD_CS | EECD_DI);
    wr(EECD, eecd);
    eecd |= EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
    eecd &= ~EECD_SK;
    wr(EECD, eecd);
    flush();
    udelay(eeprom_delay_us_);
    if (after_82544()) wr(EECD, eecd & ~EECD_REQ);
}

// e1000_read_eeprom of one word (Microwire): READ opcode, address, 16 bits in, standby.
std::uint16_t Linux269E1000::read_eeprom(unsigned offset) {
    if (offset >= eeprom_words) {
        problem("EEPROM word " + std::to_string(offset) + " past its " + std::to_string(eeprom_words));
        return 0;
    }
    acquire_eeprom();
    shift_out_ee_bits(EEPROM_READ_OPCODE_MICROWIRE, 3);
    shift_out_ee_bits(static_cast<std::uint16_t>(offset), eeprom_address_bits_);
    const std::uint16_t data = shift_in_ee_bits(16);
    standby_eeprom();
    release_eeprom();
    return data;
}

void Linux269E1000::validate_eeprom_checksum() {
    std::uint16_t checksum = 0;
    for (unsigned i = 0; i <= EEPROM_CHECKSUM_REG; ++i)
        checksum = static_cast<std::uint16_t>(checksum + read_eeprom(i));
    eeprom_checksum = checksum;
    if (checksum != EEPROM_SUM) problem("The EEPROM Checksum Is Not Valid (" + hex(checksum) + ")");
}

// e1000_read_mac_addr: words 0-2, and the 82546's second function flips the last bit.
void Linux269E1000::read_mac_addr() {
    for (unsigned i = 0; i < 6; i += 2) {
        const std::uint16_t w = read_eeprom(i >> 1);
        mac_addr[i] = static_cast<std::uint8_t>(w), mac_addr[i + 1] = static_cast<std::uint8_t>(w >> 8);
    }
    if (mac_type == MacType::e82546 && (rd(STATUS) & STATUS_FUNC_1)) mac_addr[5] ^= 1;
}

void Linux269E1000::read_part_num() {
    part_num = std::uint32_t(read_eeprom(EEPROM_PBA_BYTE_1)) << 16;
    part_num |= read_eeprom(EEPROM_PBA_BYTE_1 + 1);
}

void Linux269E1000::get_bus_info() {
    const std::uint32_t status = rd(STATUS);
    pcix = status & STATUS_PCIX_MODE;
    if (!pcix) bus_speed = (status & STATUS_PCI66) ? 66 : 33;
    else {
        const std::uint32_t s = status & STATUS_PCIX_SPEED;
        bus_speed = s == 0 ? 66 : s == 0x4000 ? 100 : s == 0x8000 ? 133 : 0;
        if (!bus_speed) problem("PCI-X speed reserved in STATUS");
    }
    bus_width = (status & STATUS_BUS64) ? 64 : 32;
}

// e1000_reset (e1000_main.c): PBA, the MAC reset again, init_hw, VLAN type, adaptive IFS,
// the PHY's information.
void Linux269E1000::e1000_reset() {
    wr(PBA, 0x0030);  // E1000_PBA_48K: the 2048-byte receive buffers
    original_fc_ = FlowControl::none;
    fc_ = FlowControl::fallback;  // hw->fc = hw->original_fc (e1000_fc_default on the first)
    reset_hw();
    wr(WUC, 0);  // mac_type >= e1000_82544: all three
    init_hw();
    wr(VET, 0x8100);
    wr(AIT, 0);  // e1000_reset_adaptive
    phy_get_info();
}

// e1000_init_hw
void Linux269E1000::init_hw() {
    id_led_init();
    set_media_type();
    wr(VET, 0);
    clear_vfta();
    init_rx_addrs();
    for (unsigned i = 0; i < E1000_MC_TBL_SIZE; ++i) wr(MTA + 4 * i, 0);
    // The PCI-X MMRBC workaround (all but the 82545/82546 rev 3).
    if (pcix) {
        const std::uint16_t cmd_word = static_cast<std::uint16_t>(cfg_read(0xE6, 2));
        const std::uint16_t stat_hi = static_cast<std::uint16_t>(cfg_read(0xEA, 2));
        unsigned cmd_mmrbc = (cmd_word & 0x000C) >> 2, stat_mmrbc = (stat_hi & 0x0060) >> 5;
        if (stat_mmrbc == 3) stat_mmrbc = 2;
        if (cmd_mmrbc > stat_mmrbc)
            cfg_write(0xE6, 2, (cmd_word & ~0x000Cu) | stat_mmrbc << 2);
    }
    setup_link();
    if (after_82544()) {
        const std::uint32_t txdctl = rd(TXDCTL);
        wr(TXDCTL, (txdctl & ~0x003F0000u) | 0x01010000);  // E1000_TXDCTL_FULL_TX_DESC_WB
    }
    clear_hw_cntrs();
}

// e1000_id_led_init: nothing before the 82540 (the enum puts the 82544 before it).
void Linux269E1000::id_led_init() {
    if (mac_type == MacType::e82544) return;
    rd(LEDCTL);
    read_eeprom(EEPROM_ID_LED_SETTINGS);
}

void Linux269E1000::clear_vfta() {
    for (unsigned i = 0; i < E1000_VLAN_FILTER_TBL_SIZE; ++i) wr(VFTA + 4 * i, 0);
}

void Linux269E1000::rar_set(const std::array<std::uint8_t, 6>& a, unsigned index) {
    wr(RA + 8 * index, std::uint32_t(a[0]) | std::uint32_t(a[1]) << 8 | std::uint32_t(a[2]) << 16 |
                           std::uint32_t(a[3]) << 24);
    wr(RA + 8 * index + 4, std::uint32_t(a[4]) | std::uint32_t(a[5]) << 8 | 0x80000000u);
}

void Linux269E1000::init_rx_addrs() {
    rar_set(mac_addr, 0);
    for (unsigned i = 1; i < E1000_RAR_ENTRIES; ++i) {
        wr(RA + 8 * i, 0);
        wr(RA + 8 * i + 4, 0);
    }
}

// e1000_setup_link: flow control from EEPROM word 0Fh, the copper link, the flow control
// registers.
void Linux269E1000::setup_link() {
    const std::uint16_t eeprom_data = read_eeprom(EEPROM_INIT_CONTROL2_REG);
    if (fc_ == FlowControl::fallback) {
        const unsigned pause = eeprom_data & 0x3000;
        fc_ = pause == 0 ? FlowControl::none : pause == 0x2000 ? FlowControl::tx_pause : FlowControl::full;
    }
    original_fc_ = fc_;
    setup_copper_link();
    wr(FCAL, 0x00C28001);
    wr(FCAH, 0x00000100);
    wr(FCT, 0x8808);
    wr(FCTTV, 0x0680);  // E1000_FC_PAUSE_TIME
    if (fc_ != FlowControl::tx_pause && fc_ != FlowControl::full) {
        wr(FCRTL, 0);
        wr(FCRTH, 0);
    } else {
        problem("flow control negotiated from an EEPROM with PAUSE bits");
    }
}

// e1000_setup_copper_link for the Marvell PHYs: MAC link up, the PHY found, its control
// registers set, a PHY reset, auto-negotiation advertised and restarted, then up to 100 us for
// the link.
void Linux269E1000::setup_copper_link() {
    std::uint32_t ctrl = rd(CTRL);
    ctrl |= CTRL_SLU;
    ctrl &= ~(CTRL_FRCSPD | CTRL_FRCDPX);
    wr(CTRL, ctrl);
    detect_gig_phy();
    std::uint16_t phy_data = read_phy_reg(M88_PHY_SPEC_CTRL);
    phy_data |= M88_PSCR_ASSERT_CRS_ON_TX;
    phy_data &= ~M88_PSCR_AUTO_X_MODE;
    phy_data |= M88_PSCR_AUTO_X_MODE;  // mdix 0: auto for all speeds
    phy_data &= ~M88_PSCR_POLARITY_REVERSAL;
    write_phy_reg(M88_PHY_SPEC_CTRL, phy_data);
    phy_data = read_phy_reg(M88_EXT_PHY_SPEC_CTRL);
    phy_data |= M88_EPSCR_TX_CLK_25;
    if (phy_revision < 4) {  // M88E1011_I_REV_4
        phy_data &= ~(M88_EPSCR_DOWNSHIFT_MASK);
        phy_data |= M88_EPSCR_DOWNSHIFT_1X;
        write_phy_reg(M88_EXT_PHY_SPEC_CTRL, phy_data);
    }
    phy_reset();
    phy_setup_autoneg();
    phy_data = read_phy_reg(PHY_CTRL);
    write_phy_reg(PHY_CTRL, phy_data | MII_CR_AUTO_NEG_EN | MII_CR_RESTART_AUTO_NEG);
    get_link_status_ = true;
    for (unsigned i = 0; i < 10; ++i) {
        read_phy_reg(PHY_STATUS);
        phy_data = read_phy_reg(PHY_STATUS);
        if (phy_data & MII_SR_LINK_STATUS) {
            config_collision_dist();  // mac_type >= e1000_82544
            config_fc_after_link_up();
            return;
        }
        udelay(10);
    }
    // "Unable to establish link": not an error for the driver; the watchdog finds it later.
}

void Linux269E1000::detect_gig_phy() {
    const std::uint16_t high = read_phy_reg(PHY_ID1);
    udelay(20);
    const std::uint16_t low = read_phy_reg(PHY_ID2);
    phy_id = std::uint32_t(high) << 16 | (low & 0xFFF0u);
    phy_revision = low & 0xF;
    const std::uint32_t expected = mac_type == MacType::e82544 ? M88E1000_I_PHY_ID : M88E1011_I_PHY_ID;
    if (phy_id != expected) problem("Invalid PHY ID " + hex(phy_id) + ", expected " + hex(expected));
}

void Linux269E1000::phy_reset() {
    const std::uint16_t phy_data = read_phy_reg(PHY_CTRL);
    write_phy_reg(PHY_CTRL, phy_data | MII_CR_RESET);
    udelay(1);
}

// e1000_phy_setup_autoneg with autoneg_advertised 2Fh (all but 1000 half) and no flow control.
void Linux269E1000::phy_setup_autoneg() {
    std::uint16_t adv = read_phy_reg(PHY_AUTONEG_ADV);
    std::uint16_t gig = read_phy_reg(PHY_1000T_CTRL);
    adv &= ~REG4_SPEED_MASK;
    gig &= ~REG9_SPEED_MASK;
    adv |= 0x0020 | 0x0040 | 0x0080 | 0x0100;  // 10 half, 10 full, 100 half, 100 full
    gig |= CR_1000T_FD_CAPS;
    adv &= ~(NWAY_AR_ASM_DIR | NWAY_AR_PAUSE);  // e1000_fc_none
    write_phy_reg(PHY_AUTONEG_ADV, adv);
    write_phy_reg(PHY_1000T_CTRL, gig);
}

void Linux269E1000::config_collision_dist() {
    std::uint32_t tctl = rd(TCTL);
    tctl &= ~TCTL_COLD;
    tctl |= 64u << 12;  // E1000_COLLISION_DISTANCE
    wr(TCTL, tctl);
    flush();
}

// e1000_config_fc_after_link_up for copper with auto-negotiation: the pause resolution from
// the two advertisements, then the MAC's flow control bits.
void Linux269E1000::config_fc_after_link_up() {
    read_phy_reg(PHY_STATUS);
    const std::uint16_t status = read_phy_reg(PHY_STATUS);
    if (!(status & MII_SR_AUTONEG_COMPLETE)) return;  // "Auto Neg has not completed"
    const std::uint16_t adv = read_phy_reg(PHY_AUTONEG_ADV);
    const std::uint16_t lp = read_phy_reg(PHY_LP_ABILITY);
    if ((adv & NWAY_AR_PAUSE) && (lp & NWAY_LPAR_PAUSE))
        fc_ = original_fc_ == FlowControl::full ? FlowControl::full : FlowControl::rx_pause;
    else
        fc_ = FlowControl::none;  // original_fc none
    unsigned speed = 0;
    bool full = false;
    get_speed_and_duplex(speed, full);
    if (!full) fc_ = FlowControl::none;
    force_mac_fc();
}

void Linux269E1000::get_speed_and_duplex(unsigned& speed, bool& full) {
    const std::uint32_t status = rd(STATUS);
    speed = (status & STATUS_SPEED_1000) ? 1000 : (status & STATUS_SPEED_100) ? 100 : 10;
    full = status & STATUS_FD;
}

void Linux269E1000::force_mac_fc() {
    std::uint32_t ctrl = rd(CTRL);
    if (fc_ == FlowControl::none) ctrl &= ~(CTRL_TFCE | CTRL_RFCE);
    else problem("flow control other than none negotiated");
    wr(CTRL, ctrl);
}

// e1000_clear_hw_cntrs: every statistics register read once (clear on read).
void Linux269E1000::clear_hw_cntrs() {
    for (std::uint32_t r = 0x4000; r <= 0x4058; r += 4)
        if (r != 0x4024 && r != 0x402C && r != 0x4044) rd(r);  // CRCERRS .. FCRUC
    for (std::uint32_t r = 0x405C; r <= 0x40F4; r += 4)
        if (r != 0x4084 && (r < 0x4098 || r > 0x409C) && (r < 0x40B4 || r > 0x40BC)) rd(r);  // PRC64 .. BPTC
    for (std::uint32_t r : {0x4004u, 0x400Cu, 0x4034u, 0x403Cu, 0x40F8u, 0x40FCu}) rd(r);  // 82543+
    if (after_82544())
        for (std::uint32_t r : {0x40B4u, 0x40B8u, 0x40BCu}) rd(r);  // MGTPRC MGTPDC MGTPTC
}

// e1000_phy_get_info -> e1000_phy_m88_get_info
void Linux269E1000::phy_get_info() {
    read_phy_reg(PHY_STATUS);
    if (!(read_phy_reg(PHY_STATUS) & MII_SR_LINK_STATUS)) return;  // "only valid if link is up"
    read_phy_reg(M88_PHY_SPEC_CTRL);
    read_phy_reg(M88_PHY_SPEC_STATUS);  // e1000_check_polarity
    const std::uint16_t pssr = read_phy_reg(M88_PHY_SPEC_STATUS);
    if (pssr & 0x8000) read_phy_reg(PHY_1000T_STATUS);  // M88E1000_PSSR_1000MBS
}

std::uint16_t Linux269E1000::read_phy_reg(unsigned reg) {
    wr(MDIC, reg << 16 | 1u << 21 | MDIC_OP_READ);
    std::uint32_t mdic = 0;
    for (unsigned i = 0; i < 64; ++i) {
        udelay(50);
        mdic = rd(MDIC);
        if (mdic & MDIC_READY) break;
    }
    if (!(mdic & MDIC_READY)) problem("MDI Read did not complete (PHY register " + std::to_string(reg) + ")");
    if (mdic & MDIC_ERROR) problem("MDI Error (PHY register " + std::to_string(reg) + ")");
    return static_cast<std::uint16_t>(mdic);
}

void Linux269E1000::write_phy_reg(unsigned reg, std::uint16_t data) {
    wr(MDIC, data | reg << 16 | 1u << 21 | MDIC_OP_WRITE);
    std::uint32_t mdic = 0;
    for (unsigned i = 0; i < 640; ++i) {
        udelay(5);
        mdic = rd(MDIC);
        if (mdic & MDIC_READY) break;
    }
    if (!(mdic & MDIC_READY)) problem("MDI Write did not complete (PHY register " + std::to_string(reg) + ")");
}

// e1000_open -> e1000_up
void Linux269E1000::e1000_open(std::uint64_t tx_ring, std::uint64_t rx_ring, unsigned count,
                               const std::vector<std::uint64_t>& rx_buffers) {
    // The PHY is reset if it was powered down.
    if (read_phy_reg(PHY_CTRL) & MII_CR_POWER_DOWN) phy_reset();
    set_multi();
    vlan_rx_register();  // e1000_restore_vlan with no VLAN group
    configure_tx(tx_ring, count);
    setup_rctl();
    configure_rx(rx_ring, count);
    // e1000_alloc_rx_buffers: the descriptors hold the buffers; RDT every 16 of them.
    (void)rx_buffers;
    for (unsigned i = 0; i < count; ++i)
        if ((i & ~15u) == i) wr(RDT, i);
    // request_irq, mod_timer(watchdog, jiffies), e1000_irq_enable.
    wr(IMS, IMS_ENABLE_MASK);
    flush();
}

void Linux269E1000::set_multi() {
    std::uint32_t rctl = rd(RCTL);
    rctl &= ~(RCTL_UPE | RCTL_MPE);
    wr(RCTL, rctl);
    for (unsigned i = 1; i < E1000_RAR_ENTRIES; ++i) {
        wr(RA + 8 * i, 0);
        wr(RA + 8 * i + 4, 0);
    }
    for (unsigned i = 0; i < E1000_MC_TBL_SIZE; ++i) wr(MTA + 4 * i, 0);
}

// e1000_vlan_rx_register(netdev, NULL): interrupts off, VLAN stripping and filtering off; the
// matching e1000_irq_enable leaves IMS alone (irq_sem is still held).
void Linux269E1000::vlan_rx_register() {
    wr(IMC, 0xFFFFFFFF);
    flush();
    wr(CTRL, rd(CTRL) & ~CTRL_VME);
    wr(RCTL, rd(RCTL) & ~RCTL_VFE);
}

void Linux269E1000::configure_tx(std::uint64_t ring, unsigned count) {
    wr(TDBAL, static_cast<std::uint32_t>(ring));
    wr(TDBAH, static_cast<std::uint32_t>(ring >> 32));
    wr(TDLEN, count * 16);
    wr(TDH, 0);
    wr(TDT, 0);
    wr(TIPG, 8 | 8u << 10 | 6u << 20);  // DEFAULT_82543_TIPG_IPGT_COPPER, IPGR1, IPGR2
    wr(TIDV, 64);                       // DEFAULT_TIDV
    if (mac_type != MacType::e82544) wr(TADV, 64);  // mac_type >= e1000_82540
    std::uint32_t tctl = rd(TCTL);
    tctl &= ~TCTL_CT;
    tctl |= TCTL_EN | TCTL_PSP | 0x0Fu << 4;  // E1000_COLLISION_THRESHOLD
    wr(TCTL, tctl);
    config_collision_dist();
}

void Linux269E1000::setup_rctl() {
    std::uint32_t rctl = rd(RCTL);
    rctl &= ~(3u << 12);
    rctl |= RCTL_EN | RCTL_BAM | 0 /* LBM_NO */ | 0 /* RDMTS_HALF */ | 0 << 12 /* mc_filter_type */;
    rctl &= ~RCTL_SBP;
    rctl &= ~RCTL_SZ_4096;
    rctl |= RCTL_BSEX | RCTL_LPE;
    rctl &= ~(RCTL_BSEX | RCTL_LPE);  // 2048-byte buffers
    wr(RCTL, rctl);
}

void Linux269E1000::configure_rx(std::uint64_t ring, unsigned count) {
    const std::uint32_t rctl = rd(RCTL);
    wr(RCTL, rctl & ~RCTL_EN);
    wr(RDTR, 0);  // DEFAULT_RDTR
    if (mac_type != MacType::e82544) {  // mac_type >= e1000_82540
        wr(RADV, 128);                       // DEFAULT_RADV
        wr(ITR, 1000000000 / (8000 * 256));  // DEFAULT_ITR 8000
    }
    wr(RDBAL, static_cast<std::uint32_t>(ring));
    wr(RDBAH, static_cast<std::uint32_t>(ring >> 32));
    wr(RDLEN, count * 16);
    wr(RDH, 0);
    wr(RDT, 0);
    wr(RXCSUM, rd(RXCSUM) | RXCSUM_TUOFL);  // XsumRX default on
    wr(RCTL, rctl);
}

// e1000_watchdog: the link, its speed, the statistics, a software interrupt for the receive
// ring.
void Linux269E1000::e1000_watchdog() {
    check_for_link();
    const bool link = rd(STATUS) & STATUS_LU;
    link_up = link;
    if (link) get_speed_and_duplex(link_speed, full_duplex);
    update_stats();
    wr(ICS, 0x10);  // E1000_ICS_RXDMT0
}

void Linux269E1000::check_for_link() {
    rd(CTRL);
    rd(STATUS);
    if (!get_link_status_) return;
    read_phy_reg(PHY_STATUS);
    if (!(read_phy_reg(PHY_STATUS) & MII_SR_LINK_STATUS)) return;  // no link detected
    get_link_status_ = false;
    read_phy_reg(M88_PHY_SPEC_STATUS);  // e1000_check_downshift
    config_collision_dist();
    config_fc_after_link_up();
}

// e1000_update_stats: the statistics registers in the driver's order, and the PHY's error
// counters on copper parts up to the 82546.
void Linux269E1000::update_stats() {
    for (std::uint32_t r : {0x4000u, 0x4074u, 0x4088u, 0x408Cu, 0x4078u, 0x407Cu, 0x40ACu,
                            0x405Cu, 0x4060u, 0x4064u, 0x4068u, 0x406Cu, 0x4070u, 0x4008u,
                            0x4010u, 0x4014u, 0x4018u, 0x401Cu, 0x4020u, 0x4030u, 0x4038u,
                            0x4040u, 0x4048u, 0x404Cu, 0x4050u, 0x4054u, 0x4058u, 0x4080u,
                            0x4090u, 0x4094u, 0x40A0u, 0x40A4u, 0x40A8u, 0x40B0u, 0x40C0u,
                            0x40C4u, 0x40C8u, 0x40CCu, 0x40D0u, 0x40D8u, 0x40DCu, 0x40E0u,
                            0x40E4u, 0x40E8u, 0x40ECu, 0x40F0u, 0x40F4u, 0x40D4u, 0x4028u,
                            0x4004u, 0x400Cu, 0x4034u, 0x403Cu, 0x40F8u, 0x40FCu})
        rd(r);
    if (link_speed == 1000) read_phy_reg(PHY_1000T_STATUS);  // idle errors
    read_phy_reg(M88_RX_ERR_CNTR);                          // receive errors
}

}  // namespace pcisim::test
